// The lead-optimisation baselines of `gsflow eval-edits` (app/evaluation/edit_baselines.hpp):
// random substitutions make exactly E distinct changes; greedy search keeps to its call budget and
// its rounds, and climbs a score it can see.
#include <gtest/gtest.h>

#include <algorithm>

#include "gsflow/evaluation/edit_baselines.hpp"

namespace gsflow::evaluation {
namespace {

engine::SequenceSet starts(std::size_t n, std::size_t length, std::uint8_t letter = 1) {
  return engine::SequenceSet(n, engine::Sequence(length, letter));
}

std::size_t distance(const engine::Sequence& a, const engine::Sequence& b) {
  std::size_t d = 0;
  for (std::size_t p = 0; p < a.size(); ++p) d += a[p] != b[p];
  return d;
}

// Score: the number of letters 0 (A): each substitution to A gains exactly 1.
std::vector<double> count_a(const engine::SequenceSet& s) {
  std::vector<double> out;
  for (const auto& x : s) out.push_back(static_cast<double>(std::count(x.begin(), x.end(), 0)));
  return out;
}

TEST(RandomSubstitutions, ExactlyEDistinctChangesReproducibly) {
  const auto s = starts(20, 30);
  for (const std::size_t e : {0u, 1u, 5u, 30u}) {
    const auto r = random_substitutions(s, 4, e, 7);
    ASSERT_EQ(r.size(), s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
      EXPECT_EQ(distance(r[i], s[i]), e);
      for (const auto c : r[i]) EXPECT_LT(c, 4);
    }
    EXPECT_EQ(r, random_substitutions(s, 4, e, 7));
  }
  EXPECT_NE(random_substitutions(s, 4, 5, 7), random_substitutions(s, 4, 5, 8));
  EXPECT_THROW(random_substitutions(s, 4, 31, 7), std::invalid_argument);
  EXPECT_THROW(random_substitutions(s, 1, 1, 7), std::invalid_argument);
}

TEST(GreedySubstitutions, FullScanFindsTheBestSingleChangeEachRound) {
  // 10 letters x 3 alternatives = 30 candidates; budget 1 + 3 x 30 allows full scans.
  const auto s = starts(4, 10);
  const auto r = greedy_substitutions(s, 4, 3, 1 + 3 * 30, count_a, 0);
  for (std::size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(r.scores[i], 3.0);
    EXPECT_EQ(r.edits[i], 3u);
    EXPECT_EQ(r.calls[i], 1u + 90u);
    EXPECT_EQ(count_a({r.sequences[i]})[0], r.scores[i]);
  }
}

TEST(GreedySubstitutions, KeepsToTheCallBudgetAndTheRounds) {
  const auto s = starts(6, 50);
  for (const std::size_t calls : {1u, 2u, 10u, 41u, 400u}) {
    std::size_t scored = 0;
    const auto r = greedy_substitutions(
        s, 4, 5, calls,
        [&](const engine::SequenceSet& b) {
          scored += b.size();
          return count_a(b);
        },
        3);
    EXPECT_LE(scored, calls * s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
      EXPECT_LE(r.calls[i], calls);
      EXPECT_LE(r.edits[i], 5u);
      EXPECT_EQ(r.edits[i], distance(r.sequences[i], s[i]));
      EXPECT_GE(r.scores[i], 0.0);
    }
  }
  EXPECT_THROW(greedy_substitutions(s, 4, 5, 0, count_a, 0), std::invalid_argument);
  EXPECT_THROW(
      greedy_substitutions(
          s, 4, 1, 10, [](const engine::SequenceSet&) { return std::vector<double>{}; }, 0),
      std::invalid_argument);
}

TEST(GreedySubstitutions, NeverTakesAWorseChange) {
  // Starts of all A: no substitution scores higher, so nothing changes.
  const auto s = starts(3, 8, 0);
  const auto r = greedy_substitutions(s, 4, 4, 200, count_a, 0);
  EXPECT_EQ(r.sequences, s);
  for (const auto e : r.edits) EXPECT_EQ(e, 0u);
}

}  // namespace
}  // namespace gsflow::evaluation
