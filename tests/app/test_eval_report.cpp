// eval_json's keys and eval_table's layout for a DNA model with two baselines (no LibTorch).
#include <gtest/gtest.h>

#include <random>

#include "gsflow/evaluation/eval_report.hpp"

namespace gsflow::evaluation {
namespace {

engine::SequenceSet random_dna(std::size_t n, std::size_t length, std::uint32_t seed) {
  std::mt19937 rng(seed);
  engine::SequenceSet out(n, engine::Sequence(length));
  for (auto& s : out)
    for (auto& c : s) c = static_cast<std::uint8_t>(rng() % 4);
  return out;
}

struct Fixture {
  engine::SequenceSet training = random_dna(200, 80, 1), reference = random_dna(100, 80, 2);
  engine::SetMetrics model =
      engine::evaluate_set(random_dna(100, 80, 3), reference, training, 4, 6);
  std::vector<double> floor =
      engine::kmer_js_floor(engine::sample_subset(training, 100, 0), reference, 4, 6);
  std::map<std::string, engine::SetMetrics> baselines{
      {"linear_fm", engine::evaluate_set(random_dna(100, 80, 4), reference, training, 4, 6)},
      {"pwm", engine::evaluate_set(engine::PwmModel::fit(training, 4).sample(100, 5), reference,
                                   training, 4, 6)}};
};

TEST(EvalReport, JsonHasTheDocumentedKeys) {
  const Fixture f;
  const nlohmann::json j = eval_json("gsfm", "test", f.model, f.floor, f.baselines);
  EXPECT_EQ(j["model"], "gsfm");
  EXPECT_EQ(j["split"], "test");
  EXPECT_EQ(j["n"], 100);
  for (const char* key : {"1", "2", "3", "4", "5", "6"}) {
    EXPECT_TRUE(j["kmer_js"][key].is_number()) << key;
    EXPECT_TRUE(j["kmer_js_floor"][key].is_number()) << key;
  }
  EXPECT_DOUBLE_EQ(j["kmer_js"]["3"].get<double>(), f.model.kmer_js[2]);
  EXPECT_DOUBLE_EQ(j["kmer_js_floor"]["6"].get<double>(), f.floor[5]);
  for (const char* key : {"uniqueness", "exact_copy_fraction", "diversity", "composition_kl"})
    EXPECT_TRUE(j[key].is_number()) << key;
  for (const char* key : {"novelty", "gc", "tata", "lengths", "reference"})
    EXPECT_TRUE(j[key].is_object()) << key;
  EXPECT_EQ(j["lengths"]["histogram"]["80"], 100);
  // The training set's own figures, beside the split's.
  EXPECT_DOUBLE_EQ(j["tata"]["training_window_fraction"].get<double>(),
                   engine::tata_profile(f.training).window_fraction);
  EXPECT_DOUBLE_EQ(j["tata"]["training_matches_per_sequence"].get<double>(),
                   static_cast<double>(engine::tata_profile(f.training).matches) / 200.0);
  // Binned starts: 8 bins of 10 bp over 80 bp, matching the profile's own counts.
  const engine::TataProfile train_tata = engine::tata_profile(f.training);
  ASSERT_EQ(j["tata"]["training_bin_rates"].size(), 8u);
  EXPECT_EQ(j["tata"]["bin"], 10);
  for (std::size_t b = 0; b < 8; ++b) {
    std::size_t count = 0;
    for (std::size_t d = b * 10; d < b * 10 + 10; ++d) count += train_tata.start_counts[d];
    EXPECT_DOUBLE_EQ(j["tata"]["training_bin_rates"][b].get<double>(), count / 200.0) << b;
  }
  EXPECT_EQ(j["tata"]["bin_rates"].size(), 8u);
  EXPECT_EQ(j["tata"]["reference_bin_rates"].size(), 8u);
  EXPECT_DOUBLE_EQ(j["gc"]["training_mean"].get<double>(), engine::gc_stats(f.training).mean);
  EXPECT_DOUBLE_EQ(j["training"]["length_mean"].get<double>(), 80.0);
  ASSERT_TRUE(j["baselines"].is_object());
  for (const char* name : {"linear_fm", "pwm"}) {
    const nlohmann::json& b = j["baselines"][name];
    EXPECT_TRUE(b["kmer_js"]["6"].is_number()) << name;
    for (const char* key : {"uniqueness", "exact_copy_fraction", "diversity", "composition_kl"})
      EXPECT_TRUE(b[key].is_number()) << name << " " << key;
  }
  EXPECT_DOUBLE_EQ(j["baselines"]["pwm"]["uniqueness"].get<double>(),
                   f.baselines.at("pwm").uniqueness);
  EXPECT_THROW(eval_json("gsfm", "test", f.model, {0.1}, f.baselines), std::invalid_argument);
}

TEST(EvalReport, TableHasAColumnPerSetAndARowPerMetric) {
  const Fixture f;
  const std::string table = eval_table("gsfm", "test", f.model, f.floor, f.baselines);
  std::vector<std::string> lines;
  for (std::size_t start = 0, end; (end = table.find('\n', start)) != std::string::npos;
       start = end + 1)
    lines.push_back(table.substr(start, end - start));
  ASSERT_GT(lines.size(), 10u);
  for (const char* header : {"gsfm", "floor", "test", "training", "linear_fm", "pwm"})
    EXPECT_NE(lines[0].find(header), std::string::npos) << header;
  for (const std::string& line : lines) EXPECT_EQ(line.size(), lines[0].size()) << line;
  EXPECT_NE(table.find("6-mer JS (bits)"), std::string::npos);
  EXPECT_NE(table.find("TATA start in -45..-15"), std::string::npos);
  EXPECT_NE(table.find("TATA matches per sequence"), std::string::npos);
}

}  // namespace
}  // namespace gsflow::evaluation
