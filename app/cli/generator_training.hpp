// One generator training run as `gsflow train` makes it, from a recipe (--config) or fine-tuning a
// model on the user's family (--name): the model started fresh, from a checkpoint's weights
// (TrainConfig::init) or resumed, a progress line per report on stderr, the time budget, Ctrl-C,
// and an optional stop rule (early stopping).
#pragma once

#include <functional>

#include "gsflow/models/model.hpp"
#include "gsflow/models/training.hpp"
#include "train_config.hpp"

namespace gsflow::app {

// Called with every progress report; true stops training after the current step.
using StopRule = std::function<bool(const models::TrainProgress&)>;

struct GeneratorRun {
  models::Model model;           // the weights of the last step (trainer keeps the best in .best)
  models::TrainResult result;    // steps, time, validation losses
  bool interrupted = false;      // Ctrl-C / SIGTERM stopped it
  bool over_time = false;        // c.max_minutes stopped it
  bool stopped_by_rule = false;  // `stop` stopped it
};

// Trains c.spec on `train` (validated on `validation`, which may be empty) with c.train, starting
// from c.train.checkpoint_file when `resume`, else from fresh weights (c.train.seed) replaced by
// c.init's when given. Throws models::ModelError for a checkpoint that does not fit c.spec.
GeneratorRun train_generator(const TrainConfig& c, const models::Dataset& train,
                             const models::Dataset& validation, bool resume,
                             const StopRule& stop = {});

}  // namespace gsflow::app
