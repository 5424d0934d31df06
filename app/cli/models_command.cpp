// `gsflow models list` and `gsflow models delete NAME [--kind K]`: the generators, guidance
// classifiers and independent judges found by name (models::model_folders(): bundled ones, then
// the user models folder), with their alphabet, lengths (a judge's k-mer features), training data
// and metrics; deleting removes a user model and its card. The listing and deleting live in the
// pipeline (pipeline/model_listing.hpp), shared with the studio.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iostream>
#include <nlohmann/json.hpp>

#include "gsflow/models/catalog.hpp"
#include "gsflow/pipeline/model_listing.hpp"
#include "model_commands.hpp"

namespace gsflow::app {

namespace {

using nlohmann::ordered_json;

void run_list(bool json) {
  const auto entries = pipeline::list_models();
  if (json) {
    ordered_json a = ordered_json::array();
    for (const auto& e : entries) {
      ordered_json j = {{"name", e.name},     {"kind", e.kind},     {"origin", e.origin},
                        {"alphabet", e.alphabet}, {"length", e.length}, {"data", e.data},
                        {"metrics", e.metrics}, {"file", e.file}};
      if (!e.features.empty()) j["features"] = e.features;
      if (!e.error.empty()) j["error"] = e.error;
      a.push_back(j);
    }
    std::cout << a.dump(2) << "\n";
    return;
  }
  std::vector<std::array<std::string, 8>> rows = {
      {"name", "kind", "origin", "alphabet", "length", "data", "metrics", "file"}};
  for (const auto& e : entries)
    rows.push_back({e.name, e.kind, e.origin, e.alphabet.empty() ? "-" : e.alphabet,
                    e.length.empty()     ? "-"
                    : e.features.empty() ? e.length
                                         : e.length + " (" + e.features + ")",
                    e.data.empty() ? "-" : e.data,
                    e.error.empty() ? pipeline::metrics_text(e.metrics) : "unreadable: " + e.error,
                    e.file});
  std::array<std::size_t, 8> width{};
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t c = 0; c < r.size(); ++c)
      line += c + 1 == r.size() ? r[c] : fmt::format("{:<{}}  ", r[c], width[c]);
    std::cout << line << "\n";
  }
  std::cout << fmt::format("user models folder: {}\n", models::user_models_folder());
}

void run_delete(const std::string& name, const std::string& kind) {
  for (const auto& f : pipeline::delete_user_model(name, kind))
    std::cerr << "models delete: removed " << f << "\n";
}

}  // namespace

void add_models_command(CLI::App& app) {
  auto* models = app.add_subcommand(
      "models", "List the models found by name (bundled and the user's), delete user models");
  models->require_subcommand(1);
  auto json = std::make_shared<bool>(false);
  auto* list = models->add_subcommand(
      "list",
      "Generators, classifiers and judges by name: kind, alphabet, length, data, metrics, file");
  list->add_flag("--json", *json, "JSON array on stdout");
  list->callback([json] { run_list(*json); });
  auto name = std::make_shared<std::string>();
  auto kind = std::make_shared<std::string>();
  auto* del = models->add_subcommand(
      "delete",
      "Delete a user model (its checkpoint or judge file and card); bundled models are refused");
  del->add_option("name", *name, "The model's name")->required();
  del->add_option("--kind", *kind,
                  "Only a model of this kind; needed when user models of several kinds share "
                  "the name (a classifier and a judge, say)")
      ->check(CLI::IsMember({"generator", "classifier", "judge"}));
  del->callback([name, kind] { run_delete(*name, *kind); });
}

}  // namespace gsflow::app
