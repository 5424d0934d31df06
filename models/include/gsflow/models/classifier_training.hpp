// Training the gsflow guidance classifier on labelled clean sequences with the one trainer
// (trainer.hpp): AdamW on class-weighted binary cross-entropy, warm-up + cosine learning rate,
// optional EMA, periodic validation AUROC, best-by-validation-AUROC weights kept, a wall-time
// budget. Torch-free header.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gsflow/models/classifier.hpp"
#include "gsflow/models/trainer.hpp"
#include "gsflow/models/training.hpp"

namespace gsflow::models {

// Sequences (Dataset: rows of letters, shorter ones padded with their own lengths) with a 0/1
// label each.
struct LabelledDataset {
  Dataset data;
  std::vector<std::uint8_t> labels;  // one per sequence, 0 or 1
};

// FNV-1a 64 of the letters, lengths and labels, 16 hex digits (stored in the checkpoint).
std::string labelled_dataset_hash(const LabelledDataset& data);

// A classifier's training options: the trainer's (trainer.hpp; steps are epochs of shuffled
// batches; checkpoint_file must stay empty: the classifier is returned, not resumed) with the
// defaults below where they differ, and these.
struct ClassifierTrainOptions : TrainerOptions {
  ClassifierTrainOptions() {
    steps = 4000;
    batch = 64;
    lr = 2e-3;
    validate_every = 250;
    seed = 1;  // initial weights, batch order, dropout
  }
  // name, alphabet, k, min_length, max_length and positive are kept; output becomes "logit",
  // kind "cnn", metrics are filled in by training.
  ClassifierInfo info;
  ClassifierNetworkOptions network;  // architecture
  // BCE weight of a positive example relative to a negative one; 0 = n_negative / n_positive of
  // the training set (balanced classes: AUROC does not depend on it, but small positive classes
  // such as antimicrobial peptides, ~8 %, otherwise contribute little gradient).
  double positive_weight = 0.0;
};

struct ClassifierTrainResult : TrainerResult {
  Classifier classifier;       // best-by-validation-AUROC weights (EMA weights when ema > 0)
  std::int64_t best_step = 0;  // step whose weights were kept
  double best_val_auroc = -1.0, best_val_accuracy = -1.0;
};

// Trains a new classifier on `train`, validating on `validation` (both needed, with both classes;
// never pass a test split here). Progress (the loss and val_auroc, val_accuracy, best_val_auroc
// fields) every `report_every` steps and after each validation; `cancel` and max_minutes stop
// early, after which the weights so far are validated once more. Metrics recorded in the
// result's info: validation_auroc, validation_accuracy (threshold 0), best_step, train_steps,
// train_seconds, train_sequences, train_positive_fraction, positive_weight,
// validation_sequences. Deterministic for a seed and thread count. Throws ModelError for data
// that does not fit info (K, lengths), a missing class, bad options or a stop before the first
// step.
ClassifierTrainResult train_classifier(const LabelledDataset& train,
                                       const LabelledDataset& validation,
                                       const ClassifierTrainOptions& options,
                                       const TrainProgressSink& progress = {},
                                       std::int64_t report_every = 100,
                                       const std::atomic<bool>* cancel = nullptr);

// The classifier's outputs for every sequence of `data` (one-hot, in batches of `batch`).
// Throws ModelError as Classifier::evaluate() does.
std::vector<double> classifier_scores(const Classifier& classifier, const Dataset& data,
                                      std::size_t batch = 256);

}  // namespace gsflow::models
