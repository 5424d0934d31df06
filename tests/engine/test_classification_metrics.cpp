// AUROC against the definition counted pair by pair, and accuracy.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gsflow/engine/classification_metrics.hpp"

namespace gsflow::engine {
namespace {

// The definition: over all (positive, negative) pairs, 1 if the positive scores higher, 1/2 on a tie.
double pairwise_auroc(const std::vector<double>& s, const std::vector<std::uint8_t>& y) {
  double wins = 0.0, pairs = 0.0;
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t j = 0; j < s.size(); ++j)
      if (y[i] == 1 && y[j] == 0) {
        wins += s[i] > s[j] ? 1.0 : s[i] == s[j] ? 0.5 : 0.0;
        pairs += 1.0;
      }
  return wins / pairs;
}

TEST(ClassificationMetrics, AurocMatchesPairwiseDefinitionWithTies) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> coarse(0, 6);  // few values: many ties
  std::bernoulli_distribution coin(0.3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> s(200);
    std::vector<std::uint8_t> y(200);
    for (std::size_t i = 0; i < s.size(); ++i) {
      y[i] = coin(rng) ? 1 : 0;
      s[i] = coarse(rng) + (y[i] ? 1.0 : 0.0);
    }
    EXPECT_NEAR(auroc(s, y), pairwise_auroc(s, y), 1e-12);
  }
}

TEST(ClassificationMetrics, AurocExtremesAndErrors) {
  const std::vector<double> s{0.1, 0.2, 0.8, 0.9};
  EXPECT_DOUBLE_EQ(auroc(s, std::vector<std::uint8_t>{0, 0, 1, 1}), 1.0);
  EXPECT_DOUBLE_EQ(auroc(s, std::vector<std::uint8_t>{1, 1, 0, 0}), 0.0);
  EXPECT_THROW(auroc(s, std::vector<std::uint8_t>{1, 1, 1, 1}), std::invalid_argument);
  EXPECT_THROW(auroc(s, std::vector<std::uint8_t>{0, 2, 1, 1}), std::invalid_argument);
  EXPECT_THROW(auroc(s, std::vector<std::uint8_t>{0, 1}), std::invalid_argument);
}

TEST(ClassificationMetrics, Accuracy) {
  const std::vector<double> s{0.1, 0.6, 0.4, 0.9};
  EXPECT_DOUBLE_EQ(accuracy(s, std::vector<std::uint8_t>{0, 1, 1, 1}, 0.5), 0.75);
  EXPECT_THROW(accuracy({}, {}, 0.5), std::invalid_argument);
}

}  // namespace
}  // namespace gsflow::engine
