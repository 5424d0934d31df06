// The `gsflow generate` options that the run schema declares (gsflow/pipeline/run_schema.hpp):
// one CLI11 option per schema row, with the row's flag, help, range or choices, and the default
// taken from the RunParams it is bound to.
#pragma once

#include <CLI/CLI.hpp>

#include "gsflow/pipeline/run_params.hpp"

namespace gsflow::app {

// Adds the options to `cmd`; a given value is parsed and range-checked into `params` (an
// impossible one throws std::invalid_argument naming the flag, out of CLI::App::parse). `params`
// must outlive the parse.
void add_run_options(CLI::App& cmd, pipeline::RunParams& params);

}  // namespace gsflow::app
