// The MLP's analytic parts against the engine's double-precision Concrete formulas: the likelihood
// skip is the exact posterior under a uniform prior, and the GSSM head's q is the exact score.
#include <gtest/gtest.h>

#include <vector>

#include "../../models/src/network.hpp"
#include "gsflow/engine/concrete.hpp"
#include "gsflow/engine/path.hpp"

namespace gsflow::engine {
// Test names and failure messages print the interpolant by name.
void PrintTo(Interpolant interpolant, std::ostream* os) { *os << interpolant_name(interpolant); }
}  // namespace gsflow::engine

namespace gsflow::models {
namespace {

// A few states of one position: sharp, flat and in between, rows of K = 6.
torch::Tensor states(std::int64_t k) {
  auto logits = torch::tensor({0.3, -1.0, 2.0, 0.5, -0.2, 1.1, 9.0, 0.0, -3.0, 1.0, 0.0, 0.4, 0.01,
                               0.0, -0.01, 0.02, 0.0, 0.0},
                              torch::kDouble)
                    .reshape({3, 1, k});
  return torch::softmax(logits, -1).to(torch::kFloat);
}

class NetworkFormulas : public ::testing::TestWithParam<engine::Interpolant> {};

TEST_P(NetworkFormulas, LikelihoodSkipIsTheUniformPriorPosterior) {
  ModelSpec spec;
  spec.length = 1;
  spec.k = 6;
  spec.path.interpolant = GetParam();
  auto net = make_network(spec);
  const engine::Path path(spec.path);
  const auto x = states(6);
  for (const double t : {0.05, 0.5, 0.97}) {
    const auto ts = torch::full({3}, t, torch::kFloat);
    const auto post = torch::softmax(net->log_likelihood(x, ts), -1).to(torch::kDouble);
    for (int r = 0; r < 3; ++r) {
      std::vector<double> y(6), prior(6, 0.0), want(6);
      for (int c = 0; c < 6; ++c) y[c] = std::log(static_cast<double>(x[r][0][c].item<float>()));
      engine::clean_posterior(y.data(), prior.data(), 6, path.concrete_logit(t),
                              path.concrete_temperature(t), want.data());
      for (int c = 0; c < 6; ++c)
        EXPECT_NEAR(post[r][0][c].item<double>(), want[c], 2e-5) << "t " << t << " row " << r;
    }
  }
}

// NetworkInput::posterior feeds the body K p - 1, p the same exact uniform-prior posterior (0 for
// every letter where x_t carries no information: t = 0 on the consistent path).
TEST_P(NetworkFormulas, PosteriorInputIsTheScaledUniformPriorPosterior) {
  ModelSpec spec;
  spec.length = 1;
  spec.k = 6;
  spec.path.interpolant = GetParam();
  spec.network.input = NetworkInput::posterior;
  auto net = make_network(spec);
  const engine::Path path(spec.path);
  const auto x = states(6);
  for (const double t : {0.0, 0.05, 0.5, 0.97}) {
    const auto ts = torch::full({3}, t, torch::kFloat);
    const auto f = net->features(x, net->log_likelihood(x, ts)).to(torch::kDouble);
    for (int r = 0; r < 3; ++r) {
      std::vector<double> y(6), prior(6, 0.0), post(6);
      for (int c = 0; c < 6; ++c) y[c] = std::log(static_cast<double>(x[r][0][c].item<float>()));
      engine::clean_posterior(y.data(), prior.data(), 6, path.concrete_logit(t),
                              path.concrete_temperature(t), post.data());
      if (t == 0.0 && GetParam() == engine::Interpolant::consistent) {
        for (int c = 0; c < 6; ++c) EXPECT_NEAR(post[c], 1.0 / 6.0, 1e-12);
      }
      for (int c = 0; c < 6; ++c)
        EXPECT_NEAR(f[r][0][c].item<double>(), 6.0 * post[c] - 1.0, 1e-4)
            << "t " << t << " row " << r;
    }
  }
}

TEST_P(NetworkFormulas, ScoreHeadMatchesTheExactMarginalScore) {
  ModelSpec spec;
  spec.method = engine::Method::gssm;
  spec.length = 1;
  spec.k = 6;
  spec.path.interpolant = GetParam();
  auto net = make_network(spec);
  const engine::Path path(spec.path);
  const auto x = states(6);
  const std::vector<double> prior{0.1, 0.3, 0.05, 0.25, 0.2, 0.1};
  for (const double t : {0.1, 0.6, 0.95}) {
    const double a = path.concrete_logit(t), lam = path.concrete_temperature(t);
    auto posterior = torch::zeros({3, 1, 6}, torch::kFloat);
    std::vector<std::vector<double>> want(3, std::vector<double>(6));
    for (int r = 0; r < 3; ++r) {
      std::vector<double> y(6), log_prior(6), post(6), score(6);
      for (int c = 0; c < 6; ++c) {
        y[c] = std::log(static_cast<double>(x[r][0][c].item<float>()));
        log_prior[c] = std::log(prior[c]);
      }
      engine::clean_posterior(y.data(), log_prior.data(), 6, a, lam, post.data());
      engine::marginal_score(y.data(), log_prior.data(), 6, a, lam, score.data());
      for (int c = 0; c < 6; ++c) {
        posterior[r][0][c] = static_cast<float>(post[c]);
        want[r][c] = 1.0 / 6.0 + score[c] / (6.0 * lam);
      }
    }
    const auto q = net->score_q(posterior, x, torch::full({3}, t, torch::kFloat));
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 6; ++c)
        EXPECT_NEAR(q[r][0][c].item<float>(), want[r][c], 2e-5) << "t " << t << " row " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(BothInterpolants, NetworkFormulas,
                         ::testing::Values(engine::Interpolant::consistent,
                                           engine::Interpolant::paper),
                         [](const auto& info) {
                           return std::string(engine::interpolant_name(info.param));
                         });

TEST(Network, OutputShapeAndTimeDependence) {
  ModelSpec spec;
  spec.length = 3;
  spec.k = 4;
  auto net = make_network(spec);
  auto x = torch::full({2, 3, 4}, 0.25f);
  const auto a = net->forward(x, torch::full({2}, 0.1f));
  const auto b = net->forward(x, torch::full({2}, 0.9f));
  EXPECT_EQ(a.sizes(), (std::vector<std::int64_t>{2, 3, 4}));
  EXPECT_GT((a - b).abs().max().item<float>(), 1e-6f);  // the time embedding reaches the output
}

}  // namespace
}  // namespace gsflow::models
