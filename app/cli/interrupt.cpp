// Signal handling for long commands (see interrupt.hpp). The signals arrive on the one thread that
// pipeline/signals.hpp reserves for them, never on a compute thread.
#include "interrupt.hpp"

#include <unistd.h>

#include <chrono>
#include <thread>

#include "global_options.hpp"
#include "gsflow/pipeline/signals.hpp"

namespace gsflow::app {

namespace {
std::atomic<int> g_signals{0};
std::atomic<bool> g_cancel{false};
std::atomic<bool> g_computing{false};  // between the guard's start and compute_finished()

void say(const char* text, std::size_t size) {
  [[maybe_unused]] auto n = write(STDERR_FILENO, text, size);
}

// The compute thread checks the cancel flag once per sampler step; a step that never ends (a
// plug-in classifier that does not return) cannot see it. Then the process ends here: every
// finished batch is already committed, and the next writer to open the store marks the run
// interrupted (its process is gone).
void exit_if_still_running(int signals_seen) {
  std::this_thread::sleep_for(std::chrono::seconds(10));
  if (g_signals.load() != signals_seen) return;  // a later signal took over
  if (!g_computing.load()) return;               // the computation did stop
  static const char msg[] =
      "gsflow: the current step does not respond (a plug-in classifier that never returns?); "
      "exiting: finished batches are kept\n";
  say(msg, sizeof msg - 1);
  _exit(kExitInterrupted);
}

void on_signal(int) {
  const int n = g_signals.fetch_add(1) + 1;
  if (n == 1) {
    static const char msg[] =
        "\ngsflow: interrupted: finishing the current batch (Ctrl-C again to stop at once)\n";
    say(msg, sizeof msg - 1);
    return;
  }
  g_cancel.store(true);
  if (n == 2) {
    static const char msg[] = "\ngsflow: stopping now (finished batches are kept)\n";
    say(msg, sizeof msg - 1);
    std::thread(exit_if_still_running, n).detach();
    return;
  }
  _exit(kExitInterrupted);  // a third signal: the user insists
}
}  // namespace

InterruptGuard::InterruptGuard() {
  g_signals = 0;
  g_cancel = false;
  g_computing = true;
  pipeline::set_signal_handler(on_signal);
}

InterruptGuard::~InterruptGuard() {
  g_computing = false;
  pipeline::set_signal_handler({});
}

void InterruptGuard::compute_finished() const { g_computing = false; }

bool InterruptGuard::stop_requested() const { return g_signals.load() > 0; }
const std::atomic<bool>* InterruptGuard::cancel_now() const { return &g_cancel; }

}  // namespace gsflow::app
