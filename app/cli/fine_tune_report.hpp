// What `gsflow train --name` reports about a fine-tuned generator: `gsflow eval` figures of its
// generated sequences and the base model's against the held-out parts of the family, and the
// model card NAME.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fine_tune_family.hpp"
#include "gsflow/engine/sequence_metrics.hpp"
#include "gsflow/models/model.hpp"
#include "gsflow/models/training.hpp"

namespace gsflow::app {

// n sequences as `gsflow generate --model M --n N --seed S` makes them by default (the run
// defaults: 10 multistep steps; transformer lengths drawn from the model's training lengths).
Sequences generate_for_eval(const models::Model& model, std::size_t n, std::uint64_t seed,
                            int threads);

// One held-out part against the sequences the two models generated.
struct HeldOutEval {
  std::string part;           // "held-out" or "test"
  std::size_t sequences = 0;  // in the part
  engine::SetMetrics tuned,
      base;                   // each generated set against the part (novelty: the training part)
  std::vector<double> floor;  // k-mer JS of a training-part sample as large as the sets
  std::string table;          // evaluation::eval_table of the three
};

// Figures of `tuned` and `base` (generated sets) against `part`, k-mers up to eval_kmax(spec),
// copies and novelty against `train`; the floor's sample uses seed + 1, as `gsflow eval`'s.
HeldOutEval evaluate_part(const std::string& name, const std::string& base_name,
                          const Sequences& tuned, const Sequences& base, const FamilyPart& part,
                          const FamilyPart& train, const models::ModelSpec& spec,
                          std::uint64_t seed);

// The longest k of the k-mer JS figures: 6 for DNA, 3 for proteins, as `gsflow eval`.
std::size_t eval_kmax(const models::ModelSpec& spec);

// Fixed-noise losses (models::validation_loss, the held-out part's seed) of the base and the
// fine-tuned weights on both parts: the same noise for all four, so the gap between the parts is
// over-fitting, not noise.
struct LossTable {
  double base_train = -1, base_held_out = -1, tuned_train = -1, tuned_held_out = -1;
};

// Everything the card says.
struct FineTuneSummary {
  std::string name, out, command;
  std::string base_name, base_file, base_hash;
  models::ModelSpec spec;
  std::string family_file, family_hash, split_text;
  std::size_t family_records = 0, merged = 0;
  std::vector<const FamilyPart*> parts;  // train, held-out, test (when given)
  std::string data_hash;                 // the training part's, as the checkpoint records it
  models::TrainOptions options;
  int patience = 0;
  double passes = 0;  // steps x batch / training sequences (planned)
  std::int64_t steps_done = 0, best_step = 0;
  double train_seconds = 0, total_seconds = 0;
  std::string stopped;  // "all steps", "early stop", "time budget"
  LossTable losses;
  std::vector<std::string> warnings;  // also printed on stderr
  std::size_t eval_n = 0;
  std::uint64_t eval_seed = 0;
  std::vector<HeldOutEval> evals;
};

// The model card (Markdown). Throws std::runtime_error naming the file when it cannot be written.
void write_fine_tune_card(const std::string& file, const FineTuneSummary& s);

}  // namespace gsflow::app
