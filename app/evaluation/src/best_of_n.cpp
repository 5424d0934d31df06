// Expected best-of-N outcome from a pool (see best_of_n.hpp).
#include "gsflow/evaluation/best_of_n.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace gsflow::evaluation {

BestOfN best_of_n(std::span<const double> guide, std::span<const double> judge, std::size_t n) {
  const std::size_t pool = guide.size();
  if (judge.size() != pool) throw std::invalid_argument("best_of_n: guide and judge sizes differ");
  if (pool == 0 || n == 0 || n > pool)
    throw std::invalid_argument("best_of_n: N must be in 1.." + std::to_string(pool));
  std::vector<std::size_t> order(pool);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return guide[a] > guide[b]; });
  // p_r = C(P - r, N - 1) / C(P, N) for r = 1..P - N + 1, by the ratio
  // p_{r+1} / p_r = (P - r - N + 1) / (P - r), starting at p_1 = N / P; in logs for stability.
  BestOfN out{n, pool, 0.0, 0.0};
  double log_p = std::log(static_cast<double>(n)) - std::log(static_cast<double>(pool));
  for (std::size_t r = 1; r + n <= pool + 1; ++r) {
    const double p = std::exp(log_p);
    out.guide_mean += p * guide[order[r - 1]];
    out.judge_mean += p * judge[order[r - 1]];
    if (r + n <= pool)
      log_p += std::log(static_cast<double>(pool - r - n + 1)) -
               std::log(static_cast<double>(pool - r));
  }
  return out;
}

}  // namespace gsflow::evaluation
