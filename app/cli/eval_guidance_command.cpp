// `gsflow eval-guidance`: measures steering (STGFlow or SVDD). For each gamma it generates n
// sequences guided by one objective and reports the objective's score distribution, an independent
// judge's score (a k-mer logistic regression trained on another split), naturalness (k-mer JS to a
// data split), the composition checks of issue 38 (TATA window, CpG o/e, homopolymers; residues
// above real positives' range, single-residue runs; atypical share) beside the same figures for
// real sequences, uniqueness, diversity and time; beside them best-of-N rejection sampling from the
// unguided model at the same number of objective (classifier) calls per sequence.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "eval_options.hpp"
#include "global_options.hpp"
#include "gsflow/engine/metrics/kmer.hpp"
#include "gsflow/engine/sequence_metrics.hpp"
#include "gsflow/evaluation/best_of_n.hpp"
#include "gsflow/evaluation/composition_checks.hpp"
#include "gsflow/pipeline/generate.hpp"
#include "gsflow/models/judge.hpp"
#include "gsflow/guidance/natural.hpp"
#include "gsflow/guidance/objective.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/pipeline/typicality_file.hpp"
#include "model_commands.hpp"
#include "sequence_sets.hpp"
#include "statistics.hpp"
#include "validators.hpp"

namespace gsflow::app {

namespace {

using nlohmann::json;

struct EvalGuidanceCli : EvalCli {
  std::string objective, judge, split = "validation";
  std::vector<double> gammas = {0, 1, 2, 4, 8};
  std::string schedule = "constant", from = "state", method = "stgflow";
  std::string real_label = "auto";  // header field marking the objective's real class, or none
  std::vector<std::string> also_guide;  // further terms guided with it (SPEC[=WEIGHT])
  double naturalness = guidance::kDefaultNaturalness;  // as generate's --naturalness
  std::size_t pool = 0;
  int samples = 4;
  // Every gamma, 0 included, at generate's guided default, so the curve compares like with like.
  EvalGuidanceCli() { steps = pipeline::kDefaultGuidedSteps; }
};

// The gammas to run: 0 (the unguided reference) added, sorted, without repeats. Throws
// std::invalid_argument for a negative or infinite one.
std::vector<double> gamma_list(std::vector<double> gammas) {
  for (const double g : gammas)
    if (!(g >= 0.0) || !std::isfinite(g))
      throw std::invalid_argument(fmt::format("--gammas: {} is not a number >= 0", g));
  gammas.push_back(0.0);
  std::sort(gammas.begin(), gammas.end());
  gammas.erase(std::unique(gammas.begin(), gammas.end()), gammas.end());
  return gammas;
}

// The header field that marks the objective's class in the training FASTA: `real_label` itself,
// "" for "none", and for "auto" the objective's name when the first record's description holds
// NAME=... (peptide/train.fasta carries amp=0/1/NA, the labels the amp classifier trains on).
std::string class_field(const std::string& real_label, const std::string& objective,
                        const std::string& training_file) {
  if (real_label == "none") return "";
  if (real_label != "auto") return real_label;
  std::ifstream f(training_file);
  std::string line;
  while (std::getline(f, line))
    if (!line.empty() && line[0] == '>') {
      const auto space = line.find_first_of(" \t");
      const std::string description = space == std::string::npos ? "" : line.substr(space + 1);
      return header_field(description, objective).empty() ? "" : objective;
    }
  return "";
}

json terms_json(const std::vector<guidance::GuideTerm>& terms) {
  json out = json::array();
  for (const auto& t : terms) out.push_back({{"objective", t.objective}, {"weight", t.weight}});
  return out;
}

struct Generated {
  engine::SequenceSet sequences;
  double seconds = 0.0;
  std::uint64_t objective_calls = 0;
};

void run_eval_guidance(const EvalGuidanceCli& cli) {
  if (cli.split != "validation" && cli.split != "test")
    throw std::invalid_argument("--split: expected validation or test, not '" + cli.split + "'");
  if (cli.objective.empty()) throw std::invalid_argument("--objective: required");
  const auto gammas = gamma_list(cli.gammas);
  const auto file = models::resolve_model(cli.model);
  const auto model = models::Model::load(file);
  const auto& spec = model.spec();
  const std::string name = std::filesystem::path(file).stem().string();
  const engine::Alphabet& alphabet = alphabet_named(spec.alphabet, file + ": alphabet");
  const bool dna = spec.alphabet == "dna";
  const std::size_t kmax = dna ? 6 : 3;
  const auto objective = guidance::make_objective(cli.objective, spec.alphabet, cli.threads);

  // The judge: --judge, else the bundled judge named like the objective, if any.
  std::string judge_name = cli.judge;
  std::optional<models::KmerJudge> judge;
  if (judge_name.empty()) {
    try {
      judge = models::KmerJudge::load(models::resolve_judge(cli.objective));
      judge_name = cli.objective;
    } catch (const std::exception&) {
      std::cerr << "eval-guidance: no judge named " << cli.objective
                << " (give --judge); judge figures are left out\n";
    }
  } else {
    judge = models::KmerJudge::load(models::resolve_judge(judge_name));
  }
  if (judge && judge->info().alphabet != spec.alphabet)
    throw std::invalid_argument("--judge " + judge_name + ": judges " + judge->info().alphabet +
                                " sequences, the model makes " + spec.alphabet);

  const std::string dataset = dna ? fmt::format("dna{}", spec.length) : "peptide";
  if (cli.split == "test")
    std::cerr << "eval-guidance: the test split is reserved for final reports\n";
  const std::string training_file = data_file(dataset + "/train.fasta", cli.data);
  const std::string reference_file = data_file(dataset + "/" + cli.split + ".fasta", cli.data);
  const auto reference = read_sequences(reference_file, alphabet, 1, spec.length);
  const auto training = read_sequences(training_file, alphabet, 1, spec.length);

  // The composition checks and the real figures beside them. DNA: the training and reference
  // sets as they are (promoter-proximal windows). Protein: the objective's real class, when the
  // FASTA headers label it (amp=1), in the training and reference splits; the per-residue ceiling
  // (99th percentile) is fitted on the training positives.
  const std::string& letters = alphabet.letters();
  const evaluation::CompositionOptions composition_options;
  const auto profile = pipeline::profile_for(file);
  if (!profile)
    std::cerr << "eval-guidance: " << file << " has no typicality profile; the atypical share is "
              << "left out\n";
  const engine::TypicalityProfile* profile_ptr = profile ? &*profile : nullptr;
  std::optional<evaluation::ResidueCeiling> ceiling;
  json composition_real = json::object();
  json ceiling_json = nullptr;
  // Peptides: the objective's real class in the training and reference splits (every sequence
  // when no header labels it). With a label, designs are also compared with the class itself.
  engine::SequenceSet train_class, reference_class;
  bool labelled_class = false;
  const auto checks_json = [&](const engine::SequenceSet& s) {
    return evaluation::to_json(
        evaluation::composition_checks(s, letters, composition_options,
                                       ceiling ? &*ceiling : nullptr, profile_ptr),
        letters, composition_options);
  };
  if (dna) {
    composition_real["training"] = checks_json(training);
    composition_real["training"]["source"] = dataset + "/train.fasta";
    composition_real["reference"] = checks_json(reference);
    composition_real["reference"]["source"] = dataset + "/" + cli.split + ".fasta";
  } else {
    const std::string field = class_field(cli.real_label, cli.objective, training_file);
    train_class = training;
    reference_class = reference;
    std::string train_source = dataset + "/train.fasta", reference_source =
        dataset + "/" + cli.split + ".fasta";
    labelled_class = !field.empty();
    if (labelled_class) {
      train_class = positives_of(read_labelled(training_file, alphabet, field, 1, spec.length));
      reference_class =
          positives_of(read_labelled(reference_file, alphabet, field, 1, spec.length));
      train_source += " " + field + "=1";
      reference_source += " " + field + "=1";
      if (train_class.empty() || reference_class.empty())
        throw std::invalid_argument("--real-label " + field + ": no record labelled " + field +
                                    "=1 in the training or the reference split");
    }
    ceiling = evaluation::ResidueCeiling::fit(train_class, letters,
                                              composition_options.residue_quantile);
    json high = json::object();
    for (std::size_t j = 0; j < letters.size(); ++j)
      high[std::string(1, letters[j])] = ceiling->high[j];
    ceiling_json = {{"source", train_source},
                    {"sequences", ceiling->reference_size},
                    {"quantile", ceiling->quantile},
                    {"high", high}};
    composition_real["training_class"] = checks_json(train_class);
    composition_real["training_class"]["source"] = train_source;
    composition_real["reference_class"] = checks_json(reference_class);
    composition_real["reference_class"]["source"] = reference_source;
    if (labelled_class) {
      composition_real["training"] = checks_json(training);
      composition_real["training"]["source"] = dataset + "/train.fasta";
    }
  }

  const engine::Kernels kernels(kernel_options(cli.threads));
  pipeline::GenerateRequest base;
  base.threads = cli.threads;
  base.sampler.method = spec.method;
  base.sampler.steps = cli.steps;
  base.sampler.integrator = cli.run.sampler.integrator;
  base.precision = cli.run.precision;
  base.sampler.guide_substeps = cli.run.sampler.guide_substeps;
  base.sampler.seed = cli.seed;
  base.sampler.batch = 256;
  base.guidance.terms = {{cli.objective, 1.0}};
  base.objectives = {objective};
  for (const auto& text : cli.also_guide)
    base.guidance.terms.push_back(guidance::parse_guide_term(text));
  guidance::add_naturalness(base.guidance.terms, cli.naturalness);
  for (std::size_t j = 1; j < base.guidance.terms.size(); ++j)
    base.objectives.push_back(
        guidance::make_objective(base.guidance.terms[j].objective, spec.alphabet, cli.threads));
  base.guidance.samples = cli.samples;
  base.guidance.schedule = guidance::parse_gamma_schedule(cli.schedule, "--gamma-schedule");
  base.guidance.from = guidance::parse_guide_from(cli.from, "--guide-from");
  base.guidance.method = guidance::kGuidanceMethodNames.parse(cli.method, "--guidance-method");
  const auto run = [&](double gamma, std::size_t first, std::size_t n) {
    auto request = base;
    request.guidance.gamma = gamma;
    request.first = first;
    request.n = n;
    const auto r = pipeline::generate(model, request, kernels);
    Generated g;
    g.sequences.assign(r.sequences.begin(), r.sequences.end());
    g.seconds = r.total_seconds;
    g.objective_calls = r.guidance.objective_calls;
    return g;
  };
  const auto judge_scores = [&](const engine::SequenceSet& s) {
    return judge ? judge->probabilities(s) : std::vector<double>{};
  };

  json results = json::array();
  std::vector<double> unguided_guide, unguided_judge;
  double unguided_seconds = 0.0;
  std::uint64_t calls_per_sequence = 0;
  for (const double gamma : gammas) {
    std::cerr << fmt::format("eval-guidance {}: gamma {} ...\n", name, gamma);
    const auto g = run(gamma, 0, cli.n);
    const auto guide = guidance::score_sequences(*objective, g.sequences);
    const auto judged = judge_scores(g.sequences);
    const auto m = engine::evaluate_set(g.sequences, reference, training, spec.k, kmax);
    const double js = mean(m.kmer_js);
    std::vector<double> class_js;
    if (labelled_class)
      for (std::size_t k = 1; k <= kmax; ++k)
        class_js.push_back(engine::kmer_js(g.sequences, reference_class, spec.k, k));
    // Calls of the objective under test (each term is called as often; --also-guide terms are
    // not counted, so best-of-N gets the classifier calls of the guided runs).
    const std::uint64_t calls = g.objective_calls / cli.n / base.guidance.terms.size();
    if (gamma == 0.0) {
      unguided_guide = guide;
      unguided_judge = judged;
      unguided_seconds = g.seconds;
    } else {
      calls_per_sequence = calls;
    }
    json row = {{"gamma", gamma},
                {"guide_mean", mean(guide)},
                {"guide_p10", quantile(guide, 0.1)},
                {"guide_median", quantile(guide, 0.5)},
                {"guide_p90", quantile(guide, 0.9)},
                {"kmer_js", js},
                {"kmer_js_by_k", m.kmer_js},
                {"uniqueness", m.uniqueness},
                {"diversity", m.diversity},
                {"novelty_mean_identity", m.novelty_mean_identity},
                {"exact_copy_fraction", m.exact_copy_fraction},
                {"seconds", g.seconds},
                {"seconds_per_100", g.seconds / static_cast<double>(cli.n) * 100.0},
                {"time_ratio", unguided_seconds > 0 ? g.seconds / unguided_seconds : 1.0},
                {"objective_calls_per_sequence", calls},
                {"composition", checks_json(g.sequences)}};
    if (!class_js.empty()) {
      row["kmer_js_class"] = mean(class_js);
      row["kmer_js_class_by_k"] = class_js;
    }
    if (judge) {
      row["judge_mean"] = mean(judged);
      row["judge_median"] = quantile(judged, 0.5);
    }
    results.push_back(row);
  }

  json out = {{"model", name},
              {"checkpoint", file},
              {"method", engine::method_name(spec.method)},
              {"objective", cli.objective},
              {"objective_description", objective->info().description},
              {"judge", judge ? json(judge_name) : json(nullptr)},
              {"split", cli.split},
              {"n", cli.n},
              {"steps", cli.steps},
              {"seed", cli.seed},
              {"guide_samples", cli.samples},
              {"gamma_schedule", cli.schedule},
              {"guide_from", cli.from},
              {"guidance_method", cli.method},
              {"also_guide", cli.also_guide},
              {"naturalness", cli.naturalness},
              {"guide_terms", terms_json(base.guidance.terms)},
              {"typicality_profile", profile ? json(pipeline::profile_path(file)) : json(nullptr)},
              {"composition_real", composition_real},
              {"results", results}};
  if (!dna) out["residue_ceiling"] = ceiling_json;
  const double p90 = judge ? quantile(unguided_judge, 0.9) : 0.0;
  if (judge) out["judge_p90_unguided"] = p90;
  // What real members of the class score: the training positives, which the judge (fitted on
  // another split) has not seen.
  if (judge && labelled_class)
    out["judge_mean_training_class"] = mean(judge_scores(train_class));

  // Best-of-N at the guided runs' objective calls per sequence, from a pool of unguided samples
  // (the gamma = 0 set extended: sequence i is the same whatever the request size).
  if (calls_per_sequence > 0) {
    const std::size_t n_calls = calls_per_sequence;
    const std::size_t pool_size = std::max(cli.pool > 0 ? cli.pool : 4 * n_calls, cli.n);
    std::cerr << fmt::format("eval-guidance {}: best-of-{} from a pool of {} unguided ...\n", name,
                             n_calls, pool_size);
    auto pool_guide = unguided_guide;
    auto pool_judge = unguided_judge;
    double pool_seconds = unguided_seconds;
    if (pool_size > cli.n) {
      const auto extra = run(0.0, cli.n, pool_size - cli.n);
      const auto g = guidance::score_sequences(*objective, extra.sequences);
      pool_guide.insert(pool_guide.end(), g.begin(), g.end());
      const auto j = judge_scores(extra.sequences);
      pool_judge.insert(pool_judge.end(), j.begin(), j.end());
      pool_seconds += extra.seconds;
    }
    if (!judge) pool_judge = pool_guide;
    const std::size_t n_best = std::min(n_calls, pool_guide.size());
    const auto b = evaluation::best_of_n(pool_guide, pool_judge, n_best);
    json curve = json::array();
    // N = 1, 4, 16, ... and the budget itself.
    for (std::size_t k = 1; k <= n_best; k = k < n_best && 4 * k > n_best ? n_best : 4 * k) {
      const auto c = evaluation::best_of_n(pool_guide, pool_judge, k);
      curve.push_back({{"n", k}, {"guide_mean", c.guide_mean}, {"judge_mean", c.judge_mean}});
    }
    out["best_of_n"] = {{"classifier_calls", n_calls},
                        {"n", n_best},
                        {"pool", pool_guide.size()},
                        {"guide_mean", b.guide_mean},
                        {"judge_mean", judge ? json(b.judge_mean) : json(nullptr)},
                        {"seconds_per_sequence_estimate",
                         pool_seconds / static_cast<double>(pool_guide.size()) *
                             static_cast<double>(n_best)}};
    out["best_of_n_curve"] = curve;
  }

  if (emit_eval_report(cli, out)) return;
  std::cout << fmt::format("{} guidance of {} ({}) by {} [{}], judge {}, {} split, n = {}, {} steps, "
                           "M = {}\n",
                           cli.method, name, engine::method_name(spec.method), cli.objective,
                           objective->info().description, judge ? judge_name : "none", cli.split,
                           cli.n, cli.steps, cli.samples);
  std::cout << fmt::format("{:>7} {:>10} {:>10} {:>10} {:>8} {:>7} {:>7} {:>8} {:>6}\n", "gamma",
                           "guide", "guide p90", "judge", "k-mer JS", "unique", "divers",
                           "seconds", "x time");
  for (const auto& r : results)
    std::cout << fmt::format("{:>7.3g} {:>10.4f} {:>10.4f} {:>10} {:>8.4f} {:>7.3f} {:>7.3f} "
                             "{:>8.1f} {:>6.2f}\n",
                             r["gamma"].get<double>(), r["guide_mean"].get<double>(),
                             r["guide_p90"].get<double>(),
                             r.contains("judge_mean")
                                 ? fmt::format("{:.4f}", r["judge_mean"].get<double>())
                                 : "-",
                             r["kmer_js"].get<double>(), r["uniqueness"].get<double>(),
                             r["diversity"].get<double>(), r["seconds"].get<double>(),
                             r["time_ratio"].get<double>());
  if (judge) std::cout << fmt::format("judge p90 unguided: {:.4f}\n", p90);
  if (out.contains("judge_mean_training_class"))
    std::cout << fmt::format("judge mean of the real class ({}): {:.4f}\n",
                             ceiling_json["source"].get<std::string>(),
                             out["judge_mean_training_class"].get<double>());
  if (labelled_class) {
    std::cout << "k-mer JS to the real class of the split (" << reference_class.size()
              << " sequences):";
    for (const auto& r : results)
      std::cout << fmt::format(" gamma {:g} {:.4f};", r["gamma"].get<double>(),
                               r["kmer_js_class"].get<double>());
    std::cout << "\n";
  }

  // The composition checks per gamma, then the same figures for the real sets.
  const auto share = [](const json& c, const char* key) {
    return c.contains(key) ? fmt::format("{:.1f} %", 100.0 * c[key].get<double>()) : "-";
  };
  const auto composition_cells = [&](const json& c) {
    if (dna)
      return fmt::format("{:>10} {:>8.3f} {:>8} {:>9}", share(c, "tata_window_fraction"),
                         c["cpg_oe_mean"].get<double>(), share(c, "long_run_fraction"),
                         share(c, "atypical_fraction"));
    return fmt::format("{:>9} {:>12} {:>8} {:>9}", share(c, "residue_above_ceiling_fraction"),
                       c["worst_residue"].get<std::string>() + " " +
                           share(c, "worst_residue_fraction"),
                       share(c, "long_run_fraction"), share(c, "atypical_fraction"));
  };
  const std::string header =
      dna ? fmt::format("{:>10} {:>8} {:>8} {:>9}", "TATA -45..", "CpG o/e",
                        fmt::format("run>={}", composition_options.dna_run), "atypical")
          : fmt::format("{:>9} {:>12} {:>8} {:>9}", "any > p99", "worst > p99",
                        fmt::format("run>={}", composition_options.protein_run), "atypical");
  std::cout << fmt::format("\ncomposition checks{}\n",
                           dna ? ""
                               : fmt::format(" (ceiling: p99 of each residue's fraction in {}, {} "
                                             "sequences)",
                                             ceiling_json["source"].get<std::string>(),
                                             ceiling->reference_size));
  std::cout << fmt::format("{:>30} {} {:>7} {:>9} {:>6}\n", "set", header, "unique", "s/100",
                           "x time");
  for (const auto& r : results)
    std::cout << fmt::format("{:>30} {} {:>7.3f} {:>9.2f} {:>6.2f}\n",
                             fmt::format("gamma {:g}", r["gamma"].get<double>()),
                             composition_cells(r["composition"]), r["uniqueness"].get<double>(),
                             r["seconds_per_100"].get<double>(), r["time_ratio"].get<double>());
  for (const auto& [key, c] : composition_real.items())
    std::cout << fmt::format("{:>30} {}\n", c["source"].get<std::string>(), composition_cells(c));
  if (out.contains("best_of_n"))
    std::cout << fmt::format("best-of-{} (same objective calls per sequence, pool {}): guide "
                             "{:.4f}, judge {}\n",
                             out["best_of_n"]["n"].get<std::size_t>(),
                             out["best_of_n"]["pool"].get<std::size_t>(),
                             out["best_of_n"]["guide_mean"].get<double>(),
                             judge ? fmt::format("{:.4f}", out["best_of_n"]["judge_mean"].get<double>())
                                   : "-");
}

}  // namespace

void add_eval_guidance_command(CLI::App& app) {
  auto cli = std::make_shared<EvalGuidanceCli>();
  auto* cmd = app.add_subcommand(
      "eval-guidance",
      "Measure guidance: per gamma the objective's and an independent judge's scores, k-mer JS, "
      "uniqueness and time, against best-of-N at equal objective calls");
  add_eval_options(*cmd, *cli,
                   {.n = "Sequences per gamma",
                    .out = "Also write the JSON report to this file (for scripts/plot-guidance)"});
  add_run_options(*cmd, cli->run, {"guide_substeps"});
  cmd->add_option("--objective", cli->objective, "Objective spec to guide with (e.g. promoter, amp, gc)")
      ->required();
  cmd->add_option("--judge", cli->judge,
                  "Independent judge (default: the bundled judge named like the objective)");
  cmd->add_option("--gammas", cli->gammas, "Comma-separated gammas (0 is always included)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--guide-samples", cli->samples, "M, draws per step")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--gamma-schedule", cli->schedule, "constant, rising or falling")->capture_default_str();
  cmd->add_option("--guide-from", cli->from, "state or prediction")->capture_default_str();
  cmd->add_option("--guidance-method", cli->method,
                  "stgflow (gradient drift) or svdd (best of M candidates by value)")
      ->capture_default_str();
  cmd->add_option("--pool", cli->pool,
                  "Unguided samples for best-of-N (default: 4 x the objective calls per sequence)");
  cmd->add_option("--real-label", cli->real_label,
                  "Peptides: FASTA header field marking the objective's real class (its =1 "
                  "records give the real figures and the residue ceiling); auto: the objective's "
                  "name when the training headers carry it; none: every training sequence")
      ->capture_default_str();
  cmd->add_option("--also-guide", cli->also_guide,
                  "A further guide term, SPEC[=WEIGHT], steering with the objective (e.g. "
                  "natural:amp=0.5); repeatable. The figures stay the objective's");
  cmd->add_option("--naturalness", cli->naturalness,
                  "As generate's: weight of the natural:NAME term added for the objective when it "
                  "has a composition band; 0 = off")
      ->capture_default_str();
  cmd->add_option("--split", cli->split, "Data split for k-mer JS: validation or test")
      ->capture_default_str();
  cmd->callback([cli] { run_eval_guidance(*cli); });
}

}  // namespace gsflow::app
