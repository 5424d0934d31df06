// Statistical tests of the Gumbel noise and of the Gumbel kernels, at fixed seeds (so every run
// sees the same numbers: a pass is reproducible, not luck of the day).
//
// Thresholds: moment tests allow 5 standard errors (two-sided chance of failing at a random seed
// ~6e-7); chi-square tests require p > 0.001.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "gsflow/engine/kernels.hpp"
#include "gsflow/engine/philox.hpp"
#include "kernel_test_util.hpp"

namespace gsflow::engine {
namespace {

using namespace kt;  // NOLINT(build/namespaces): test-local helpers

constexpr double kEulerGamma = 0.57721566490153286061;
constexpr double kPi2Over6 = std::numbers::pi * std::numbers::pi / 6;

// ------------------------------------------------------------------------------------------------
// Chi-square survival function: Q(df / 2, x / 2), the regularised upper incomplete gamma function
// (series for x < a + 1, Lentz continued fraction otherwise).

double gamma_q(double a, double x) {
  if (x <= 0) return 1.0;
  const double log_prefix = -x + a * std::log(x) - std::lgamma(a);
  if (x < a + 1) {
    double ap = a, del = 1.0 / a, sum = del;
    for (int n = 0; n < 10000; ++n) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (std::fabs(del) < std::fabs(sum) * 1e-16) break;
    }
    return 1.0 - sum * std::exp(log_prefix);
  }
  constexpr double kTiny = 1e-300;
  double b = x + 1 - a, c = 1 / kTiny, d = 1 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < 1e-16) break;
  }
  return std::exp(log_prefix) * h;
}

double chi2_sf(double x, double df) { return gamma_q(df / 2, x / 2); }

// Pearson statistic of observed counts against expected probabilities.
double chi2_stat(const std::vector<std::size_t>& counts, const std::vector<double>& probs,
                 std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double e = probs[i] * static_cast<double>(n);
    s += (counts[i] - e) * (counts[i] - e) / e;
  }
  return s;
}

TEST(ChiSquare, SurvivalFunctionMatchesPublishedTables) {
  // Critical values from standard chi-square tables: (x, df, upper tail probability).
  struct Row {
    double x, df, p;
  };
  for (const Row& r :
       {Row{3.841459, 1, 0.05}, Row{16.26624, 3, 0.001}, Row{29.58830, 10, 0.001},
        Row{43.82020, 19, 0.001}, Row{149.4493, 100, 0.001}, Row{124.3421, 100, 0.05}}) {
    EXPECT_NEAR(chi2_sf(r.x, r.df), r.p, r.p * 1e-3) << "x=" << r.x << " df=" << r.df;
  }
}

// ------------------------------------------------------------------------------------------------
// (a) The noise itself, through noise_uniform (the rule every kernel path implements).

constexpr std::uint64_t kSeed = 0x5eed5eed12345678ULL;
constexpr std::uint64_t kStream = 0x0000000300000007ULL;

// One million uniforms: rows 0..249999, columns 0..3 (one Philox block per row).
std::vector<double> million_uniforms(std::uint64_t seed, std::uint64_t stream) {
  std::vector<double> u;
  u.reserve(1000000);
  for (std::uint32_t r = 0; r < 250000; ++r)
    for (std::uint64_t c = 0; c < 4; ++c) u.push_back(noise_uniform(seed, stream, r, c));
  return u;
}

