// Protein-likeness (parasail Smith-Waterman) against independent references: a brute-force
// double-precision Gotoh Smith-Waterman with the NCBI BLOSUM62 table typed in here, hand-checked
// alignments, identity of identical sequences, shuffles, summaries, the report and input errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "gsflow/evaluation/protein_likeness.hpp"

namespace gsflow::evaluation {
namespace {

constexpr std::string_view kOrder = "ARNDCQEGHILKMFPSTWYV";
// NCBI BLOSUM62 (half-bit units), rows and columns in kOrder.
constexpr int kBlosum62[20][20] = {
    {4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1, -1, -1, -2, -1, 1, 0, -3, -2, 0},
    {-1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2, 2, -1, -3, -2, -1, -1, -3, -2, -3},
    {-2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3, 0, -2, -3, -2, 1, 0, -4, -2, -3},
    {-2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4, -1, -3, -3, -1, 0, -1, -4, -3, -3},
    {0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1},
    {-1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2, 1, 0, -3, -1, 0, -1, -2, -1, -2},
    {-1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3, 1, -2, -3, -1, 0, -1, -3, -2, -2},
    {0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4, -2, -3, -3, -2, 0, -2, -2, -3, -3},
    {-2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3, -1, -2, -1, -2, -1, -2, -2, 2, -3},
    {-1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2, -3, 1, 0, -3, -2, -1, -3, -1, 3},
    {-1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4, -2, 2, 0, -3, -2, -1, -2, -1, 1},
    {-1, 2, 0, -1, -3, 1, 1, -2, -1, -3, -2, 5, -1, -3, -1, 0, -1, -3, -2, -2},
    {-1, -1, -2, -3, -1, 0, -2, -3, -2, 1, 2, -1, 5, 0, -2, -1, -1, -1, -1, 1},
    {-2, -3, -3, -3, -2, -3, -3, -3, -1, 0, 0, -3, 0, 6, -4, -2, -2, 1, 3, -1},
    {-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4, 7, -1, -1, -4, -3, -2},
    {1, -1, 1, 0, -1, 0, 0, 0, -1, -2, -2, 0, -1, -2, -1, 4, 1, -3, -2, -2},
    {0, -1, 0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1, 1, 5, -2, -2, 0},
    {-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1, 1, -4, -3, -2, 11, 2, -3},
    {-2, -2, -2, -3, -2, -1, -2, -3, 2, -1, -1, -2, -1, 3, -3, -2, -2, 2, 7, -1},
    {0, -3, -3, -3, -1, -2, -2, -3, -3, 3, 1, -2, 1, -1, -2, -2, 0, -3, -1, 4}};

int blosum(char a, char b) { return kBlosum62[kOrder.find(a)][kOrder.find(b)]; }

// Gotoh's local alignment in double, O(n m), with parasail's gap convention (a gap of k residues
// costs open + (k - 1) * extend): the reference score.
double brute_force_sw(const std::string& a, const std::string& b, double open, double extend) {
  const double ninf = -1e300;
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<double>> h(n + 1, std::vector<double>(m + 1, 0.0)), e = h, f = h;
  for (auto* t : {&e, &f})
    for (auto& row : *t) std::fill(row.begin(), row.end(), ninf);
  double best = 0.0;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      e[i][j] = std::max(h[i][j - 1] - open, e[i][j - 1] - extend);  // gap in a
      f[i][j] = std::max(h[i - 1][j] - open, f[i - 1][j] - extend);  // gap in b
      h[i][j] = std::max({0.0, h[i - 1][j - 1] + blosum(a[i - 1], b[j - 1]), e[i][j], f[i][j]});
      best = std::max(best, h[i][j]);
    }
  return best;
}

std::string random_peptide(std::mt19937& rng, std::size_t length) {
  std::string s(length, 'A');
  for (char& c : s) c = kOrder[rng() % kOrder.size()];
  return s;
}

// A copy of `s` with about `rate` of its letters replaced and, now and then, a letter dropped or
// inserted, so related pairs have gapped alignments scoring above the 8-bit range.
std::string mutate(std::mt19937& rng, const std::string& s, double rate) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::string out;
  for (char c : s) {
    const double x = u(rng);
    if (x < 0.03) continue;                                    // deletion
    if (x < 0.06) out += kOrder[rng() % kOrder.size()];        // insertion before c
    out += u(rng) < rate ? kOrder[rng() % kOrder.size()] : c;  // substitution
  }
  return out.empty() ? s : out;
}

