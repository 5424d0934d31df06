// Tests for the DNA and protein alphabets: encoding, decoding, lookup by name, the unknown-letter
// policies and InputError formatting.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/errors.hpp"

namespace gsflow::engine {
namespace {

using Codes = std::vector<std::uint8_t>;

std::string random_sequence(const Alphabet& alphabet, std::size_t length, bool lowercase,
                            std::mt19937& rng) {
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::string out;
  for (std::size_t i = 0; i < length; ++i) {
    char c = alphabet.letters()[pick(rng)];
    if (lowercase && (i % 2 == 0)) c = static_cast<char>(c - 'A' + 'a');
    out.push_back(c);
  }
  return out;
}

std::string upper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

TEST(Alphabet, DnaHasFourLettersInOrder) {
  const Alphabet& dna = dna_alphabet();
  EXPECT_EQ(dna.name(), "dna");
  EXPECT_EQ(dna.size(), 4u);
  EXPECT_EQ(dna.letters(), "ACGT");
  EXPECT_EQ(dna.encode('A'), 0);
  EXPECT_EQ(dna.encode('C'), 1);
  EXPECT_EQ(dna.encode('G'), 2);
  EXPECT_EQ(dna.encode('T'), 3);
  EXPECT_EQ(dna.decode(std::uint8_t{2}), 'G');
}

TEST(Alphabet, ProteinHasTwentyLettersInOrder) {
  const Alphabet& protein = protein_alphabet();
  EXPECT_EQ(protein.name(), "protein");
  EXPECT_EQ(protein.size(), 20u);
  EXPECT_EQ(protein.letters(), "ACDEFGHIKLMNPQRSTVWY");
  for (std::size_t i = 0; i < protein.size(); ++i) {
    EXPECT_EQ(protein.encode(protein.letters()[i]), i);
    EXPECT_EQ(protein.decode(static_cast<std::uint8_t>(i)), protein.letters()[i]);
  }
  EXPECT_EQ(protein.encode('Y'), 19);
  EXPECT_EQ(protein.encode('K'), 8);
}

TEST(Alphabet, LowercaseEncodesLikeUppercaseAndDecodesUppercase) {
  const Alphabet& dna = dna_alphabet();
  EXPECT_EQ(dna.encode('t'), 3);
  EXPECT_EQ(dna.encode('g'), 2);
  EXPECT_EQ(dna.encode("acGt"), (Codes{0, 1, 2, 3}));
  EXPECT_EQ(dna.decode(dna.encode("acgt")), "ACGT");
  EXPECT_EQ(protein_alphabet().encode('w'), 18);
}

TEST(Alphabet, LettersOutsideAreRejected) {
  const Alphabet& dna = dna_alphabet();
  EXPECT_FALSE(dna.contains('N'));
  EXPECT_FALSE(dna.contains('U'));
  EXPECT_FALSE(dna.contains('\0'));
  EXPECT_FALSE(dna.contains('-'));
  EXPECT_TRUE(dna.contains('a'));
  EXPECT_EQ(dna.index_of('N'), -1);
  EXPECT_EQ(dna.index_of('c'), 1);
  EXPECT_THROW(dna.encode('N'), std::invalid_argument);
  EXPECT_THROW(protein_alphabet().encode('B'), std::invalid_argument);
  EXPECT_THROW(protein_alphabet().encode('*'), std::invalid_argument);
  EXPECT_THROW(dna.decode(std::uint8_t{4}), std::out_of_range);
  EXPECT_THROW(protein_alphabet().decode(std::uint8_t{20}), std::out_of_range);
}

TEST(Alphabet, SequenceRoundTripBothAlphabets) {
  std::mt19937 rng(1234);
  for (const Alphabet* alphabet : {&dna_alphabet(), &protein_alphabet()}) {
    for (std::size_t length : {0u, 1u, 2u, 19u, 20u, 21u, 257u}) {
      for (const bool lowercase : {false, true}) {
        const std::string seq = random_sequence(*alphabet, length, lowercase, rng);
        const Codes codes = alphabet->encode(seq);
        ASSERT_EQ(codes.size(), length);
        for (std::size_t i = 0; i < length; ++i) {
          ASSERT_LT(codes[i], alphabet->size());
          ASSERT_EQ(alphabet->letters()[codes[i]], upper(seq.substr(i, 1))[0]);
        }
        EXPECT_EQ(alphabet->decode(codes), upper(seq)) << alphabet->name() << " " << length;
      }
    }
  }
}

TEST(Alphabet, DecodeRejectsOutOfRangeIndexWithPosition) {
  try {
    dna_alphabet().decode(Codes{0, 1, 7, 2});
    FAIL() << "expected std::out_of_range";
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("index 7 at position 3"), std::string::npos) << e.what();
  }
}

TEST(Alphabet, SequenceErrorNamesPositionAndLetter) {
  try {
    dna_alphabet().encode("ACGTNA");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "");
    EXPECT_EQ(e.line(), 0u);
    EXPECT_EQ(std::string(e.what()), "letter 'N' at position 5 is not in the dna alphabet (ACGT)");
  }
}

