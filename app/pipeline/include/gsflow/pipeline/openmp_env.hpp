// The OpenMP wait policy of the processes that run LibTorch (gsflow-compute, gsflow-studio).
//
// LibTorch's OpenMP worker threads (libgomp) spin while they wait for work, by default. When the
// cores are busy with other work, every parallel region then waits for a spinner the scheduler
// has taken off its core: `gsflow generate --model peptide --n 100 --steps 5` took 132 s instead
// of 8.4 s beside two single-threaded jobs on 2 cores (docs/benchmarks.md). libgomp reads the
// policy once, when it loads, so it must be in the environment before such a process starts.
#pragma once

#include <cstdlib>

namespace gsflow::pipeline {

// Sets OMP_WAIT_POLICY=PASSIVE unless the user chose a policy; true when it set it.
inline bool default_passive_openmp() {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return false;
  return ::setenv("OMP_WAIT_POLICY", "PASSIVE", 0) == 0;
}

// The policy in this process's environment, for the -v log (`gsflow -v COMMAND`).
inline const char* openmp_wait_policy() {
  const char* p = std::getenv("OMP_WAIT_POLICY");
  return p != nullptr ? p : "unset (libgomp default: spin)";
}

}  // namespace gsflow::pipeline
