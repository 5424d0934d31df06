// `gsflow rerun RUN`: regenerates a stored run from its record (parameters, model file checked
// by hash) as a new run, and reports whether the sequences came out identical. `--model FILE`
// points at the same checkpoint elsewhere (moved, or a bundled model's earlier version kept
// aside); its hash must still be the recorded one.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "generation_run.hpp"
#include "global_options.hpp"
#include "gsflow/engine/kernels.hpp"
#include "interrupt.hpp"
#include "model_commands.hpp"
#include "run_records.hpp"

namespace gsflow::app {

namespace {

struct RerunCli {
  std::string db, run, name, out, model;
  bool check = false, json = false, quiet = false;
};

// Why the sequences may differ, from the kernel names of both runs (engine::Kernels::kernel_name:
// op, path, layout, and "_rN", the revision of the path's output bits).
std::string kernels_verdict(const std::vector<std::string>& then,
                            const std::vector<std::string>& now) {
  const bool revisions = std::all_of(then.begin(), then.end(), [](const std::string& name) {
    return engine::kernel_name_revision(name).has_value();
  });
  if (!revisions)
    return "the run's build recorded no kernel revisions (it predates 2026-12-05), and the SIMD "
           "kernels' last bits have changed since";
  if (then != now)
    return "the kernels differ: another CPU path, or another revision (_rN) of the same path, "
           "rounds differently";
  return "the same kernels made both runs: on another CPU the network's arithmetic (LibTorch) can "
         "round differently; on the same machine and build this is a bug";
}

void run_rerun(const RerunCli& cli) {
  const std::string db = cli.db.empty() ? storage::default_database_path() : cli.db;
  storage::RunInfo original;
  std::vector<storage::SequenceRecord> before;
  {
    const auto store = open_store(db, true);
    original = store.find_run(cli.run);
    before = store.sequences(original.id);
  }
  RunOptions options;
  options.params = pipeline::parse_run_params(original.params_json);
  options.method_given = true;
  options.expect_model_hash = original.model.hash;
  // The name the user gave may be relative to where the run was made: use the recorded file.
  options.params.model = cli.model.empty() ? original.model.file : cli.model;
  options.db = db;
  options.name = cli.name.empty() ? original.name + "-rerun" : cli.name;
  options.rename_if_taken = cli.name.empty();
  options.tags = original.tags;
  options.notes = "rerun of " + original.name;
  options.out = cli.out;
  options.progress = !cli.quiet;
  const InterruptGuard interrupt;
  const auto outcome = execute_run(options, interrupt);

  std::size_t same = 0, compared = 0;
  std::vector<std::size_t> differ;
  for (const auto& s : outcome.sequences) {
    const auto it = std::lower_bound(before.begin(), before.end(), s.index,
                                     [](const auto& r, std::size_t i) { return r.index < i; });
    if (it == before.end() || it->index != s.index) continue;  // not in the original (cancelled)
    ++compared;
    if (it->text == s.text)
      ++same;
    else
      differ.push_back(s.index);
  }
  const bool identical = differ.empty() && compared == before.size() &&
                         outcome.sequences.size() == original.requested;
  if (cli.json) {
    std::cout << nlohmann::json{{"run", original.name},
                                {"rerun", outcome.run_name},
                                {"status", storage::status_name(outcome.status)},
                                {"compared", compared},
                                {"identical", same},
                                {"different", differ},
                                {"kernels_then", original.kernels},
                                {"kernels_now", outcome.kernels}}
                     .dump(2)
              << "\n";
  }
  std::cerr << fmt::format("rerun {} -> {}: {} of {} sequences compared, {} identical{}\n",
                           original.name, outcome.run_name, compared, before.size(), same,
                           differ.empty() ? "" : fmt::format(", {} differ", differ.size()));
  if (!differ.empty()) {
    std::string list;
    for (std::size_t i = 0; i < std::min<std::size_t>(differ.size(), 20); ++i)
      list += fmt::format(" s{}", differ[i]);
    std::cerr << fmt::format(
        "rerun: differing sequences:{}{}\nrerun: kernels then: {}\nrerun: kernels now:  {}\n"
        "rerun: {}\n"
        "rerun: for bit-identical reruns use --consistent (reference kernels) for both runs\n",
        list, differ.size() > 20 ? " ..." : "", fmt::join(original.kernels, ","),
        fmt::join(outcome.kernels, ","), kernels_verdict(original.kernels, outcome.kernels));
  }
  if (outcome.status != storage::RunStatus::completed)
    command_exit_code() = kExitInterrupted;
  else if (cli.check && !identical)
    command_exit_code() = kExitInput;
}

}  // namespace

void add_rerun_command(CLI::App& app) {
  auto cli = std::make_shared<RerunCli>();
  auto* cmd = app.add_subcommand(
      "rerun", "Regenerate a stored run from its record and compare the sequences");
  add_db_option(*cmd, cli->db);
  cmd->add_option("run", cli->run, "Run name or id")->required();
  cmd->add_option("--name", cli->name, "Name of the new run (default: RUN-rerun, numbered)");
  cmd->add_option("--out", cli->out, "Also write the sequences as FASTA");
  cmd->add_option("--model", cli->model,
                  "Checkpoint file to use instead of the recorded one (it must have the recorded "
                  "hash: the same model moved or kept aside)");
  cmd->add_flag("--check", cli->check, "Exit with code 2 when any sequence differs");
  cmd->add_flag("--json", cli->json, "Print the comparison as JSON on stdout");
  cmd->add_flag("--quiet", cli->quiet, "No progress on stderr");
  cmd->callback([cli] { run_rerun(*cli); });
}

}  // namespace gsflow::app
