// Best-of-N expectation against enumerating every N-subset of a small pool.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gsflow/evaluation/best_of_n.hpp"

namespace gsflow::evaluation {
namespace {

// Mean over all N-subsets (bit masks) of the judge score of the subset's best-guide member.
double enumerate(const std::vector<double>& guide, const std::vector<double>& judge, std::size_t n) {
  double sum = 0.0, count = 0.0;
  for (unsigned mask = 0; mask < (1u << guide.size()); ++mask) {
    if (static_cast<std::size_t>(__builtin_popcount(mask)) != n) continue;
    int best = -1;
    for (std::size_t i = 0; i < guide.size(); ++i)
      if ((mask >> i & 1u) && (best < 0 || guide[i] > guide[static_cast<std::size_t>(best)]))
        best = static_cast<int>(i);
    sum += judge[static_cast<std::size_t>(best)];
    count += 1.0;
  }
  return sum / count;
}

TEST(BestOfN, MatchesEnumerationOfAllSubsets) {
  std::mt19937 rng(3);
  std::normal_distribution<double> z;
  for (std::size_t pool : {1u, 5u, 12u})
    for (std::size_t n = 1; n <= pool; ++n) {
      std::vector<double> guide(pool), judge(pool);
      for (std::size_t i = 0; i < pool; ++i) {
        guide[i] = z(rng);
        judge[i] = guide[i] + z(rng);
      }
      const auto b = best_of_n(guide, judge, n);
      EXPECT_NEAR(b.judge_mean, enumerate(guide, judge, n), 1e-9) << pool << " " << n;
      EXPECT_NEAR(b.guide_mean, enumerate(guide, guide, n), 1e-9) << pool << " " << n;
    }
}

TEST(BestOfN, EdgesAndErrors) {
  const std::vector<double> g{1, 3, 2}, j{10, 30, 20};
  EXPECT_DOUBLE_EQ(best_of_n(g, j, 1).judge_mean, 20.0);  // N = 1: the pool mean
  EXPECT_DOUBLE_EQ(best_of_n(g, j, 3).judge_mean, 30.0);  // N = P: the best
  EXPECT_THROW(best_of_n(g, j, 0), std::invalid_argument);
  EXPECT_THROW(best_of_n(g, j, 4), std::invalid_argument);
  EXPECT_THROW(best_of_n(g, std::vector<double>{1.0}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace gsflow::evaluation
