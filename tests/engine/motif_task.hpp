// The positioned-motif target of the sampler tests: L = 12 letters over ACGT, with probability pi
// the 8-mer TATAAAAG at positions 2..9, otherwise independent uniform letters, and its exact
// denoiser (test_sampler.cpp explains what it measures).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "gsflow/engine/concrete.hpp"
#include "gsflow/engine/path.hpp"
#include "gsflow/engine/sampler.hpp"

namespace gsflow::engine::testing {

inline constexpr std::size_t kMotifLength = 12, kMotifStart = 2;
inline constexpr std::uint16_t kMotif[] = {3, 0, 3, 0, 0, 0, 0, 2};  // TATAAAAG
inline constexpr std::size_t kMotifSize = std::size(kMotif);

// Exact P(clean letter | x_t) for the motif mixture, with the log-likelihood ratio of the motif
// scaled by `evidence` (1 = exact). Per position, q = the posterior under a uniform prior, and
// p(x_t,i | motif letter) / p(x_t,i | uniform letter) = K q(motif letter).
inline Denoiser motif_denoiser(const Path& path, double pi, double evidence) {
  return [&path, pi, evidence](ConstRows x, std::size_t sequences, double t, Rows out) {
    constexpr std::size_t k = 4, l = kMotifLength;
    const double a = path.concrete_logit(t), lam = path.concrete_temperature(t);
    std::vector<double> y(k), flat(k, 0.0), q(l * k);
    for (std::size_t s = 0; s < sequences; ++s) {
      for (std::size_t i = 0; i < l; ++i) {
        const float* xr = x.data + (s * l + i) * x.stride;
        for (std::size_t c = 0; c < k; ++c) y[c] = std::log(std::max<double>(xr[c], 1e-300));
        clean_posterior(y.data(), flat.data(), k, a, lam, &q[i * k]);
      }
      double log_ratio = 0.0;
      for (std::size_t j = 0; j < kMotifSize; ++j)
        log_ratio += std::log(static_cast<double>(k) * q[(kMotifStart + j) * k + kMotif[j]]);
      const double w = 1.0 / (1.0 + std::exp(-(std::log(pi / (1.0 - pi)) + evidence * log_ratio)));
      for (std::size_t i = 0; i < l; ++i) {
        const bool in = i >= kMotifStart && i < kMotifStart + kMotifSize;
        for (std::size_t c = 0; c < k; ++c) {
          const double motif = in && c == kMotif[i - kMotifStart] ? 1.0 : 0.0;
          out.data[(s * l + i) * out.stride + c] =
              static_cast<float>(in ? w * motif + (1.0 - w) * q[i * k + c] : q[i * k + c]);
        }
      }
    }
  };
}

}  // namespace gsflow::engine::testing
