// `gsflow eval`: generates n sequences with a model and compares them with a data split, beside
// the real-vs-real floor and two baselines (Linear FM at the same budget, a fitted PWM). With
// --sequences it evaluates the records of a FASTA file instead (designs exported from a run or
// written by another tool), against the same split, floor and PWM baseline. For peptides it adds
// the protein-likeness figures (best local alignment against the training set, parasail).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>

#include "gsflow/evaluation/eval_report.hpp"
#include "gsflow/evaluation/promoter_structure.hpp"
#include "gsflow/evaluation/protein_likeness.hpp"
#include "eval_options.hpp"
#include "global_options.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/sequence_metrics.hpp"
#include "gsflow/pipeline/generate.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "gsflow/models/catalog.hpp"
#include "model_commands.hpp"
#include "sequence_sets.hpp"
#include "validators.hpp"

namespace gsflow::app {

namespace {

struct EvalCommandCli {
  std::string model = "dna-promoter", split = "validation", data, dataset, linear, sequences;
  std::size_t n = 1000;
  int steps = 0, threads = 2;  // generate's defaults (steps 0 = auto: pipeline::resolved_steps)
  pipeline::RunParams run;  // --integrator and --precision (kSamplerKeys)
  std::uint64_t seed = 0;
  bool json = false, no_linear = false;
  bool no_alignment = false;               // skip the protein-likeness alignments (peptides only)
  evaluation::AlignmentOptions alignment;  // gap costs; threads come from --threads
};

std::vector<std::string> decode_all(const Sequences& set, const engine::Alphabet& alphabet) {
  std::vector<std::string> out;
  out.reserve(set.size());
  for (const auto& s : set) out.push_back(alphabet.decode(s));
  return out;
}

// Protein-likeness of the evaluated set and the baselines against the training set, beside a
// sample of the held-out split (as many as the evaluated set; seed + 3) and that sample shuffled
// (seed + 4). Seeds + 1 and + 2 are the floor's and PWM's.
evaluation::ProteinLikeness protein_likeness(const Sequences& evaluated,
                                             const std::map<std::string, Sequences>& baselines,
                                             const Sequences& reference, const Sequences& training,
                                             const engine::Alphabet& alphabet, const EvalCommandCli& cli) {
  const auto start = std::chrono::steady_clock::now();
  evaluation::ProteinLikeness out;
  out.options = cli.alignment;
  out.options.threads = cli.threads;
  out.training_size = training.size();
  out.split = cli.split;
  out.shuffle_seed = cli.seed + 4;
  const auto train = decode_all(training, alphabet);
  auto summary = [&](const std::vector<std::string>& set) {
    return evaluation::summarize_hits(evaluation::nearest_training_hits(set, train, out.options));
  };
  const auto held_out =
      decode_all(engine::sample_subset(reference, evaluated.size(), cli.seed + 3), alphabet);
  out.designs = summary(decode_all(evaluated, alphabet));
  out.reference = summary(held_out);
  out.shuffled = summary(evaluation::shuffle_letters(held_out, out.shuffle_seed));
  for (const auto& [name, set] : baselines)
    out.baselines[name] = summary(decode_all(set, alphabet));
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cerr << fmt::format("eval: protein-likeness alignments in {:.1f} s\n", out.seconds);
  return out;
}

// The generation of one eval set, as a stored run would record it (eval prints it with --json).
pipeline::RunParams eval_params(const std::string& model_file, const models::Model& model,
                                const EvalCommandCli& cli) {
  pipeline::RunParams params;
  params.model = model_file;
  params.n = cli.n;
  params.threads = cli.threads;
  params.consistent = global_options().consistent;
  params.sampler.method = model.spec().method;
  params.sampler.steps = cli.steps;
  params.sampler.integrator = cli.run.sampler.integrator;
  params.precision = cli.run.precision;
  params.sampler.seed = cli.seed;
  params.sampler.batch = 256;
  params.sampler.frames_every = 0;  // eval keeps no trajectory
  return params;
}

Sequences generate_set(const pipeline::RunParams& params, const models::Model& model) {
  const engine::Kernels kernels(kernel_options(params.threads));
  auto result = pipeline::generate(model, pipeline::to_request(params), kernels);
  std::cerr << fmt::format("eval: generated {} sequences in {:.1f} s (network {:.1f} s)\n",
                           result.completed, result.total_seconds, result.network_seconds);
  return std::move(result.sequences);
}

void run_eval(const EvalCommandCli& cli) {
  if (cli.split != "validation" && cli.split != "test")
    throw std::invalid_argument("--split: expected validation or test, not '" + cli.split + "'");
  if (cli.alignment.gap_extend > cli.alignment.gap_open)  // checked before generating
    throw std::invalid_argument(fmt::format("--gap-extend {} exceeds --gap-open {}",
                                            cli.alignment.gap_extend, cli.alignment.gap_open));
  const auto file = models::resolve_model(cli.model);
  const auto model = models::Model::load(file);
  const auto& spec = model.spec();
  const engine::Alphabet& alphabet = alphabet_named(spec.alphabet, file + ": alphabet");
  const bool dna = spec.alphabet == "dna";
  const std::string dataset = !cli.dataset.empty() ? cli.dataset
                              : dna                ? fmt::format("dna{}", spec.length)
                                                   : "peptide";
  const std::size_t kmax = dna ? 6 : 3;
  if (cli.split == "test")
    std::cerr << "eval: the test split is reserved for final reports; select models on "
                 "validation\n";

  // A file to evaluate is read first, so that a bad one fails before the data sets are read.
  const bool external = !cli.sequences.empty();
  Sequences generated;
  if (external) {
    generated = read_sequences(cli.sequences, alphabet, 1, spec.length);
    if (generated.empty()) throw engine::InputError(cli.sequences, 0, "no sequences to evaluate");
    std::cerr << fmt::format("eval: {} sequences from {}\n", generated.size(),
                             cli.sequences == "-" ? "stdin" : cli.sequences);
  }
  const auto training =
      read_sequences(data_file(dataset + "/train.fasta", cli.data), alphabet, 1, spec.length);
  const auto reference = read_sequences(data_file(dataset + "/" + cli.split + ".fasta", cli.data),
                                        alphabet, 1, spec.length);
  const std::string name = std::filesystem::path(file).stem().string();
  std::cerr << fmt::format("eval {}: {} on {} ({} sequences), training {} sequences\n", name,
                           engine::method_name(spec.method), cli.split, reference.size(),
                           training.size());

  std::optional<pipeline::RunParams> params;  // only when generating
  if (!external) {
    params = eval_params(file, model, cli);
    generated = generate_set(*params, model);
  }
  const std::size_t k = spec.k;
  const auto metrics = engine::evaluate_set(generated, reference, training, k, kmax);
  const auto floor = engine::kmer_js_floor(
      engine::sample_subset(training, generated.size(), cli.seed + 1), reference, k, kmax);

  std::map<std::string, engine::SetMetrics> baselines;
  std::map<std::string, Sequences> baseline_sets;  // kept for the protein-likeness alignments
  const auto pwm = engine::PwmModel::fit(training, k);
  const std::size_t n = generated.size();  // cli.n unless the set was read from a file
  auto pwm_set = dna ? pwm.sample(n, spec.length, cli.seed + 2) : pwm.sample(n, cli.seed + 2);
  baselines["pwm"] = engine::evaluate_set(pwm_set, reference, training, k, kmax);
  baseline_sets["pwm"] = std::move(pwm_set);
  if (!external && !cli.no_linear && spec.method != engine::Method::linear) {
    std::string linear_file;
    try {
      linear_file = models::resolve_model(cli.linear.empty() ? name : cli.linear, "linear");
    } catch (const models::ModelError& e) {
      std::cerr << "eval: no Linear FM baseline (" << e.what() << ")\n";
    }
    if (!linear_file.empty()) {
      const auto linear = models::Model::load(linear_file);
      // The baseline at the steps it needs, not the model's: Linear FM's Euler step is first
      // order and loses quality below ~100 steps, where GSFM's multistep default takes 10.
      auto linear_params = eval_params(linear_file, linear, cli);
      linear_params.sampler.steps =
          std::max(linear_params.sampler.steps, pipeline::kDefaultLinearSteps);
      std::cerr << "eval: Linear FM baseline " << linear_file << " ("
                << linear_params.sampler.steps << " steps)\n";
      auto linear_set = generate_set(linear_params, linear);
      baselines["linear_fm"] = engine::evaluate_set(linear_set, reference, training, k, kmax);
      baseline_sets["linear_fm"] = std::move(linear_set);
    }
  }
  // DNA: TATA density on each strand in the core window against the rest, tandem-repeat share
  // (issue 39), for the evaluated set, the split, the training set and the baselines.
  std::optional<evaluation::PromoterStructureColumns> structure;
  if (dna) {
    structure.emplace();
    structure->model = evaluation::promoter_structure(generated, structure->options);
    structure->reference = evaluation::promoter_structure(reference, structure->options);
    structure->training = evaluation::promoter_structure(training, structure->options);
    for (const auto& [bname, set] : baseline_sets)
      structure->baselines[bname] = evaluation::promoter_structure(set, structure->options);
  }
  const evaluation::PromoterStructureColumns* structure_ptr = structure ? &*structure : nullptr;
  // Local alignment with BLOSUM62 is a protein measure: DNA sets are not aligned.
  std::optional<evaluation::ProteinLikeness> likeness;
  if (!dna && !cli.no_alignment)
    likeness = protein_likeness(generated, baseline_sets, reference, training, alphabet, cli);
  if (cli.json) {
    auto j = evaluation::eval_json(name, cli.split, metrics, floor, baselines, structure_ptr);
    j["seed"] = cli.seed;
    if (likeness) {
      j["protein_likeness"] = evaluation::protein_likeness_json(*likeness);
      for (const auto& [bname, summary] : likeness->baselines)
        j["baselines"][bname]["protein_likeness"] = evaluation::alignment_summary_json(summary);
    }
    j["checkpoint"] = file;
    if (external) {
      j["sequences"] = cli.sequences;
    } else {
      j["method"] = engine::method_name(spec.method);
      j["steps"] = pipeline::resolved_steps(*params);
      j["params"] = nlohmann::json::parse(pipeline::run_params_json(*params));
    }
    std::cout << j.dump(2) << "\n";
  } else {
    // The first column is headed by what was evaluated: the model, or the file's name.
    const std::string title =
        !external              ? name
        : cli.sequences == "-" ? std::string("stdin")
                               : std::filesystem::path(cli.sequences).filename().string();
    std::cout << evaluation::eval_table(title, cli.split, metrics, floor, baselines, structure_ptr);
    if (likeness) std::cout << "\n" << evaluation::protein_likeness_table(title, *likeness);
  }
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto cli = std::make_shared<EvalCommandCli>();
  auto* cmd = app.add_subcommand("eval",
                                 "Generate with a model, or read --sequences FILE, and compare "
                                 "with a data split (k-mer JS, novelty, ...)");
  cmd->add_option("--model", cli->model, "Bundled model name or checkpoint file")
      ->capture_default_str();
  cmd->add_option("--split", cli->split, "validation or test (test: final reports only)")
      ->capture_default_str();
  auto* n = cmd->add_option("--n", cli->n, "Sequences to generate")
                ->check(CLI::PositiveNumber)
                ->capture_default_str();
  cmd->add_option("--seed", cli->seed, "Seed of generation and baselines")->check(kUnsigned64)->capture_default_str();
  auto* steps = cmd->add_option("--steps", cli->steps,
                                "Sampling steps; 0 = auto, as generate: 10, Linear FM at least 100")
                    ->check(CLI::NonNegativeNumber)
                    ->capture_default_str();
  add_run_options(*cmd, cli->run, kSamplerKeys);
  cmd->add_option("--threads", cli->threads, "Threads")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--data", cli->data, "Data folder (default: $GSFLOW_DATA or data/)");
  cmd->add_option("--dataset", cli->dataset,
                  "Folder inside the data folder (default: dnaL for DNA, peptide for protein)");
  cmd->add_option("--linear", cli->linear,
                  "Linear FM baseline model (default: MODEL-linear when it exists)");
  cmd->add_flag("--no-linear", cli->no_linear, "Skip the Linear FM baseline");
  cmd->add_flag("--json", cli->json, "Print one JSON object on stdout");
  cmd->add_flag("--no-alignment", cli->no_alignment,
                "Peptides: skip the protein-likeness alignments against the training set");
  cmd->add_option("--gap-open", cli->alignment.gap_open,
                  "Protein-likeness: cost of a gap's first residue (12: BLAST's existence 11 "
                  "+ extension 1)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--gap-extend", cli->alignment.gap_extend,
                  "Protein-likeness: cost of each further gap residue")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--sequences", cli->sequences,
                  "Evaluate the records of this FASTA file (- = stdin) instead of generating (the model "
                  "gives the alphabet, the longest length and the data set)")
      ->excludes(n)
      ->excludes(steps);
  cmd->callback([cli] { run_eval(*cli); });
}

}  // namespace gsflow::app
