// Training generators (GSFM, GSSM, Linear FM) on letter sequences: the data, the generator-specific
// options and results, and the method's validation loss. The loop is the one trainer that
// classifiers share (trainer.hpp): AdamW, gradient clipping, warm-up + cosine learning rate,
// optional EMA, periodic validation, progress, checkpoints and resume.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gsflow/models/model.hpp"
#include "gsflow/models/trainer.hpp"

namespace gsflow::models {

// Letter sequences, row-major [count, length]. Sequences shorter than `length` (transformer
// networks only) give their own length in `lengths` and fill the rest of their row with any
// letter < K (ignored: masked out of attention and loss).
struct Dataset {
  std::size_t length = 0;
  std::vector<std::uint16_t> letters;
  std::vector<std::uint16_t> lengths;  // per sequence, 1..length; empty = all have `length`
  std::size_t count() const { return length ? letters.size() / length : 0; }
};

// FNV-1a 64 of the letters and the length, as 16 hex digits (stored in checkpoints).
std::string dataset_hash(const Dataset& data);

enum class TimeSampling {
  uniform,     // t ~ U(0, 1) per sequence
  stratified,  // one stratum of [0, 1) per batch element, shuffled: lower-variance gradients
};
inline constexpr engine::EnumNames<TimeSampling, 2> kTimeSamplingNames{
    "time sampling",
    {{{TimeSampling::uniform, "uniform"}, {TimeSampling::stratified, "stratified"}}}};
const char* time_sampling_name(TimeSampling sampling);
TimeSampling parse_time_sampling(const std::string& text, const std::string& field);

// A generator's training options: the trainer's (steps, batch, schedule, EMA, validation and
// checkpoint intervals, seed: trainer.hpp, with its defaults) and these.
struct TrainOptions : TrainerOptions {
  TimeSampling time_sampling = TimeSampling::uniform;  // see TimeSampling
  // Loss weight per position of the model's length (empty = all 1). The training loss becomes
  // sum(w * loss) / sum(w) over real positions, which moves capacity towards heavily weighted
  // positions without changing what each position's loss is minimised by. The validation loss
  // is never weighted, so it stays comparable across recipes.
  std::vector<float> position_weights;
  std::size_t validation_batches = 8;  // batches (fixed noise) per validation
};

struct TrainResult : TrainerResult {
  double first_val_loss = -1.0, last_val_loss = -1.0, best_val_loss = -1.0;  // -1 = none
};

// Trains `model` on `train` from model.record().train_steps up to options.steps (so a model loaded
// from a checkpoint resumes, with its optimiser state). `validation` may be empty. Progress (the
// loss and val_loss fields) is reported every `report_every` steps and after each validation;
// `cancel` stops after the current step and still writes the checkpoint. Throws ModelError for
// data that does not fit the model (length, letters >= K).
TrainResult train(Model& model, const Dataset& train, const Dataset& validation,
                  const TrainOptions& options, const TrainProgressSink& progress = {},
                  std::int64_t report_every = 100, const std::atomic<bool>* cancel = nullptr);

// Validation loss of the model's current (EMA if any) weights on `data` with fixed noise,
// weighted per position like TrainOptions::position_weights when `position_weights` is given.
double validation_loss(const Model& model, const Dataset& data, std::size_t batches,
                       std::size_t batch, std::uint64_t seed,
                       const std::vector<float>& position_weights = {});

}  // namespace gsflow::models
