// Composition checks of eval-guidance on hand-made sets whose answers are counted by hand: TATA
// boxes in the window, CpG observed/expected, homopolymers, residues above a fitted ceiling,
// single-residue runs, the atypical share, the JSON keys and the input errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "gsflow/evaluation/composition_checks.hpp"

namespace gsflow::evaluation {
namespace {

const std::string kDna = "ACGT";
const std::string kProtein = "ACDEFGHIKLMNPQRSTVWY";

engine::Sequence encode(const std::string& text, const std::string& letters) {
  engine::Sequence s;
  for (const char c : text) s.push_back(static_cast<std::uint8_t>(letters.find(c)));
  return s;
}

TEST(CompositionChecks, DnaTataCpgAndHomopolymers) {
  // 60 bp each. The TATA box TATAAAAG starts 30 bp before the 3' end in the first (inside
  // -45..-15) and 8 bp before it in the second (outside); the third carries an 8-long A run, the
  // first only runs of 4 (AAAA inside the box).
  const std::string filler = "ACGTACGTAC";  // 10 bp
  const std::string a = filler + filler + filler + "TATAAAAG" + "TCGATCGATCGATCGATCGATC";
  const std::string b = filler + filler + filler + filler + filler + "AC" + "TATAAAAG";
  const std::string c = filler + filler + "AAAAAAAA" + filler + filler + "TGCATGCATGCA";
  ASSERT_EQ(a.size(), 60u);
  ASSERT_EQ(b.size(), 60u);
  ASSERT_EQ(c.size(), 60u);
  const engine::SequenceSet set = {encode(a, kDna), encode(b, kDna), encode(c, kDna)};
  const auto r = composition_checks(set, kDna);
  EXPECT_TRUE(r.dna);
  EXPECT_EQ(r.n, 3u);
  EXPECT_EQ(r.run_min, 8u);
  EXPECT_NEAR(r.tata_window_fraction, 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(r.long_run_fraction, 1.0 / 3.0, 1e-12);
  // CpG o/e = count(CG) * L / (count(C) * count(G)), counted here on the text.
  double sum = 0.0;
  for (const std::string& s : {a, b, c}) {
    double cg = 0, cc = 0, gg = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      cc += s[i] == 'C';
      gg += s[i] == 'G';
      if (i > 0 && s[i - 1] == 'C' && s[i] == 'G') cg += 1;
    }
    sum += cg * static_cast<double>(s.size()) / (cc * gg);
  }
  EXPECT_NEAR(r.cpg_oe_mean, sum / 3.0, 1e-12);
  EXPECT_FALSE(r.atypical_fraction.has_value());
  EXPECT_FALSE(r.has_ceiling);

  const auto j = to_json(r, kDna);
  EXPECT_EQ(j["tata_window"], nlohmann::json::array({-45, -15}));
  EXPECT_NEAR(j["tata_window_fraction"].get<double>(), 1.0 / 3.0, 1e-12);
  EXPECT_EQ(j["long_run_min"].get<int>(), 8);
  EXPECT_FALSE(j.contains("residue_above_ceiling_fraction"));
  EXPECT_FALSE(j.contains("atypical_fraction"));
}

TEST(CompositionChecks, ProteinCeilingAndRuns) {
  // Real set: 100 peptides of 10 residues, peptide i holding (i % 10) cysteines and the rest
  // alanine/lysine alternating: the C fraction runs 0.0..0.9 in steps of 0.1, ten of each.
  engine::SequenceSet real;
  for (int i = 0; i < 100; ++i) {
    std::string p;
    for (int r = 0; r < 10; ++r) p += r < i % 10 ? 'C' : (r % 2 ? 'A' : 'K');
    real.push_back(encode(p, kProtein));
  }
  const auto ceiling = ResidueCeiling::fit(real, kProtein, 0.99);
  EXPECT_EQ(ceiling.reference_size, 100u);
  // C fractions sorted: ten each of 0.0..0.9; position 0.99 * 99 = 98.01 lies between two 0.9s.
  EXPECT_NEAR(ceiling.high[kProtein.find('C')], 0.9, 1e-12);
  EXPECT_NEAR(ceiling.high[kProtein.find('W')], 0.0, 1e-12);

  // Designs: one all-cysteine (C 1.0 above 0.9, a run of 10), one with a single W (above W's
  // ceiling of 0), one plain, one with a KKKKK run (K 0.7, above the real set's top of 0.5).
  const engine::SequenceSet designs = {encode("CCCCCCCCCC", kProtein), encode("AKAKAKAKAW", kProtein),
                                       encode("AKAKAKAKAK", kProtein), encode("AKKKKKAKAK", kProtein)};
  const auto r = composition_checks(designs, kProtein, {}, &ceiling);
  EXPECT_FALSE(r.dna);
  EXPECT_EQ(r.run_min, 5u);
  EXPECT_NEAR(r.long_run_fraction, 2.0 / 4.0, 1e-12);  // CCCCCCCCCC and KKKKK
  ASSERT_TRUE(r.has_ceiling);
  // Above: design 0 (C 1.0 > 0.9), design 1 (W 0.1 > 0), design 3 (K 0.7 > 0.5).
  EXPECT_NEAR(r.above_ceiling_fraction, 3.0 / 4.0, 1e-12);
  EXPECT_NEAR(r.above_ceiling_by_letter[kProtein.find('C')], 0.25, 1e-12);
  EXPECT_NEAR(r.above_ceiling_by_letter[kProtein.find('W')], 0.25, 1e-12);
  EXPECT_NEAR(r.above_ceiling_by_letter[kProtein.find('K')], 0.25, 1e-12);
  EXPECT_NEAR(r.above_ceiling_by_letter[kProtein.find('A')], 0.0, 1e-12);
  EXPECT_NEAR(r.worst_letter_fraction, 0.25, 1e-12);
  EXPECT_EQ(r.worst_letter, 'C');  // the first of the tied letters

  const auto j = to_json(r, kProtein);
  EXPECT_NEAR(j["residue_above_ceiling_fraction"].get<double>(), 0.75, 1e-12);
  EXPECT_NEAR(j["residue_above_ceiling_by_letter"]["W"].get<double>(), 0.25, 1e-12);
  EXPECT_EQ(j["worst_residue"], "C");
  EXPECT_FALSE(j.contains("cpg_oe_mean"));
}

TEST(CompositionChecks, AtypicalShareFollowsTheProfile) {
  engine::SequenceSet real;
  for (int i = 0; i < 200; ++i) real.push_back(encode(i % 2 ? "AKLEAKLEGS" : "KLEAGSAKLE", kProtein));
  const auto profile = engine::TypicalityProfile::fit(real, kProtein);
  const engine::SequenceSet designs = {encode("AKLEAKLEGS", kProtein), encode("CCCCCCCCCC", kProtein)};
  const auto r = composition_checks(designs, kProtein, {}, nullptr, &profile);
  ASSERT_TRUE(r.atypical_fraction.has_value());
  EXPECT_NEAR(*r.atypical_fraction, 0.5, 1e-12);
  EXPECT_FALSE(r.has_ceiling);
  EXPECT_NEAR(to_json(r, kProtein)["atypical_fraction"].get<double>(), 0.5, 1e-12);
}

TEST(CompositionChecks, RejectsBadInput) {
  EXPECT_THROW(composition_checks({}, kDna), std::invalid_argument);
  EXPECT_THROW(composition_checks({engine::Sequence{}}, kDna), std::invalid_argument);
  EXPECT_THROW(composition_checks({engine::Sequence{0, 4}}, kDna), std::invalid_argument);
  const auto ceiling = ResidueCeiling::fit({encode("AKAK", kProtein)}, kProtein);
  EXPECT_THROW(composition_checks({encode("ACGT", kDna)}, kDna, {}, &ceiling),
               std::invalid_argument);
  EXPECT_THROW(ResidueCeiling::fit({}, kProtein), std::invalid_argument);
  EXPECT_THROW(ResidueCeiling::fit({encode("AK", kProtein)}, kProtein, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace gsflow::evaluation
