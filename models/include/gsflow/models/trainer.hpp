// The one trainer that generators (training.hpp) and classifiers (classifier_training.hpp) share:
// the options every training run has, its progress reports and the outcome common to both.
// Torch-free; the loop itself is internal to models/ (src/trainer.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace gsflow::models {

// What every training run has. The loop: AdamW with a linear warm-up to `lr` and a cosine decay to
// lr * min_lr_ratio, gradient-norm clipping, an optional EMA of the weights, validation every
// `validate_every` steps and at the end, checkpoints every `checkpoint_every` steps and at the end.
// The task-specific options (training.hpp, classifier_training.hpp) derive from it; the defaults
// here are the generators', ClassifierTrainOptions sets its own where they differ.
struct TrainerOptions {
  std::int64_t steps = 1000;   // total optimiser steps (a resumed run continues up to this)
  std::size_t batch = 512;     // sequences per step
  double lr = 1e-3;            // peak learning rate
  double weight_decay = 0.01;  // AdamW decoupled weight decay
  double clip = 1.0;           // gradient-norm clip (0 = off)
  std::int64_t warmup = 200;   // linear warm-up steps, then cosine decay to lr * min_lr_ratio
  double min_lr_ratio = 0.05;  // final learning rate as a fraction of lr
  double ema = 0.0;            // EMA decay of the weights validated and kept (0 = off, e.g. 0.999)
  std::int64_t validate_every = 500;  // steps between validations (0 = only at the end)
  std::int64_t checkpoint_every = 0;  // steps between checkpoints to checkpoint_file (0 = end only)
  // Where to save for resume (empty = never), the best validation as FILE.best. Generators only.
  std::string checkpoint_file;
  double max_minutes = 0.0;  // stop after this wall time, keeping what was kept (0 = none)
  int threads = 1;           // LibTorch intra-op threads
  std::uint64_t seed = 0;    // batches, noise (and a classifier's initial weights)
};

// A progress report: every `report_every` steps, after each validation and after the last step.
// Validation fields are -1 until the first validation, and stay -1 where the task does not measure
// them (generators measure the loss, classifiers the AUROC and accuracy).
struct TrainProgress {
  std::int64_t step = 0, total = 0;
  double loss = 0.0;             // mean training loss since the last report
  double val_loss = -1.0;        // latest validation loss (generators)
  double val_auroc = -1.0;       // latest validation AUROC (classifiers)
  double val_accuracy = -1.0;    // latest validation accuracy at output 0 (classifiers)
  double best_val_auroc = -1.0;  // best validation AUROC so far, whose weights are kept
  double lr = 0.0;               // learning rate of the latest step
  double seconds = 0.0;          // wall time since the start of this call
};

using TrainProgressSink = std::function<void(const TrainProgress&)>;

// What every training run reports back; the task-specific results derive from it.
struct TrainerResult {
  std::int64_t steps_done = 0;  // steps taken in this call
  double seconds = 0.0;         // wall time of this call
  bool cancelled = false;       // stopped by the cancel flag
  bool over_time = false;       // stopped by max_minutes
};

}  // namespace gsflow::models
