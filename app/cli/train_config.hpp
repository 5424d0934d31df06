// Training configurations (configs/NAME.json): data, model and training options in one file.
#pragma once

#include <string>
#include <vector>

#include "config_section.hpp"
#include "gsflow/models/model.hpp"
#include "gsflow/models/training.hpp"
#include "sequence_sets.hpp"

namespace gsflow::app {

struct TrainConfig {
  std::string name;                 // model name, e.g. "dna-promoter"
  std::string alphabet;             // "dna" or "protein"
  // data.train: one FASTA file or a list, relative to the data folder unless absolute; a list's
  // files are read in order and joined (a file named twice is used twice).
  std::vector<std::string> train_files;
  std::string validation_file;      // FASTA, same
  std::size_t min_length = 1;       // shortest accepted training sequence
  // data.oversample: training sequences repeated when a motif starts in a position range (DNA);
  // validation is never oversampled.
  std::vector<OversampleRule> oversample;
  std::string output;               // checkpoint written (FILE.best keeps the best validation loss)
  std::string init;                 // checkpoint whose weights start training (same network), or ""
  double max_minutes = 0.0;         // stop (and save) after this wall time; 0 = no limit
  std::int64_t report_every = 100;  // steps between progress lines
  models::ModelSpec spec;           // length = the longest sequence the model takes
  models::TrainOptions train;
};

// Reads the train.* settings every training config has (steps, required; batch, lr, weight_decay,
// clip, warmup, min_lr_ratio, ema, validate_every, threads, seed: models/trainer.hpp), each
// defaulting to its value in `options`. The caller reads its task's own keys and calls finish().
void read_trainer_options(Section& train, models::TrainerOptions& options);

// Reads a config file. Every key is checked: a missing required key, a wrong type or an unknown
// key throws std::invalid_argument naming the file and the key (e.g. "train.lr").
TrainConfig read_train_config(const std::string& file);

}  // namespace gsflow::app
