// `gsflow bench generate` (see bench_generate.hpp). Timed runs alternate between the two
// configurations (previous, current, previous, ...) so that a slow moment of a shared machine hits
// both; quality sets are generated once per configuration with the same seed.
#include "bench_generate.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "global_options.hpp"
#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/metrics/set_metrics.hpp"
#include "gsflow/guidance/natural.hpp"
#include "gsflow/guidance/objective_catalog.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/judge.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "sequence_sets.hpp"
#include "statistics.hpp"

namespace gsflow::app {

namespace {

using json = nlohmann::json;

struct BenchGenerateCli {
  std::vector<std::string> cases{"dna", "peptide", "guided"};
  std::size_t n = 1000;       // quality set per configuration
  std::size_t time_n = 100;   // sequences per timed run
  int repeats = 3, threads = 2;
  std::string data, out_dir;
  bool json = false;
};

// One benchmark case: a model and, for guided DNA, the guide.
struct Case {
  std::string name, model, guide;
};

const std::map<std::string, Case>& known_cases() {
  static const std::map<std::string, Case> cases{
      {"dna", {"dna", "dna-promoter", ""}},
      {"peptide", {"peptide", "peptide", ""}},
      {"guided", {"guided", "dna-promoter", "promoter"}}};
  return cases;
}

// The defaults before the faster ones (issue 42): what every older stored run was made with.
pipeline::RunParams previous_defaults(pipeline::RunParams p) {
  p.sampler.steps = 100;
  p.sampler.grid = engine::TimeGrid::uniform;
  p.sampler.integrator = engine::Integrator::exponential;
  p.precision = models::Precision::float32;
  return p;
}

struct Measured {
  std::vector<double> seconds;  // per timed run of time_n sequences
  Sequences sequences;
  double network_seconds = 0.0;
};

struct Quality {
  double kmer_js = 0.0, composition_kl = 0.0, tata_window = 0.0, judge_mean = -1.0;
};

pipeline::RunParams case_params(const Case& c, const models::Model& model,
                                 const BenchGenerateCli& cli) {
  pipeline::RunParams p;
  p.model = c.model;
  p.threads = cli.threads;
  p.consistent = global_options().consistent;
  p.sampler.method = model.spec().method;
  p.sampler.frames_every = 0;
  if (!c.guide.empty()) {
    const auto* entry = guidance::find_objective_entry(c.guide);
    p.guidance.terms.push_back({c.guide, 1.0});
    guidance::add_naturalness(p.guidance.terms, guidance::kDefaultNaturalness);
    p.guidance.gamma = entry && entry->suggested_gamma ? *entry->suggested_gamma : 1.0;
  }
  return p;
}

Sequences generate_n(const models::Model& model, pipeline::RunParams p, std::size_t n,
                               double* seconds) {
  p.n = n;
  const engine::Kernels kernels(kernel_options(p.threads));
  auto result = pipeline::generate(model, pipeline::to_request(p), kernels);
  if (seconds) *seconds = result.total_seconds;
  return std::move(result.sequences);
}

std::string config_text(const pipeline::RunParams& p) {
  return fmt::format("{} steps, {} grid, {}, {}", pipeline::resolved_steps(p),
                     engine::kTimeGridNames.name(p.sampler.grid),
                     engine::integrator_name(p.sampler.integrator),
                     models::kPrecisionNames.name(
                         models::resolve_precision(p.precision)));
}

void write_fasta(const std::string& file, const Sequences& set,
                 const engine::Alphabet& alphabet) {
  std::ofstream out(file);
  if (!out) throw std::invalid_argument("--out-dir: cannot write " + file);
  for (std::size_t i = 0; i < set.size(); ++i)
    out << ">s" << i << "\n" << alphabet.decode(set[i]) << "\n";
}

json run_case(const Case& c, const BenchGenerateCli& cli) {
  const auto file = models::resolve_model(c.model);
  const auto model = models::Model::load(file);
  const auto& spec = model.spec();
  const engine::Alphabet& alphabet = alphabet_named(spec.alphabet, file + ": alphabet");
  const bool dna = spec.alphabet == "dna";
  const std::string dataset = dna ? fmt::format("dna{}", spec.length) : "peptide";
  const auto training =
      read_sequences(data_file(dataset + "/train.fasta", cli.data), alphabet, 1, spec.length);
  const auto validation = read_sequences(data_file(dataset + "/validation.fasta", cli.data),
                                         alphabet, 1, spec.length);
  std::optional<models::KmerJudge> judge;
  if (!c.guide.empty()) judge = models::KmerJudge::load(models::resolve_judge(c.guide));

  const pipeline::RunParams current = case_params(c, model, cli);
  const pipeline::RunParams previous = previous_defaults(current);
  const std::array<const pipeline::RunParams*, 2> configs{&previous, &current};
  const std::array<const char*, 2> names{"previous", "current"};
  std::array<Measured, 2> measured;
  generate_n(model, current, std::min<std::size_t>(cli.time_n, 8), nullptr);  // warm-up
  for (int r = 0; r < cli.repeats; ++r)
    for (std::size_t k = 0; k < 2; ++k) {
      double s = 0.0;
      generate_n(model, *configs[k], cli.time_n, &s);
      measured[k].seconds.push_back(s);
      std::cerr << fmt::format("bench generate {}: {} run {}: {:.2f} s\n", c.name, names[k],
                               r + 1, s);
    }
  json out{{"case", c.name}, {"model", file}, {"n", cli.n}, {"time_n", cli.time_n},
           {"repeats", cli.repeats}, {"threads", cli.threads}, {"split", "validation"}};
  const std::size_t kmax = dna ? 6 : 3;
  std::array<Quality, 2> quality;
  for (std::size_t k = 0; k < 2; ++k) {
    double s = 0.0;
    const auto set = generate_n(model, *configs[k], cli.n, &s);
    std::cerr << fmt::format("bench generate {}: {} quality set of {} in {:.1f} s\n", c.name,
                             names[k], cli.n, s);
    if (!cli.out_dir.empty())
      write_fasta((std::filesystem::path(cli.out_dir) / fmt::format("{}-{}.fasta", c.name, names[k]))
                      .string(),
                  set, alphabet);
    const auto m = engine::evaluate_set(set, validation, training, spec.k, kmax);
    Quality& q = quality[k];
    q.kmer_js = m.kmer_js.at(kmax - 1);
    q.composition_kl = m.composition_kl;
    q.tata_window = m.tata.window_fraction;
    if (judge) q.judge_mean = mean(judge->probabilities(set));
    const double per100 = median(measured[k].seconds) * 100.0 / static_cast<double>(cli.time_n);
    json j{{"config", config_text(*configs[k])},
           {"steps", pipeline::resolved_steps(*configs[k])},
           {"seconds_per_100", per100},
           {"seconds", measured[k].seconds},
           {"kmer_js", q.kmer_js},
           {"kmer", kmax}};
    if (dna) j["tata_window_fraction"] = q.tata_window;
    else j["composition_kl"] = q.composition_kl;
    if (judge) j["judge_mean"] = q.judge_mean;
    out[names[k]] = j;
  }
  const double speed = out["previous"]["seconds_per_100"].get<double>() /
                       out["current"]["seconds_per_100"].get<double>();
  json cmp{{"speedup", speed}, {"kmer_js_ratio", quality[1].kmer_js / quality[0].kmer_js}};
  if (dna) cmp["tata_window_points"] = 100.0 * (quality[1].tata_window - quality[0].tata_window);
  else cmp["composition_kl_ratio"] = quality[1].composition_kl / quality[0].composition_kl;
  if (judge) cmp["judge_mean_diff"] = quality[1].judge_mean - quality[0].judge_mean;
  out["comparison"] = cmp;
  return out;
}

std::string case_table(const json& r) {
  std::string s = fmt::format("{} ({}), {} threads, time: median of {} runs of {}; quality: {} "
                              "sequences vs {}\n",
                              r["case"].get<std::string>(), r["model"].get<std::string>(),
                              r["threads"].get<int>(), r["repeats"].get<int>(),
                              r["time_n"].get<std::size_t>(), r["n"].get<std::size_t>(),
                              r["split"].get<std::string>());
  for (const char* name : {"previous", "current"}) {
    const json& c = r[name];
    std::string extra;
    if (c.contains("tata_window_fraction"))
      extra += fmt::format("  TATA window {:.3f}", c["tata_window_fraction"].get<double>());
    if (c.contains("composition_kl"))
      extra += fmt::format("  composition KL {:.5f}", c["composition_kl"].get<double>());
    if (c.contains("judge_mean"))
      extra += fmt::format("  judge mean {:.3f}", c["judge_mean"].get<double>());
    s += fmt::format("  {:<9} {:<45} {:7.2f} s/100  {}-mer JS {:.5f}{}\n", name,
                     c["config"].get<std::string>(), c["seconds_per_100"].get<double>(),
                     c["kmer"].get<std::size_t>(), c["kmer_js"].get<double>(), extra);
  }
  const json& m = r["comparison"];
  std::string extra;
  if (m.contains("tata_window_points"))
    extra += fmt::format(", TATA window {:+.1f} points", m["tata_window_points"].get<double>());
  if (m.contains("composition_kl_ratio"))
    extra += fmt::format(", composition KL x{:.3f}", m["composition_kl_ratio"].get<double>());
  if (m.contains("judge_mean_diff"))
    extra += fmt::format(", judge mean {:+.3f}", m["judge_mean_diff"].get<double>());
  s += fmt::format("  current vs previous: {:.2f}x the speed, k-mer JS x{:.3f}{}\n",
                   m["speedup"].get<double>(), m["kmer_js_ratio"].get<double>(), extra);
  return s;
}

void run_bench_generate(const BenchGenerateCli& cli) {
  for (const auto& name : cli.cases)
    if (!known_cases().count(name))
      throw std::invalid_argument("--cases: '" + name + "' is not one of dna, peptide, guided");
  if (!cli.out_dir.empty()) std::filesystem::create_directories(cli.out_dir);
  json all = json::array();
  for (const auto& name : cli.cases) {
    all.push_back(run_case(known_cases().at(name), cli));
    if (!cli.json) std::cout << case_table(all.back()) << std::flush;
  }
  if (cli.json) std::cout << all.dump(2) << "\n";
}

}  // namespace

void add_bench_generate(CLI::App& bench) {
  auto cli = std::make_shared<BenchGenerateCli>();
  auto* cmd = bench.add_subcommand(
      "generate",
      "Time per 100 sequences and quality (validation) of the current generation defaults "
      "against the previous ones (100 uniform steps, float32): DNA, peptides, guided DNA");
  cmd->add_option("--cases", cli->cases, "Which of dna, peptide, guided")
      ->capture_default_str()
      ->delimiter(',');
  cmd->add_option("--n", cli->n, "Sequences per quality set")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--time-n", cli->time_n, "Sequences per timed run")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--repeats", cli->repeats, "Timed runs per configuration (median)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", cli->threads, "Network threads")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--data", cli->data, "Data folder (default: $GSFLOW_DATA or data/)");
  cmd->add_option("--out-dir", cli->out_dir,
                  "Also write each quality set as FASTA (CASE-previous.fasta, CASE-current.fasta)");
  cmd->add_flag("--json", cli->json, "JSON output");
  cmd->callback([cli] { run_bench_generate(*cli); });
}

}  // namespace gsflow::app
