// The options every `gsflow eval-*` measurement shares (model, set size, steps, seed, threads,
// data folder, report file, JSON): one declaration, so the commands name and check them alike.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsflow/pipeline/run_params.hpp"
#include "run_options.hpp"
#include "validators.hpp"

namespace gsflow::app {

// The run-schema options every measurement takes as `gsflow generate` does.
inline const std::vector<std::string> kSamplerKeys{"integrator", "precision"};

struct EvalCli {
  std::string model = "dna-promoter", data, out;
  std::size_t n = 500;
  // The sampler as `gsflow generate` runs it by default.
  int steps = pipeline::kDefaultSteps, threads = 2;
  pipeline::RunParams run;  // --integrator and --precision (kSamplerKeys), as generate's
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
  add_run_options(cmd, cli.run, kSamplerKeys);
  cmd.add_option("--seed", cli.seed, help.seed)->check(kUnsigned64)->capture_default_str();
  cmd.add_option("--threads", cli.threads, "Threads")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--data", cli.data, "Data folder (default: $GSFLOW_DATA or data/)");
  cmd.add_option("--out", cli.out, help.out);
  cmd.add_flag("--json", cli.json, "Print one JSON object on stdout");
}

// Writes the JSON report to --out when given and prints it with --json; true when printed (the
// command then prints no text report).
inline bool emit_eval_report(const EvalCli& cli, const nlohmann::json& report) {
  if (!cli.out.empty()) {
    std::ofstream f(cli.out);
    f << report.dump(2) << "\n";
    if (!f) throw std::runtime_error(cli.out + ": cannot write");
  }
  if (cli.json) std::cout << report.dump(2) << "\n";
  return cli.json;
}

}  // namespace gsflow::app
