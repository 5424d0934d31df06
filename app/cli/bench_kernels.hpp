// `gsflow bench kernels`: our softmax-family kernels against memcpy and LibTorch, in one run.
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

// Registers the `kernels` subcommand under `bench`.
void add_bench_kernels(CLI::App& bench);

}  // namespace gsflow::app