TEST(GumbelNoise, UniformsHaveMeanOneHalfAndPassChiSquare) {
  const std::vector<double> u = million_uniforms(kSeed, kStream);
  const double n = static_cast<double>(u.size());
  double sum = 0;
  std::vector<std::size_t> bins(100, 0);
  for (double v : u) {
    ASSERT_GT(v, 0.0);
    ASSERT_LT(v, 1.0);
    sum += v;
    ++bins[static_cast<std::size_t>(v * 100)];
  }
  const double mean = sum / n, se = std::sqrt(1.0 / 12.0 / n);
  EXPECT_NEAR(mean, 0.5, 5 * se) << "mean " << mean << " (5 SE = " << 5 * se << ")";
  // 100 equal bins, df = 99; reject at p <= 0.001 (chi2 > 148.2).
  const double stat = chi2_stat(bins, std::vector<double>(100, 0.01), u.size());
  EXPECT_GT(chi2_sf(stat, 99), 0.001) << "chi2 = " << stat;
}

// Neighbouring coordinates give uncorrelated uniforms: words of one block, the next block, the next
// row, the next stream and the next seed. |r| < 5 / sqrt(n) (5 standard errors of a correlation).
TEST(GumbelNoise, NeighbouringCoordinatesAreUncorrelated) {
  const std::size_t n = 200000;
  auto corr = [&](auto&& a, auto&& b) {
    double sa = 0, sb = 0, sab = 0, saa = 0, sbb = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      const double x = a(i), y = b(i);
      sa += x, sb += y, sab += x * y, saa += x * x, sbb += y * y;
    }
    const double m = static_cast<double>(n);
    return (sab / m - sa * sb / (m * m)) /
           std::sqrt((saa / m - sa * sa / (m * m)) * (sbb / m - sb * sb / (m * m)));
  };
  auto u = [](std::uint64_t seed, std::uint64_t stream, std::uint32_t row, std::uint64_t col) {
    return static_cast<double>(noise_uniform(seed, stream, row, col));
  };
  const double bound = 5 / std::sqrt(static_cast<double>(n));
  struct Pair {
    const char* what;
    double r;
  };
  const Pair pairs[] = {
      {"col 0 vs col 1", corr([&](std::uint32_t i) { return u(kSeed, kStream, i, 0); },
                              [&](std::uint32_t i) { return u(kSeed, kStream, i, 1); })},
      {"col 2 vs col 3", corr([&](std::uint32_t i) { return u(kSeed, kStream, i, 2); },
                              [&](std::uint32_t i) { return u(kSeed, kStream, i, 3); })},
      {"col 0 vs col 4", corr([&](std::uint32_t i) { return u(kSeed, kStream, i, 0); },
                              [&](std::uint32_t i) { return u(kSeed, kStream, i, 4); })},
      {"row i vs row i+1", corr([&](std::uint32_t i) { return u(kSeed, kStream, i, 0); },
                                [&](std::uint32_t i) { return u(kSeed, kStream, i + 1, 0); })},
      {"stream vs stream+1", corr([&](std::uint32_t i) { return u(kSeed, kStream, i, 0); },
                                  [&](std::uint32_t i) { return u(kSeed, kStream + 1, i, 0); })},
      {"seed vs seed+1", corr([&](std::uint32_t i) { return u(kSeed, kStream, i, 0); },
                              [&](std::uint32_t i) { return u(kSeed + 1, kStream, i, 0); })},
  };
  for (const Pair& p : pairs) EXPECT_LT(std::fabs(p.r), bound) << p.what << ": r = " << p.r;
}

// g = -log(-log u) over one million draws: mean Euler's gamma, variance pi^2 / 6.
TEST(GumbelNoise, GumbelMeanAndVarianceMatchTheory) {
  const std::vector<double> u = million_uniforms(kSeed ^ 0xff, kStream);
  const double n = static_cast<double>(u.size());
  ld sum = 0, sum2 = 0;
  for (double v : u) {
    const ld g = -std::log(-std::log(static_cast<ld>(v)));
    sum += g;
    sum2 += g * g;
  }
  const double mean = static_cast<double>(sum / n);
  const double var = static_cast<double>((sum2 - sum * sum / n) / (n - 1));
  const double sigma2 = kPi2Over6;
  // SE of the mean: sqrt(sigma^2 / n).
  const double se_mean = std::sqrt(sigma2 / n);
  EXPECT_NEAR(mean, kEulerGamma, 5 * se_mean)
      << "mean " << mean << " (5 SE = " << 5 * se_mean << ")";
  // SE of the sample variance: sqrt((mu4 - sigma^4) / n), mu4 = (3 + 12/5) sigma^4 for the Gumbel
  // distribution (excess kurtosis 12/5).
  const double se_var = std::sqrt((3.0 + 12.0 / 5.0 - 1.0) * sigma2 * sigma2 / n);
  EXPECT_NEAR(var, sigma2, 5 * se_var) << "variance " << var << " (5 SE = " << 5 * se_var << ")";
}

