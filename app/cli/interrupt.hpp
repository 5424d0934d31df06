// Ctrl-C and SIGTERM for long commands: the first signal asks for a graceful stop (finish the
// current batch, store it, exit 3); a second one cancels the batch in progress as well.
#pragma once

#include <atomic>

namespace gsflow::app {

// Installs the handlers for its lifetime (restoring the previous ones after). One at a time.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  bool stop_requested() const;                 // at least one signal arrived
  const std::atomic<bool>* cancel_now() const;  // set by the second signal (a SamplerHooks::cancel)
};

}  // namespace gsflow::app
