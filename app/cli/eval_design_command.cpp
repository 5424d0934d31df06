// `gsflow eval-design`: what designing with fixed letters and hard constraints costs. For each
// method variant of a model (NAME, NAME-gssm, NAME-linear) it generates sets unconstrained, with
// a fixed motif (held clean, held on the path, and pasted over the unconstrained outputs) and with
// constraints (steered, and repaired only); checks every output independently of the design code
// (evaluation/design_checks.hpp); and compares the designed part's k-mers with a data split,
// beside the unconstrained set and the real-vs-real floor.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "design_eval_commands.hpp"
#include "eval_options.hpp"
#include "global_options.hpp"
#include "gsflow/engine/sequence_metrics.hpp"
#include "gsflow/evaluation/design_checks.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/pipeline/generate.hpp"
#include "sequence_sets.hpp"
#include "statistics.hpp"
#include "validators.hpp"

namespace gsflow::app {

namespace {

using nlohmann::json;

struct EvalDesignCli : EvalCli {
  EvalDesignCli() { n = 1000; }
  std::string split = "validation";
  std::vector<std::string> methods = {"gsfm", "gssm", "linear"};
  std::size_t bootstrap = 50;
};

// The fixed DNA motif: a TATA box 30 bp upstream of the start site, where real ones sit (the
// TATA window of `gsflow eval` is -45..-15).
constexpr long kMotifAt = -30;
constexpr const char* kMotif = "TATAAAAG";
constexpr std::size_t kMotifLength = 8;
constexpr std::size_t kFlank = 10;  // letters each side of the motif compared with real boxes
// The steered sets: the strength that was generate's default when these sets were defined (the
// default is 0 since 932ceae), given explicitly so that the rows keep their meaning.
constexpr double kSteerStrength = 4.0;
constexpr const char* kSteered = " --constraint-strength 4";

struct SetSpec {
  std::string name{};     // row label
  std::string options{};  // the `gsflow generate` options that make it
  pipeline::DesignOptions design{};
  bool pasted = false;  // the unconstrained set with the motif written over its letters
  bool motif = false;   // the motif sits at kMotifAt
  evaluation::DesignCheck check{};
};

evaluation::DesignCheck motif_check() { return {.fixed = {{kMotifAt, kMotif}}}; }

// The sets of issue 37 for DNA. The checks spell the sites out (EcoRI GAATTC, BsaI GGTCTC)
// rather than asking the enzyme table of the code under test.
std::vector<SetSpec> dna_sets() {
  std::vector<SetSpec> sets;
  sets.push_back({.name = "unconstrained", .options = "-"});
  const std::string fix = fmt::format("{}={}", kMotifAt, kMotif);
  for (const auto hold : {engine::FixedHold::clean, engine::FixedHold::path}) {
    SetSpec s{
        .name = fmt::format("TATA fixed, {} hold", engine::kFixedHoldNames.name(hold)),
        .options = fmt::format("--fix {} --fixed-hold {}", fix, engine::kFixedHoldNames.name(hold)),
        .motif = true,
        .check = motif_check()};
    s.design.fix = {fix};
    s.design.fixed_hold = hold;
    sets.push_back(s);
  }
  sets.push_back({.name = "TATA pasted",
                  .options = "unconstrained, letters overwritten",
                  .pasted = true,
                  .motif = true,
                  .check = motif_check()});
  for (const bool steered : {true, false}) {
    SetSpec s{.name = steered ? "avoid + max-run, steered" : "avoid + max-run, repair only",
              .options = std::string("--avoid EcoRI,BsaI --max-run 6") +
                         (steered ? kSteered : " --constraint-strength 0"),
              .check = {.sites = {"GAATTC", "GGTCTC"}, .max_run = 6}};
    s.design.constraints.avoid = {"EcoRI", "BsaI"};
    s.design.constraints.max_run = 6;
    s.design.constraint_strength = steered ? kSteerStrength : 0.0;
    sets.push_back(s);
  }
  return sets;
}

std::vector<SetSpec> peptide_sets() {
  std::vector<SetSpec> sets;
  sets.push_back({.name = "unconstrained", .options = "-"});
  for (const bool steered : {true, false}) {
    SetSpec s{.name = steered ? "omit C + max-run, steered" : "omit C + max-run, repair only",
              .options = std::string("--omit C --max-run 3") +
                         (steered ? kSteered : " --constraint-strength 0"),
              .check = {.max_run = 3, .omit = "C"}};
    s.design.constraints.omit = "C";
    s.design.constraints.max_run = 3;
    s.design.constraint_strength = steered ? kSteerStrength : 0.0;
    sets.push_back(s);
  }
  return sets;
}

// Where real TATA boxes (TATAWAWR, forward strand) start inside eval's TATA window.
std::vector<evaluation::Site> real_boxes(const engine::SequenceSet& seqs) {
  const engine::TataOptions window;
  std::vector<evaluation::Site> sites;
  for (std::size_t i = 0; i < seqs.size(); ++i)
    for (long at = window.window_begin; at <= window.window_end; ++at)
      if (const auto p = evaluation::resolve_position(at, seqs[i].size());
          p && engine::tata_at(seqs[i], *p))
        sites.push_back({i, *p});
  return sites;
}

std::vector<evaluation::Site> motif_sites(const engine::SequenceSet& seqs) {
  std::vector<evaluation::Site> sites;
  for (std::size_t i = 0; i < seqs.size(); ++i)
    if (const auto p = evaluation::resolve_position(kMotifAt, seqs[i].size()))
      sites.push_back({i, *p});
  return sites;
}

// What a check asks, in words: "TATAAAAG at -30", "no GAATTC, GGTCTC (both strands), runs <= 6".
std::string describe(const evaluation::DesignCheck& c) {
  std::vector<std::string> parts;
  for (const auto& f : c.fixed) parts.push_back(fmt::format("{} at {}", f.letters, f.position));
  if (!c.sites.empty())
    parts.push_back(fmt::format("no {} (both strands)", fmt::join(c.sites, ", ")));
  if (!c.omit.empty()) parts.push_back("no " + c.omit);
  if (c.max_run > 0) parts.push_back(fmt::format("runs <= {}", c.max_run));
  return fmt::format("{}", fmt::join(parts, ", "));
}

double tata_window(const engine::SequenceSet& seqs) {
  return engine::tata_profile(seqs).window_fraction;
}

std::string percent(double f) { return fmt::format("{:.1f} %", 100.0 * f); }

void run_eval_design(const EvalDesignCli& cli) {
  if (cli.split != "validation" && cli.split != "test" && cli.split != "train")
    throw std::invalid_argument("--split: expected validation, train or test, not '" + cli.split +
                                "'");
  if (cli.split == "test")
    std::cerr << "eval-design: the test split is reserved for final reports\n";
  // The variants present; a missing one is said and skipped.
  std::vector<std::string> files;
  for (const auto& method : cli.methods) {
    try {
      files.push_back(models::resolve_model(cli.model, method == "gsfm" ? "" : method));
    } catch (const models::ModelError& e) {
      std::cerr << "eval-design: no " << method << " variant of " << cli.model << " (" << e.what()
                << ")\n";
    }
  }
  if (files.empty()) throw std::invalid_argument("--model " + cli.model + ": no variant found");
  const auto first_model = models::Model::load(files.front());
  const auto& first_spec = first_model.spec();
  const engine::Alphabet& alphabet =
      alphabet_named(first_spec.alphabet, files.front() + ": alphabet");
  const bool dna = first_spec.alphabet == "dna";
  const std::size_t K = first_spec.k, k = dna ? 6 : 3;  // k as `gsflow eval`'s kmax
  const std::string dataset = dna ? fmt::format("dna{}", first_spec.length) : "peptide";
  const auto reference = read_sequences(data_file(dataset + "/" + cli.split + ".fasta", cli.data),
                                        alphabet, 1, first_spec.length);
  const auto training =
      read_sequences(data_file(dataset + "/train.fasta", cli.data), alphabet, 1, first_spec.length);

  // k-mers touching the fixed motif are left out of every DNA set, so all rows count the same
  // positions; the reference keeps all its k-mers.
  evaluation::KmerRegion designed;
  if (dna) designed.excluded = {{kMotifAt, kMotifAt + static_cast<long>(kMotifLength) - 1}};
  const evaluation::KmerRegion whole;
  const auto js_of = [&](const engine::SequenceSet& s, std::uint64_t seed) {
    return evaluation::region_kmer_js(s, designed, reference, whole, K, k, cli.bootstrap, seed);
  };
  std::vector<double> reference_flank;
  std::size_t reference_boxes = 0;
  if (dna) {
    const auto boxes = real_boxes(reference);
    reference_boxes = boxes.size();
    reference_flank = evaluation::flank_counts(reference, K, boxes, kMotifLength, kFlank);
  }

  // The floor: a training sample as large as a generated set, its designed part against the split.
  const auto sample = engine::sample_subset(training, cli.n, cli.seed + 1);
  const auto floor_js = js_of(sample, cli.seed + 7);
  json floor = {{"n", sample.size()},
                {"kmer_js", floor_js.js},
                {"kmer_js_bootstrap_sd", floor_js.bootstrap_sd}};
  if (dna) {
    // Real boxes of the training split, as many as a generated set has motifs (or all there are).
    auto boxes = real_boxes(training);
    std::mt19937_64 rng(cli.seed + 3);
    std::shuffle(boxes.begin(), boxes.end(), rng);
    boxes.resize(std::min(boxes.size(), cli.n));
    floor["tata_window_fraction"] = tata_window(sample);
    floor["flank_js"] = evaluation::flank_js(
        evaluation::flank_counts(training, K, boxes, kMotifLength, kFlank), reference_flank, K);
    floor["flank_sites"] = boxes.size();
  }

  const auto specs = dna ? dna_sets() : peptide_sets();
  // The floor under each constraint: real training sequences that already meet it, as many as a
  // set, so a constraint that real sequences often break (no C in peptides) is not read as
  // unnaturalness of the designer. Fixed motifs have none (no real sequence carries them there).
  json constrained_floors = json::object();
  for (const auto& set : specs) {
    const std::string what = describe(set.check);
    if (set.check.sites.empty() && set.check.omit.empty() && set.check.max_run == 0) continue;
    if (constrained_floors.contains(what)) continue;
    engine::SequenceSet meeting;
    for (const auto& s : training)
      if (evaluation::check_design(alphabet.decode(s), set.check).empty()) meeting.push_back(s);
    if (meeting.empty()) continue;
    const auto js = js_of(engine::sample_subset(meeting, cli.n, cli.seed + 1), cli.seed + 7);
    constrained_floors[what] = {
        {"n", std::min(meeting.size(), cli.n)},
        {"training_meeting_fraction",
         static_cast<double>(meeting.size()) / static_cast<double>(training.size())},
        {"kmer_js", js.js},
        {"kmer_js_bootstrap_sd", js.bootstrap_sd}};
  }
  json variants = json::array();
  for (const auto& file : files) {
    const auto model = models::Model::load(file);
    const auto& spec = model.spec();
    if (spec.alphabet != first_spec.alphabet || spec.length != first_spec.length)
      throw std::invalid_argument(file + ": another alphabet or length than " + files.front());
    const std::string name = std::filesystem::path(file).stem().string();
    const engine::Kernels kernels(kernel_options(cli.threads));
    engine::SequenceSet unconstrained;
    double unconstrained_seconds = 0.0;
    json rows = json::array();
    for (const auto& set : specs) {
      engine::SequenceSet seqs;
      double seconds = 0.0;
      std::vector<double> changed;
      std::size_t pipeline_met = 0;
      if (set.pasted) {
        seqs = unconstrained;
        seconds = unconstrained_seconds;
        const auto motif = alphabet.encode(kMotif);
        for (auto& s : seqs) {
          const std::size_t at = *evaluation::resolve_position(kMotifAt, s.size());
          std::size_t c = 0;
          for (std::size_t j = 0; j < kMotifLength; ++j) {
            c += s[at + j] != motif[j];
            s[at + j] = motif[j];
          }
          changed.push_back(static_cast<double>(c));
        }
      } else {
        std::cerr << fmt::format("eval-design {}: {} ({} sequences) ...\n", name, set.name, cli.n);
        pipeline::GenerateRequest request;
        request.n = cli.n;
        request.threads = cli.threads;
        request.sampler.method = spec.method;
        request.sampler.steps = cli.steps;
        request.sampler.integrator = cli.run.sampler.integrator;
        request.precision = cli.run.precision;
        request.sampler.seed = cli.seed;
        request.sampler.batch = 256;
        request.sampler.frames_every = 0;
        request.design = set.design;
        auto r = pipeline::generate(model, request, kernels);
        seqs.assign(r.sequences.begin(), r.sequences.end());
        seconds = r.total_seconds;
        for (const auto& note : r.notes) {
          changed.push_back(static_cast<double>(note.repaired));
          pipeline_met += note.met;
        }
        if (!set.design.active()) {
          unconstrained = seqs;
          unconstrained_seconds = seconds;
        }
      }
      // The independent check.
      std::size_t exact = 0;
      std::string first_violation;
      for (const auto& s : seqs) {
        const auto v = evaluation::check_design(alphabet.decode(s), set.check);
        exact += v.empty();
        if (!v.empty() && first_violation.empty()) first_violation = v.front();
      }
      const auto js = js_of(seqs, cli.seed + 7);
      json row = {
          {"set", set.name},
          {"options", set.options},
          {"n", seqs.size()},
          {"checked", set.check.any()},
          {"exact_fraction", static_cast<double>(exact) / static_cast<double>(seqs.size())},
          {"kmer_js", js.js},
          {"kmer_js_bootstrap_sd", js.bootstrap_sd},
          {"kmers_counted", js.kmers},
          {"seconds", seconds},
          {"time_ratio", unconstrained_seconds > 0 ? seconds / unconstrained_seconds : 1.0}};
      if (!changed.empty()) row["changed_mean"] = mean(changed);
      if (!changed.empty()) row["changed_max"] = *std::max_element(changed.begin(), changed.end());
      if (set.design.constraints.active())
        row["pipeline_met_fraction"] =
            static_cast<double>(pipeline_met) / static_cast<double>(seqs.size());
      if (!first_violation.empty()) row["first_violation"] = first_violation;
      if (dna) {
        row["tata_window_fraction"] = tata_window(seqs);
        row["flank_js"] = evaluation::flank_js(
            evaluation::flank_counts(seqs, K, motif_sites(seqs), kMotifLength, kFlank),
            reference_flank, K);
      }
      // How often an unconstrained output already meets what the other sets ask for.
      if (!set.design.active() && !set.pasted) {
        json meets = json::object();
        for (const auto& other : specs) {
          const std::string what = describe(other.check);
          if (!other.check.any() || meets.contains(what)) continue;
          std::size_t ok = 0;
          for (const auto& s : seqs)
            ok += evaluation::check_design(alphabet.decode(s), other.check).empty();
          meets[what] = static_cast<double>(ok) / static_cast<double>(seqs.size());
        }
        row["unconstrained_meets"] = meets;
      }
      rows.push_back(row);
    }
    variants.push_back({{"model", name},
                        {"checkpoint", file},
                        {"method", engine::method_name(spec.method)},
                        {"sets", rows}});
  }

  json out = {{"model", cli.model},
              {"alphabet", first_spec.alphabet},
              {"split", cli.split},
              {"reference_sequences", reference.size()},
              {"n", cli.n},
              {"steps", cli.steps},
              {"seed", cli.seed},
              {"k", k},
              {"bootstrap", cli.bootstrap},
              {"floor", floor},
              {"constrained_floors", constrained_floors},
              {"variants", variants}};
  if (dna) {
    out["motif"] = {{"position", kMotifAt}, {"letters", kMotif}, {"flank", kFlank}};
    out["reference_tata_window_fraction"] = tata_window(reference);
    out["reference_boxes"] = reference_boxes;
  }
  if (emit_eval_report(cli, out)) return;
  // Markdown tables, one per variant.
  std::cout << fmt::format(
      "eval-design {} on the {} split ({} sequences), n = {}, {} steps, seed {}; {}-mer JS of the "
      "designed part{} against all the split's {}-mers (± bootstrap SD, {} resamples)\n",
      cli.model, cli.split, reference.size(), cli.n, cli.steps, cli.seed, k,
      dna ? fmt::format(" (k-mers touching {}..{} left out in every set)", kMotifAt,
                        kMotifAt + static_cast<long>(kMotifLength) - 1)
          : "",
      k, cli.bootstrap);
  if (dna)
    std::cout << fmt::format(
        "flank JS: mean over the {} letters each side of the motif of the letter-distribution JS "
        "(bits) to the {} real TATAWAWR boxes in -45..-15 of the split; TATA window: share with "
        "TATAWAWR starting in -45..-15 (split: {})\n",
        kFlank, reference_boxes, percent(tata_window(reference)));
  for (const auto& v : variants) {
    std::cout << fmt::format("\n{} ({})\n\n", v["model"].get<std::string>(),
                             v["method"].get<std::string>());
    std::cout << "| set | options | exact | changed (mean / max) | " << k
              << "-mer JS, designed part (× unconstrained) |"
              << (dna ? " flank JS | TATA window |" : "") << " seconds (× unconstrained) |\n";
    std::cout << "|---|---|---|---|---|" << (dna ? "---|---|" : "") << "---|\n";
    double base_js = 0.0;
    for (const auto& r : v["sets"]) {
      const double js = r["kmer_js"].get<double>();
      if (r["set"] == "unconstrained") base_js = js;
      std::cout << fmt::format(
          "| {} | `{}` | {} | {} | {:.4f} ± {:.4f} ({:.2f}×) |", r["set"].get<std::string>(),
          r["options"].get<std::string>(),
          r["checked"].get<bool>() ? percent(r["exact_fraction"].get<double>()) : "-",
          r.contains("changed_mean")
              ? fmt::format("{:.2f} / {:.0f}", r["changed_mean"].get<double>(),
                            r["changed_max"].get<double>())
              : "-",
          js, r["kmer_js_bootstrap_sd"].get<double>(), base_js > 0 ? js / base_js : 1.0);
      if (dna)
        std::cout << fmt::format(" {:.4f} | {} |", r["flank_js"].get<double>(),
                                 percent(r["tata_window_fraction"].get<double>()));
      std::cout << fmt::format(" {:.1f} ({:.2f}×) |\n", r["seconds"].get<double>(),
                               r["time_ratio"].get<double>());
    }
    std::cout << fmt::format(
        "| floor: {} real (training) | - | - | - | {:.4f} ± {:.4f} ({:.2f}×) |",
        floor["n"].get<std::size_t>(), floor["kmer_js"].get<double>(),
        floor["kmer_js_bootstrap_sd"].get<double>(),
        base_js > 0 ? floor["kmer_js"].get<double>() / base_js : 1.0);
    if (dna)
      std::cout << fmt::format(" {:.4f} ({} boxes) | {} |", floor["flank_js"].get<double>(),
                               floor["flank_sites"].get<std::size_t>(),
                               percent(floor["tata_window_fraction"].get<double>()));
    std::cout << " - |\n";
    for (const auto& [what, f] : constrained_floors.items()) {
      std::cout << fmt::format(
          "| floor: {} real meeting {} ({} of training) | - | - | - | {:.4f} ± {:.4f} ({:.2f}×) |",
          f["n"].get<std::size_t>(), what, percent(f["training_meeting_fraction"].get<double>()),
          f["kmer_js"].get<double>(), f["kmer_js_bootstrap_sd"].get<double>(),
          base_js > 0 ? f["kmer_js"].get<double>() / base_js : 1.0);
      std::cout << (dna ? " - | - |" : "") << " - |\n";
    }
    for (const auto& r : v["sets"])
      if (r.contains("unconstrained_meets"))
        for (const auto& [opts, f] : r["unconstrained_meets"].items())
          std::cout << fmt::format("\nunconstrained outputs that already meet {}: {}", opts,
                                   percent(f.get<double>()));
    std::cout << "\n";
  }
}

}  // namespace

void add_eval_design_command(CLI::App& app) {
  auto cli = std::make_shared<EvalDesignCli>();
  auto* cmd = app.add_subcommand(
      "eval-design",
      "Measure design with fixed letters and constraints: exactness (checked independently), "
      "letters changed, k-mer JS of the designed part, time; per method variant of a model");
  add_eval_options(*cmd, *cli,
                   {.model = "Bundled model name (its -gssm and -linear variants too)",
                    .seed = "Seed (every set uses it: sequence i is paired across sets)"});
  cmd->add_option("--methods", cli->methods, "Variants to run: gsfm, gssm, linear")
      ->delimiter(',')
      ->check(CLI::IsMember({"gsfm", "gssm", "linear"}))
      ->capture_default_str();
  cmd->add_option("--split", cli->split, "Data split to compare with: validation, train or test")
      ->capture_default_str();
  cmd->add_option("--bootstrap", cli->bootstrap, "Bootstrap resamples for the JS noise (0 = none)")
      ->capture_default_str();
  cmd->callback([cli] { run_eval_design(*cli); });
}

}  // namespace gsflow::app
