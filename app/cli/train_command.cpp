// `gsflow train --config configs/NAME.json`: trains a model on FASTA splits with progress,
// validation, best-checkpoint keeping, a wall-time budget and resume.
#include <fmt/format.h>

#include <atomic>
#include <optional>
#include <filesystem>
#include <iostream>

#include "global_options.hpp"
#include "interrupt.hpp"
#include "model_commands.hpp"
#include "progress.hpp"
#include "training_cli.hpp"
#include "sequence_sets.hpp"
#include "train_config.hpp"

namespace gsflow::app {

namespace {

struct TrainCli : TrainingCli {
  bool resume = false;
};

void run_train(const TrainCli& cli) {
  TrainConfig c = read_train_config(cli.config);
  apply_training_overrides(cli, c.output, c.train, c.max_minutes);
  // Training state (optimiser, raw and EMA weights) for --resume; the output itself holds only
  // what sampling needs.
  c.train.checkpoint_file = c.output + ".state";

  const engine::Alphabet& alphabet = alphabet_named(c.alphabet, cli.config + ": data.alphabet");
  const auto train_path = data_file(c.train_file, cli.data);
  const auto val_path = data_file(c.validation_file, cli.data);
  auto train_set = read_sequences(train_path, alphabet, c.min_length, c.spec.length);
  const auto val_set = read_sequences(val_path, alphabet, c.min_length, c.spec.length);
  std::cerr << fmt::format("train {}: {} training sequences ({}), {} validation ({})\n", c.name,
                           train_set.size(), train_path, val_set.size(), val_path);
  if (!c.oversample.empty()) {
    std::vector<std::size_t> matched;
    train_set = oversample(train_set, c.oversample, &matched);
    for (std::size_t i = 0; i < matched.size(); ++i)
      std::cerr << fmt::format(
          "train {}: data.oversample: {} training sequences with {} starting in {}..{} used {} "
          "times each\n",
          c.name, matched[i], c.oversample[i].motif.text(), c.oversample[i].from, c.oversample[i].to,
          c.oversample[i].copies);
    std::cerr << fmt::format("train {}: {} training sequences after oversampling\n", c.name,
                             train_set.size());
  }
  const auto train_data = to_dataset(train_set, c.spec.length);
  const auto val_data = to_dataset(val_set, c.spec.length);

  std::error_code ec;
  const bool exists = std::filesystem::exists(c.train.checkpoint_file, ec);
  if (exists && !cli.resume && !cli.force)
    throw std::invalid_argument(c.train.checkpoint_file +
                                " already exists: --resume continues it, --force starts over");
  std::filesystem::create_directories(std::filesystem::absolute(c.output).parent_path(), ec);
  models::Model model = exists && cli.resume ? models::Model::load(c.train.checkpoint_file)
                                             : models::Model(c.spec, c.train.seed);
  if (!c.init.empty() && !(exists && cli.resume)) {
    model.init_weights_from(models::Model::load(c.init), c.init);
    std::cerr << fmt::format("train {}: weights initialised from {}\n", c.name, c.init);
  }
  if (exists && cli.resume) {
    model.check_matches(c.spec, c.train.checkpoint_file);
    std::cerr << fmt::format("train {}: resuming at step {} of {}\n", c.name,
                             model.record().train_steps, c.train.steps);
  }
  std::cerr << fmt::format("train {}: {} {} network, {} parameters, {} threads\n", c.name,
                           engine::method_name(c.spec.method),
                           models::network_type_name(c.spec.network.type), model.parameter_count(),
                           c.train.threads);

  std::atomic<bool> cancel{false};
  std::optional<InterruptGuard> interrupt(std::in_place);
  const std::int64_t start_step = model.record().train_steps;
  bool over_time = false;
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
    if (interrupt->stop_requested()) cancel = true;
  };
  const auto result =
      models::train(model, train_data, val_data, c.train, progress, c.report_every, &cancel);
  const bool interrupted = interrupt->stop_requested();
  interrupt.reset();
  model.save_for_inference(c.output);
  std::cerr << fmt::format(
      "train {}: {} after {} steps in {} ({:.0f} training sequences/s); best validation loss {:.4f}"
      "\ntrain {}: wrote {} (for sampling), {}.state (for --resume) and {}.state.best (best "
      "validation loss)\n",
      c.name,
      result.cancelled ? (over_time ? "stopped at the time budget" : "interrupted") : "done",
      model.record().train_steps, clock_text(result.seconds),
      static_cast<double>(result.steps_done * static_cast<std::int64_t>(c.train.batch)) /
          std::max(result.seconds, 1e-9),
      result.best_val_loss, c.name, c.output, c.output, c.output);
  if (result.cancelled && interrupted) {
    std::cerr << fmt::format("train {}: interrupted (checkpoint saved; --resume continues)\n",
                             c.name);
    command_exit_code() = kExitInterrupted;
  }
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto cli = std::make_shared<TrainCli>();
  auto* cmd = app.add_subcommand("train", "Train a model from a config file (configs/NAME.json)");
  add_training_options(*cmd, *cli, "Start over even if the output exists");
  cmd->add_flag("--resume", cli->resume, "Continue the checkpoint at the output path");
  cmd->callback([cli] { run_train(*cli); });
}

}  // namespace gsflow::app
