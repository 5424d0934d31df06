// Summaries of measurements (timings, scores) for the commands' reports.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace gsflow::app {

// The q-quantile (q in 0..1) by linear interpolation between order statistics; 0 for no values.
inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

// The median (the mean of the two middle values for an even count).
inline double median(std::vector<double> v) { return quantile(std::move(v), 0.5); }

inline double mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

}  // namespace gsflow::app
