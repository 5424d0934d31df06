// Best-of-N rejection sampling, the baseline guidance must beat: draw N unguided sequences, keep
// the one the guiding objective scores highest. Its expected outcome is computed exactly from a
// pool of unguided samples (order statistics of N-subsets drawn without replacement), so no
// N x n sequences have to be generated.
#pragma once

#include <cstddef>
#include <span>

namespace gsflow::evaluation {

struct BestOfN {
  std::size_t n = 0;          // N
  std::size_t pool = 0;       // unguided samples the expectation is over
  double guide_mean = 0.0;    // E[guide score of the chosen sequence]
  double judge_mean = 0.0;    // E[judge score of the chosen sequence]
};

// For a uniformly random N-subset of the pool, the chosen member is the one with the highest
// guide score (ties: the earlier index). Exact expectation: the member of guide rank r (1 = best)
// is chosen with probability C(P - r, N - 1) / C(P, N). Throws std::invalid_argument if the spans
// differ in size, the pool is empty, or N is 0 or larger than the pool.
BestOfN best_of_n(std::span<const double> guide, std::span<const double> judge, std::size_t n);

}  // namespace gsflow::evaluation
