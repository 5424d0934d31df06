// `gsflow train-classifier --name NAME` from plain files (no config): positives and negatives as two
// FASTA files, or a CSV table with a sequence and a label (or value) column; defaults from the data,
// an automatic held-out split, early stopping, the model and its card in the user models folder.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "training_cli.hpp"

namespace gsflow::app {

// The held-out part, --patience and --seed: HeldOutCli (training_cli.hpp).
struct OwnClassifierCli : HeldOutCli {
  std::string name;                  // the model's name: file stem, --guide NAME, FASTA key
  std::string positives, negatives;  // FASTA files (binary)
  std::string table, sequence_column = "sequence", label_column = "label";  // CSV form
  std::string task = "binary";       // binary | regression (CSV only)
  std::string alphabet;              // dna | protein; "" = from the letters
  std::string positive;              // what a high output means (card, objective description)
  std::size_t min_length = 0, max_length = 0;  // accepted lengths; 0 = the data's
};

// Adds --name, --positives, --negatives, --table, --sequence-column, --label-column, --task,
// --alphabet, --validation, --test, --split, --positive, --min-length, --max-length, --patience
// and --seed to `cmd`.
void add_own_classifier_options(CLI::App& cmd, OwnClassifierCli& cli);

// Trains and writes NAME.ckpt and NAME.md (in the user models folder's classifiers/, or at
// common.out). Throws std::invalid_argument / engine::InputError (exit 2) for bad options and bad
// data, before anything is written.
void run_train_own_classifier(const OwnClassifierCli& cli, const TrainingCli& common);

}  // namespace gsflow::app
