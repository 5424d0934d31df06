// IUPAC DNA motifs (dna_motif.hpp) against std::regex on the same letters, with each IUPAC code
// written out as its character class by hand.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>

#include "gsflow/engine/dna_motif.hpp"
#include "gsflow/engine/sequence_metrics.hpp"

namespace gsflow::engine {
namespace {

const std::map<char, std::string> kClasses = {
    {'A', "A"},    {'C', "C"},    {'G', "G"},   {'T', "T"},   {'R', "[AG]"},
    {'Y', "[CT]"}, {'S', "[CG]"}, {'W', "[AT]"}, {'K', "[GT]"}, {'M', "[AC]"},
    {'B', "[CGT]"}, {'D', "[AGT]"}, {'H', "[ACT]"}, {'V', "[ACG]"}, {'N', "[ACGT]"}};

std::regex as_regex(const std::string& iupac) {
  std::string pattern;
  for (char c : iupac) pattern += kClasses.at(c);
  return std::regex(pattern);
}

std::vector<std::uint8_t> letters(const std::string& s) {
  std::vector<std::uint8_t> out;
  for (char c : s) out.push_back(static_cast<std::uint8_t>(std::string("ACGT").find(c)));
  return out;
}

TEST(DnaMotif, MatchesLikeARegexAtEveryStart) {
  std::mt19937 rng(7);
  const std::string codes = "ACGTRYSWKMBDHVN";
  std::uniform_int_distribution<std::size_t> code(0, codes.size() - 1), letter(0, 3), len(1, 6);
  for (int trial = 0; trial < 200; ++trial) {
    std::string iupac;
    for (std::size_t j = len(rng); j > 0; --j) iupac += codes[code(rng)];
    const DnaMotif motif(iupac);
    const std::regex re = as_regex(iupac);
    ASSERT_EQ(motif.size(), iupac.size());
    EXPECT_EQ(motif.text(), iupac);
    std::string seq;
    for (int i = 0; i < 40; ++i) seq += "ACGT"[letter(rng)];
    const auto s = letters(seq);
    for (std::size_t start = 0; start <= seq.size() + 1; ++start) {
      const bool expected =
          start + iupac.size() <= seq.size() && std::regex_match(seq.substr(start, iupac.size()), re);
      EXPECT_EQ(motif.at(s, start), expected) << iupac << " in " << seq << " at " << start;
    }
  }
}

// starts_between against a scan of every start with positions converted by hand.
TEST(DnaMotif, StartsBetweenCountsFromEitherEnd) {
  const std::string seq = "GGTATAAAAGCCCCTATATATGCC";  // TATAWAWR at 0-based 2 and 14
  const auto s = letters(seq);
  const DnaMotif tata("tatawawr");  // lower case accepted
  EXPECT_EQ(tata.text(), "TATAWAWR");
  const long n = static_cast<long>(seq.size());
  EXPECT_TRUE(tata.starts_between(s, 3, 3));        // 1-based 3 = 0-based 2
  EXPECT_FALSE(tata.starts_between(s, 4, 14));
  EXPECT_TRUE(tata.starts_between(s, 4, 15));
  EXPECT_TRUE(tata.starts_between(s, 15 - n - 1, 15 - n - 1));  // 0-based 14 from the end: -10
  EXPECT_EQ(15 - n - 1, -10);
  EXPECT_FALSE(tata.starts_between(s, -9, -1));
  EXPECT_FALSE(tata.starts_between(s, -21, -11));
  EXPECT_TRUE(tata.starts_between(s, -22, -11));    // -22 = 0-based 2
  EXPECT_TRUE(tata.starts_between(s, 1, -1));       // anywhere
  EXPECT_TRUE(tata.starts_between(s, -1000, 1000)); // clipped to the sequence
  EXPECT_FALSE(tata.starts_between(s, 30, 40));     // beyond the end
  EXPECT_FALSE(tata.starts_between(s, -3, -10));    // empty range
  EXPECT_FALSE(tata.starts_between({}, 1, -1));
}

// ends_between: the last letters of the matches (0-based 9 and 21 above) with positions converted by
// hand, and against a scan of `at` over every end position, for every range of a random sequence.
TEST(DnaMotif, EndsBetweenIsTheLastLetter) {
  const std::string seq = "GGTATAAAAGCCCCTATATATGCC";
  const auto s = letters(seq);
  const DnaMotif tata("TATAWAWR");
  EXPECT_TRUE(tata.ends_between(s, 10, 10));    // 1-based 10 = 0-based 9
  EXPECT_FALSE(tata.ends_between(s, 3, 9));     // starts there, ends later
  EXPECT_FALSE(tata.ends_between(s, 11, 21));
  EXPECT_TRUE(tata.ends_between(s, -3, -3));    // 0-based 21
  EXPECT_FALSE(tata.ends_between(s, -2, -1));
  EXPECT_TRUE(tata.ends_between(s, -1000, 1000));
  EXPECT_FALSE(tata.ends_between(s, 1, 7));     // no room for a whole match
  EXPECT_FALSE(tata.ends_between({}, 1, -1));
  std::mt19937 rng(5);
  std::string random;
  for (int i = 0; i < 40; ++i) random += "ACGT"[rng() % 2 == 0 ? 0 : 3];  // A/T only: many boxes
  const auto r = letters(random);
  const DnaMotif box("TAWA");
  for (long first = 1; first <= 40; ++first)
    for (long last = first; last <= 40; ++last) {
      bool expected = false;
      for (long end = first; end <= last; ++end)
        expected = expected || (end >= 4 && box.at(r, static_cast<std::size_t>(end - 4)));
      EXPECT_EQ(box.ends_between(r, first, last), expected) << first << ".." << last;
    }
}

// tata_at (the evaluation's TATA box) is TATAWAWR as the literature writes it.
TEST(DnaMotif, TataAtIsTataWawr) {
  const std::regex re("TATA[AT]A[AT][AG]");
  std::mt19937 rng(3);
  std::discrete_distribution<int> letter({45, 3, 7, 45});  // A/T rich, so that boxes occur
  std::string seq;
  for (int i = 0; i < 5000; ++i) seq += "ACGT"[letter(rng)];
  const auto s = letters(seq);
  std::size_t hits = 0;
  for (std::size_t i = 0; i < seq.size(); ++i) {
    const bool expected = i + 8 <= seq.size() && std::regex_match(seq.substr(i, 8), re);
    EXPECT_EQ(tata_at(s, i), expected) << i;
    hits += expected;
  }
  EXPECT_GT(hits, 10u);
}

TEST(DnaMotif, BadCodesAreNamed) {
  try {
    DnaMotif("TATAXA");
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'X' at position 5"), std::string::npos) << msg;
  }
  EXPECT_THROW(DnaMotif(""), std::invalid_argument);
  EXPECT_THROW(DnaMotif("AC-G"), std::invalid_argument);
  EXPECT_THROW(DnaMotif("ACU"), std::invalid_argument);  // RNA
}

TEST(DnaMotif, LettersOutsideDnaNeverMatch) {
  const DnaMotif n("NN");
  const std::vector<std::uint8_t> s = {0, 4, 3};
  EXPECT_FALSE(n.at(s, 0));
  EXPECT_FALSE(n.at(s, 1));
}

}  // namespace
}  // namespace gsflow::engine

