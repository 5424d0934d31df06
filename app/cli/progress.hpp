// Progress on stderr for long commands: a redrawn bar when stderr is a terminal, plain lines
// (every 10 % or 30 s) when it is a log file or pipe.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace gsflow::app {

// A duration as H:MM:SS, for progress lines and summaries.
std::string clock_text(double seconds);

class Progress {
 public:
  // `label` starts every line; `enabled` false makes it silent.
  explicit Progress(std::string label, bool enabled = true);
  // done of total units (e.g. sampler steps over all batches). Cheap to call often.
  void update(std::size_t done, std::size_t total);
  // Ends the bar's line (terminal) so that later messages start on a fresh one.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::string label_;
  bool enabled_, tty_, open_ = false;
  Clock::time_point start_, last_;
  int last_decile_ = -1;
};

}  // namespace gsflow::app
