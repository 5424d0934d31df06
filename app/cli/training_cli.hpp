// The command-line options that `gsflow train` and `gsflow train-classifier` share: a config file
// and the overrides of its data folder, output, steps, threads and time budget, and applying them.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
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

}  // namespace gsflow::app
