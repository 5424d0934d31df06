// The one quantile of the project's reports and fitted ranges: linear interpolation between order
// statistics (numpy's default), so that figures computed in C++ and in scripts agree.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace gsflow::engine {

// The q-quantile (q in 0..1) of `v`; 0 for no values.
inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace gsflow::engine
