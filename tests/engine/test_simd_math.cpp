// Accuracy of the SIMD exp and log (engine/src/kernels/simd_math.hpp) on each vector path, element
// by element against double-precision std::exp / std::log, over a regular sample of every float in
// the ranges the kernels use. The kernel tests (test_kernels.cpp) check whole operations with
// tolerances wide enough for any ~1 ulp exp; these bounds are the functions' own.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "gsflow/engine/kernels.hpp"
#include "simd_math_probe.hpp"

namespace gsflow::engine::test {
namespace {

struct Probe {
  const char* name;
  Isa isa;
  ExpProbe exp;
  LogProbe log;
};

void PrintTo(const Probe& p, std::ostream* os) { *os << p.name; }

const Probe kProbes[] = {{"avx2", Isa::avx2, exp_avx2, log_avx2},
                         {"avx512", Isa::avx512, exp_avx512, log_avx512}};

// Every `stride`-th float from a to b (same sign, |a| <= |b|), both ends included.
std::vector<float> floats_between(float a, float b, std::uint32_t stride) {
  std::vector<float> out;
  const std::uint32_t hi = std::bit_cast<std::uint32_t>(b);
  for (std::uint32_t u = std::bit_cast<std::uint32_t>(a); u < hi; u += stride)
    out.push_back(std::bit_cast<float>(u));
  out.push_back(b);
  return out;
}

// The ulp of the float nearest to a normal value t.
double ulp_of(double t) { return std::ldexp(1.0, std::ilogb(static_cast<float>(t)) - 23); }

class SimdMath : public ::testing::TestWithParam<Probe> {
 protected:
  void SetUp() override {
    if (!isa_supported(GetParam().isa))
      GTEST_SKIP() << GetParam().name << " is not supported on this CPU";
  }
};

// exp on [-87.3, 0], where exp is a normal float. Bound: relative error <= 8e-8 + 2.8e-9 |x|.
// The polynomial is 4.2e-9 off and its float evaluation adds about half an ulp (at most 6e-8
// relative), so 8e-8 is 1.3 of those; the |x| term is the range reduction x - n ln 2 with ln 2
// rounded to float (1.9e-9 per unit of n = x / ln 2). The old Cephes polynomial measured within
// the same bound; a degree-5 fit (1.1e-7 off) would not be.
TEST_P(SimdMath, ExpIsWithinItsBoundWhereTheResultIsNormal) {
  const std::vector<float> x = floats_between(-0.0f, -87.3f, 97);
  std::vector<float> y(x.size());
  GetParam().exp(x.data(), y.data(), x.size());
  double worst = 0, worst_x = 0, worst_ulp = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double t = std::exp(static_cast<double>(x[i]));
    const double rel = std::fabs(y[i] - t) / t;
    if (rel > 8e-8 + 2.8e-9 * std::fabs(x[i])) ++bad;
    if (std::fabs(x[i]) < 8.0) worst_ulp = std::fmax(worst_ulp, std::fabs(y[i] - t) / ulp_of(t));
    if (rel > worst) worst = rel, worst_x = x[i];
  }
  EXPECT_EQ(bad, 0u) << "of " << x.size() << "; largest relative error " << worst
                     << " at x = " << worst_x;
  std::cout << GetParam().name << " exp: largest error " << worst_ulp << " ulp for |x| < 8, "
            << worst << " relative (x = " << worst_x << ")\n";
  // Where |x| < 8 (|n| <= 11) the result is within one ulp (measured 0.94; 1.26 up to |x| = 17).
  EXPECT_LE(worst_ulp, 1.0);
  const float exact[] = {0.0f, -std::numeric_limits<float>::infinity()};
  float got[2];
  GetParam().exp(exact, got, 2);
  EXPECT_EQ(got[0], 1.0f);
  EXPECT_EQ(got[1], 0.0f);
}

// exp of positive arguments, which the lanes layout passes when it sums a row without subtracting
// its maximum: within the same bound up to 88, and from above 88 (where the AVX2 exponent field
// would wrap) on, at least 2^126 or NaN, so that the row's sum fails every unshifted bound (at most
// 2^100) and the row is redone shifted.
TEST_P(SimdMath, ExpOfPositiveArgumentsIsAccurateOrFailsTheBounds) {
  const std::vector<float> x = floats_between(0.0f, 88.0f, 97);
  std::vector<float> y(x.size());
  GetParam().exp(x.data(), y.data(), x.size());
  double worst = 0, worst_x = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double t = std::exp(static_cast<double>(x[i]));
    const double rel = std::fabs(y[i] - t) / t;
    if (rel > 8e-8 + 2.8e-9 * std::fabs(x[i])) ++bad;
    if (rel > worst) worst = rel, worst_x = x[i];
  }
  EXPECT_EQ(bad, 0u) << "of " << x.size() << "; largest relative error " << worst
                     << " at x = " << worst_x;
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> big = floats_between(88.0f, 1e6f, 4099);
  for (float v : {89.0f, 100.0f, 1e10f, 1e30f, 3e38f, inf}) big.push_back(v);
  std::vector<float> got(big.size());
  GetParam().exp(big.data(), got.data(), big.size());
  std::size_t low = 0;
  for (std::size_t i = 0; i < big.size(); ++i)
    if (got[i] < 0x1p126f && low++ == 0)
      ADD_FAILURE() << "exp(" << big[i] << ") = " << got[i] << " (below 2^126)";
  EXPECT_EQ(low, 0u) << "of " << big.size();
}

// log of positive normal floats from FLT_MIN to FLT_MAX: within one ulp of the true value (the
// polynomial is 6.4e-9 off; the largest error measured is 0.79 ulp), in both forms.
TEST_P(SimdMath, LogIsWithinOneUlpForNormalInputs) {
  const std::vector<float> x = floats_between(FLT_MIN, FLT_MAX, 211);
  for (bool any_input : {false, true}) {
    std::vector<float> y(x.size());
    GetParam().log(x.data(), y.data(), x.size(), any_input);
    double worst = 0, worst_x = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double t = std::log(static_cast<double>(x[i]));
      if (t == 0) {
        EXPECT_EQ(y[i], 0.0f);
        continue;
      }
      const double e = std::fabs(y[i] - t) / ulp_of(t);
      if (e > worst) worst = e, worst_x = x[i];
    }
    EXPECT_LE(worst, 1.0) << "at x = " << worst_x << (any_input ? " (any input)" : "");
    std::cout << GetParam().name << " log" << (any_input ? " (any input)" : "")
              << ": largest error " << worst << " ulp (x = " << worst_x << ")\n";
  }
}

// The any-input form: subnormals as accurately as normals, log 0 = -inf, negatives NaN.
TEST_P(SimdMath, LogOfSubnormalsZeroAndNegatives) {
  std::vector<float> x =
      floats_between(std::bit_cast<float>(1u), std::bit_cast<float>(0x007fffffu), 4099);
  x.push_back(0.0f);
  x.push_back(-1.0f);
  std::vector<float> y(x.size());
  GetParam().log(x.data(), y.data(), x.size(), true);
  const std::size_t n = x.size() - 2;
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = std::log(static_cast<double>(x[i]));
    worst = std::fmax(worst, std::fabs(y[i] - t) / ulp_of(t));
  }
  EXPECT_LE(worst, 1.0);
  std::cout << GetParam().name << " log of subnormals: largest error " << worst << " ulp\n";
  EXPECT_EQ(y[n], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(y[n + 1]));
}

INSTANTIATE_TEST_SUITE_P(Paths, SimdMath, ::testing::ValuesIn(kProbes),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace gsflow::engine::test
