// One generation run of `gsflow generate` and `gsflow rerun`: pipeline::run_and_store() (the
// pipeline gsflow-studio shares) with progress on stderr, Ctrl-C handling and a FASTA file.
#pragma once

#include <string>

#include "gsflow/pipeline/stored_run.hpp"

namespace gsflow::app {

class InterruptGuard;

struct RunOptions : pipeline::StoredRunOptions {
  std::string out;            // FASTA file to write as well ("-" = stdout, "" = none)
  std::size_t width = 60;     // FASTA line width
  bool progress = true;       // progress on stderr
};

using RunOutcome = pipeline::StoredRunOutcome;

// Runs options.params under --consistent when given globally and returns what happened. The
// first interrupt finishes the current batch (status "interrupted"), the second cancels it.
// Throws like pipeline::run_and_store(); writing the FASTA file can throw std::runtime_error.
RunOutcome execute_run(RunOptions options, const InterruptGuard& interrupt);

}  // namespace gsflow::app
