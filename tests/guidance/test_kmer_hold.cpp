// The kmers:NAME objective (guidance/kmer_hold.hpp): scores are the set's log ratios summed over a
// sequence's k-mers (recounted here from substrings), the gradient is the exact change of the
// potential when one letter is substituted with the set's ratios held (it is linear in each row),
// padding gets none, a set stacking TATA boxes in the core window is pushed off them by the
// bundled promoter reference, and bands without k-mers or of another alphabet are refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gsflow/engine/metrics/kmer_reference.hpp"
#include "gsflow/guidance/natural.hpp"
#include "gsflow/guidance/objective.hpp"

namespace gsflow::guidance {
namespace {

const std::string kDna = "ACGT";

engine::Sequence encode(const std::string& s) {
  engine::Sequence out;
  for (const char c : s) out.push_back(static_cast<std::uint8_t>(kDna.find(c)));
  return out;
}

std::vector<float> rows_of(const std::vector<std::string>& seqs, std::size_t length) {
  std::vector<float> rows(seqs.size() * length * 4, 0.0f);
  for (std::size_t i = 0; i < seqs.size(); ++i)
    for (std::size_t p = 0; p < seqs[i].size(); ++p)
      rows[(i * length + p) * 4 + kDna.find(seqs[i][p])] = 1.0f;
  return rows;
}

// -sum over the starts of s of ratio(bin, k-mer), by substrings.
double potential(const std::string& s, const engine::KmerReference& ref,
                 const std::vector<double>& ratio) {
  double sum = 0.0;
  const std::size_t starts = s.size() - ref.k + 1;
  for (std::size_t p = 0; p < starts; ++p) {
    std::size_t w = 0;
    for (const char c : s.substr(p, ref.k)) w = w * 4 + kDna.find(c);
    sum += ratio[(p * ref.bins / starts) * ref.words() + w];
  }
  return -sum;
}

class KmerHoldFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("gsflow-kmer-hold-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    engine::SequenceSet real;
    for (const char* s :
         {"ACGTACGTTATAAAAGCA", "TATAAAAGGGCCCACGTT", "AAAAAAAAAAAACGTC", "CGCGCGCGATATTTTTGA",
          "GATTACAGATTACAGAGG", "TTTTTTTTTTTTTTTTAC", "ACGTTGCAACGTTGCAGG", "TATATATAGGGGCCCCAA",
          "CATCATCATCATCATCGA", "GGGATCCCGGGATCCCTA", "ACCGGTTAACCGGTTAAC"})
      real.push_back(encode(s));
    band_ = engine::CompositionBand::fit(real, kDna, 0.01, band_linear_features("dna"));
    ref_ = engine::KmerReference::fit(real, kDna, 3, 2);
    with_ = (dir_ / "with.json").string();
    without_ = (dir_ / "without.json").string();
    write_band(with_, band_, &ref_);
    write_band(without_, band_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  engine::CompositionBand band_;
  engine::KmerReference ref_;
  std::string with_, without_;
};

TEST_F(KmerHoldFile, ScoresAndGradientsAreTheSetsRatiosOverEachSequence) {
  const auto o = make_objective("kmers:" + with_, "dna");
  EXPECT_TRUE(o->info().differentiable);
  EXPECT_TRUE(o->info().on_prediction);
  const auto read = read_band_kmers(with_);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->freq, ref_.freq);
  EXPECT_EQ(read_band(with_).names, band_.names);

  const std::vector<std::string> seqs = {"AAAAAAAAAAAAAATT", "TATAAAAGCGCGCGCG", "ACGTTAGCA"};
  const std::size_t length = 16;
  const auto rows = rows_of(seqs, length);
  const std::vector<std::uint16_t> lengths = {16, 16, 9};
  const SequenceRows view{{rows.data(), 3 * length, 4, 4}, 3, length, lengths};
  std::vector<double> scores(3);
  std::vector<float> grad(rows.size(), 7.0f);
  engine::Rows g{grad.data(), 3 * length, 4, 4};
  o->evaluate(view, scores, &g);

  engine::SequenceSet set;
  for (const auto& s : seqs) set.push_back(encode(s));
  const auto ratio = engine::kmer_log_ratio(ref_, set);
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    const std::string& s = seqs[i];
    EXPECT_NEAR(scores[i], potential(s, ref_, ratio) / static_cast<double>(s.size()), 1e-12);
    for (std::size_t p = 0; p < length; ++p) {
      const float* row = grad.data() + (i * length + p) * 4;
      if (p >= s.size()) {
        for (std::size_t c = 0; c < 4; ++c) EXPECT_EQ(row[c], 0.0f) << i << " " << p;
        continue;
      }
      for (std::size_t c = 1; c < 4; ++c) {
        std::string a = s, b = s;
        a[p] = kDna[c];
        b[p] = kDna[0];
        EXPECT_NEAR(row[c] - row[0], potential(a, ref_, ratio) - potential(b, ref_, ratio), 1e-5)
            << i << " " << p << " " << c;
      }
    }
  }
  // The poly-A sequence over-uses AAA, which the set's ratio says: its own letters are pushed off.
  EXPECT_LT(scores[0], scores[2]);
  EXPECT_LT(grad[5 * 4 + 0], grad[5 * 4 + 2]);
}

TEST_F(KmerHoldFile, RefusesBandsWithoutKmersOrOfAnotherAlphabet) {
  try {
    make_objective("kmers:" + without_, "dna");
    FAIL() << "a band without k-mers was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--kmers"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_objective("kmers:" + with_, "protein"), std::invalid_argument);
  EXPECT_THROW(make_objective("kmers", "dna"), std::invalid_argument);
}

TEST(KmerHoldBundled, PromoterReferencePushesAStackOfCoreTataBoxesOff) {
  const auto o = make_objective("kmers:promoter", "dna");
  // 64 background sequences (a repeated non-TATA pattern) each with TATAAAAG at -31 (start 225 of
  // 256), i.e. a TATA box in the core window of every design.
  const std::string unit = "GCAGCTGGACCTGAGCCAGGCTCCTGCAAGGT";
  std::vector<std::string> seqs;
  for (std::size_t i = 0; i < 64; ++i) {
    std::string s;
    while (s.size() < 256) s += unit;
    s = s.substr(i % unit.size()) + s.substr(0, i % unit.size());
    s.replace(225, 8, "TATAAAAG");
    seqs.push_back(s);
  }
  const auto rows = rows_of(seqs, 256);
  const SequenceRows view{{rows.data(), seqs.size() * 256, 4, 4}, seqs.size(), 256, {}};
  std::vector<double> scores(seqs.size());
  std::vector<float> grad(rows.size());
  engine::Rows g{grad.data(), seqs.size() * 256, 4, 4};
  o->evaluate(view, scores, &g);
  // The T of TATA at 227 (third letter) gets a lower push than the other letters there.
  const float* row = grad.data() + 227 * 4;
  for (std::size_t c : {0, 1, 2}) EXPECT_LT(row[3], row[c]) << c;
}

}  // namespace
}  // namespace gsflow::guidance
