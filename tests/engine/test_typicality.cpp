// The per-sequence naturalness signal (metrics/typicality.hpp): statistics against hand counts,
// and the profile's false-flag rate on fresh draws from the reference's own distribution.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gsflow/engine/metrics/typicality.hpp"

namespace gsflow::engine {
namespace {

std::vector<std::uint8_t> dna(const std::string& s) {
  std::vector<std::uint8_t> out;
  for (const char c : s) out.push_back(static_cast<std::uint8_t>(std::string("ACGT").find(c)));
  return out;
}

TEST(Typicality, StatisticsMatchHandCounts) {
  const auto names = sequence_stat_names("ACGT");
  ASSERT_EQ(names, (std::vector<std::string>{"A", "C", "G", "T", "longest_run", "entropy", "cpg_oe"}));
  // ACGCGTTT: A 1, C 2, G 2, T 3 of 8; longest run 3 (TTT); CG twice: 2 * 8 / (2 * 2) = 4.
  const auto s = sequence_stats(dna("ACGCGTTT"), "ACGT");
  EXPECT_DOUBLE_EQ(s[0], 1.0 / 8);
  EXPECT_DOUBLE_EQ(s[1], 2.0 / 8);
  EXPECT_DOUBLE_EQ(s[3], 3.0 / 8);
  EXPECT_DOUBLE_EQ(s[4], 3.0);
  const double h = -(1.0 / 8 * std::log2(1.0 / 8) + 2 * (2.0 / 8 * std::log2(2.0 / 8)) +
                     3.0 / 8 * std::log2(3.0 / 8));
  EXPECT_NEAR(s[5], h, 1e-12);
  EXPECT_DOUBLE_EQ(s[6], 4.0);
  // Peptides: no CpG statistic.
  EXPECT_EQ(sequence_stat_names("ACDEFGHIKLMNPQRSTVWY").size(), 22u);
}

// Reference and fresh sequences from the same distribution (i.i.d. letters, GC 0.4): with 7
// statistics and tail 0.001 at most ~1.4 % of fresh sequences can fall outside by chance (plus
// the quantiles' own estimation error); a poly-C stretch and a GC-rich sequence are flagged.
TEST(Typicality, FreshDrawsAreRarelyFlaggedAndDegenerateOnesAre) {
  std::mt19937_64 rng(11);
  std::discrete_distribution<int> letter({0.3, 0.2, 0.2, 0.3});
  const auto draw = [&] {
    std::vector<std::uint8_t> s(200);
    for (auto& v : s) v = static_cast<std::uint8_t>(letter(rng));
    return s;
  };
  SequenceSet reference;
  for (int i = 0; i < 20000; ++i) reference.push_back(draw());
  const auto profile = TypicalityProfile::fit(reference, "ACGT");
  int flagged = 0;
  for (int i = 0; i < 5000; ++i) flagged += !profile.atypical(draw()).empty();
  EXPECT_LT(flagged, 5000 * 0.03) << flagged;
  auto poly = draw();
  for (int i = 50; i < 70; ++i) poly[i] = 1;  // CCCC... 20 long
  const auto why = profile.atypical(poly);
  ASSERT_FALSE(why.empty());
  EXPECT_EQ(why[0].rfind("longest_run", 0), 0u) << why[0];
  std::vector<std::uint8_t> gc_rich(200);
  for (std::size_t i = 0; i < gc_rich.size(); ++i) gc_rich[i] = i % 3 == 0 ? 0 : (i % 2 ? 1 : 2);
  EXPECT_FALSE(profile.atypical(gc_rich).empty());
  EXPECT_THROW(TypicalityProfile::fit({}, "ACGT"), std::invalid_argument);
}

}  // namespace
}  // namespace gsflow::engine
