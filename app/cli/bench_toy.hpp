// `gsflow bench toy`: the paper's toy benchmark (method.md section 7) for GSFM, GSSM and Linear FM.
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

// Registers the `toy` subcommand under `bench`.
void add_bench_toy(CLI::App& bench);

}  // namespace gsflow::app
