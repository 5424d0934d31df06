// The natural:NAME objective (guidance/natural.hpp): the bundled bands load and judge real and
// degenerate peptides and promoters the right way round, batch scores and gradients equal the
// band's own per sequence (padding gets none), band files round-trip and malformed ones are
// refused naming the file, and spec errors name the spec.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gsflow/engine/errors.hpp"
#include "gsflow/guidance/natural.hpp"
#include "gsflow/guidance/objective.hpp"

namespace gsflow::guidance {
namespace {

const std::string kProtein = "ACDEFGHIKLMNPQRSTVWY";

std::vector<float> rows_of(const std::vector<std::string>& seqs, std::size_t length,
                           const std::string& letters) {
  std::vector<float> rows(seqs.size() * length * letters.size(), 0.0f);
  for (std::size_t i = 0; i < seqs.size(); ++i)
    for (std::size_t p = 0; p < seqs[i].size(); ++p)
      rows[(i * length + p) * letters.size() + letters.find(seqs[i][p])] = 1.0f;
  return rows;
}

TEST(NaturalObjective, BundledAmpBandJudgesRealAndDegeneratePeptides) {
  const auto o = make_objective("natural:amp", "protein");
  EXPECT_EQ(o->info().alphabet, "protein");
  EXPECT_TRUE(o->info().differentiable);
  // Magainin 2 (a real antimicrobial peptide) against a cysteine-rich run of the kind STGFlow
  // produced (issue 38), padded to one length.
  const std::vector<std::string> seqs = {"GIGKFLHSAKKFGKAFVGEIMNS", "CCCCCKCCCCRCCCCKCCCCC"};
  const std::size_t length = 23, k = kProtein.size();
  const auto rows = rows_of(seqs, length, kProtein);
  const std::vector<std::uint16_t> lengths = {23, 21};
  const SequenceRows view{{rows.data(), 2 * length, k, k}, 2, length, lengths};
  std::vector<double> scores(2);
  std::vector<float> grad(rows.size(), 1.0f);
  engine::Rows g{grad.data(), 2 * length, k, k};
  o->evaluate(view, scores, &g);
  EXPECT_EQ(scores[0], 0.0);
  EXPECT_LT(scores[1], -10.0);
  // The first sequence is inside every band: no gradient. The second is pushed off cysteine.
  for (std::size_t e = 0; e < length * k; ++e) EXPECT_EQ(grad[e], 0.0f);
  const std::size_t c = kProtein.find('C');
  EXPECT_LT(grad[(length + 0) * k + c], 0.0f);
  // Padding of the shorter sequence gets no gradient.
  for (std::size_t p = 21; p < length; ++p)
    for (std::size_t l = 0; l < k; ++l) EXPECT_EQ(grad[(length + p) * k + l], 0.0f);
  // The batch score equals the band's own score of the sequence alone.
  const auto band = read_band(resolve_band("amp"));
  EXPECT_DOUBLE_EQ(scores[1], band.score({rows.data() + length * k, 21, k, k}, 21));
}

TEST(NaturalObjective, BundledPromoterBandFlagsCpgIslands) {
  const auto o = make_objective("natural:promoter", "dna");
  std::string cpg;
  for (int i = 0; i < 128; ++i) cpg += "CG";
  const auto rows = rows_of({cpg}, 256, "ACGT");
  std::vector<double> score(1);
  o->evaluate({{rows.data(), 256, 4, 4}, 1, 256, {}}, score, nullptr);
  EXPECT_LT(score[0], -100.0);
}

TEST(NaturalObjective, BandFilesRoundTripAndMalformedOnesAreRefused) {
  const auto dir = std::filesystem::temp_directory_path() / "gsflow_test_natural";
  std::filesystem::create_directories(dir);
  const auto band = read_band(resolve_band("promoter"));
  const std::string file = (dir / "copy.json").string();
  write_band(file, band);
  const auto again = read_band(file);
  EXPECT_EQ(again.names, band.names);
  EXPECT_EQ(again.high, band.high);
  EXPECT_EQ(again.reference, band.reference);
  // A file path works as the argument too.
  EXPECT_EQ(make_objective("natural:" + file, "dna")->info().k, 4u);
  const std::string bad = (dir / "bad.json").string();
  std::ofstream(bad) << R"({"letters": "ACGT", "names": ["A"], "low": [0], "high": [1],
                          "scale": [1], "quantile": 0.01, "reference": "x", "reference_size": 3})";
  try {
    read_band(bad);
    FAIL() << "a band whose names do not match its letters was read";
  } catch (const engine::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
  }
  std::ofstream(bad) << "{";
  EXPECT_THROW(read_band(bad), engine::InputError);
  std::filesystem::remove_all(dir);
}

TEST(NaturalObjective, SpecErrorsNameTheSpec) {
  const auto message = [](const std::string& spec, const std::string& alphabet) {
    try {
      make_objective(spec, alphabet);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("natural", "protein").find("natural:NAME"), std::string::npos);
  EXPECT_NE(message("natural:promoter", "protein").find("the band is for dna"), std::string::npos);
  EXPECT_NE(message("natural:no-such-band", "dna").find("no-such-band"), std::string::npos);
}

}  // namespace
}  // namespace gsflow::guidance