TEST(ProteinLikeness, ReferenceMatrixIsSymmetricBlosum62) {
  for (std::size_t i = 0; i < 20; ++i)
    for (std::size_t j = 0; j < 20; ++j) EXPECT_EQ(kBlosum62[i][j], kBlosum62[j][i]) << i << j;
  // Hand-checked entries of the published table.
  EXPECT_EQ(blosum('W', 'W'), 11);
  EXPECT_EQ(blosum('C', 'C'), 9);
  EXPECT_EQ(blosum('W', 'Y'), 2);
  EXPECT_EQ(blosum('W', 'G'), -2);
  EXPECT_EQ(blosum('I', 'V'), 3);
}

TEST(ProteinLikeness, HandCheckedAlignments) {
  // 8 W against WWWW GG WWWW: 8 x 11 - (12 + 1) for the two-residue gap = 75 beats every
  // ungapped alignment (WWWWWWWW on WWWWGGWW: 6 x 11 - 2 x 2 = 62); 8 matches in 10 columns.
  auto hits = nearest_training_hits({"WWWWWWWW"}, {"WWWWGGWWWW"});
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].score, 75);
  EXPECT_EQ(hits[0].matches, 8);
  EXPECT_EQ(hits[0].length, 10);
  EXPECT_DOUBLE_EQ(hits[0].identity, 0.8);
  // A one-residue gap costs gap_open alone: 88 - 10 = 78 with open 10.
  EXPECT_EQ(nearest_training_hits({"WWWWWWWW"}, {"WWWWGWWWW"}, {.gap_open = 10})[0].score, 78);
  // CWC on CYC: C-C 9, W-Y 2, C-C 9 = 20 over 3 columns, 2 identical.
  hits = nearest_training_hits({"CWC"}, {"CYC"});
  EXPECT_EQ(hits[0].score, 20);
  EXPECT_EQ(hits[0].matches, 2);
  EXPECT_EQ(hits[0].length, 3);
  // MKTAYIAKQR on itself: M5 K5 T5 A4 Y7 I4 A4 K5 Q5 R5 = 49, identity 1.
  hits = nearest_training_hits({"MKTAYIAKQR"}, {"GGGG", "MKTAYIAKQR", "PPPP"});
  EXPECT_EQ(hits[0].score, 49);
  EXPECT_EQ(hits[0].training, 1u);
  EXPECT_DOUBLE_EQ(hits[0].identity, 1.0);
}

TEST(ProteinLikeness, ScoresEqualBruteForceSmithWaterman) {
  std::mt19937 rng(11);
  std::vector<std::string> training, queries;
  for (int i = 0; i < 40; ++i) training.push_back(random_peptide(rng, 1 + rng() % 60));
  for (int i = 0; i < 6; ++i) training.push_back(random_peptide(rng, 60 + rng() % 41));
  // Unrelated queries (scores well inside 8 bits), related ones (16-bit range: up to ~500) and
  // lengths 1 and 2.
  for (int i = 0; i < 12; ++i) queries.push_back(random_peptide(rng, 1 + rng() % 50));
  for (int i = 0; i < 6; ++i) queries.push_back(mutate(rng, training[40 + i], 0.2));
  queries.push_back("W");
  queries.push_back("KR");
  for (const auto& [open, extend] : {std::pair{12, 1}, std::pair{10, 1}, std::pair{5, 2}}) {
    for (const int threads : {1, 3}) {
      const AlignmentOptions o{.gap_open = open, .gap_extend = extend, .threads = threads};
      const auto hits = nearest_training_hits(queries, training, o);
      ASSERT_EQ(hits.size(), queries.size());
      for (std::size_t q = 0; q < queries.size(); ++q) {
        double best = 0.0;
        for (const auto& t : training)
          best = std::max(best, brute_force_sw(queries[q], t, open, extend));
        EXPECT_EQ(hits[q].score, static_cast<int>(best)) << "query " << q << " gaps " << open;
        EXPECT_EQ(brute_force_sw(queries[q], training[hits[q].training], open, extend), best);
        EXPECT_LE(hits[q].matches, hits[q].length);
        EXPECT_GE(hits[q].identity, 0.0);
        EXPECT_LE(hits[q].identity, 1.0);
      }
      for (std::size_t q = 12; q < 18; ++q) EXPECT_GT(hits[q].score, 127) << q;  // 16-bit path
    }
  }
}

