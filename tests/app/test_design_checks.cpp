// The independent design checks, region k-mer JS and flank profiles of `gsflow eval-design`
// (app/evaluation/design_checks.hpp), on hand-made sequences with known answers.
#include <gtest/gtest.h>

#include <numeric>

#include "gsflow/engine/metrics/kmer.hpp"
#include "gsflow/evaluation/design_checks.hpp"

namespace gsflow::evaluation {
namespace {

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

engine::Sequence dna(std::string_view s) {
  engine::Sequence out;
  for (const char c : s) out.push_back(static_cast<std::uint8_t>(std::string_view("ACGT").find(c)));
  return out;
}

TEST(DesignChecks, ResolvesPositionsFromEitherEnd) {
  EXPECT_EQ(resolve_position(1, 10), 0u);
  EXPECT_EQ(resolve_position(10, 10), 9u);
  EXPECT_EQ(resolve_position(-1, 10), 9u);
  EXPECT_EQ(resolve_position(-10, 10), 0u);
  EXPECT_FALSE(resolve_position(0, 10));
  EXPECT_FALSE(resolve_position(11, 10));
  EXPECT_FALSE(resolve_position(-11, 10));
}

TEST(DesignChecks, ReverseComplement) {
  EXPECT_EQ(reverse_complement("GGTCTC"), "GAGACC");
  EXPECT_EQ(reverse_complement("GAATTC"), "GAATTC");
  EXPECT_THROW(reverse_complement("GAN"), std::invalid_argument);
}

TEST(DesignChecks, FindsSitesOnBothStrandsAndPalindromesOnce) {
  const DesignCheck check{.sites = {"GAATTC", "GGTCTC"}};
  EXPECT_TRUE(check_design("ACGTACGTACGT", check).empty());
  const auto forward = check_design("AAGAATTCAA", check);
  ASSERT_EQ(forward.size(), 1u);  // a palindrome is one hit, not two
  EXPECT_EQ(forward[0], "site GAATTC at 3");
  const auto reverse = check_design("TTGAGACCTT", check);
  ASSERT_EQ(reverse.size(), 1u);
  EXPECT_EQ(reverse[0], "site GGTCTC on the reverse strand (GAGACC) at 3");
  EXPECT_EQ(check_design("GGTCTCGAGACC", check).size(), 2u);
}

TEST(DesignChecks, RunsOmittedAndFixedLetters) {
  EXPECT_EQ(check_design("AAAAAAACG", {.max_run = 6}),
            std::vector<std::string>{"run of 7 A at 1 (max 6)"});
  EXPECT_TRUE(check_design("AAAAAACG", {.max_run = 6}).empty());
  EXPECT_EQ(check_design("MKCLC", {.omit = "C"}).size(), 2u);
  const DesignCheck fixed{.fixed = {{-4, "TATA"}}};
  EXPECT_TRUE(check_design("GGGGTATA", fixed).empty());
  EXPECT_EQ(check_design("GGGGTATT", fixed), std::vector<std::string>{"fixed -4: TATA reads TATT"});
  EXPECT_EQ(check_design("TAT", fixed).size(), 1u);  // outside the sequence
  EXPECT_FALSE(DesignCheck{}.any());
}

TEST(RegionKmers, LeavesOutKmersTouchingExcludedPositions) {
  // Length 10, 3-mers: 8 in all; excluding position 5 (1-based) removes the 3 that cover it.
  const engine::SequenceSet s = {dna("ACGTACGTAC")};
  KmerRegion region;
  EXPECT_DOUBLE_EQ(sum(region_kmer_counts(s, 4, 3, region)), 8.0);
  region.excluded = {{5, 5}};
  EXPECT_DOUBLE_EQ(sum(region_kmer_counts(s, 4, 3, region)), 5.0);
  region.excluded = {{-6, -6}};  // the same position from the 3' end
  EXPECT_DOUBLE_EQ(sum(region_kmer_counts(s, 4, 3, region)), 5.0);
  region.within = PositionRange{1, 4};  // positions 1..4 hold two 3-mers: ACG, CGT
  const auto counts = region_kmer_counts(s, 4, 3, region);
  EXPECT_DOUBLE_EQ(sum(counts), 2.0);
  EXPECT_DOUBLE_EQ(counts[0 * 16 + 1 * 4 + 2], 1.0);  // ACG
  EXPECT_DOUBLE_EQ(counts[1 * 16 + 2 * 4 + 3], 1.0);  // CGT
  const engine::SequenceSet bad = {engine::Sequence{0, 1, 4}};
  EXPECT_THROW(region_kmer_counts(bad, 4, 2, {}), std::invalid_argument);
}

TEST(RegionKmers, JsAgreesWithTheEngineWithoutExclusions) {
  const engine::SequenceSet a = {dna("ACGTTGCAACGT"), dna("TTTTGGGGCCAA")};
  const engine::SequenceSet b = {dna("ACGTACGTACGT"), dna("GGGGCCCCAATT")};
  const auto r = region_kmer_js(a, {}, b, {}, 4, 3);
  EXPECT_NEAR(r.js, engine::kmer_js(a, b, 4, 3), 1e-12);
  EXPECT_EQ(r.kmers, 20u);
  EXPECT_DOUBLE_EQ(region_kmer_js(a, {}, a, {}, 4, 3).js, 0.0);
  const auto boot = region_kmer_js(a, {}, b, {}, 4, 3, 20, 1);
  EXPECT_GT(boot.bootstrap_sd, 0.0);
  EXPECT_EQ(boot.js, r.js);
}

TEST(Flanks, CountsLettersAroundSites) {
  const engine::SequenceSet s = {dna("ACTATAGT"), dna("TATAGG")};
  // Motif TATA at 2 (0-based) in the first, at 0 in the second; flank 2.
  const auto c = flank_counts(s, 4, {{0, 2}, {1, 0}}, 4, 2);
  ASSERT_EQ(c.size(), 16u);
  EXPECT_DOUBLE_EQ(c[0 * 4 + 0], 1.0);  // row 0: A (only the first has a letter there)
  EXPECT_DOUBLE_EQ(c[1 * 4 + 1], 1.0);  // row 1: C
  EXPECT_DOUBLE_EQ(c[2 * 4 + 2], 2.0);  // row 2: G, G
  EXPECT_DOUBLE_EQ(c[3 * 4 + 3], 1.0);  // row 3: T; the second's G
  EXPECT_DOUBLE_EQ(c[3 * 4 + 2], 1.0);
  EXPECT_DOUBLE_EQ(flank_js(c, c, 4), 0.0);
  EXPECT_THROW(flank_counts(s, 4, {{2, 0}}, 4, 2), std::invalid_argument);
  EXPECT_THROW(flank_js(c, std::vector<double>(8, 1.0), 4), std::invalid_argument);
}

}  // namespace
}  // namespace gsflow::evaluation
