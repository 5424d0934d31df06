// The `gsflow generate` options that the run schema declares (gsflow/pipeline/run_schema.hpp):
// one CLI11 option per schema row, with the row's flag, help, range or choices, and the default
// taken from the RunParams it is bound to.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "gsflow/pipeline/run_params.hpp"

namespace gsflow::app {

// Adds the options to `cmd`; a given value is parsed and range-checked into `params` (an
// impossible one throws std::invalid_argument naming the flag, out of CLI::App::parse). `params`
// must outlive the parse.
void add_run_options(CLI::App& cmd, pipeline::RunParams& params);
// The same for the rows with these JSON keys only, in this order (e.g. the constraint options
// `gsflow score` shares with generate). Throws std::out_of_range for a key with no row.
void add_run_options(CLI::App& cmd, pipeline::RunParams& params,
                     const std::vector<std::string>& keys);

}  // namespace gsflow::app
