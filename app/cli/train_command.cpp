// `gsflow train --config configs/NAME.json`: trains a model on FASTA splits with progress,
// validation, best-checkpoint keeping, a wall-time budget and resume; `gsflow train --name NAME
// --fasta FILE --init MODEL` fine-tunes a model on the user's family (fine_tune.hpp).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <iterator>

#include "fine_tune.hpp"
#include "generator_training.hpp"
#include "global_options.hpp"
#include "model_commands.hpp"
#include "progress.hpp"
#include "sequence_sets.hpp"
#include "train_config.hpp"
#include "training_cli.hpp"

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
  const auto val_path = data_file(c.validation_file, cli.data);
  Sequences train_set;
  std::string train_paths;
  for (const auto& file : c.train_files) {
    const auto path = data_file(file, cli.data);
    auto part = read_sequences(path, alphabet, c.min_length, c.spec.length);
    if (c.train_files.size() > 1)
      std::cerr << fmt::format("train {}: {} training sequences in {}\n", c.name, part.size(),
                               path);
    train_set.insert(train_set.end(), std::make_move_iterator(part.begin()),
                     std::make_move_iterator(part.end()));
    train_paths += (train_paths.empty() ? "" : ", ") + path;
  }
  const auto val_set = read_sequences(val_path, alphabet, c.min_length, c.spec.length);
  std::cerr << fmt::format("train {}: {} training sequences ({}), {} validation ({})\n", c.name,
                           train_set.size(), train_paths, val_set.size(), val_path);
  if (!c.oversample.empty()) {
    std::vector<std::size_t> matched;
    train_set = oversample(train_set, c.oversample, &matched);
    for (std::size_t i = 0; i < matched.size(); ++i)
      std::cerr << fmt::format(
          "train {}: data.oversample: {} training sequences with {} used {} times each\n", c.name,
          matched[i], describe(c.oversample[i]), c.oversample[i].copies);
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
  auto run = train_generator(c, train_data, val_data, exists && cli.resume);
  const models::Model& model = run.model;
  const auto& result = run.result;
  const bool over_time = run.over_time, interrupted = run.interrupted;
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
  auto tune = std::make_shared<FineTuneCli>();
  auto* cmd = app.add_subcommand(
      "train",
      "Train a model from a config file (configs/NAME.json), or fine-tune one on your family: "
      "--name NAME --fasta FAMILY.fasta --init MODEL (docs/own-data.md)");
  add_training_options(*cmd, *cli,
                       "Start over even if the output exists (--name: replace a user model)");
  auto* resume =
      cmd->add_flag("--resume", cli->resume, "Continue the checkpoint at the output path");
  add_fine_tune_options(*cmd, *tune);
  recipe_or_name(
      *cmd, *cli, tune->name, [cli] { run_train(*cli); },
      [cli, tune] { run_fine_tune(*tune, *cli); }, "fine-tuning on a FASTA family")
      ->excludes(resume);
}

}  // namespace gsflow::app
