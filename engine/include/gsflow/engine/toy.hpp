// The toy benchmark of method.md section 7 (Dirichlet FM / Fisher FM / GSFM paper Table 7):
// independent positions with target probabilities softmax(U(0,1)), its exact-posterior denoiser
// (the method's own bias, free of learning error), and the KL metric.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gsflow/engine/path.hpp"
#include "gsflow/engine/sampler.hpp"

namespace gsflow::engine {

struct ToyTask {
  std::size_t length = 4;     // L
  std::size_t k = 20;         // K
  std::vector<double> probs;  // [L, K] target probabilities, rows sum to 1
};

// Target probabilities softmax(U(0,1)) per position, drawn from Philox with `seed`.
ToyTask make_toy_task(std::size_t length, std::size_t k, std::uint64_t seed);

// `count` sequences drawn from the task's target, letters [count, L] (Philox, `seed`).
std::vector<std::uint16_t> sample_toy_data(const ToyTask& task, std::size_t count,
                                           std::uint64_t seed);

// Mean over positions of KL(empirical letter frequencies || target), natural log, 0 log 0 = 0.
double toy_kl(const ToyTask& task, const std::vector<std::uint16_t>& letters);

// KL of uniform letters against the target: the floor every method must beat (method.md 1b).
double toy_uniform_kl(const ToyTask& task);

// The exact denoiser of the task for `method` (GSFM/Linear FM: P(clean letter | x_t) from the
// Concrete / Dirichlet-mixture density; GSSM: the exact marginal score as q). Double precision.
Denoiser toy_exact_denoiser(const ToyTask& task, const Path& path, Method method);

}  // namespace gsflow::engine
