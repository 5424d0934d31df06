// Termination signals on one thread (see signals.hpp).
#include "gsflow/pipeline/signals.hpp"

#include <pthread.h>
#include <signal.h>

#include <mutex>
#include <thread>

namespace gsflow::pipeline {

namespace {

std::mutex g_mutex;
std::function<void(int)> g_handler;
bool g_ignored[NSIG] = {};  // ignored when gsflow started (nohup, a background job of sh)

sigset_t termination_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

void receive_signals() {
  const sigset_t set = termination_signals();
  for (;;) {
    int signo = 0;
    if (sigwait(&set, &signo) != 0) continue;
    std::function<void(int)> handler;
    {
      const std::lock_guard lock(g_mutex);
      handler = g_handler;
    }
    if (handler) {
      handler(signo);
      continue;
    }
    if (g_ignored[signo]) continue;
    // No handler: the default action (terminate) for this one signal, on this thread.
    signal(signo, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, signo);
    pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
    raise(signo);
  }
}

}  // namespace

void route_signals_to_one_thread() {
  static std::once_flag once;
  std::call_once(once, [] {
    const sigset_t set = termination_signals();
    for (const int signo : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      sigaction(signo, nullptr, &old);
      g_ignored[signo] = old.sa_handler == SIG_IGN;
    }
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread(receive_signals).detach();
  });
}

void set_signal_handler(std::function<void(int)> handler) {
  const std::lock_guard lock(g_mutex);
  g_handler = std::move(handler);
}

}  // namespace gsflow::pipeline
