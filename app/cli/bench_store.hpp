// `gsflow bench store`: what the run store costs and holds: generation with the store at a frame
// rate vs without it (ratio, same process), trajectory sizes, and `gsflow runs list` on a store
// of many runs.
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

// Registers the `store` subcommand under `bench`.
void add_bench_store(CLI::App& bench);

}  // namespace gsflow::app
