// The one training loop and the interface a task implements to be trained by it (LibTorch types;
// internal to models/). A task (training.cpp: generators, classifier_training.cpp: classifiers)
// owns its networks and data and supplies a batch's loss and its validation; the loop owns the
// schedule, AdamW, clipping, EMA, when to validate, report and checkpoint, and resume.
#pragma once

#include <torch/torch.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "gsflow/models/trainer.hpp"

namespace gsflow::models {

class TrainingTask {
 public:
  virtual ~TrainingTask() = default;

  // The network trained, and the moving average of its weights (nullptr = none). The loop builds
  // AdamW over network()'s parameters and updates ema() after every step.
  virtual torch::nn::Module& network() = 0;
  virtual torch::nn::Module* ema() = 0;

  // Resume: steps already taken, and the optimiser state saved with them ("" = a fresh optimiser).
  virtual std::int64_t steps_taken() const { return 0; }
  virtual std::string optimizer_state() const { return {}; }
  // Called after each step with the number of steps now taken.
  virtual void step_taken(std::int64_t /*steps*/) {}

  // Draws the batch of step `step` (0-based) and returns its mean loss, a scalar with gradients.
  virtual torch::Tensor loss(std::int64_t step) = 0;

  // Whether there is validation data; whether to validate before the first step (a generator's
  // first_val_loss) and after a run cut short (a classifier keeps the best weights seen).
  virtual bool has_validation() const = 0;
  virtual bool validate_first() const { return false; }
  virtual bool validate_when_stopped() const { return false; }
  // Validates the current weights (EMA when kept) after `steps` steps, keeps the best, and writes
  // the task's validation fields of `progress`.
  virtual void validate(std::int64_t steps, TrainProgress& progress) = 0;

  // Writes a checkpoint for resume holding `optimizer_state` (serialised AdamW state). Only
  // called with options.checkpoint_file set.
  virtual void save_checkpoint(const std::string& optimizer_state) = 0;
  // Called once after the last step, before the final checkpoint, with the wall time so far.
  virtual void finish(double /*seconds*/) {}
};

// Learning rate of step `step` (0-based): linear warm-up over options.warmup steps to options.lr,
// then cosine decay to options.lr * options.min_lr_ratio at options.steps.
double learning_rate(const TrainerOptions& options, std::int64_t step);

class Trainer {
 public:
  // Sets LibTorch's intra-op threads to options.threads and starts the clock: make it before the
  // task builds its networks. `options` must outlive the trainer.
  explicit Trainer(const TrainerOptions& options);

  // Wall time since construction, in seconds.
  double seconds() const;

  // Trains `task` from task.steps_taken() up to options.steps, or until `cancel` is set or
  // options.max_minutes have passed; fills the fields of `result` that every run has. Progress goes
  // to `progress` every `report_every` steps (0 = never), after each validation and after the last
  // step.
  void run(TrainingTask& task, TrainerResult& result, const TrainProgressSink& progress,
           std::int64_t report_every, const std::atomic<bool>* cancel) const;

 private:
  const TrainerOptions& options_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace gsflow::models
