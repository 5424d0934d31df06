// `gsflow bench generate`: time per 100 sequences and the quality figures of the current
// generation defaults against the previous ones (100 uniform steps, exponential integrator,
// float32), for DNA, peptides and guided DNA, measured in one run on the same machine, so that
// every speed claim carries its quality beside it (docs/benchmarks.md, "Faster generation").
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

// Registers the `generate` subcommand under `bench`.
void add_bench_generate(CLI::App& bench);

}  // namespace gsflow::app
