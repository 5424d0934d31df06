// The generator training run shared by `gsflow train --config` and `--name`
// (generator_training.hpp).
#include "generator_training.hpp"

#include <fmt/format.h>

#include <atomic>
#include <iostream>
#include <optional>

#include "gsflow/models/blas_kernels.hpp"
#include "interrupt.hpp"
#include "progress.hpp"

namespace gsflow::app {

GeneratorRun train_generator(const TrainConfig& c, const models::Dataset& train_data,
                             const models::Dataset& val_data, bool resume, const StopRule& stop) {
  models::Model model =
      resume ? models::Model::load(c.train.checkpoint_file) : models::Model(c.spec, c.train.seed);
  if (!c.init.empty() && !resume) {
    model.init_weights_from(models::Model::load(c.init), c.init);
    std::cerr << fmt::format("train {}: weights initialised from {}\n", c.name, c.init);
  }
  if (resume) {
    model.check_matches(c.spec, c.train.checkpoint_file);
    std::cerr << fmt::format("train {}: resuming at step {} of {}\n", c.name,
                             model.record().train_steps, c.train.steps);
  }
  std::cerr << fmt::format("train {}: {} {} network, {} parameters, {} threads, BLAS {}\n", c.name,
                           engine::method_name(c.spec.method),
                           models::network_type_name(c.spec.network.type), model.parameter_count(),
                           c.train.threads, models::choose_blas_kernels());

  std::atomic<bool> cancel{false};
  std::optional<InterruptGuard> interrupt(std::in_place);
  const std::int64_t start_step = model.record().train_steps;
  bool over_time = false, by_rule = false;
  const auto progress = [&](const models::TrainProgress& p) {
    const double rate = static_cast<double>(p.step - start_step) / std::max(p.seconds, 1e-9);
    const double eta = rate > 0 ? static_cast<double>(p.total - p.step) / rate : 0.0;
    std::cerr << fmt::format(
        "train {}: step {}/{} loss {:.4f} val {} lr {:.2e} {:.2f} steps/s {:.0f} seq/s "
        "elapsed {} eta {}\n",
        c.name, p.step, p.total, p.loss, p.val_loss < 0 ? "-" : fmt::format("{:.4f}", p.val_loss),
        p.lr, rate, rate * static_cast<double>(c.train.batch), clock_text(p.seconds),
        clock_text(eta));
    if (c.max_minutes > 0.0 && p.seconds > 60.0 * c.max_minutes) {
      over_time = true;
      cancel = true;
    }
    if (stop && p.step < p.total && stop(p)) {
      by_rule = true;
      cancel = true;
    }
    if (interrupt->stop_requested()) cancel = true;
  };
  auto result =
      models::train(model, train_data, val_data, c.train, progress, c.report_every, &cancel);
  const bool interrupted = interrupt->stop_requested();
  interrupt.reset();
  return {std::move(model), result, interrupted, over_time, by_rule};
}

}  // namespace gsflow::app
