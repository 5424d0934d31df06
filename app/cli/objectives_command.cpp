// `gsflow objectives list`: what each --guide objective scores, its range, what its argument
// means and the gamma measured for the bundled models (guidance/objective_catalog.hpp).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <stdexcept>

#include "gsflow/guidance/objective.hpp"
#include "gsflow/guidance/objective_catalog.hpp"
#include "gsflow/guidance/stgflow.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "model_commands.hpp"

namespace gsflow::app {

namespace {

struct ObjectivesCli {
  std::string alphabet;
  bool json = false;
};

// The catalog's entries for `alphabet` ("" = all), then any bundled classifier the catalog does
// not describe (one trained and bundled after the table was written).
std::vector<guidance::ObjectiveEntry> entries(const std::string& alphabet) {
  std::vector<guidance::ObjectiveEntry> out;
  for (const auto& e : guidance::objective_catalog())
    if (alphabet.empty() || e.alphabet == alphabet || e.alphabet == "any") out.push_back(e);
  for (const std::string a : {"dna", "protein"}) {
    if (!alphabet.empty() && a != alphabet) continue;
    for (const auto& name : guidance::objective_names(a))
      if (!guidance::find_objective_entry(name))
        out.push_back({name, a, name, "P(positive) of the bundled classifier " + name, "0..1", "",
                       std::nullopt, "not measured"});
  }
  return out;
}

void run_objectives_list(const ObjectivesCli& cli) {
  if (!cli.alphabet.empty() && cli.alphabet != "dna" && cli.alphabet != "protein")
    throw std::invalid_argument("--alphabet: '" + cli.alphabet + "' (expected dna or protein)");
  const auto list = entries(cli.alphabet);
  if (cli.json) {
    auto j = nlohmann::ordered_json::array();
    for (const auto& e : list)
      j.push_back({{"name", e.name},
                   {"alphabet", e.alphabet},
                   {"usage", e.usage},
                   {"scores", e.scores},
                   {"range", e.range},
                   {"argument", e.argument},
                   {"suggested_gamma", e.suggested_gamma ? nlohmann::ordered_json(*e.suggested_gamma)
                                                         : nlohmann::ordered_json()},
                   {"gamma_note", e.gamma_note},
                   {"guided_steps", e.guided_steps.value_or(pipeline::kDefaultGuidedSteps)}});
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::string out;
  for (const auto& e : list) {
    out += fmt::format("{}  ({})\n", e.usage, e.alphabet);
    out += fmt::format("  scores    {}\n", e.scores);
    out += fmt::format("  range     {}\n", e.range);
    if (!e.argument.empty()) out += fmt::format("  argument  {}\n", e.argument);
    out += e.suggested_gamma
               ? fmt::format("  gamma     {:g} suggested: {}\n", *e.suggested_gamma, e.gamma_note)
               : fmt::format("  gamma     {}\n", e.gamma_note);
    out += e.guided_steps
               ? fmt::format("  steps     {} when it guides first (measured to keep the guided "
                             "quality)\n", *e.guided_steps)
               : fmt::format("  steps     {} when it guides first (fewer not measured)\n",
                             pipeline::kDefaultGuidedSteps);
    out += "\n";
  }
  out += fmt::format(
      "Guide with --guide NAME[:ARG][=WEIGHT] (repeatable; higher scores are better) and set the "
      "strength with --gamma (default {:g}, which moves the classifiers little: use the "
      "suggestion). gsflow score --guide NAME scores existing sequences.\n",
      guidance::GuidanceOptions{}.gamma);
  std::cout << out;
}

}  // namespace

void add_objectives_command(CLI::App& app) {
  auto* objectives = app.add_subcommand(
      "objectives", "The objectives --guide and score --guide take, explained");
  objectives->require_subcommand(1);
  auto cli = std::make_shared<ObjectivesCli>();
  auto* list = objectives->add_subcommand(
      "list", "Each objective: what it scores, its range, its argument, a suggested gamma");
  list->add_option("--alphabet", cli->alphabet, "Only the objectives for dna or protein");
  list->add_flag("--json", cli->json, "Print a JSON array instead");
  list->callback([cli] { run_objectives_list(*cli); });
}

}  // namespace gsflow::app
