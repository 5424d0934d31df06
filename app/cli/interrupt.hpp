// Ctrl-C, SIGTERM and SIGHUP for long commands: the first signal asks for a graceful stop (finish
// the current batch, store it, exit 3); a second one cancels the batch in progress as well, and
// ends the process after 10 s if the step in progress does not return (a hung plug-in); a third
// ends it at once. Finished batches are always kept. Needs pipeline::route_signals_to_one_thread()
// at the start of main().
#pragma once

#include <atomic>

namespace gsflow::app {

// Handles the signals for its lifetime (the default action before and after). One at a time.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  bool stop_requested() const;                 // at least one signal arrived
  // The computation has returned (what follows, such as writing files, is never cut short).
  void compute_finished() const;
  const std::atomic<bool>* cancel_now() const;  // set by the second signal (a SamplerHooks::cancel)
};

}  // namespace gsflow::app