// ------------------------------------------------------------------------------------------------
// Kernel-level statistics on each path

class GumbelPath : public ::testing::TestWithParam<PathSpec> {
 protected:
  void SetUp() override {
    if (!isa_supported(GetParam().isa))
      GTEST_SKIP() << isa_name(GetParam().isa) << " is not supported on this CPU";
  }
  Kernels make() const {
    Kernels kern(GetParam().options);
    EXPECT_EQ(kern.isa(), GetParam().isa);
    return kern;
  }
};

std::vector<float> fixed_logits(std::size_t k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> l(k);
  for (float& v : l) v = static_cast<float>(std::uniform_real_distribution<double>(-2, 2)(rng));
  return l;
}

Batch repeat_rows(const std::vector<float>& row, std::size_t n) {
  Batch x(n, row.size(), row.size());
  for (std::size_t r = 0; r < n; ++r) std::copy(row.begin(), row.end(), x.row(r));
  return x;
}

std::vector<std::uint32_t> row_argmax(const Batch& y) {
  std::vector<std::uint32_t> a(y.rows);
  for (std::size_t r = 0; r < y.rows; ++r) {
    const float* row = y.row(r);
    a[r] = static_cast<std::uint32_t>(std::max_element(row, row + y.k) - row);
  }
  return a;
}

// The noise as the kernel sees it: with scale_x = 0, scale_g = 1 and K = 2,
// log y0 - log y1 = g0 - g1, a difference of independent Gumbels: Logistic(0, 1) with mean 0 and
// variance pi^2 / 3 (excess kurtosis 6/5, so mu4 = 4.2 sigma^4).
TEST_P(GumbelPath, KernelNoiseDifferenceIsLogistic) {
  const Kernels kern = make();
  const std::size_t n = 500000;
  Batch x(n, 2, 2, 0.0f);
  Batch y = make_output(n, 2, 2);
  kern.scaled_gumbel_softmax(x.in(), y.out(), 0.0f, 1.0f, NoiseKey{kSeed, 42, 0});
  ld sum = 0, sum2 = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const ld d = std::log(static_cast<ld>(y.at(r, 0))) - std::log(static_cast<ld>(y.at(r, 1)));
    ASSERT_TRUE(std::isfinite(static_cast<double>(d))) << "row " << r;
    sum += d;
    sum2 += d * d;
  }
  const double mean = static_cast<double>(sum / n);
  const double var = static_cast<double>((sum2 - sum * sum / n) / (n - 1));
  const double sigma2 = 2 * kPi2Over6;
  const double se_mean = std::sqrt(sigma2 / n), se_var = std::sqrt(3.2 * sigma2 * sigma2 / n);
  EXPECT_NEAR(mean, 0.0, 5 * se_mean);
  EXPECT_NEAR(var, sigma2, 5 * se_var);
}

