// Training the gsflow guidance classifier on labelled clean sequences with the one trainer
// (trainer.hpp): AdamW on class-weighted binary cross-entropy, warm-up + cosine learning rate,
// optional EMA, periodic validation AUROC, best-by-validation-AUROC weights kept, a wall-time
// budget. Torch-free header.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gsflow/models/classifier.hpp"
#include "gsflow/models/trainer.hpp"
#include "gsflow/models/training.hpp"

namespace gsflow::models {

// Sequences (Dataset: rows of letters, shorter ones padded with their own lengths) with a 0/1
// label each, or (regression) a real value each.
struct LabelledDataset {
  Dataset data;
  std::vector<std::uint8_t> labels;  // one per sequence, 0 or 1 (binary; empty for regression)
  std::vector<double> values;        // one per sequence, finite (regression; empty for binary)
};

// FNV-1a 64 of the letters, lengths, labels and values (when any), 16 hex digits (stored in the
// checkpoint).
std::string labelled_dataset_hash(const LabelledDataset& data);

// Spearman rank correlation of a and b (average ranks for ties; Pearson correlation of the ranks).
// 0 when either is constant. Throws ModelError for different sizes or fewer than 2 values.
double spearman(std::span<const double> a, std::span<const double> b);

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
  // Regression instead of classification: the data's `values` (not labels) are the targets, the
  // loss is the mean squared error on targets standardised with the training mean and standard
  // deviation, validation selects by Spearman correlation (reported in the val_auroc fields), and
  // the saved network outputs the predicted value in the targets' units (output "score": the
  // standardisation is folded into the last layer). positive_weight is unused.
  bool regression = false;
  // When a validation ties the best metric so far (AUROC 1.0 on an easy task), keep its weights if
  // its validation loss (mean BCE on the logits, or MSE on standardised targets) is lower; the loss
  // is then reported in TrainProgress::val_loss. Off: the first weights reaching the best are kept.
  bool ties_by_loss = false;
  // Input augmentation (issue 38 item 3): each training sequence of a batch gets a rate r drawn
  // uniformly from [0, augment_substitution], and each of its positions is replaced by a uniformly
  // drawn letter with probability r; the label stays. The guide then also learns what noisy
  // versions of its classes look like, which is what STGFlow shows it early in a trajectory.
  // 0 = off (the clean inputs). Validation and test stay clean.
  double augment_substitution = 0.0;
};

struct ClassifierTrainResult : TrainerResult {
  // best-by-validation-AUROC weights (EMA weights when ema > 0); regression: by Spearman, held
  // in best_val_auroc (best_val_accuracy then is the validation RMSE in the targets' units)
  Classifier classifier;
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
