// Classifier configs (configs/classifier-*.json): the committed ones parse with every value
// arriving, and mistakes (unknown key, wrong type, missing key, value out of range, unknown
// alphabet) throw naming the file and the dotted key.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "classifier_config.hpp"

namespace gsflow::app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kConfigs = fs::path(GSFLOW_SOURCE_DIR) / "configs";

json read_json(const fs::path& file) {
  std::ifstream in(file);
  return json::parse(in);
}

TEST(ClassifierConfig, CommittedConfigsParseWithEveryValue) {
  int seen = 0;
  for (const auto& entry : fs::directory_iterator(kConfigs)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("classifier-", 0) != 0 || entry.path().extension() != ".json") continue;
    ++seen;
    SCOPED_TRACE(name);
    const json j = read_json(entry.path());
    ClassifierConfig c;
    ASSERT_NO_THROW(c = read_classifier_config(entry.path().string()));
    const auto& info = c.train.info;
    EXPECT_EQ("classifier-" + info.name + ".json", name);  // the name is the file's
    EXPECT_EQ(c.output, j.at("output").get<std::string>());
    EXPECT_EQ(info.positive, j.at("positive").get<std::string>());
    const json& d = j.at("data");
    EXPECT_EQ(info.alphabet, d.at("alphabet").get<std::string>());
    EXPECT_EQ(info.k, info.alphabet == "dna" ? 4u : 20u);
    EXPECT_EQ(c.label, d.at("label").get<std::string>());
    EXPECT_EQ(c.train_file, d.at("train").get<std::string>());
    EXPECT_EQ(c.validation_file, d.at("validation").get<std::string>());
    EXPECT_EQ(c.test_file, d.at("test").get<std::string>());  // the bundled ones report test
    EXPECT_EQ(info.min_length, d.at("min_length").get<std::size_t>());
    EXPECT_EQ(info.max_length, d.at("max_length").get<std::size_t>());
    const json& n = j.at("network");
    EXPECT_EQ(c.train.network.width, n.value("width", 32));
    EXPECT_EQ(c.train.network.blocks, n.value("blocks", 2));
    EXPECT_EQ(c.train.network.kernel, n.value("kernel", 9));
    EXPECT_EQ(c.train.network.hidden, n.value("hidden", 32));
    EXPECT_EQ(c.train.network.pool, n.value("pool", 1));
    EXPECT_DOUBLE_EQ(c.train.network.dropout, n.value("dropout", 0.1));
    EXPECT_EQ(c.train.network.positions, n.value("positions", false));
    const json& t = j.at("train");
    EXPECT_EQ(c.train.steps, t.at("steps").get<std::int64_t>());
    for (const auto& [key, value] : t.items()) {
      SCOPED_TRACE(key);
      if (key == "lr") {
        EXPECT_DOUBLE_EQ(c.train.lr, value.get<double>());
      }
      if (key == "weight_decay") {
        EXPECT_DOUBLE_EQ(c.train.weight_decay, value.get<double>());
      }
      if (key == "ema") {
        EXPECT_DOUBLE_EQ(c.train.ema, value.get<double>());
      }
      if (key == "augment_substitution") {
        EXPECT_DOUBLE_EQ(c.train.augment_substitution, value.get<double>());
      }
      if (key == "batch") {
        EXPECT_EQ(c.train.batch, value.get<std::size_t>());
      }
      if (key == "threads") {
        EXPECT_EQ(c.train.threads, value.get<int>());
      }
      if (key == "seed") {
        EXPECT_EQ(c.train.seed, value.get<std::uint64_t>());
      }
    }
    EXPECT_DOUBLE_EQ(c.max_minutes, j.value("max_minutes", 0.0));
    EXPECT_EQ(c.extra_negatives, d.value("extra_negatives", std::vector<std::string>{}));
  }
  EXPECT_EQ(seen, 5);  // promoter, amp, amp-hard (hard negatives), amp-noise, promoter-noise
                      // (input augmentation)
}

// Writes the promoter config changed by `edit` to a temporary file and expects reading it to throw
// a message holding the file and `needle`.
void expect_error(const std::function<void(json&)>& edit, const std::string& needle) {
  json j = read_json(kConfigs / "classifier-promoter.json");
  edit(j);
  const auto file = (fs::temp_directory_path() /
                     ("gsflow_classifier_config_" + std::to_string(::getpid()) + ".json"))
                        .string();
  std::ofstream(file) << j.dump();
  try {
    read_classifier_config(file);
    ADD_FAILURE() << "no error for " << needle;
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  }
  fs::remove(file);
}

TEST(ClassifierConfig, MistakesAreNamed) {
  expect_error([](json& j) { j["train"]["lrr"] = 0.1; }, "train.lrr is not a known setting");
  expect_error([](json& j) { j["network"]["depth"] = 3; }, "network.depth is not a known setting");
  expect_error([](json& j) { j["extra"] = 1; }, "extra is not a known setting");
  expect_error([](json& j) { j["train"]["lr"] = "fast"; }, "train.lr has the wrong type");
  expect_error([](json& j) { j.erase("positive"); }, "positive is required");
  expect_error([](json& j) { j["data"].erase("label"); }, "data.label is required");
  expect_error([](json& j) { j["data"]["alphabet"] = "rna"; }, "data.alphabet");
  expect_error([](json& j) { j["network"]["kernel"] = 4; }, "network.kernel must be an odd");
  expect_error([](json& j) { j["network"]["dropout"] = 1.0; }, "network.dropout must be in");
  expect_error([](json& j) { j["data"]["min_length"] = 10; }, "network.positions needs");
  expect_error([](json& j) { j["train"]["ema"] = 1.0; }, "train.ema must be in [0, 1)");
  expect_error([](json& j) { j["train"]["steps"] = 0; }, "train.steps must be >= 1");
  expect_error([](json& j) { j["train"]["augment_substitution"] = 1.5; },
               "train.augment_substitution must be in [0, 1]");
  expect_error([](json& j) { j["data"]["max_length"] = 100000; }, "data.max_length must be in");
}

TEST(ClassifierConfig, MissingFileAndInvalidJson) {
  EXPECT_THROW(read_classifier_config("/nonexistent/classifier.json"), std::invalid_argument);
  const auto file = (fs::temp_directory_path() /
                     ("gsflow_classifier_bad_" + std::to_string(::getpid()) + ".json"))
                        .string();
  std::ofstream(file) << "{not json";
  EXPECT_THROW(read_classifier_config(file), std::invalid_argument);
  fs::remove(file);
}

}  // namespace
}  // namespace gsflow::app
