// Terminal progress bar / periodic log lines (see progress.hpp).
#include "progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace gsflow::app {

std::string clock_text(double seconds) {
  const auto s = static_cast<long>(seconds);
  return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
}

Progress::Progress(std::string label, bool enabled)
    : label_(std::move(label)),
      enabled_(enabled),
      tty_(isatty(STDERR_FILENO) != 0),
      start_(Clock::now()),
      last_(start_) {}

void Progress::update(std::size_t done, std::size_t total) {
  if (!enabled_ || total == 0) return;
  const auto now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double since = std::chrono::duration<double>(now - last_).count();
  const double fraction = static_cast<double>(done) / static_cast<double>(total);
  const double eta = done ? elapsed * (1.0 - fraction) / fraction : 0.0;
  if (tty_) {
    if (since < 0.1 && done < total) return;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::fputs(fmt::format("\r{} [{}{}] {:3.0f}% {}/{} steps {:.1f} s, {:.0f} s left  ", label_,
                           std::string(static_cast<std::size_t>(filled), '#'),
                           std::string(static_cast<std::size_t>(kWidth - filled), ' '),
                           100.0 * fraction, done, total, elapsed, eta)
                   .c_str(),
               stderr);
    open_ = true;
  } else {
    const int decile = static_cast<int>(fraction * 10.0);
    if (decile == last_decile_ && since < 30.0) return;
    last_decile_ = decile;
    std::fputs(fmt::format("{}: {:.0f}% ({}/{} steps) {:.1f} s, {:.0f} s left\n", label_,
                           100.0 * fraction, done, total, elapsed, eta)
                   .c_str(),
               stderr);
  }
  last_ = now;
  std::fflush(stderr);
}

void Progress::finish() {
  if (open_) std::fputs("\n", stderr);
  open_ = false;
}

}  // namespace gsflow::app
