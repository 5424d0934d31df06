// Classifier training configs (configs/classifier-NAME.json) read by `gsflow train-classifier`:
// data splits and label field, network and training options in one file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gsflow/models/classifier_training.hpp"

namespace gsflow::app {

struct ClassifierConfig {
  std::string file;    // the config file itself
  std::string output;  // checkpoint; the model card goes next to it (.md)
  std::string label;   // header field holding 0/1/NA
  std::string train_file, validation_file, test_file;  // FASTA; test optional ("")
  // data.extra_negatives: FASTA files whose every record joins the training split with label 0
  // (hard negatives, e.g. scripts/make-hard-negatives; never validation or test data).
  std::vector<std::string> extra_negatives;
  double max_minutes = 0.0;         // stop (keeping the best) after this wall time; 0 = none
  std::int64_t report_every = 100;  // steps between progress lines
  models::ClassifierTrainOptions train;
};

// Reads a config file. Every key is checked: a missing required key, a wrong type, a value out of
// range or an unknown key throws std::invalid_argument naming the file and the dotted key (e.g.
// "train.lr"). Keys: name, output, positive, max_minutes, report_every; data.{alphabet, label,
// train, validation, test (optional), extra_negatives (optional list of FASTA files), min_length,
// max_length}; network.{width, blocks, kernel,
// hidden, pool, dropout, positions}; train.{steps, batch, lr, weight_decay, clip, warmup,
// min_lr_ratio, positive_weight, ema, validate_every, threads, seed}.
ClassifierConfig read_classifier_config(const std::string& file);

}  // namespace gsflow::app
