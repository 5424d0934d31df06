// The BLAS kernels every network's float32 products run on (models/src/blas_kernels.cpp): on a
// CPU with AVX2 the BLAS must not be left on OpenBLAS's pre-AVX2 fallback, and the kernels switched
// to must compute products that agree with a double-precision reference.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <string>

#include "gsflow/models/blas_kernels.hpp"

namespace {

using gsflow::models::choose_blas_kernels;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

TEST(BlasKernels, CpuWithAvx2RunsAvx2Kernels) {
  const auto corename = reinterpret_cast<char* (*)()>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  const std::string reported = choose_blas_kernels();
  if (corename == nullptr) {
    EXPECT_EQ(reported, "not OpenBLAS");
    return;
  }
  const std::string core = corename();
  EXPECT_EQ(reported.rfind("OpenBLAS " + core, 0), 0u) << reported;
#if defined(__x86_64__)
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx2 && std::getenv("OPENBLAS_CORETYPE") == nullptr) {
    // The same list blas_kernels.cpp switches away from, written out independently.
    for (const char* old : {"prescott", "core2", "penryn", "dunnington", "nehalem", "atom",
                            "sandybridge", "katmai", "northwood", "barcelona", "bulldozer"})
      EXPECT_NE(lower(core), old) << "AVX2 CPU left on " << core << " (" << reported << ")";
  }
#endif
}

// Odd sizes reach the kernels' edge cases; two thread counts the parallel split.
TEST(BlasKernels, ProductsMatchADoubleReference) {
  choose_blas_kernels();
  torch::manual_seed(5);
  for (int threads : {1, 2}) {
    at::set_num_threads(threads);
    for (auto [m, k, n] : {std::array<std::int64_t, 3>{67, 131, 93}, {1, 17, 5}, {256, 128, 384}}) {
      const auto a = torch::randn({m, k});
      const auto b = torch::randn({k, n});
      const auto c = torch::mm(a, b);
      // A plain double loop, no BLAS: float32 dot products of length k err ~ sqrt(k) * 2^-24.
      const auto ea = a.accessor<float, 2>();
      const auto eb = b.accessor<float, 2>();
      const auto ec = c.accessor<float, 2>();
      double worst = 0.0;
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          double sum = 0.0;
          for (std::int64_t l = 0; l < k; ++l) sum += double(ea[i][l]) * double(eb[l][j]);
          worst = std::max(worst, std::abs(sum - double(ec[i][j])));
        }
      EXPECT_LT(worst, 1e-4 * std::sqrt(static_cast<double>(k)))
          << m << "x" << k << "x" << n << " with " << threads << " threads";
    }
  }
}

}  // namespace
