// The training loop shared by every method and network: AdamW, gradient clipping, warm-up + cosine
// learning rate, optional EMA, periodic validation, progress, checkpoints and resume.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gsflow/models/model.hpp"

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
const char* time_sampling_name(TimeSampling sampling);
TimeSampling parse_time_sampling(const std::string& text, const std::string& field);

struct TrainOptions {
  std::int64_t steps = 1000;   // total optimiser steps (a resumed model continues up to this)
  std::size_t batch = 512;     // sequences per step
  double lr = 1e-3;            // peak learning rate
  double weight_decay = 0.01;  // AdamW decoupled weight decay
  double clip = 1.0;           // gradient-norm clip (0 = off)
  std::int64_t warmup = 200;   // linear warm-up steps, then cosine decay to lr * min_lr_ratio
  double min_lr_ratio = 0.05;  // final learning rate as a fraction of lr
  double ema = 0.0;            // EMA decay of the weights (0 = off, e.g. 0.999)
  TimeSampling time_sampling = TimeSampling::uniform;  // see TimeSampling
  // Loss weight per position of the model's length (empty = all 1). The training loss becomes
  // sum(w * loss) / sum(w) over real positions, which moves capacity towards heavily weighted
  // positions without changing what each position's loss is minimised by. The validation loss
  // is never weighted, so it stays comparable across recipes.
  std::vector<float> position_weights;
  std::int64_t validate_every = 500;   // steps between validation losses (0 = only at the end)
  std::size_t validation_batches = 8;  // batches (fixed noise) per validation
  std::int64_t checkpoint_every = 0;  // steps between checkpoints to checkpoint_file (0 = end only)
  std::string checkpoint_file;        // where to save (empty = never); best kept as FILE.best
  int threads = 1;                    // LibTorch intra-op threads
  std::uint64_t seed = 0;             // batches, times and noise
};

struct TrainProgress {
  std::int64_t step = 0, total = 0;
  double loss = 0.0;       // mean training loss since the last report
  double val_loss = -1.0;  // latest validation loss (-1 = none yet)
  double lr = 0.0;
  double seconds = 0.0;  // wall time since the start of this call
};

struct TrainResult {
  std::int64_t steps_done = 0;  // steps taken in this call
  double first_val_loss = -1.0, last_val_loss = -1.0, best_val_loss = -1.0;
  double seconds = 0.0;
  bool cancelled = false;
};

// Trains `model` on `train` from model.record().train_steps up to options.steps (so a model loaded
// from a checkpoint resumes, with its optimiser state). `validation` may be empty. Progress is
// reported every `report_every` steps and after each validation. Throws ModelError for data that
// does not fit the model (length, letters >= K).
TrainResult train(Model& model, const Dataset& train, const Dataset& validation,
                  const TrainOptions& options,
                  const std::function<void(const TrainProgress&)>& progress = {},
                  std::int64_t report_every = 100, const std::atomic<bool>* cancel = nullptr);

// Validation loss of the model's current (EMA if any) weights on `data` with fixed noise,
// weighted per position like TrainOptions::position_weights when `position_weights` is given.
double validation_loss(const Model& model, const Dataset& data, std::size_t batches,
                       std::size_t batch, std::uint64_t seed,
                       const std::vector<float>& position_weights = {});

}  // namespace gsflow::models