TEST(Alphabet, NonPrintableLetterIsShownAsHex) {
  try {
    protein_alphabet().encode(std::string("MK\x01L", 4));
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'\\x01' at position 3"), std::string::npos) << e.what();
  }
}

TEST(Alphabet, ErrorPolicyNamesRecordFileAndLine) {
  const SequenceSource source{.file = "in.fa", .line = 12, .record = "seq7"};
  try {
    encode_sequence(dna_alphabet(), "ACGTACXT", {}, source);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "in.fa");
    EXPECT_EQ(e.line(), 12u);
    EXPECT_EQ(std::string(e.what()),
              "in.fa:12: record 'seq7': letter 'X' at position 7 is not in the dna alphabet "
              "(ACGT)");
  }
}

TEST(Alphabet, SkipRecordPolicyReturnsNothingOnlyForDirtySequences) {
  const EncodeOptions skip{.policy = UnknownLetterPolicy::skip_record};
  EXPECT_FALSE(encode_sequence(dna_alphabet(), "ACNGT", skip).has_value());
  const auto clean = encode_sequence(dna_alphabet(), "ACGt", skip);
  ASSERT_TRUE(clean.has_value());
  EXPECT_EQ(*clean, (Codes{0, 1, 2, 3}));
}

TEST(Alphabet, ReplacePolicySubstitutesCallerLetter) {
  const EncodeOptions replace_g{.policy = UnknownLetterPolicy::replace, .replacement = 'g'};
  const auto codes = encode_sequence(dna_alphabet(), "ANnT-", replace_g);
  ASSERT_TRUE(codes.has_value());
  EXPECT_EQ(*codes, (Codes{0, 2, 2, 3, 2}));
  EXPECT_EQ(dna_alphabet().decode(*codes), "AGGTG");

  const EncodeOptions replace_default{.policy = UnknownLetterPolicy::replace};
  const auto protein = encode_sequence(protein_alphabet(), "MXB*K", replace_default);
  ASSERT_TRUE(protein.has_value());
  EXPECT_EQ(protein_alphabet().decode(*protein), "MAAAK");
}

TEST(Alphabet, ReplacementOutsideAlphabetIsRejectedEvenForCleanInput) {
  const EncodeOptions bad{.policy = UnknownLetterPolicy::replace, .replacement = 'N'};
  EXPECT_THROW(encode_sequence(dna_alphabet(), "ACGT", bad), std::invalid_argument);
  EXPECT_THROW(encode_sequence(dna_alphabet(), "ANGT", bad), std::invalid_argument);
}

TEST(Alphabet, LookupByName) {
  EXPECT_EQ(&alphabet_by_name("dna"), &dna_alphabet());
  EXPECT_EQ(&alphabet_by_name("protein"), &protein_alphabet());
  EXPECT_EQ(&alphabet_by_name("DNA"), &dna_alphabet());
  try {
    alphabet_by_name("rna");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'rna'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(alphabet_by_name(""), std::invalid_argument);
}

TEST(Alphabet, CustomAlphabetValidatesLetters) {
  const Alphabet rna("rna", "acgu");
  EXPECT_EQ(rna.letters(), "ACGU");
  EXPECT_EQ(rna.encode("UuA"), (Codes{3, 3, 0}));
  EXPECT_THROW(Alphabet("x", ""), std::invalid_argument);
  EXPECT_THROW(Alphabet("", "AC"), std::invalid_argument);
  EXPECT_THROW(Alphabet("x", "ACa"), std::invalid_argument);
  EXPECT_THROW(Alphabet("x", "AC-"), std::invalid_argument);
}

TEST(InputErrorFormat, LocationPartsAreLeftOutWhenUnknown) {
  EXPECT_STREQ(InputError("a.fa", 3, "bad").what(), "a.fa:3: bad");
  EXPECT_STREQ(InputError("a.fa", 0, "bad").what(), "a.fa: bad");
  EXPECT_STREQ(InputError("", 3, "bad").what(), "line 3: bad");
  EXPECT_STREQ(InputError("", 0, "bad").what(), "bad");
  const InputError e("b.fa.gz", 9, "oops");
  EXPECT_EQ(e.file(), "b.fa.gz");
  EXPECT_EQ(e.line(), 9u);
  EXPECT_EQ(e.message(), "oops");
}

}  // namespace
}  // namespace gsflow::engine