// Gumbel-max: the argmax of gumbel_softmax(logits) (tau = 1) is a categorical sample of
// softmax(logits). N = 200000 identical rows in one call; chi-square with df = K - 1, p > 0.001.
TEST_P(GumbelPath, ArgmaxFrequenciesFollowSoftmax) {
  const Kernels kern = make();
  const std::size_t n = 200000;
  for (std::size_t k : {4, 20}) {
    const std::vector<float> logits = fixed_logits(k, 31 + k);
    const Batch x = repeat_rows(logits, n);
    Batch y = make_output(n, k, k);
    kern.gumbel_softmax(x.in(), y.out(), 1.0f, NoiseKey{kSeed, 1000 + k, 0});
    std::vector<std::size_t> counts(k, 0);
    for (std::uint32_t a : row_argmax(y)) ++counts[a];
    std::vector<ld> z(logits.begin(), logits.end());
    const std::vector<ld> pl = softmax_ld(z);
    const std::vector<double> p(pl.begin(), pl.end());
    const double stat = chi2_stat(counts, p, n);
    const double pv = chi2_sf(stat, static_cast<double>(k - 1));
    EXPECT_GT(pv, 0.001) << GetParam().name << " K=" << k << ": chi2 = " << stat << ", p = " << pv;
  }
}

// Small temperature: the sample is close to one-hot (mean max probability > 0.9; about 0.97-0.98
// for these logits), and the winner is the tau = 1 winner with the same noise.
TEST_P(GumbelPath, SmallTauIsNearlyOneHotWithTheSameWinner) {
  const Kernels kern = make();
  const std::size_t n = 100000;
  for (std::size_t k : {4, 20}) {
    const std::vector<float> logits = fixed_logits(k, 77 + k);
    const Batch x = repeat_rows(logits, n);
    const NoiseKey key{kSeed, 2000 + k, 5};
    Batch sharp = make_output(n, k, k), warm = make_output(n, k, k);
    kern.gumbel_softmax(x.in(), sharp.out(), 0.05f, key);
    kern.gumbel_softmax(x.in(), warm.out(), 1.0f, key);
    ld sum_max = 0;
    for (std::size_t r = 0; r < n; ++r)
      sum_max += *std::max_element(sharp.row(r), sharp.row(r) + k);
    EXPECT_GT(static_cast<double>(sum_max / n), 0.9) << GetParam().name << " K=" << k;
    // Temperature does not move the argmax; disagreement is only possible where the top two of
    // logits + g are within float resolution (~1e-6 here), expected ~0.1 rows of 1e5.
    const auto a = row_argmax(sharp), b = row_argmax(warm);
    std::size_t diff = 0;
    for (std::size_t r = 0; r < n; ++r) diff += (a[r] != b[r]);
    EXPECT_LE(diff, n / 10000) << GetParam().name << " K=" << k;
  }
}

// The interpolant of method.md section 1 with x1 = e_k: argmax(x_t) does not change along a path
// (same noise, tau(t) falling), and it equals the data letter with probability
// e^beta / (e^beta + K - 1) (x_t is Concrete with logits beta e_k) [derived in method.md].
TEST_P(GumbelPath, InterpolantArgmaxIsConstantAlongThePath) {
  const Kernels kern = make();
  const std::size_t n = 100000, k = 20;
  const float beta = 2.0f;
  std::mt19937_64 rng(99);
  Batch x1(n, k, k, 0.0f);
  std::vector<std::uint32_t> letter(n);
  for (std::size_t r = 0; r < n; ++r)
    x1.at(r, letter[r] = std::uniform_int_distribution<std::uint32_t>(0, k - 1)(rng)) = 1.0f;
  const NoiseKey key{kSeed, 3000, 0};
  std::vector<std::vector<std::uint32_t>> winners;
  for (double t : {0.0, 0.5, 1.0}) {
    const float tau = static_cast<float>(10.0 * std::exp(-3.0 * t));
    Batch y = make_output(n, k, k);
    kern.interpolant(x1.in(), y.out(), tau, beta, key);
    winners.push_back(row_argmax(y));
  }
  for (std::size_t i = 1; i < winners.size(); ++i) {
    std::size_t diff = 0;
    for (std::size_t r = 0; r < n; ++r) diff += (winners[i][r] != winners[0][r]);
    // Only exact float near-ties may differ (same reasoning as above): at most 1e-4 of rows.
    EXPECT_LE(diff, n / 10000) << GetParam().name << " t index " << i;
  }
  std::size_t hits = 0;
  for (std::size_t r = 0; r < n; ++r) hits += (winners.back()[r] == letter[r]);
  const double p = std::exp(2.0) / (std::exp(2.0) + (k - 1));
  const double se = std::sqrt(p * (1 - p) / n);
  EXPECT_NEAR(static_cast<double>(hits) / n, p, 5 * se) << GetParam().name;
}

