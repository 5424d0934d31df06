// Held-out figures and the model card of a fine-tuned generator (see fine_tune_report.hpp).
#include "fine_tune_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "global_options.hpp"
#include "gsflow/evaluation/eval_report.hpp"
#include "gsflow/pipeline/generate.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "output_file.hpp"
#include "progress.hpp"

namespace gsflow::app {

Sequences generate_for_eval(const models::Model& model, std::size_t n, std::uint64_t seed,
                            int threads) {
  pipeline::RunParams params;  // generate's defaults, so the figures are what a user gets
  params.n = n;
  params.threads = threads;
  params.consistent = global_options().consistent;
  params.sampler.method = model.spec().method;
  params.sampler.seed = seed;
  params.sampler.frames_every = 0;
  const engine::Kernels kernels(kernel_options(threads));
  return pipeline::generate(model, pipeline::to_request(params), kernels).sequences;
}

std::size_t eval_kmax(const models::ModelSpec& spec) { return spec.alphabet == "dna" ? 6 : 3; }

HeldOutEval evaluate_part(const std::string& name, const std::string& base_name,
                          const Sequences& tuned, const Sequences& base, const FamilyPart& part,
                          const FamilyPart& train, const models::ModelSpec& spec,
                          std::uint64_t seed) {
  const std::size_t k = spec.k, kmax = eval_kmax(spec);
  HeldOutEval e;
  e.part = part.name;
  e.sequences = part.sequences.size();
  e.tuned = engine::evaluate_set(tuned, part.sequences, train.sequences, k, kmax);
  e.base = engine::evaluate_set(base, part.sequences, train.sequences, k, kmax);
  e.floor = engine::kmer_js_floor(engine::sample_subset(train.sequences, tuned.size(), seed + 1),
                                  part.sequences, k, kmax);
  e.table = evaluation::eval_table(name, part.name, e.tuned, e.floor, {{base_name, e.base}});
  return e;
}

namespace {

std::string lengths_text(const FamilyPart& p) {
  std::size_t lo = SIZE_MAX, hi = 0;
  for (const auto& s : p.sequences) lo = std::min(lo, s.size()), hi = std::max(hi, s.size());
  return lo == hi ? std::to_string(lo) : fmt::format("{}..{}", lo, hi);
}

std::string network_text(const models::ModelSpec& s) {
  return fmt::format("{} {} (width {}, {} {}), {} path, length {}{}", engine::method_name(s.method),
                     models::network_type_name(s.network.type), s.network.width, s.network.blocks,
                     s.network.type == models::NetworkType::transformer ? "layers" : "blocks",
                     engine::interpolant_name(s.path.interpolant),
                     s.variable_length() ? "up to " : "exactly ", s.length);
}

}  // namespace

void write_fine_tune_card(const std::string& file, const FineTuneSummary& s) {
  OutputFile card(file);
  std::ostream& md = card.stream();
  const models::TrainOptions& o = s.options;
  md << fmt::format("# {} (generator fine-tuned on the user's family)\n\n", s.name);
  md << fmt::format(
      "**Base model:** `{}` (`{}`, hash `{}`). **Network, path, method and lengths** are the "
      "base's: {}; alphabet {}. **File:** `{}` (inference weights). **Use:** `gsflow generate "
      "--model {}`.\n\n",
      s.base_name, s.base_file, s.base_hash, network_text(s.spec), s.spec.alphabet, s.out, s.name,
      s.name);
  md << "## Data\n\n";
  md << fmt::format(
      "Family `{}` (file hash `{}`, FNV-1a 64 of its bytes): {} records, {} unique{}. Training "
      "data hash `{}` (FNV-1a 64 of the training part's letters and lengths, as the checkpoint "
      "records it).\n\nHeld out: {}.\n\n",
      s.family_file, s.family_hash, s.family_records, s.family_records - s.merged,
      s.merged ? fmt::format(" ({} duplicates folded)", s.merged) : "", s.data_hash, s.split_text);
  md << "| part | sequences | lengths | role |\n|---|---|---|---|\n";
  for (const FamilyPart* p : s.parts)
    md << fmt::format("| {} | {} | {} | {} |\n", p->name, p->records.size(), lengths_text(*p),
                      p->name == "train"      ? "trains"
                      : p->name == "held-out" ? "validation loss, early stopping, figures below"
                                              : "scored once after training");
  md << "\n## Training\n\n```sh\n" << s.command << "\n```\n\n";
  md << fmt::format(
      "From the base's weights: AdamW lr {} (warm-up {} steps, cosine to {}x), weight decay {}, "
      "clip {}, batch {}, EMA {}, {} times, {} steps planned ({:.1f} passes over the training "
      "part), validation every {} steps on the held-out part ({} fixed-noise batches), patience "
      "{}, seed {}, {} thread(s). {} steps in {} ({}); the weights of step {} are kept (lowest "
      "held-out loss; step 0 is the base itself).\n\n",
      o.lr, o.warmup, o.min_lr_ratio, o.weight_decay, o.clip, o.batch, o.ema,
      models::time_sampling_name(o.time_sampling), o.steps, s.passes, o.validate_every,
      o.validation_batches, s.patience, o.seed, o.threads, s.steps_done,
      clock_text(s.train_seconds), s.stopped, s.best_step);
  md << "## Loss: training part against held-out part\n\n"
        "| weights | training part | held-out part |\n|---|---|---|\n";
  md << fmt::format("| base `{}` | {:.4f} | {:.4f} |\n", s.base_name, s.losses.base_train,
                    s.losses.base_held_out);
  md << fmt::format("| fine-tuned (step {}) | {:.4f} | {:.4f} |\n\n", s.best_step,
                    s.losses.tuned_train, s.losses.tuned_held_out);
  md << "The same fixed noise in every cell (`models::validation_loss`), so the differences are "
        "the weights', not the noise's. The base's gap between the parts is how much the parts "
        "differ; a gap that grows with fine-tuning (the training loss falling, the held-out loss "
        "not) is over-fitting.\n\n";
  for (const auto& w : s.warnings) md << "**Warning:** " << w << "\n\n";
  if (!s.evals.empty()) {
    md << "## Generated sequences against the held-out parts (`gsflow eval` figures)\n\n";
    md << fmt::format(
        "{} sequences from each model (`gsflow generate` defaults, seed {}), compared with each "
        "held-out part: k-mer Jensen-Shannon divergence in bits beside the floor (a sample of the "
        "training part as large, against the part: what a model that learned the family exactly "
        "scores), copies and novelty against the training part, and for DNA GC and TATA boxes "
        "(`TATAWAWR` starting in -45..-15 from the 3' end). The `{}` column is the base model, "
        "the `training` column the training part's own figures.\n\n",
        s.eval_n, s.eval_seed, s.base_name);
    const std::size_t kmax = eval_kmax(s.spec);
    for (const auto& e : s.evals) {
      md << fmt::format("### {} ({} sequences)\n\n", e.part, e.sequences);
      md << fmt::format(
          "{}-mer JS to the {} part: **fine-tuned {:.4f}**, base {:.4f}, floor {:.4f}{}.\n\n", kmax,
          e.part, e.tuned.kmer_js[kmax - 1], e.base.kmer_js[kmax - 1], e.floor[kmax - 1],
          e.tuned.dna ? fmt::format("; TATA window fraction fine-tuned {:.3f}, base {:.3f}, {} "
                                    "part {:.3f}, training part {:.3f}",
                                    e.tuned.tata.window_fraction, e.base.tata.window_fraction,
                                    e.part, e.tuned.reference_tata.window_fraction,
                                    e.tuned.training_tata.window_fraction)
                      : "");
      md << "```text\n" << e.table << "```\n\n";
    }
  }
  md << fmt::format("Total time {} (reading, split, training, losses, generation, figures).\n",
                    clock_text(s.total_seconds));
  card.commit();
}

}  // namespace gsflow::app
