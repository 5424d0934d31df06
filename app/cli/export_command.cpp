// `gsflow export RUN`: a stored run's sequences as FASTA (same headers as `generate`), CSV or
// JSON, optionally only the top N by an objective.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <set>

#include "gsflow/engine/fasta.hpp"
#include "gsflow/pipeline/design.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "output_file.hpp"
#include "gsflow/storage/run_export.hpp"
#include "run_records.hpp"
#include "store_commands.hpp"

namespace gsflow::app {

namespace {

struct ExportCli {
  std::string db, run, fasta, csv, json, by;
  std::size_t width = 60, top = 0;
  bool ascending = false;
};

void run_export(const ExportCli& cli) {
  if (cli.fasta.empty() && cli.csv.empty() && cli.json.empty())
    throw CLI::ValidationError("export", "give at least one of --fasta, --csv, --json");
  if (cli.top && cli.by.empty())
    throw CLI::ValidationError("--top", "needs --by OBJECTIVE (the score to rank by)");
  const std::string db = cli.db.empty() ? storage::default_database_path() : cli.db;
  refuse_store_as_output(cli.fasta, db, "--fasta");
  refuse_store_as_output(cli.csv, db, "--csv");
  refuse_store_as_output(cli.json, db, "--json");
  refuse_shared_stdout({{"--fasta", cli.fasta}, {"--csv", cli.csv}, {"--json", cli.json}});
  const auto store = open_store(cli.db, false);
  const auto run = store.find_run(cli.run);
  auto sequences = store.sequences(run.id);
  if (!cli.by.empty()) {
    std::set<std::string> known;
    for (const auto& s : sequences)
      for (const auto& [k, v] : s.scores) known.insert(k);
    if (!known.count(cli.by)) {
      std::string names;
      for (const auto& k : known) names += (names.empty() ? "" : ", ") + k;
      throw std::invalid_argument(fmt::format("--by {}: run {} has no such score (it has: {})",
                                              cli.by, run.name, names.empty() ? "none" : names));
    }
    std::stable_sort(sequences.begin(), sequences.end(), [&](const auto& a, const auto& b) {
      return cli.ascending ? a.scores.at(cli.by) < b.scores.at(cli.by)
                           : a.scores.at(cli.by) > b.scores.at(cli.by);
    });
    if (cli.top && sequences.size() > cli.top) sequences.resize(cli.top);
  }
  // An unreadable record still exports its sequences (steps=0 in the headers).
  const auto params = nlohmann::json::parse(run.params_json, nullptr, false);
  const int steps = params.is_object() && params.value("steps", nlohmann::json()).is_number_integer()
                        ? params["steps"].get<int>()
                        : 0;
  std::string made_with;  // the run's guidance and design, when its record reads
  try {
    made_with = pipeline::run_summary(pipeline::parse_run_params(run.params_json));
  } catch (const std::invalid_argument&) {
  }

  if (!cli.fasta.empty()) {
    OutputFile file(cli.fasta);
    auto& out = file.stream();
    engine::FastaWriter writer(out, {cli.width});
    for (const auto& s : sequences)
      writer.write(storage::fasta_header(run.name, run.model.name, run.method, run.seed, steps, s, made_with), s.text);
    file.commit();
  }
  if (!cli.csv.empty()) {
    OutputFile file(cli.csv);
    storage::write_csv(file.stream(), run.name, sequences);
    file.commit();
  }
  if (!cli.json.empty()) {
    nlohmann::json j = run_json(run);
    j["params"] = nlohmann::json::parse(run.params_json, nullptr, false);
    auto& seqs = j["sequences"] = nlohmann::json::array();
    for (const auto& s : sequences) {
      seqs.push_back(sequence_json(run.name, s));
    }
    OutputFile file(cli.json);
    auto& out = file.stream();
    out << j.dump(2) << "\n";
    file.commit();
  }
  const auto shown = [](const std::string& path) {
    return path.empty() ? std::string() : " -> " + (path == kStdio ? std::string("stdout") : path);
  };
  std::cerr << fmt::format("export {}: {} sequences{}{}{}\n", run.name, sequences.size(),
                           shown(cli.fasta), shown(cli.csv), shown(cli.json));
}

}  // namespace

void add_export_command(CLI::App& app) {
  auto cli = std::make_shared<ExportCli>();
  auto* cmd = app.add_subcommand("export", "Write a stored run's sequences as FASTA, CSV or JSON");
  add_db_option(*cmd, cli->db);
  cmd->add_option("run", cli->run, "Run name or id")->required();
  cmd->add_option("--fasta", cli->fasta,
                  "FASTA file, - = stdout (headers: RUN_sIDX key=value ...)");
  cmd->add_option("--csv", cli->csv,
                  "CSV file, - = stdout (one row per sequence, one column per score)");
  cmd->add_option("--json", cli->json, "JSON file, - = stdout (the run record and its sequences)");
  cmd->add_option("--width", cli->width, "FASTA line width: 60, 80, ... (0 = one line)")
      ->capture_default_str();
  cmd->add_option("--top", cli->top, "Only the best N by --by")->check(CLI::Validator(
      [](std::string& text) {
        return text.find_first_not_of("0123456789") == std::string::npos && !text.empty() &&
                       text.find_first_not_of('0') != std::string::npos
                   ? std::string()
                   : "--top " + text + ": give a whole number of 1 or more";
      },
      "N"));
  cmd->add_option("--by", cli->by, "Score to rank by (e.g. gc, gravy), highest first");
  cmd->add_flag("--ascending", cli->ascending, "Rank lowest first");
  cmd->callback([cli] { run_export(*cli); });
}

}  // namespace gsflow::app