INSTANTIATE_TEST_SUITE_P(Paths, GumbelPath, ::testing::ValuesIn(base_paths()), path_param_name);

// ------------------------------------------------------------------------------------------------
// (c) Same uniforms on every path: the argmax of every row agrees with the long-double oracle's
// argmax of logits + g, and hence across paths.
//
// Allowed disagreement: only rows whose oracle top-two gap is below 1e-5 (float code resolves
// logits + g, |.| <= ~20, to ~1e-6; its outputs to 2^-24 relative), and fewer than 1e-4 of rows in
// total. Any disagreement on a clear winner means the path used different noise.
TEST(GumbelAllPaths, ArgmaxIsTheSameOnEveryPath) {
  const std::size_t n = 200000;
  for (std::size_t k : {4, 20, 33}) {
    const std::vector<float> logits = fixed_logits(k, 5 + k);
    const Batch x = repeat_rows(logits, n);
    const NoiseKey key{kSeed ^ 0xabc, 4000 + k, 123456};
    // Oracle argmax and top-two gap of logits + g in long double.
    std::vector<std::uint32_t> oracle(n);
    std::vector<ld> gap(n);
    for (std::size_t r = 0; r < n; ++r) {
      ld best = kNegInfL, second = kNegInfL;
      for (std::size_t c = 0; c < k; ++c) {
        const ld z = ld{logits[c]} + gumbel_ld(key, r, c);
        if (z > best) {
          second = best;
          best = z;
          oracle[r] = static_cast<std::uint32_t>(c);
        } else if (z > second) {
          second = z;
        }
      }
      gap[r] = best - second;
    }
    std::vector<std::pair<std::string, std::vector<std::uint32_t>>> results;
    for (const PathSpec& path : base_paths()) {
      if (!isa_supported(path.isa)) continue;
      const Kernels kern(path.options);
      for (int variant = 0; variant < 2; ++variant) {
        Batch y = make_output(n, k, k);
        if (variant == 0) {
          kern.gumbel_softmax(x.in(), y.out(), 1.0f, key);
        } else {
          kern.scaled_gumbel_softmax(x.in(), y.out(), 1.0f, 1.0f, key);
        }
        results.emplace_back(path.name + (variant ? " scaled_gumbel_softmax" : " gumbel_softmax"),
                             row_argmax(y));
      }
    }
    for (const auto& [name, arg] : results) {
      std::size_t clear = 0, ties = 0;
      for (std::size_t r = 0; r < n; ++r) {
        if (arg[r] == oracle[r]) continue;
        (gap[r] < 1e-5L ? ties : clear) += 1;
      }
      EXPECT_EQ(clear, 0u) << name << " K=" << k << ": rows whose clear winner differs";
      EXPECT_LE(ties, n / 10000) << name << " K=" << k << ": near-tie disagreements";
    }
    for (std::size_t i = 1; i < results.size(); ++i) {
      std::size_t diff = 0;
      for (std::size_t r = 0; r < n; ++r)
        diff += (results[i].second[r] != results[0].second[r] && gap[r] >= 1e-5L);
      EXPECT_EQ(diff, 0u) << results[i].first << " vs " << results[0].first << " K=" << k;
    }
  }
}

}  // namespace
}  // namespace gsflow::engine
