// Summaries of measurements (timings, scores) for the commands' reports.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include "gsflow/engine/metrics/quantile.hpp"

namespace gsflow::app {

using engine::quantile;  // linear interpolation between order statistics; 0 for no values

// The median (the mean of the two middle values for an even count).
inline double median(std::vector<double> v) { return quantile(std::move(v), 0.5); }

inline double mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

}  // namespace gsflow::app
