// Tests of the double-precision Concrete formulas (concrete.hpp) against independent references:
// Maddison et al.'s product form of the density, numerical integration, finite-difference gradients
// and Bayes' rule computed directly from the densities.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gsflow/engine/concrete.hpp"
#include "method_test_util.hpp"

namespace gsflow::engine {
namespace {

using testing::softmax;

constexpr double kTemperatures[] = {0.5, 1.0, 5.0};

double logsumexp(const std::vector<double>& v) {
  const double m = *std::max_element(v.begin(), v.end());
  double s = 0;
  for (double x : v) s += std::exp(x - m);
  return m + std::log(s);
}

// A random interior point of the simplex: softmax of U[-spread, spread].
std::vector<double> simplex_point(std::mt19937_64& rng, std::size_t k, double spread) {
  std::uniform_real_distribution<double> u(-spread, spread);
  std::vector<double> z(k);
  for (double& v : z) v = u(rng);
  return softmax(z);
}

std::vector<double> log_of(const std::vector<double>& x) {
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = std::log(x[i]);
  return y;
}

std::vector<double> one_hot_logits(std::size_t k, std::size_t j, double a) {
  std::vector<double> l(k, 0.0);
  l[j] = a;
  return l;
}

std::string label(std::size_t k, double lam, double a = -1) {
  std::string s = "K=" + std::to_string(k) + " lam=" + std::to_string(lam);
  if (a >= 0) s += " a=" + std::to_string(a);
  return s;
}

// Logit vectors for the density and score tests: plain N(0, 1), and with one large entry.
std::vector<std::vector<double>> test_logits(std::mt19937_64& rng, std::size_t k) {
  std::normal_distribution<double> n01;
  std::vector<double> plain(k), large(k), huge(k);
  for (std::size_t i = 0; i < k; ++i) plain[i] = n01(rng), large[i] = n01(rng), huge[i] = 0;
  large[k / 2] = 8.0;
  huge[k - 1] = 30.0;
  return {plain, large, huge};
}

// ------------------------------------------------------------------------------------------------
// Densities

// Maddison et al. (2017), definition 1, evaluated as written (a product of k ratios):
//   p(x) = (k-1)! lam^(k-1) prod_i [ alpha_i x_i^(-lam-1) / sum_j alpha_j x_j^(-lam) ],
// alpha = exp(logits). Only for moderate arguments (it overflows otherwise).
double maddison_density(const std::vector<double>& x, const std::vector<double>& logits,
                        double lam) {
  const std::size_t k = x.size();
  double denom = 0;
  for (std::size_t j = 0; j < k; ++j) denom += std::exp(logits[j]) * std::pow(x[j], -lam);
  double p = std::tgamma(static_cast<double>(k)) * std::pow(lam, static_cast<double>(k - 1));
  for (std::size_t i = 0; i < k; ++i) p *= std::exp(logits[i]) * std::pow(x[i], -lam - 1) / denom;
  return p;
}

TEST(ConcreteDensity, MatchesMaddisonProductForm) {
  std::mt19937_64 rng(11);
  for (std::size_t k : {2, 3, 5, 20}) {
    for (double lam : kTemperatures) {
      for (int rep = 0; rep < 5; ++rep) {
        SCOPED_TRACE(label(k, lam) + " rep " + std::to_string(rep));
        const std::vector<double> x = simplex_point(rng, k, 1.5);
        std::vector<double> logits(k);
        std::normal_distribution<double> n01;
        for (double& v : logits) v = n01(rng);
        const double want = std::log(maddison_density(x, logits, lam));
        ASSERT_TRUE(std::isfinite(want));
        // Both sides are sums of O(k lam |log x|) terms: 1e-12 relative to that scale.
        EXPECT_NEAR(concrete_log_density(x.data(), logits.data(), k, lam), want,
                    1e-12 * (1 + std::fabs(want) + k * lam * 3));
      }
    }
  }
}

TEST(ConcreteDensity, EqualsExpConcreteDensityMinusLogJacobian) {
  std::mt19937_64 rng(12);
  for (std::size_t k : {2, 4, 20}) {
    for (double lam : kTemperatures) {
      for (const std::vector<double>& logits : test_logits(rng, k)) {
        SCOPED_TRACE(label(k, lam));
        const std::vector<double> x = simplex_point(rng, k, 6.0);
        const std::vector<double> y = log_of(x);
        const double sum_log = std::accumulate(y.begin(), y.end(), 0.0);
        const double want = exp_concrete_log_density(y.data(), logits.data(), k, lam) - sum_log;
        EXPECT_NEAR(concrete_log_density(x.data(), logits.data(), k, lam), want,
                    1e-12 * (1 + std::fabs(want)));
      }
    }
  }
}

// x_0 = sigmoid(s) maps R onto (0, 1) with dx_0/ds = x_0 x_1, so
//   int_0^1 p(x_0, 1 - x_0) dx_0 = int_R p(x(s)) x_0 x_1 ds.
// In s the integrand is a logistic density (location (l_0 - l_1) / lam, scale 1 / lam): smooth and
// with tails e^{-lam |s|}, where in x_0 it has endpoint singularities ~x^(lam - 1) for lam < 1. The
// trapezoid rule on a smooth, rapidly decaying integrand converges geometrically; [-S, S] with
// S = (40 + |l_0 - l_1|) / lam leaves a tail below e^-40.
TEST(ConcreteDensity, IntegratesToOneForTwoLetters) {
  const std::vector<std::vector<double>> logit_sets = {{0.0, 0.0}, {1.5, -0.5}, {-4.0, 2.0}};
  for (const std::vector<double>& logits : logit_sets) {
    for (double lam : {0.3, 0.5, 1.0, 5.0}) {
      SCOPED_TRACE("logits (" + std::to_string(logits[0]) + ", " + std::to_string(logits[1]) +
                   ") lam=" + std::to_string(lam));
      const double span = (40 + std::fabs(logits[0] - logits[1])) / lam;
      const double h = 0.05 / lam;
      const int n = static_cast<int>(std::ceil(2 * span / h));
      double integral = 0;
      for (int i = 0; i <= n; ++i) {
        const double s = -span + i * h;
        // Both coordinates from the sigmoid directly: 1 - x_0 would round to 0 for large s.
        const double x[2] = {1 / (1 + std::exp(-s)), 1 / (1 + std::exp(s))};
        const double w = (i == 0 || i == n) ? 0.5 : 1.0;
        integral += w * std::exp(concrete_log_density(x, logits.data(), 2, lam)) * x[0] * x[1];
      }
      integral *= h;
      EXPECT_NEAR(integral, 1.0, 1e-9);
    }
  }
}

// The same for K = 3 (checks the (k-1)! lam^(k-1) normaliser, which is 1 * lam at K = 2): with
// x = softmax(s_0, s_1, 0) the Jacobian of (s_0, s_1) -> (x_0, x_1) is x_0 x_1 x_2.
TEST(ConcreteDensity, IntegratesToOneForThreeLetters) {
  const std::vector<double> logits = {0.5, -0.3, 1.0};
  for (double lam : {1.0, 2.5}) {
    SCOPED_TRACE("lam=" + std::to_string(lam));
    const double span = 35 / lam + 2, h = 0.15 / lam;
    const int n = static_cast<int>(std::ceil(2 * span / h));
    double integral = 0;
    for (int i = 0; i <= n; ++i) {
      for (int j = 0; j <= n; ++j) {
        const std::vector<double> x = softmax({-span + i * h, -span + j * h, 0.0});
        const double w = ((i == 0 || i == n) ? 0.5 : 1.0) * ((j == 0 || j == n) ? 0.5 : 1.0);
        integral += w * std::exp(concrete_log_density(x.data(), logits.data(), 3, lam)) * x[0] *
                    x[1] * x[2];
      }
    }
    EXPECT_NEAR(integral * h * h, 1.0, 1e-7);
  }
}

// ------------------------------------------------------------------------------------------------
// Score

TEST(ExpConcreteScore, EqualsFiniteDifferenceGradientAndSumsToZero) {
  // Central differences with h = 1e-5 in each of the k coordinates of y. The third derivative of
  // the log density is at most ~k lam^3, so truncation is below 1e-10 k lam^3 / 6; rounding of the
  // log density (|f| <~ 1e3) costs ~1e-16 * 1e3 / 1e-5 = 1e-8. Tolerance 1e-7 + 1e-10 k lam^3.
  std::mt19937_64 rng(13);
  const double h = 1e-5;
  for (std::size_t k : {2, 3, 4, 20}) {
    for (double lam : kTemperatures) {
      for (const std::vector<double>& logits : test_logits(rng, k)) {
        for (double spread : {1.0, 4.0}) {
          SCOPED_TRACE(label(k, lam) + " spread " + std::to_string(spread) + " max logit " +
                       std::to_string(*std::max_element(logits.begin(), logits.end())));
          const std::vector<double> y = log_of(simplex_point(rng, k, spread));
          std::vector<double> score(k);
          exp_concrete_score(y.data(), logits.data(), k, lam, score.data());
          const double tol = 1e-7 + 1e-10 * k * lam * lam * lam;
          double sum = 0;
          for (std::size_t i = 0; i < k; ++i) {
            std::vector<double> hi = y, lo = y;
            hi[i] += h;
            lo[i] -= h;
            const double fd = (exp_concrete_log_density(hi.data(), logits.data(), k, lam) -
                               exp_concrete_log_density(lo.data(), logits.data(), k, lam)) /
                              (2 * h);
            EXPECT_NEAR(score[i], fd, tol) << "coordinate " << i;
            sum += score[i];
          }
          EXPECT_NEAR(sum, 0.0, 1e-12 * k * lam);
        }
      }
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Posterior over the clean letter

struct PosteriorCase {
  std::size_t k;
  double a, lam;
};

// Time points of both interpolants: consistent (lam = 1, a from 0 to e^3 - 1 ~ 19.1) and the
// paper's reading (a = beta = 2, lam = beta tau from 20 down to ~1), plus a temperature below 1.
std::vector<PosteriorCase> posterior_cases() {
  std::vector<PosteriorCase> cases;
  for (std::size_t k : {2, 4, 20})
    for (double a : {0.5, 3.0, 19.0})
      for (double lam : {0.5, 1.0, 2.0, 5.0}) cases.push_back({k, a, lam});
  for (std::size_t k : {4, 20}) cases.push_back({k, 2.0, 20.0});
  return cases;
}

// Normalised log prior of a random distribution (some letters 50x likelier than others).
std::vector<double> random_log_prior(std::mt19937_64& rng, std::size_t k) {
  const std::vector<double> p = simplex_point(rng, k, 2.0);
  return log_of(p);
}

// Bayes' rule from the densities: P(j | x) = prior_j p(x | a e_j) / sum_i prior_i p(x | a e_i).
std::vector<double> bayes_posterior(const std::vector<double>& x,
                                    const std::vector<double>& log_prior, double a, double lam) {
  const std::size_t k = x.size();
  std::vector<double> lp(k);
  for (std::size_t j = 0; j < k; ++j) {
    const std::vector<double> logits = one_hot_logits(k, j, a);
    lp[j] = log_prior[j] + concrete_log_density(x.data(), logits.data(), k, lam);
  }
  const double norm = logsumexp(lp);
  for (double& v : lp) v = std::exp(v - norm);
  return lp;
}

// sum_j P(j | y) score(y | a e_j).
std::vector<double> bayes_score(const std::vector<double>& y, const std::vector<double>& post,
                                double a, double lam) {
  const std::size_t k = y.size();
  std::vector<double> score(k, 0.0), cond(k);
  for (std::size_t j = 0; j < k; ++j) {
    const std::vector<double> logits = one_hot_logits(k, j, a);
    exp_concrete_score(y.data(), logits.data(), k, lam, cond.data());
    for (std::size_t i = 0; i < k; ++i) score[i] += post[j] * cond[i];
  }
  return score;
}

TEST(CleanPosterior, MatchesBayesRuleFromTheDensities) {
  // Both sides are normalised exponentials of log densities of size up to k lam |log x| ~ 2e4;
  // their rounding (~1e-16 relative) leaves ~1e-12 on the probabilities. Tolerance 1e-10.
  std::mt19937_64 rng(14);
  for (const PosteriorCase& c : posterior_cases()) {
    for (double spread : {1.0, 3.0, 8.0}) {
      SCOPED_TRACE(label(c.k, c.lam, c.a) + " spread " + std::to_string(spread));
      const std::vector<double> x = simplex_point(rng, c.k, spread);
      const std::vector<double> y = log_of(x);
      const std::vector<double> log_prior = random_log_prior(rng, c.k);
      const std::vector<double> want = bayes_posterior(x, log_prior, c.a, c.lam);
      // Unnormalised log priors are allowed: shift them by a constant.
      std::vector<double> shifted = log_prior;
      for (double& v : shifted) v += 7.5;
      std::vector<double> got(c.k);
      clean_posterior(y.data(), shifted.data(), c.k, c.a, c.lam, got.data());
      double sum = 0;
      for (std::size_t j = 0; j < c.k; ++j) {
        EXPECT_NEAR(got[j], want[j], 1e-10) << "letter " << j;
        sum += got[j];
      }
      EXPECT_NEAR(sum, 1.0, 1e-12);
    }
  }
}

TEST(CleanPosterior, NoSignalGivesThePrior) {
  // a = 0: every letter has the same Concrete(0, lam) density, so the data tells nothing.
  std::mt19937_64 rng(15);
  for (std::size_t k : {2, 20}) {
    const std::vector<double> y = log_of(simplex_point(rng, k, 3.0));
    const std::vector<double> log_prior = random_log_prior(rng, k);
    std::vector<double> got(k);
    clean_posterior(y.data(), log_prior.data(), k, 0.0, 1.0, got.data());
    for (std::size_t j = 0; j < k; ++j) EXPECT_NEAR(got[j], std::exp(log_prior[j]), 1e-14);
  }
}

TEST(MarginalScore, IsThePosteriorWeightedConditionalScoreAndSumsToZero) {
  std::mt19937_64 rng(16);
  for (const PosteriorCase& c : posterior_cases()) {
    for (double spread : {1.0, 3.0, 8.0}) {
      SCOPED_TRACE(label(c.k, c.lam, c.a) + " spread " + std::to_string(spread));
      const std::vector<double> x = simplex_point(rng, c.k, spread);
      const std::vector<double> y = log_of(x);
      const std::vector<double> log_prior = random_log_prior(rng, c.k);
      const std::vector<double> want =
          bayes_score(y, bayes_posterior(x, log_prior, c.a, c.lam), c.a, c.lam);
      std::vector<double> got(c.k);
      marginal_score(y.data(), log_prior.data(), c.k, c.a, c.lam, got.data());
      // Scores are of size k lam; the posterior agrees to 1e-10 (above).
      const double tol = 1e-10 * c.k * c.lam;
      double sum = 0;
      for (std::size_t i = 0; i < c.k; ++i) {
        EXPECT_NEAR(got[i], want[i], tol) << "coordinate " << i;
        sum += got[i];
      }
      EXPECT_NEAR(sum, 0.0, 1e-12 * c.k * c.lam);
    }
  }
}

// q_i = sum_j P_j softmax(a e_j - lam y)_i computed directly (each term to full relative
// precision).
std::vector<double> mixture_q(const std::vector<double>& y, const std::vector<double>& post,
                              double a, double lam) {
  const std::size_t k = y.size();
  std::vector<double> q(k, 0.0), z(k);
  for (std::size_t j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < k; ++i) z[i] = (i == j ? a : 0.0) - lam * y[i];
    const std::vector<double> p = softmax(z);
    for (std::size_t i = 0; i < k; ++i) q[i] += post[j] * p[i];
  }
  return q;
}

TEST(PosteriorFromScore, InvertsTheExactMarginalScore) {
  // q = 1/K + score / (K lam) = sum_j P_j softmax(a e_j - lam y) is a probability vector, and the
  // map back to P is exact in exact arithmetic. Recovered to 1e-8 (measured worst 7e-11, at
  // K = 20, lam = 5, a = 0.5).
  //
  // Conditioning: the information about P_i sits in q_i ~ (x_min / x_i)^lam, which is tiny for a
  // cold state (large lam). Formed as 1/K + score / (K lam), q_i carries an absolute rounding error
  // ~1e-16 that the inversion multiplies by (x_i / x_min)^lam / (e^a - 1): at lam = 20 (the paper
  // reading at t = 0: beta tau_max = 20, a = beta = 2) with x = softmax(U[-1.5, 1.5]) that is
  // ~1e-4 (measured 5e-4), so there q is built directly as the mixture of softmaxes instead, and
  // the states stay moderate (softmax of U[-1.5, 1.5]) throughout.
  std::mt19937_64 rng(17);
  for (const PosteriorCase& c : posterior_cases()) {
    for (int rep = 0; rep < 3; ++rep) {
      SCOPED_TRACE(label(c.k, c.lam, c.a) + " rep " + std::to_string(rep));
      const std::vector<double> x = simplex_point(rng, c.k, 1.5);
      const std::vector<double> y = log_of(x);
      const std::vector<double> log_prior = random_log_prior(rng, c.k);
      const std::vector<double> post = bayes_posterior(x, log_prior, c.a, c.lam);
      const std::vector<double> score = bayes_score(y, post, c.a, c.lam);
      const std::vector<double> direct = mixture_q(y, post, c.a, c.lam);
      std::vector<double> q(c.k);
      double q_sum = 0;
      for (std::size_t i = 0; i < c.k; ++i) {
        q[i] = 1.0 / c.k + score[i] / (c.k * c.lam);
        // The two forms of q agree to rounding (cancellation in 1/K + score / (K lam): ~4 ulp).
        EXPECT_NEAR(q[i], direct[i], 1e-14) << "q_" << i;
        q_sum += q[i];
      }
      EXPECT_NEAR(q_sum, 1.0, 1e-12);
      if (c.lam > 5) q = direct;
      std::vector<double> got(c.k);
      posterior_from_score(y.data(), q.data(), c.k, c.a, c.lam, got.data());
      for (std::size_t j = 0; j < c.k; ++j) EXPECT_NEAR(got[j], post[j], 1e-8) << "letter " << j;
    }
  }
}

TEST(PosteriorFromScore, ArbitraryScoreGivesAProbabilityVector) {
  // A learned score is not exactly a marginal score: negative entries are clipped and the result
  // renormalised, so the sampler always gets a distribution.
  std::mt19937_64 rng(18);
  for (std::size_t k : {2, 4, 20}) {
    for (double a : {0.5, 3.0, 19.0}) {
      const std::vector<double> y = log_of(simplex_point(rng, k, 3.0));
      const std::vector<double> q = simplex_point(rng, k, 3.0);
      std::vector<double> got(k);
      posterior_from_score(y.data(), q.data(), k, a, 1.0, got.data());
      double sum = 0;
      for (double v : got) {
        EXPECT_GE(v, 0.0);
        sum += v;
      }
      EXPECT_NEAR(sum, 1.0, 1e-12) << label(k, 1.0, a);
    }
  }
}

}  // namespace
}  // namespace gsflow::engine
