// Promoter-structure figures of `gsflow eval` on hand-made sequences whose answers are counted by
// hand: TATA boxes on either strand inside and outside the core window (its boundaries included),
// and tandem repeats just above and just below 12 bp.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "gsflow/evaluation/eval_report.hpp"
#include "gsflow/evaluation/promoter_structure.hpp"

namespace gsflow::evaluation {
namespace {

engine::Sequence encode(const std::string& text) {
  engine::Sequence s;
  for (const char c : text) s.push_back(static_cast<std::uint8_t>(std::string("ACGT").find(c)));
  return s;
}

std::string put(std::string base, std::size_t start, const std::string& word) {
  return base.replace(start, word.size(), word);
}

// 60 bp of C and G only: no TATA box on either strand and no tandem repeat of >= 12 bp, so every
// match below is a planted one.
const std::string kFiller = "GGCGGGGGGCCGCCGCGCCGGCGGGCGGGCCCGCGGCGCCCCCGCCGGCGGCGCGGCGGC";
const std::string kForward = "TATAAAAG";  // TATAWAWR
const std::string kReverse = "CTTATATA";  // YWTWTATA: TATATAAG on the other strand

TEST(PromoterStructure, TataOnEachStrandInsideAndOutsideTheCore) {
  ASSERT_EQ(kFiller.size(), 60u);
  // L = 60: a forward match at start index i sits at i - 60; a reverse one is anchored at its
  // last base, i + 7 - 60. The core is -45..-15.
  const engine::SequenceSet set = {
      encode(put(kFiller, 23, kReverse)),                     // reverse at -30: core
      encode(put(put(kFiller, 48, kReverse), 30, kForward)),  // reverse -5, forward -30: core
      encode(put(kFiller, 0, kForward)),                      // forward -60: elsewhere
      encode(put(put(kFiller, 38, kReverse), 50, kForward)),  // reverse -15: core; forward -10
      encode(put(kFiller, 7, kReverse)),                      // reverse -46: elsewhere
      encode(put(kFiller, 8, kReverse)),                      // reverse -45: core
      encode(put(kFiller, 39, kReverse)),                     // reverse -14: elsewhere
  };
  const PromoterStructure p = promoter_structure(set);
  EXPECT_EQ(p.sequences, 7u);
  // 53 possible anchors per sequence (60 - 7), 31 of them in -45..-15.
  for (const StrandDensity* d : {&p.forward_tata, &p.reverse_tata}) {
    EXPECT_EQ(d->core_positions, 7u * 31u);
    EXPECT_EQ(d->elsewhere_positions, 7u * 22u);
  }
  EXPECT_EQ(p.forward_tata.core_matches, 1u);
  EXPECT_EQ(p.forward_tata.elsewhere_matches, 2u);
  EXPECT_EQ(p.reverse_tata.core_matches, 3u);
  EXPECT_EQ(p.reverse_tata.elsewhere_matches, 3u);
  EXPECT_DOUBLE_EQ(p.reverse_tata.core_density(), 3.0 / 217.0);
  EXPECT_DOUBLE_EQ(p.reverse_tata.elsewhere_density(), 3.0 / 154.0);
  EXPECT_NEAR(p.reverse_tata.ratio(), 154.0 / 217.0, 1e-12);
  EXPECT_NEAR(p.forward_tata.ratio(), (1.0 / 217.0) / (2.0 / 154.0), 1e-12);
  EXPECT_EQ(p.bases, 7u * 60u);
  EXPECT_EQ(p.repeat_bases, 0u);
  EXPECT_DOUBLE_EQ(p.repeat_share(), 0.0);

  // Nothing elsewhere: no ratio. A sequence shorter than the motif has no anchors.
  const PromoterStructure core_only =
      promoter_structure({encode(put(kFiller, 23, kReverse)), encode("TATAAAA")});
  EXPECT_EQ(core_only.reverse_tata.core_matches, 1u);
  EXPECT_EQ(core_only.reverse_tata.core_positions, 31u);
  EXPECT_TRUE(std::isnan(core_only.reverse_tata.ratio()));
  EXPECT_TRUE(std::isnan(core_only.forward_tata.ratio()));
  const nlohmann::json j = promoter_structure_json(core_only);
  EXPECT_TRUE(j["rev_tata"]["ratio"].is_null());
  EXPECT_EQ(j["rev_tata"]["core_matches"], 1);
  EXPECT_EQ(j["tandem_repeat"]["bases"], 67);
}

TEST(PromoterStructure, TandemRepeatsOfTwelveBasesCountOnce) {
  // Flanks chosen so that no repeat runs on into them (checked by the zero cases).
  const std::string left = "AAAGCGGCAC", right = "TTGTGAAGTG";
  struct Case {
    std::string word;
    std::size_t repeat;  // bases in a counted region: the word itself or none
  };
  const Case cases[] = {
      {"CACACACACACACA", 14},  // period 2, 14 bp
      {"AAAAAAAAAAAA", 12},    // homopolymer of 12: a region of every period, counted once
      {"AAAAAAAAAAA", 0},      // homopolymer of 11
      {"ACGACGACGAC", 0},      // period 3, 11 bp
      {"ACGTTGACGTTG", 12},    // period 6, two whole copies
      {"ACGTTGACGTT", 0},      // period 6, 11 bp
  };
  engine::SequenceSet set;
  std::size_t bases = 0, repeat = 0;
  for (const Case& c : cases) {
    const engine::Sequence s = encode(left + c.word + right);
    const std::vector<bool> mask = tandem_repeat_mask(s);
    for (std::size_t i = 0; i < s.size(); ++i)
      EXPECT_EQ(mask[i], c.repeat > 0 && i >= left.size() && i < left.size() + c.repeat)
          << c.word << " base " << i;
    set.push_back(s);
    bases += s.size();
    repeat += c.repeat;
  }
  EXPECT_EQ(tandem_repeat_mask(encode(left + right)), std::vector<bool>(20, false));
  // A 12-bp homopolymer with max length 13 is not counted; with period 1 only it is.
  EXPECT_EQ(tandem_repeat_mask(encode("AAAAAAAAAAAA"), 6, 13), std::vector<bool>(12, false));
  EXPECT_EQ(tandem_repeat_mask(encode("AAAAAAAAAAAA"), 1, 12), std::vector<bool>(12, true));
  // Period 2 alone does not see the period-3 repeat of 12.
  EXPECT_EQ(tandem_repeat_mask(encode("ACGACGACGACG"), 2, 12), std::vector<bool>(12, false));
  EXPECT_EQ(tandem_repeat_mask(encode("ACGACGACGACG"), 3, 12), std::vector<bool>(12, true));

  // Three whole copies: a 12-bp period-6 repeat is two, one of 18 bp three; periods 1..4 at
  // 12 bp already hold three.
  EXPECT_EQ(tandem_repeat_mask(encode("ACGTTGACGTTG"), 6, 12, 3), std::vector<bool>(12, false));
  EXPECT_EQ(tandem_repeat_mask(encode("ACGTTGACGTTGACGTT"), 6, 12, 3),
            std::vector<bool>(17, false));
  EXPECT_EQ(tandem_repeat_mask(encode("ACGTTGACGTTGACGTTG"), 6, 12, 3),
            std::vector<bool>(18, true));
  EXPECT_EQ(tandem_repeat_mask(encode("ACGTACGTACGT"), 6, 12, 3), std::vector<bool>(12, true));

  const PromoterStructure p = promoter_structure(set);
  EXPECT_EQ(p.bases, bases);
  EXPECT_EQ(p.repeat_bases, repeat);
  EXPECT_EQ(repeat, 38u);
  EXPECT_DOUBLE_EQ(p.repeat_share(), 38.0 / static_cast<double>(bases));
  EXPECT_EQ(p.strict_repeat_bases, 26u);  // the period-6 repeat of 12 bp drops out
  EXPECT_DOUBLE_EQ(p.strict_repeat_share(), 26.0 / static_cast<double>(bases));
}

TEST(PromoterStructure, RejectsBadInput) {
  EXPECT_THROW(tandem_repeat_mask(encode("ACGT"), 0, 12), std::invalid_argument);
  EXPECT_THROW(tandem_repeat_mask(encode("ACGT"), 6, 6), std::invalid_argument);
  EXPECT_THROW(tandem_repeat_mask(encode("ACGT"), 6, 12, 1), std::invalid_argument);
  EXPECT_THROW(promoter_structure({engine::Sequence{0, 1, 4}}), std::invalid_argument);
  PromoterStructureOptions o;
  o.window_begin = -10;
  o.window_end = -20;
  EXPECT_THROW(promoter_structure({encode("ACGT")}, o), std::invalid_argument);
  o.window_begin = -10;
  o.window_end = 0;
  EXPECT_THROW(promoter_structure({encode("ACGT")}, o), std::invalid_argument);
  o = {};
  o.repeat_min_length = 3;
  EXPECT_THROW(promoter_structure({}, o), std::invalid_argument);
  // An empty set: zero counts, no ratios, no share.
  const PromoterStructure empty = promoter_structure({});
  EXPECT_EQ(empty.sequences, 0u);
  EXPECT_TRUE(std::isnan(empty.repeat_share()));
  EXPECT_TRUE(std::isnan(empty.reverse_tata.ratio()));
}

// eval's table and JSON carry the figures of every set handed to them, and nothing without them.
TEST(PromoterStructure, EvalReportRowsAndKeys) {
  const engine::SequenceSet model = {encode(put(kFiller, 23, kReverse)),
                                     encode(put(kFiller, 0, kForward))};
  const engine::SequenceSet split = {encode(put(put(kFiller, 48, kReverse), 8, kReverse))};
  const engine::SequenceSet training = {encode(kFiller), encode(put(kFiller, 30, kForward))};
  const engine::SetMetrics metrics = engine::evaluate_set(model, split, training, 4, 2);
  const std::vector<double> floor = engine::kmer_js_floor(training, split, 4, 2);
  const std::map<std::string, engine::SetMetrics> baselines{
      {"pwm", engine::evaluate_set(training, split, training, 4, 2)}};
  PromoterStructureColumns columns;
  columns.model = promoter_structure(model);
  columns.reference = promoter_structure(split);
  columns.training = promoter_structure(training);
  columns.baselines["pwm"] = promoter_structure(training);

  const std::string without = eval_table("gsfm", "validation", metrics, floor, baselines);
  EXPECT_EQ(without.find("TATA core/elsewhere"), std::string::npos);
  const std::string table = eval_table("gsfm", "validation", metrics, floor, baselines, &columns);
  for (const char* row : {"fwd TATA core/elsewhere", "rev TATA core/elsewhere",
                          "tandem repeat share", "tandem repeat share, 3+ copies"})
    EXPECT_NE(table.find(row), std::string::npos) << row;
  // The split's reverse boxes: one in the core (-45), one elsewhere (-5): (1/31) / (1/22).
  const std::size_t rev = table.find("rev TATA core/elsewhere");
  const std::string line = table.substr(rev, table.find('\n', rev) - rev);
  EXPECT_NE(line.find("0.7097"), std::string::npos) << line;

  const nlohmann::json j = eval_json("gsfm", "validation", metrics, floor, baselines, &columns);
  const nlohmann::json& s = j["promoter_structure"];
  EXPECT_EQ(s["window"], nlohmann::json::array({-45, -15}));
  EXPECT_EQ(s["repeat_max_period"], 6);
  EXPECT_EQ(s["repeat_min_length"], 12);
  EXPECT_EQ(s["repeat_strict_copies"], 3);
  EXPECT_DOUBLE_EQ(s["tandem_repeat"]["strict_share"].get<double>(), 0.0);
  EXPECT_EQ(s["rev_tata"]["core_matches"], 1);
  EXPECT_TRUE(s["rev_tata"]["ratio"].is_null());  // the model has none elsewhere
  EXPECT_NEAR(s["reference"]["rev_tata"]["ratio"].get<double>(), 22.0 / 31.0, 1e-12);
  EXPECT_EQ(s["training"]["fwd_tata"]["core_matches"], 1);
  EXPECT_DOUBLE_EQ(s["training"]["tandem_repeat"]["share"].get<double>(), 0.0);
  EXPECT_TRUE(j["baselines"]["pwm"]["promoter_structure"].is_object());
  EXPECT_FALSE(
      eval_json("gsfm", "validation", metrics, floor, baselines).contains("promoter_structure"));
}

}  // namespace
}  // namespace gsflow::evaluation