TEST(ProteinLikeness, IdenticalSequencesHaveIdentityOne) {
  std::mt19937 rng(5);
  std::vector<std::string> training;
  for (int i = 0; i < 30; ++i) training.push_back(random_peptide(rng, 10 + rng() % 91));
  const std::vector<std::string> queries(training.begin(), training.begin() + 10);
  const auto hits = nearest_training_hits(queries, training, {.threads = 2});
  for (std::size_t q = 0; q < queries.size(); ++q) {
    int self = 0;
    for (char c : queries[q]) self += blosum(c, c);
    EXPECT_EQ(hits[q].score, self) << q;
    EXPECT_EQ(hits[q].training, q);
    EXPECT_EQ(hits[q].length, static_cast<int>(queries[q].size()));
    EXPECT_EQ(hits[q].query_length, static_cast<int>(queries[q].size()));
    EXPECT_DOUBLE_EQ(hits[q].identity, 1.0);
  }
  EXPECT_DOUBLE_EQ(summarize_hits(hits).fraction_identity_at_least, 1.0);
  EXPECT_DOUBLE_EQ(summarize_hits(hits).fraction_near_copies, 1.0);
}

// The guard's two readings: a copy with two substitutions is a near copy; a short exact piece of a
// training peptide inside unrelated letters reaches identity 1 but spans too little of the query.
// The flanks are W, which BLOSUM62 scores negatively against every letter of the training peptide
// (no F, Y or W in it), so the best local alignment is the piece alone.
TEST(ProteinLikeness, NearCopiesSpanMostOfTheSequence) {
  const std::string train = "MKTAILVAGSRPEQHNDCKLAGMEVRTSPAQGHKNDLCIVESTAKMGRPLDQNHVTESK";
  std::string copy = train;
  copy[10] = 'A';  // R -> A
  copy[40] = 'S';  // E -> S
  const std::string piece = train.substr(12, 8);
  const std::string flank(20, 'W');
  const auto hits = nearest_training_hits({copy, flank + piece + flank}, {train});
  EXPECT_EQ(hits[1].length, 8);
  EXPECT_EQ(hits[1].query_length, 48);
  EXPECT_DOUBLE_EQ(hits[1].identity, 1.0);
  const auto both = summarize_hits(hits);
  EXPECT_DOUBLE_EQ(both.fraction_identity_at_least, 1.0);
  EXPECT_DOUBLE_EQ(both.fraction_near_copies, 0.5);
  EXPECT_DOUBLE_EQ(summarize_hits({hits[1]}).fraction_near_copies, 0.0);
  EXPECT_DOUBLE_EQ(summarize_hits({hits[0]}).fraction_near_copies, 1.0);
  // The coverage threshold is the share of the query's letters: 8 of 48 columns pass at 1/6.
  EXPECT_DOUBLE_EQ(summarize_hits({hits[1]}, 0.9, 8.0 / 48).fraction_near_copies, 1.0);
}

TEST(ProteinLikeness, TiesGoToTheFirstOfEqualTrainingSequences) {
  const auto hits = nearest_training_hits({"MKTAYIAKQR"}, {"AAAA", "MKTAYIAKQR", "MKTAYIAKQR"});
  EXPECT_EQ(hits[0].training, 1u);
}

TEST(ProteinLikeness, ShuffledRelativesScoreLowerThanTheRelatives) {
  std::mt19937 rng(7);
  std::vector<std::string> training, relatives;
  for (int i = 0; i < 200; ++i) training.push_back(random_peptide(rng, 20 + rng() % 81));
  for (int i = 0; i < 40; ++i) relatives.push_back(mutate(rng, training[i * 5], 0.5));
  const auto shuffled = shuffle_letters(relatives, 3);
  const auto real = summarize_hits(nearest_training_hits(relatives, training, {.threads = 2}));
  const auto shuf = summarize_hits(nearest_training_hits(shuffled, training, {.threads = 2}));
  EXPECT_GT(real.score_mean, 1.5 * shuf.score_mean);
  EXPECT_GT(real.identity_median, shuf.identity_median);
}

TEST(ProteinLikeness, ShuffleKeepsCompositionAndIsSeeded) {
  std::mt19937 rng(9);
  std::vector<std::string> set;
  for (int i = 0; i < 50; ++i) set.push_back(random_peptide(rng, 1 + rng() % 100));
  const auto a = shuffle_letters(set, 1), b = shuffle_letters(set, 1), c = shuffle_letters(set, 2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < set.size(); ++i) {
    std::string x = set[i], y = a[i];
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    EXPECT_EQ(x, y) << i;
    if (a[i] != set[i]) ++moved;
  }
  EXPECT_GE(moved, 45u);  // all but the shortest change order
  // Each of 3 positions of "ABC" receives each letter about a third of the time.
  std::array<std::array<int, 3>, 3> counts{};
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    const std::string s = shuffle_letters({"ABC"}, seed)[0];
    for (int p = 0; p < 3; ++p) ++counts[p][s[p] - 'A'];
  }
  for (const auto& row : counts)
    for (const int n : row) EXPECT_NEAR(n, 1000, 100);
}

