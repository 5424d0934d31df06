// `gsflow bench classifier`: what classifier guidance adds per sampler step: the classifier's
// forward + input gradient on M x batch one-hot sequences against one generator denoiser call
// on the batch, measured in the same process.
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

// Registers the `classifier` subcommand under `bench`.
void add_bench_classifier(CLI::App& bench);

}  // namespace gsflow::app
