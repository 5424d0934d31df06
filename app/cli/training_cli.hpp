// The command-line options that `gsflow train` and `gsflow train-classifier` share: a config file
// and the overrides of its data folder, output, steps, threads and time budget, applying them, and
// the choice between a recipe (--config) and plain files (--name).
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <string>

#include "gsflow/models/trainer.hpp"

namespace gsflow::app {

struct TrainingCli {
  std::string config, data, out;
  std::int64_t steps = 0;     // 0 = the config's train.steps
  int threads = 0;            // 0 = the config's train.threads
  double max_minutes = -1.0;  // < 0 = the config's max_minutes
  bool force = false;
};

// What training from plain files (--name: train-classifier, train) adds: the held-out part,
// early stopping and the seed.
struct HeldOutCli {
  std::string validation, test;  // optional held-out files
  std::string split = "auto";    // without --validation: auto (cd-hit for proteins, random for
                                 // DNA) | random | cd-hit
  int patience = 5;              // validations without improvement before stopping; 0 = never
  std::uint64_t seed = 1;        // split, initial weights, batch order, noise
};

// Adds --validation and --test (with the help texts given: the files' forms), --split, --patience
// and --seed.
inline void add_held_out_options(CLI::App& cmd, HeldOutCli& cli, const std::string& validation_help,
                                 const std::string& test_help) {
  cmd.add_option("--validation", cli.validation, validation_help);
  cmd.add_option("--test", cli.test, test_help);
  cmd.add_option("--split", cli.split,
                 "Held-out split without --validation: auto (cd-hit 50 % identity clusters for "
                 "proteins, random for DNA), random or cd-hit")
      ->check(CLI::IsMember({"auto", "random", "cd-hit"}))
      ->capture_default_str();
  cmd.add_option("--patience", cli.patience,
                 "Stop after this many validations without improvement (0 = never)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option("--seed", cli.seed, "Seed of the split, the initial weights and the batch order")
      ->capture_default_str();
}

// Adds --config, --data, --out, --steps, --threads, --max-minutes and --force (with `force_help`).
inline void add_training_options(CLI::App& cmd, TrainingCli& cli, const std::string& force_help) {
  cmd.add_option("--config", cli.config, "Config file")->required()->check(CLI::ExistingFile);
  cmd.add_option("--data", cli.data, "Data folder (default: $GSFLOW_DATA or data/)");
  cmd.add_option("--out", cli.out, "Checkpoint to write (default: the config's output)");
  cmd.add_option("--steps", cli.steps, "Override train.steps")->check(CLI::PositiveNumber);
  cmd.add_option("--threads", cli.threads, "Override train.threads")->check(CLI::PositiveNumber);
  cmd.add_option("--max-minutes", cli.max_minutes, "Override max_minutes (0 = no limit)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_flag("--force", cli.force, force_help);
}

// Applies --out, --steps, --threads and --max-minutes to a config's output, training options and
// time budget (each only when given).
inline void apply_training_overrides(const TrainingCli& cli, std::string& output,
                                     models::TrainerOptions& train, double& max_minutes) {
  if (!cli.out.empty()) output = cli.out;
  if (cli.steps > 0) train.steps = cli.steps;
  if (cli.threads > 0) train.threads = cli.threads;
  if (cli.max_minutes >= 0.0) max_minutes = cli.max_minutes;
}

// The overrides given, as they were typed, for a model card's command line: " --steps N
// --threads N --max-minutes M --out FILE" (each only when given).
inline std::string overrides_text(const TrainingCli& cli) {
  std::string s;
  if (cli.steps > 0) s += " --steps " + std::to_string(cli.steps);
  if (cli.threads > 0) s += " --threads " + std::to_string(cli.threads);
  if (cli.max_minutes >= 0.0) s += fmt::format(" --max-minutes {}", cli.max_minutes);
  if (!cli.out.empty()) s += " --out " + cli.out;
  return s;
}

// Makes `cmd`'s --config optional, with --name (added by the caller into `name`) as the
// alternative that excludes it: --config runs `from_recipe`, --name `from_files`, neither is a
// usage error naming both (`files_text` says what --name takes). Returns the --name option.
inline CLI::Option* recipe_or_name(CLI::App& cmd, const TrainingCli& cli, const std::string& name,
                                   std::function<void()> from_recipe,
                                   std::function<void()> from_files,
                                   const std::string& files_text) {
  auto* config = cmd.get_option("--config");
  config->required(false);
  auto* name_option = cmd.get_option("--name")->excludes(config);
  cmd.callback([&cli, &name, from_recipe, from_files, files_text] {
    if (!cli.config.empty())
      from_recipe();
    else if (!name.empty())
      from_files();
    else
      throw CLI::RequiredError("--config (a recipe) or --name (" + files_text + ")");
  });
  return name_option;
}

}  // namespace gsflow::app
