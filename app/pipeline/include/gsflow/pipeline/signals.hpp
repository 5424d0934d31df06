// Termination signals (SIGINT, SIGTERM, SIGHUP) delivered to one thread that does no compute.
//
// A handler that runs on a compute thread can crash the process: Debian's oneDNN 2.6.3 (under
// LibTorch's convolutions) points the stack pointer into heap memory inside its JIT GEMM, so a
// signal frame delivered there overwrites the heap (SIGSEGV, "corrupted size vs. prev_size";
// fixed upstream in a later oneDNN). So gsflow blocks these signals in every thread from the
// start of main() and receives them with sigwait() on a thread of its own.
#pragma once

#include <functional>

namespace gsflow::pipeline {

// Call first in main(), before any other thread exists: blocks SIGINT, SIGTERM and SIGHUP in the
// calling thread (every thread started later inherits the mask, and exec() keeps it) and starts
// the thread that receives them. Idempotent.
void route_signals_to_one_thread();

// What the signal thread does with a signal: `handler(signo)`, called on that thread, one signal
// at a time. With no handler set (the default, and after set_signal_handler({})), the signal's
// default action happens: the process ends as if it had not been blocked.
void set_signal_handler(std::function<void(int)> handler);

}  // namespace gsflow::pipeline
