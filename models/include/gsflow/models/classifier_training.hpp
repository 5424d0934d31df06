// Training the gsflow guidance classifier on labelled clean sequences: AdamW on class-weighted
// binary cross-entropy, warm-up + cosine learning rate, optional EMA, periodic validation AUROC,
// best-by-validation-AUROC weights kept, a wall-time budget. Torch-free header.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gsflow/models/classifier.hpp"
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

struct ClassifierTrainOptions {
  // name, alphabet, k, min_length, max_length and positive are kept; output becomes "logit",
  // kind "cnn", metrics are filled in by training.
  ClassifierInfo info;
  ClassifierNetworkOptions network;  // architecture
  std::int64_t steps = 4000;         // optimiser steps (epochs of shuffled batches)
  std::size_t batch = 64;            // sequences per step
  double lr = 2e-3;                  // peak learning rate
  double weight_decay = 0.01;        // AdamW decoupled weight decay
  double clip = 1.0;                 // gradient-norm clip (0 = off)
  std::int64_t warmup = 200;         // linear warm-up steps, then cosine to lr * min_lr_ratio
  double min_lr_ratio = 0.05;        // final learning rate as a fraction of lr
  // BCE weight of a positive example relative to a negative one; 0 = n_negative / n_positive of
  // the training set (balanced classes: AUROC does not depend on it, but small positive classes
  // such as antimicrobial peptides, ~8 %, otherwise contribute little gradient).
  double positive_weight = 0.0;
  double ema = 0.0;                   // EMA decay of the weights validated and kept (0 = off)
  std::int64_t validate_every = 250;  // steps between validations (and at the end)
  double max_minutes = 0.0;           // stop after this wall time, keeping the best (0 = none)
  int threads = 1;                    // LibTorch intra-op threads
  std::uint64_t seed = 1;             // initial weights, batch order, dropout
};

struct ClassifierProgress {
  std::int64_t step = 0, total = 0;
  double loss = 0.0;             // mean weighted training loss since the last report
  double val_auroc = -1.0;       // latest validation AUROC (-1 = none yet)
  double val_accuracy = -1.0;    // latest validation accuracy at output 0
  double best_val_auroc = -1.0;  // best so far (its weights are kept)
  double lr = 0.0;
  double seconds = 0.0;  // wall time since the start
};

struct ClassifierTrainResult {
  Classifier classifier;  // best-by-validation-AUROC weights (EMA weights when ema > 0)
  std::int64_t steps_done = 0;
  std::int64_t best_step = 0;  // step whose weights were kept
  double best_val_auroc = -1.0, best_val_accuracy = -1.0;
  double seconds = 0.0;
  bool cancelled = false;  // stopped by `cancel`
  bool over_time = false;  // stopped by max_minutes
};

// Trains a new classifier on `train`, validating on `validation` (both needed, with both classes;
// never pass a test split here). Progress every `report_every` steps and after each validation.
// Metrics recorded in the result's info: validation_auroc, validation_accuracy (threshold 0),
// best_step, train_steps, train_seconds, train_sequences, train_positive_fraction,
// positive_weight, validation_sequences. Deterministic for a seed and thread count. Throws
// ModelError for data that does not fit info (K, lengths), a missing class or bad options.
ClassifierTrainResult train_classifier(
    const LabelledDataset& train, const LabelledDataset& validation,
    const ClassifierTrainOptions& options,
    const std::function<void(const ClassifierProgress&)>& progress = {},
    std::int64_t report_every = 100, const std::atomic<bool>* cancel = nullptr);

// The classifier's outputs for every sequence of `data` (one-hot, in batches of `batch`).
// Throws ModelError as Classifier::evaluate() does.
std::vector<double> classifier_scores(const Classifier& classifier, const Dataset& data,
                                      std::size_t batch = 256);

}  // namespace gsflow::models
