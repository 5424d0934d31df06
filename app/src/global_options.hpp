// Options every gsflow command shares (set before any subcommand runs), and the kernel options
// they imply.
#pragma once

#include "gsflow/engine/kernels.hpp"

namespace gsflow::app {

struct GlobalOptions {
  bool verbose = false;     // debug-level logging on stderr
  bool consistent = false;  // reference kernels only: bit-reproducible on any CPU
};

// The process-wide options, filled in by main() while parsing.
GlobalOptions& global_options();

// Kernel options for a command: the best ISA, or the reference under --consistent.
inline engine::KernelOptions kernel_options(int threads = 1) {
  return engine::KernelOptions{.consistent = global_options().consistent, .threads = threads};
}

}  // namespace gsflow::app