namespace gsflow::engine {
namespace {

// The other strand: motif.reverse_complement() matches the reverse complement of a sequence
// exactly where the motif matches the sequence (every start, random sequences, IUPAC motifs).
TEST(DnaMotif, ReverseComplementMatchesTheOtherStrand) {
  EXPECT_EQ(DnaMotif("GGTCTC").reverse_complement().text(), "GAGACC");
  EXPECT_EQ(DnaMotif("CCWGG").reverse_complement().text(), "CCWGG");
  EXPECT_EQ(DnaMotif("TATAWAWR").reverse_complement().text(), "YWTWTATA");
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint8_t>(state >> 62);
  };
  for (const char* text : {"GAATTC", "GGTCTC", "CCWGG", "GGCCNNNNNGGCC", "RYKMSWBDHVN"}) {
    const DnaMotif motif(text), rc = motif.reverse_complement();
    for (int trial = 0; trial < 50; ++trial) {
      std::vector<std::uint8_t> s(40);
      for (auto& v : s) v = next();
      std::vector<std::uint8_t> other(s.rbegin(), s.rend());
      for (auto& v : other) v = static_cast<std::uint8_t>(3 - v);
      for (std::size_t start = 0; start + motif.size() <= s.size(); ++start)
        EXPECT_EQ(motif.at(s, start), rc.at(other, s.size() - start - motif.size())) << text;
    }
  }
}

}  // namespace
}  // namespace gsflow::engine
