// The options every `gsflow eval-*` measurement shares (model, set size, steps, seed, threads,
// data folder, report file, JSON): one declaration, so the commands name and check them alike.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

#include "validators.hpp"

namespace gsflow::app {

struct EvalCli {
  std::string model = "dna-promoter", data, out;
  std::size_t n = 500;
  int steps = 100, threads = 2;
  std::uint64_t seed = 0;
  bool json = false;
};

// What --model, --n and --seed mean for the command (each has its own set shape).
struct EvalHelp {
  std::string model = "Bundled model name or checkpoint file";
  std::string n = "Sequences per set";
  std::string seed = "Seed";
  std::string out = "Also write the JSON report to this file";
};

inline void add_eval_options(CLI::App& cmd, EvalCli& cli, const EvalHelp& help = {}) {
  cmd.add_option("--model", cli.model, help.model)->capture_default_str();
  cmd.add_option("--n", cli.n, help.n)->check(CLI::PositiveNumber)->capture_default_str();
  cmd.add_option("--steps", cli.steps, "Sampling steps")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--seed", cli.seed, help.seed)->check(kUnsigned64)->capture_default_str();
  cmd.add_option("--threads", cli.threads, "Threads")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--data", cli.data, "Data folder (default: $GSFLOW_DATA or data/)");
  cmd.add_option("--out", cli.out, help.out);
  cmd.add_flag("--json", cli.json, "Print one JSON object on stdout");
}

}  // namespace gsflow::app
