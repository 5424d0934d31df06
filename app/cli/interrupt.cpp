// Signal handling for long commands (see interrupt.hpp).
#include "interrupt.hpp"

#include <csignal>
#include <unistd.h>

namespace gsflow::app {

namespace {
std::atomic<int> g_signals{0};
std::atomic<bool> g_cancel{false};
struct sigaction g_old_int, g_old_term;

extern "C" void on_signal(int) {
  if (g_signals.fetch_add(1) >= 1) g_cancel.store(true);
  static const char msg[] =
      "\ngsflow: interrupted: finishing the current batch (Ctrl-C again to stop at once)\n";
  [[maybe_unused]] auto n = write(STDERR_FILENO, msg, sizeof msg - 1);
}
}  // namespace

InterruptGuard::InterruptGuard() {
  g_signals = 0;
  g_cancel = false;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

bool InterruptGuard::stop_requested() const { return g_signals.load() > 0; }
const std::atomic<bool>* InterruptGuard::cancel_now() const { return &g_cancel; }

}  // namespace gsflow::app
