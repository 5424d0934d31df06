// Positional k-mer references (engine/metrics/kmer_reference.hpp) against counts made here with
// strings and a map: the smoothed shares per bin, the bins of starts, and the set's shrunk log
// ratio (0 for every k-mer of a set made of the reference itself once the set is large).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "gsflow/engine/metrics/kmer_reference.hpp"

namespace gsflow::engine {
namespace {

const std::string kDna = "ACGT";

SequenceSet encode(const std::vector<std::string>& seqs) {
  SequenceSet set;
  for (const auto& s : seqs) {
    set.emplace_back();
    for (const char c : s) set.back().push_back(static_cast<std::uint8_t>(kDna.find(c)));
  }
  return set;
}

std::size_t index_of(const std::string& word) {
  std::size_t w = 0;
  for (const char c : word) w = w * 4 + kDna.find(c);
  return w;
}

// (bin, word) -> count, and the starts per bin, by substrings.
void count_by_hand(const std::vector<std::string>& seqs, std::size_t k, std::size_t bins,
                   std::map<std::pair<std::size_t, std::string>, double>& counts,
                   std::vector<double>& totals) {
  totals.assign(bins, 0.0);
  for (const auto& s : seqs) {
    if (s.size() < k) continue;
    const std::size_t starts = s.size() - k + 1;
    for (std::size_t p = 0; p < starts; ++p) {
      const std::size_t b = p * bins / starts;
      counts[{b, s.substr(p, k)}] += 1.0;
      totals[b] += 1.0;
    }
  }
}

const std::vector<std::string> kSeqs = {"ACGTACGTTATAAAAG",
                                        "TATAAAAGGGCCCACG",
                                        "AAAAAAAAAAAA",
                                        "CGCGCGCGATATTTTT",
                                        "GATTACAGATTACAGA",
                                        "TTTTTTTTTTTTTTTT",
                                        "ACGTTGCAACGTTGCA",
                                        "TATATATAGGGGCCCC",
                                        "CATCATCATCATCATC",
                                        "GGGATCCCGGGATCCC",
                                        "AC"};

TEST(KmerReference, SharesPerBinMatchCountsByHand) {
  const std::size_t k = 3, bins = 2, words = 64;
  const auto ref = KmerReference::fit(encode(kSeqs), kDna, k, bins);
  EXPECT_EQ(ref.reference_size, 10u);  // "AC" is shorter than k
  ASSERT_EQ(ref.freq.size(), bins * words);
  std::map<std::pair<std::size_t, std::string>, double> counts;
  std::vector<double> totals;
  count_by_hand(kSeqs, k, bins, counts, totals);
  for (std::size_t b = 0; b < bins; ++b) {
    double sum = 0.0;
    for (const std::string word : {"TAT", "AAA", "CGC", "TTT", "GGG", "ACG"}) {
      const double expected = (counts[{b, word}] + 0.5) / (totals[b] + 0.5 * words);
      EXPECT_NEAR(ref.freq[b * words + index_of(word)], expected, 1e-12) << b << " " << word;
    }
    for (std::size_t w = 0; w < words; ++w) sum += ref.freq[b * words + w];
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
}

TEST(KmerReference, LogRatioShrinksTowardTheReference) {
  const std::size_t k = 2, bins = 1, words = 16;
  const auto ref = KmerReference::fit(encode(kSeqs), kDna, k, bins);
  // A small set that over-uses AA: q = (count + 16 r) / (N + 16) by hand.
  const std::vector<std::string> set = {"AAAAAAAAA", "ACGTACGTA"};
  const auto ratio = kmer_log_ratio(ref, encode(set));
  std::map<std::pair<std::size_t, std::string>, double> counts;
  std::vector<double> totals;
  count_by_hand(set, k, bins, counts, totals);
  for (const std::string word : {"AA", "AC", "CG", "TT", "GG"}) {
    const double r = ref.freq[index_of(word)];
    const double q = (counts[{0, word}] + words * r) / (totals[0] + words);
    EXPECT_NEAR(ratio[index_of(word)], std::log(q / r), 1e-12) << word;
  }
  EXPECT_GT(ratio[index_of("AA")], 0.5);
  EXPECT_LT(ratio[index_of("TT")], 0.0);
  // A large set drawn like the reference (the reference itself, many times) has ratios near 0
  // except where the half-count smoothing of the reference matters.
  SequenceSet many;
  for (int rep = 0; rep < 200; ++rep)
    for (const auto& s : encode(kSeqs)) many.push_back(s);
  const auto flat = kmer_log_ratio(ref, many);
  for (const std::string word : {"AA", "TT", "CG", "AT"})
    EXPECT_NEAR(flat[index_of(word)], 0.0, 0.05) << word;
}

TEST(KmerReference, RefusesBadSizesAndLetters) {
  EXPECT_THROW(KmerReference::fit(encode(kSeqs), kDna, 0, 1), std::invalid_argument);
  EXPECT_THROW(KmerReference::fit(encode(kSeqs), kDna, 9, 1), std::invalid_argument);
  EXPECT_THROW(KmerReference::fit(encode(kSeqs), kDna, 2, 0), std::invalid_argument);
  EXPECT_THROW(KmerReference::fit(encode({"ACGT", "ACGT"}), kDna, 2, 1), std::invalid_argument);
  auto bad = encode(kSeqs);
  bad[0][3] = 7;
  EXPECT_THROW(KmerReference::fit(bad, kDna, 2, 1), std::invalid_argument);
}

}  // namespace
}  // namespace gsflow::engine
