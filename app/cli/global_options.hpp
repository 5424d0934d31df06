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

// Exit codes of the gsflow command line. A bad command line (unknown option, a value CLI11 cannot
// parse or its check refuses) is bad input like any other: 2, as a value the run schema refuses.
inline constexpr int kExitOk = 0;           // success (--help and --version too)
inline constexpr int kExitUsage = 2;        // bad command line (message and usage on stderr)
inline constexpr int kExitInput = 2;        // bad input or a failure (message on stderr)
inline constexpr int kExitInterrupted = 3;  // Ctrl-C / SIGTERM: work done so far is kept

// The code main() returns when a command finishes without throwing (commands set
// kExitInterrupted here).
int& command_exit_code();

// Kernel options for a command: the best ISA, or the reference under --consistent.
inline engine::KernelOptions kernel_options(int threads = 1) {
  return engine::KernelOptions{.consistent = global_options().consistent, .threads = threads};
}

}  // namespace gsflow::app
