// Accuracy of the SIMD softmax, log-softmax and logsumexp on typical logits against long double:
// per ISA path, logit distribution and K, the largest and mean relative error of the probabilities
// (in units of 2^-24), and the largest absolute error of log-probabilities and logsumexp. The tests
// bound these errors (kernel_test_util.hpp, struct Tol); this tool reports where they actually are.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "gsflow/engine/kernels.hpp"

using namespace gsflow::engine;

int main() {
  const char* dists[] = {"U[-5,5]", "N(0,4)", "10+U[-5,5]"};
  std::printf("%-7s %-11s %3s %15s %16s %18s %16s\n", "isa", "logits", "K", "softmax max rel",
              "softmax mean rel", "log_softmax max", "logsumexp max");
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    if (!isa_supported(isa)) continue;
    const Kernels kern(KernelOptions{.isa = isa});
    for (int dist = 0; dist < 3; ++dist)
      for (std::size_t k : {4, 20, 64}) {
        const std::size_t rows = 800000 / k;
        std::vector<float> x(rows * k), y(rows * k), ly(rows * k), lse(rows);
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> uniform(-5, 5);
        std::normal_distribution<float> normal(0, 4);
        for (auto& v : x)
          v = dist == 0 ? uniform(rng) : dist == 1 ? normal(rng) : 10 + uniform(rng);
        kern.softmax({x.data(), rows, k, k}, {y.data(), rows, k, k});
        kern.log_softmax({x.data(), rows, k, k}, {ly.data(), rows, k, k});
        kern.logsumexp({x.data(), rows, k, k}, lse.data());
        double max_rel = 0, sum_rel = 0, max_log = 0, max_lse = 0;
        for (std::size_t r = 0; r < rows; ++r) {
          const float* z = x.data() + r * k;
          const long double m = *std::max_element(z, z + k);
          long double s = 0;
          for (std::size_t c = 0; c < k; ++c) s += std::exp(z[c] - m);
          const long double want_lse = m + std::log(s);
          max_lse = std::max(max_lse, static_cast<double>(std::fabs(lse[r] - want_lse)));
          for (std::size_t c = 0; c < k; ++c) {
            const long double p = std::exp(z[c] - m) / s;
            const double rel = static_cast<double>(std::fabs((y[r * k + c] - p) / p));
            max_rel = std::max(max_rel, rel);
            sum_rel += rel;
            const long double want_log = z[c] - want_lse;
            max_log = std::max(max_log, static_cast<double>(std::fabs(ly[r * k + c] - want_log)));
          }
        }
        const double u = std::ldexp(1.0, -24);
        std::printf("%-7s %-11s %3zu %15.2f %16.2f %18.2e %16.2e\n", isa_name(isa), dists[dist], k,
                    max_rel / u, sum_rel / static_cast<double>(rows * k) / u, max_log, max_lse);
      }
  }
}
