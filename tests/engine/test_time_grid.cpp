// Tests of the sampler's time grids (time_grid.hpp) and the second-order multistep integrator:
// the path's information against a double-precision quadrature, the grids' shape, and the
// integrator's convergence order against a fine-step reference on the toy task's exact denoiser.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gsflow/engine/kernels.hpp"
#include "gsflow/engine/path.hpp"
#include "gsflow/engine/sampler.hpp"
#include "gsflow/engine/time_grid.hpp"
#include "gsflow/engine/toy.hpp"
#include "method_test_util.hpp"

namespace gsflow::engine {
namespace {

using testing::make_path;
using testing::options_for;

// Mean entropy of P(letter | x_t) for K = 2 on the consistent path, by quadrature: the log-odds
// z = log(x_0 / x_1) = A + (g_0 - g_1) with g_0 - g_1 ~ Logistic(0, 1), and under a uniform prior
// P(0 | z) = f(z - A) / (f(z - A) + f(z + A)), f the logistic density.
double binary_entropy_by_quadrature(double a) {
  const auto f = [](double u) { return std::exp(-u) / std::pow(1.0 + std::exp(-u), 2.0); };
  double h = 0.0;
  const double step = 0.001;
  for (double u = -40.0; u < 40.0; u += step) {  // u = z - A, the noise
    const double z = a + u;
    const double p0 = f(z - a), p1 = f(z + a);
    const double p = p0 / (p0 + p1);
    double e = 0.0;
    if (p > 0.0 && p < 1.0) e = -p * std::log(p) - (1.0 - p) * std::log(1.0 - p);
    h += f(u) * e * step;
  }
  return h;
}

TEST(TimeGrid, PathInformationMatchesAQuadratureForTwoLetters) {
  const Path path = make_path(Interpolant::consistent);
  const int points = 11;
  const auto info = path_information(path, 2, false, points);
  const double h0 = std::log(2.0), h1 = binary_entropy_by_quadrature(path.signal(1.0));
  for (int i = 0; i < points; ++i) {
    const double t = static_cast<double>(i) / (points - 1);
    const double expected = (h0 - binary_entropy_by_quadrature(path.signal(t))) / (h0 - h1);
    // Monte Carlo with 1,000 draws: standard error of H about 0.01 nats of a 0.69-nat fall.
    EXPECT_NEAR(info[static_cast<std::size_t>(i)], expected, 0.04) << "t = " << t;
  }
  EXPECT_DOUBLE_EQ(info.front(), 0.0);
  EXPECT_DOUBLE_EQ(info.back(), 1.0);
}

TEST(TimeGrid, GridsStartAtBeginEndAtOneAndIncrease) {
  const Path path = make_path(Interpolant::consistent);
  for (const TimeGrid grid : {TimeGrid::uniform, TimeGrid::information})
    for (const double begin : {0.0, 0.4})
      for (const int steps : {1, 7, 50}) {
        const auto t = time_grid(grid, path, 4, false, steps, begin);
        ASSERT_EQ(t.size(), static_cast<std::size_t>(steps) + 1);
        EXPECT_DOUBLE_EQ(t.front(), begin);
        EXPECT_DOUBLE_EQ(t.back(), 1.0);
        for (std::size_t i = 1; i < t.size(); ++i) EXPECT_LT(t[i - 1], t[i]);
      }
  const auto uniform = time_grid(TimeGrid::uniform, path, 4, false, 4, 0.0);
  EXPECT_EQ(uniform, (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
  // The information grid spends more of its steps where I(t) rises than the uniform one does:
  // for K = 4 its middle step falls where the path has told about half of what it tells.
  const auto info = path_information(path, 4, false, 101);
  const auto t = time_grid(TimeGrid::information, path, 4, false, 10, 0.0);
  const double f_mid = (1.0 - kInformationGridFloor) * info[static_cast<std::size_t>(t[5] * 100.0 + 0.5)] +
                       kInformationGridFloor * t[5];
  EXPECT_NEAR(f_mid, 0.5, 0.02);
}

// The state at t = 1/2 (a frame: steps is even) of an N-step GSFM run on the toy task's exact
// denoiser; the same seed gives the same start state for every N. Mid-way the states are far
// from the simplex's corners, so their differences measure the integration error itself.
std::vector<float> half_way_state(Integrator integrator, int steps) {
  const ToyTask task = make_toy_task(4, 20, 20250317);
  const Path path = make_path(Interpolant::consistent);
  const Denoiser denoiser = toy_exact_denoiser(task, path, Method::gsfm);
  SamplerOptions o = options_for(Method::gsfm, steps, 64, 3);
  o.integrator = integrator;
  o.frames_every = steps / 2;
  std::vector<float> half;
  SamplerHooks hooks;
  hooks.frame = [&](const Frame& f) {
    if (f.step == steps / 2) half = f.x;
  };
  sample(denoiser, path, {64, task.length, task.k, 0}, o, Kernels(KernelOptions{}), hooks);
  return half;
}

double mean_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  double e = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) e += std::abs(static_cast<double>(a[i]) - b[i]);
  return e / static_cast<double>(a.size());
}

TEST(MultistepIntegrator, IsSecondOrderWhereTheExponentialStepIsFirst) {
  const auto reference = half_way_state(Integrator::exponential, 8000);
  ASSERT_FALSE(reference.empty());
  std::vector<double> exp_err, ms_err;
  for (const int steps : {10, 20, 40}) {
    exp_err.push_back(mean_abs_diff(half_way_state(Integrator::exponential, steps), reference));
    ms_err.push_back(mean_abs_diff(half_way_state(Integrator::multistep, steps), reference));
    ::testing::Test::RecordProperty("exponential_" + std::to_string(steps),
                                    std::to_string(exp_err.back()));
    ::testing::Test::RecordProperty("multistep_" + std::to_string(steps),
                                    std::to_string(ms_err.back()));
    EXPECT_LT(ms_err.back(), exp_err.back() / 2) << steps << " steps";
  }
  // Halving the step: the error falls about 2x (first order) and about 4x (second order).
  // Measured: exponential 0.0054, 0.0028, 0.0014; multistep 0.0021, 0.00061, 0.00016.
  for (std::size_t i = 1; i < exp_err.size(); ++i) {
    EXPECT_NEAR(exp_err[i - 1] / exp_err[i], 2.0, 0.4) << exp_err[i - 1] << " " << exp_err[i];
    EXPECT_GT(ms_err[i - 1] / ms_err[i], 3.0) << ms_err[i - 1] << " " << ms_err[i];
  }
}

}  // namespace
}  // namespace gsflow::engine
