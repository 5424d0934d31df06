// Composition bands (metrics/composition_band.hpp): features against hand counts, the score's
// gradient against central finite differences in double precision on soft rows, band quantiles
// against a known distribution, and the score's sign (0 inside, < 0 outside).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gsflow/engine/metrics/composition_band.hpp"

namespace gsflow::engine {
namespace {

const std::string kDna = "ACGT";
const std::string kProtein = "ACDEFGHIKLMNPQRSTVWY";

std::vector<float> one_hot(const std::string& s, const std::string& letters) {
  std::vector<float> rows(s.size() * letters.size(), 0.0f);
  for (std::size_t i = 0; i < s.size(); ++i) rows[i * letters.size() + letters.find(s[i])] = 1.0f;
  return rows;
}

std::vector<std::uint8_t> indices(const std::string& s, const std::string& letters) {
  std::vector<std::uint8_t> out;
  for (const char c : s) out.push_back(static_cast<std::uint8_t>(letters.find(c)));
  return out;
}

TEST(CompositionBand, FeaturesMatchHandCounts) {
  const auto names = composition_feature_names(kDna);
  ASSERT_EQ(names.size(), 20u);
  EXPECT_EQ(names[4], "AA");
  EXPECT_EQ(names[4 + 1 * 4 + 2], "CG");
  // ACGCGTTT: A 1, C 2, G 2, T 3 of 8; 7 pairs: AC, CG, GC, CG, GT, TT, TT.
  const auto x = one_hot("ACGCGTTT", kDna);
  const auto f = composition_features({x.data(), 8, 4, 4}, 8, kDna);
  EXPECT_DOUBLE_EQ(f[0], 1.0 / 8);
  EXPECT_DOUBLE_EQ(f[3], 3.0 / 8);
  EXPECT_DOUBLE_EQ(f[4 + 1 * 4 + 2], 2.0 / 7);  // CG
  EXPECT_DOUBLE_EQ(f[4 + 3 * 4 + 3], 2.0 / 7);  // TT
  EXPECT_DOUBLE_EQ(f[4 + 2 * 4 + 1], 1.0 / 7);  // GC
  EXPECT_DOUBLE_EQ(f[4 + 0 * 4 + 0], 0.0);      // AA
  // Peptides: 20 letters and the same-letter pair fraction. CCCKK: pairs CC, CC, CK, KK = 3 of 4.
  ASSERT_EQ(composition_feature_names(kProtein).back(), "same_pair");
  const auto p = one_hot("CCCKK", kProtein);
  const auto g = composition_features({p.data(), 5, 20, 20}, 5, kProtein);
  EXPECT_DOUBLE_EQ(g[1], 3.0 / 5);
  EXPECT_DOUBLE_EQ(g[20], 3.0 / 4);
  EXPECT_THROW(composition_features({p.data(), 1, 20, 20}, 1, kProtein), std::invalid_argument);
  EXPECT_THROW(composition_features({x.data(), 8, 4, 4}, 8, kProtein), std::invalid_argument);
}

// Reference: i.i.d. letters (DNA 0.3/0.2/0.2/0.3). The fitted band of letter A's fraction must
// hold the binomial's own quantiles (normal approximation, length 200), and fresh draws must
// score 0 except for the rare ones outside.
TEST(CompositionBand, FitHoldsTheReferenceQuantiles) {
  std::mt19937_64 rng(5);
  std::discrete_distribution<int> letter({0.3, 0.2, 0.2, 0.3});
  SequenceSet reference;
  for (int s = 0; s < 4000; ++s) {
    std::vector<std::uint8_t> seq(200);
    for (auto& v : seq) v = static_cast<std::uint8_t>(letter(rng));
    reference.push_back(seq);
  }
  const auto band = CompositionBand::fit(reference, kDna, 0.025);
  const double sd = std::sqrt(0.3 * 0.7 / 200);
  EXPECT_NEAR(band.scale[0], sd, 0.1 * sd);
  EXPECT_NEAR(band.low[0], 0.3 - 1.96 * sd, 0.25 * sd);
  EXPECT_NEAR(band.high[0], 0.3 + 1.96 * sd, 0.25 * sd);
  int outside = 0;
  for (int s = 0; s < 1000; ++s) {
    std::string text(200, 'A');
    for (auto& c : text) c = kDna[static_cast<std::size_t>(letter(rng))];
    const auto x = one_hot(text, kDna);
    const double score = band.score({x.data(), 200, 4, 4}, 200);
    EXPECT_LE(score, 0.0);
    outside += score < 0.0 ? 1 : 0;
  }
  // 20 features with 5 % outside each, strongly correlated: far fewer than all, more than none.
  EXPECT_GT(outside, 50);
  EXPECT_LT(outside, 700);
  // A poly-A sequence is far outside: A fraction and the AA pair.
  const auto poly = one_hot(std::string(200, 'A'), kDna);
  EXPECT_LT(band.score({poly.data(), 200, 4, 4}, 200), -100.0);
  const auto out = band.outside({poly.data(), 200, 4, 4}, 200);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out[0].substr(0, 2), "A ");
  SequenceSet tiny(5, indices("ACGT", kDna));
  EXPECT_THROW(CompositionBand::fit(tiny, kDna), std::invalid_argument);
  EXPECT_THROW(CompositionBand::fit(reference, kDna, 0.5), std::invalid_argument);
}

// The gradient of the score on soft rows (each row on the simplex) against central differences of
// the score itself, for DNA (all pairs) and peptides (same-letter pairs) with a linear feature, at
// a point outside the band so that every term is active.
TEST(CompositionBand, GradientMatchesFiniteDifferences) {
  for (const std::string& letters : {kDna, kProtein}) {
    const std::size_t k = letters.size(), length = 9;
    std::mt19937_64 rng(3);
    SequenceSet reference;
    std::uniform_int_distribution<int> any(0, static_cast<int>(k) - 1);
    for (int s = 0; s < 200; ++s) {
      std::vector<std::uint8_t> seq(30);
      for (auto& v : seq) v = static_cast<std::uint8_t>(any(rng));
      reference.push_back(seq);
    }
    // With a linear feature (weights rising with the letter index) whose band the C-leaning rows
    // also leave.
    std::vector<double> weights(k);
    for (std::size_t c = 0; c < k; ++c) weights[c] = c == 1 ? 3.0 : 0.1 * static_cast<double>(c);
    const auto band = CompositionBand::fit(reference, letters, 0.05, {{"lin", weights}});
    ASSERT_EQ(band.names.back(), "lin");
    // Soft rows leaning to letter 1 (C): outside the band in C and in its pairs.
    std::vector<float> x(length * k);
    std::uniform_real_distribution<float> u(0.05f, 1.0f);
    for (std::size_t i = 0; i < length; ++i) {
      float sum = 0.0f;
      for (std::size_t c = 0; c < k; ++c) sum += x[i * k + c] = u(rng) + (c == 1 ? 4.0f : 0.0f);
      for (std::size_t c = 0; c < k; ++c) x[i * k + c] /= sum;
    }
    std::vector<float> grad(length * k, 0.0f);
    Rows g{grad.data(), length, k, k};
    const double s0 = band.score({x.data(), length, k, k}, length, &g);
    ASSERT_LT(s0, 0.0);
    // The score is a polynomial of degree 4 in the rows: float central differences with h = 1e-3
    // agree to about 1e-3 relative; double-check each entry.
    for (std::size_t e = 0; e < x.size(); ++e) {
      const float keep = x[e];
      const float h = 1e-3f;
      x[e] = keep + h;
      const double up = band.score({x.data(), length, k, k}, length);
      x[e] = keep - h;
      const double down = band.score({x.data(), length, k, k}, length);
      x[e] = keep;
      const double fd = (up - down) / (2.0 * h);
      EXPECT_NEAR(grad[e], fd, 2e-3 * std::max(1.0, std::abs(fd))) << letters << " entry " << e;
    }
  }
}

}  // namespace
}  // namespace gsflow::engine