TEST(ProteinLikeness, SummaryStatistics) {
  std::vector<NearestHit> hits;
  // Query length 10; the 0.95 hit spans 9 columns (a near copy), the 0.9 hit only 5 (not one).
  for (const auto& [score, identity, columns] :
       {std::tuple{10, 0.2, 10}, std::tuple{40, 0.95, 9}, std::tuple{20, 0.9, 5},
        std::tuple{30, 0.5, 10}})
    hits.push_back({.score = score, .length = columns, .identity = identity, .query_length = 10});
  auto s = summarize_hits(hits);
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.score_median, 25.0);
  EXPECT_DOUBLE_EQ(s.score_mean, 25.0);
  EXPECT_DOUBLE_EQ(s.identity_median, 0.7);
  EXPECT_DOUBLE_EQ(s.identity_mean, 2.55 / 4);
  EXPECT_DOUBLE_EQ(s.fraction_identity_at_least, 0.5);  // 0.95 and 0.9 (>=)
  EXPECT_DOUBLE_EQ(s.fraction_near_copies, 0.25);
  hits.pop_back();
  s = summarize_hits(hits, 0.95);
  EXPECT_DOUBLE_EQ(s.score_median, 20.0);
  EXPECT_DOUBLE_EQ(s.fraction_identity_at_least, 1.0 / 3);
  EXPECT_TRUE(std::isnan(summarize_hits({}).score_median));
}

TEST(ProteinLikeness, JsonAndTable) {
  ProteinLikeness r;
  r.training_size = 17;
  r.split = "validation";
  r.designs = summarize_hits({{.score = 50, .identity = 0.3}});
  r.reference = summarize_hits({{.score = 150, .identity = 0.5}});
  r.shuffled = summarize_hits({{.score = 49, .identity = 0.25}});
  r.baselines["pwm"] = summarize_hits({{.score = 48, .identity = 0.2}});
  const auto j = protein_likeness_json(r);
  EXPECT_EQ(j["matrix"], "BLOSUM62");
  EXPECT_EQ(j["gap_open"], 12);
  EXPECT_EQ(j["gap_extend"], 1);
  EXPECT_EQ(j["training_sequences"], 17);
  EXPECT_EQ(j["designs"]["score_median"], 50.0);
  EXPECT_EQ(j["reference"]["identity_median"], 0.5);
  EXPECT_EQ(j["shuffled"]["fraction_identity_at_least"], 0.0);
  EXPECT_EQ(j["shuffled"]["identity_threshold"], 0.9);
  EXPECT_EQ(j["shuffled"]["fraction_near_copies"], 0.0);
  EXPECT_EQ(j["shuffled"]["coverage_threshold"], 0.8);
  const std::string table = protein_likeness_table("peptide", r);
  EXPECT_NE(table.find("peptide "), std::string::npos);
  EXPECT_NE(table.find("shuffled validation"), std::string::npos);
  EXPECT_NE(table.find("pwm"), std::string::npos);
  EXPECT_NE(table.find("150.0"), std::string::npos);
  EXPECT_NE(table.find("near copies (80 % long)"), std::string::npos);
}

TEST(ProteinLikeness, BadInputThrows) {
  EXPECT_THROW(nearest_training_hits({"AC"}, {}), std::invalid_argument);
  EXPECT_THROW(nearest_training_hits({""}, {"AC"}), std::invalid_argument);
  EXPECT_THROW(nearest_training_hits({"AC"}, {"AC", ""}), std::invalid_argument);
  EXPECT_THROW(nearest_training_hits({std::string(kMaxAlignedLength + 1, 'A')}, {"AC"}),
               std::invalid_argument);
  EXPECT_THROW(nearest_training_hits({"AC"}, {"AC"}, {.gap_open = 0}), std::invalid_argument);
  EXPECT_THROW(nearest_training_hits({"AC"}, {"AC"}, {.gap_open = 1, .gap_extend = 2}),
               std::invalid_argument);
  EXPECT_THROW(nearest_training_hits({"AC"}, {"AC"}, {.threads = 0}), std::invalid_argument);
}

}  // namespace
}  // namespace gsflow::evaluation
