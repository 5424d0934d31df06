// `gsflow generate`: samples sequences from a bundled or user model, stores the run (parameters,
// model, kernels, sequences, scores, trajectory frames) in the run store and writes FASTA.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

#include "generation_run.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/guidance/natural.hpp"
#include "gsflow/pipeline/run_schema.hpp"
#include "global_options.hpp"
#include "gsflow/storage/run_store.hpp"
#include "interrupt.hpp"
#include "model_commands.hpp"
#include "output_file.hpp"
#include "run_options.hpp"
#include "run_records.hpp"

namespace gsflow::app {

namespace {

struct GenerateCli {
  pipeline::RunParams params;  // the run schema's options write here (run_options.hpp)
  bool method_given = false;
  std::string shard;
  std::vector<std::string> guides;
  double naturalness = guidance::kDefaultNaturalness;
  std::string template_fasta, start_fasta;
  std::string db, name, notes, out;
  std::vector<std::string> tags;
  std::size_t width = 60;
  bool no_store = false, json = false, quiet = false, start_time_given = false;
};

nlohmann::json summary(const RunOutcome& o, const std::string& db, const std::string& out) {
  return {{"run", o.run_name},
          {"id", o.run_id},
          {"db", db},
          {"status", storage::status_name(o.status)},
          {"sequences", o.sequences.size()},
          {"frames", o.frames},
          {"seconds", o.seconds},
          {"network_seconds", o.network_seconds},
          {"guidance_seconds", o.guidance_seconds},
          {"objective_calls", o.objective_calls},
          {"model", o.model_name},
          {"model_file", o.model_file},
          {"model_hash", o.model_hash},
          {"kernels", o.kernels},
          {"out", out}};
}

// The records of a FASTA file the design reads (templates, start sequences); the sequences are
// stored in the run, so a rerun does not need the file. Throws engine::InputError naming the
// file and line.
std::vector<engine::FastaRecord> design_records(const std::string& path, const std::string& flag) {
  auto records = engine::read_fasta(path);
  if (records.empty()) throw engine::InputError(path, 0, flag + ": no FASTA records");
  return records;
}

void run_generate(GenerateCli cli) {
  RunOptions options;
  if (cli.template_fasta == kStdio && cli.start_fasta == kStdio)
    throw std::invalid_argument("--template-fasta and --start cannot both read standard input (-)");
  refuse_shared_stdout({{"--out", cli.out}, {"--json", cli.json ? kStdio : ""}});
  if (!cli.template_fasta.empty()) {
    if (!cli.params.design.templates.empty())
      throw std::invalid_argument("--template-fasta: give templates either inline (--template) or "
                                  "in a file, not both");
    for (const auto& r : design_records(cli.template_fasta, "--template-fasta"))
      pipeline::run_param("template").set(cli.params, r.sequence,
                                           "--template-fasta " + cli.template_fasta + ":" +
                                               std::to_string(r.line));
  }
  if (!cli.start_fasta.empty())
    for (const auto& r : design_records(cli.start_fasta, "--start")) {
      pipeline::run_param("start").set(cli.params, r.sequence,
                                        "--start " + cli.start_fasta + ":" + std::to_string(r.line));
      cli.params.design.start_ids.push_back(r.id);
    }
  if (cli.start_fasta.empty() && cli.start_time_given)
    throw std::invalid_argument("--start-time: needs a start sequence (--start FILE.fasta)");
  options.params = cli.params;
  options.method_given = cli.method_given;
  for (const auto& g : cli.guides)
    options.params.guidance.terms.push_back(guidance::parse_guide_term(g));
  guidance::add_naturalness(options.params.guidance.terms, cli.naturalness);
  guidance::check_guidance(options.params.guidance);
  if (!cli.shard.empty())
    std::tie(options.params.shard, options.params.shards) = pipeline::parse_shard(cli.shard, "--shard");
  if (options.params.shards > options.params.n)
    throw std::invalid_argument(fmt::format("--shard: {} shards of {} sequences leave some empty",
                                            options.params.shards, options.params.n));
  options.db = cli.no_store ? "" : (cli.db.empty() ? storage::default_database_path() : cli.db);
  options.name = cli.name;
  options.notes = cli.notes;
  options.tags = cli.tags;
  options.out = !cli.out.empty() ? cli.out : (cli.json ? "" : "-");
  options.width = cli.width;
  options.progress = !cli.quiet;
  const InterruptGuard interrupt;
  const auto outcome = execute_run(options, interrupt);
  if (cli.json) {
    auto j = summary(outcome, options.db, cli.out);
    // Neither stored nor written: the sequences themselves go into the summary, never lost.
    if (options.db.empty() && options.out.empty()) {
      auto& records = j["records"] = nlohmann::json::array();
      for (const auto& s : outcome.sequences) records.push_back(sequence_json(outcome.run_name, s));
    }
    std::cout << j.dump(2) << "\n";
  }
  std::cerr << fmt::format(
      "generate: {} {} sequences from {} in {:.2f} s (network {:.2f} s){}{}\n",
      outcome.status == storage::RunStatus::completed ? "made" : "interrupted after", outcome.sequences.size(),
      outcome.model_file, outcome.seconds, outcome.network_seconds,
      options.db.empty() ? "" : fmt::format(", run '{}' in {}", outcome.run_name, options.db),
      cli.out.empty() ? "" : ", wrote " + (cli.out == kStdio ? std::string("stdout") : cli.out));
  if (outcome.status != storage::RunStatus::completed) command_exit_code() = kExitInterrupted;
}

}  // namespace

void add_generate_command(CLI::App& app) {
  auto cli = std::make_shared<GenerateCli>();
  auto* cmd = app.add_subcommand(
      "generate", "Generate sequences with a model; store the run and write FASTA");
  add_run_options(*cmd, cli->params);
  cmd->add_option("--template-fasta", cli->template_fasta,
                  "Templates from a FASTA file, - = stdin (one record for all sequences, or "
                  "several: sequence i uses record i mod count)");
  cmd->add_option("--start", cli->start_fasta,
                  "Start from the sequences of this FASTA file, - = stdin (sequence i from record "
                  "i mod count): see --start-time and --max-edits");
  cmd->add_option("-o,--out", cli->out,
                  "FASTA file to write, - = stdout (default: stdout, unless --json)");
  cmd->add_option("--width", cli->width, "FASTA line width (0 = one line)")->capture_default_str();
  cmd->add_option("--guide", cli->guides,
                  "Steer toward an objective: NAME[:ARG][=WEIGHT], repeatable (gc, gc:0.6, motif, "
                  "motif:FILE.jaspar, tata, promoter; gravy, charge, charge:3, amp; "
                  "classifier:FILE.ckpt|.json; natural:NAME). Each sequence is scored by every "
                  "objective");
  cmd->add_option("--naturalness", cli->naturalness,
                  "Weight of the natural:NAME term added for the first guide with a composition "
                  "band (amp, promoter): keeps guided designs' letter and pair fractions inside "
                  "the real class's range; 0 = off")
      ->capture_default_str();
  cmd->add_option("--db", cli->db,
                  "Run store (SQLite) to record the run in (default: $GSFLOW_DB, else "
                  "$XDG_DATA_HOME/gsflow/runs.sqlite or ~/.local/share/gsflow/runs.sqlite)");
  cmd->add_flag("--no-store", cli->no_store, "Do not record the run (FASTA only)");
  cmd->add_option("--name", cli->name, "Run name (default: MODEL-seedSEED, numbered if taken)");
  cmd->add_option("--tag", cli->tags, "Tag the run (repeatable)");
  cmd->add_option("--notes", cli->notes, "Free-text notes stored with the run");
  cmd->add_option("--shard", cli->shard,
                  "I/N: make only slice I (0-based) of N of the request; `gsflow merge` joins "
                  "the shards into the unsharded run")
      ->check(CLI::Validator(
          [](std::string& text) {
            try {
              pipeline::parse_shard(text, "--shard");
            } catch (const std::invalid_argument& e) {
              return std::string(e.what());
            }
            return std::string();
          },
          "I/N"));
  cmd->add_flag("--json", cli->json,
                "Print a machine-readable summary on stdout; with --no-store and no --out it "
                "holds the sequences too (\"records\": id, index, sequence, scores)");
  cmd->add_flag("--quiet", cli->quiet, "No progress on stderr");
  cmd->callback([cli, cmd] {
    cli->method_given = cmd->count("--method") > 0;
    cli->start_time_given = cmd->count("--start-time") > 0;
    run_generate(*cli);
  });
}

}  // namespace gsflow::app
