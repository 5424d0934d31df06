// Training configs (configs/*.json except classifier-*.json): the committed ones parse, and every
// kind of mistake (unknown key, wrong type, missing required key, unknown network type) throws
// naming the file and the dotted key.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "train_config.hpp"

namespace gsflow::app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kConfigs = fs::path(GSFLOW_SOURCE_DIR) / "configs";

// DNA letters (ACGT order) of a sequence written out.
std::vector<std::uint8_t> dna(const std::string& s) {
  std::vector<std::uint8_t> out;
  for (char ch : s) out.push_back(static_cast<std::uint8_t>(std::string("ACGT").find(ch)));
  return out;
}

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() /
          ("gsflow_config_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// Generator recipes (gsflow train); configs/classifier-*.json are for gsflow train-classifier
// (test_classifier_config.cpp).
bool is_generator_config(const fs::path& file) {
  return file.extension() == ".json" && file.filename().string().rfind("classifier-", 0) != 0;
}

json read_json(const fs::path& file) {
  std::ifstream in(file);
  return json::parse(in);
}

TEST(TrainConfig, CommittedConfigsParse) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(kConfigs))
    if (is_generator_config(entry.path())) files.push_back(entry.path());
  ASSERT_GE(files.size(), 2u);
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    TrainConfig c;
    ASSERT_NO_THROW(c = read_train_config(file.string()));
    EXPECT_EQ(c.name, file.stem().string());  // the name is the file's
    EXPECT_FALSE(c.output.empty());
    EXPECT_FALSE(c.train_files.empty());
    EXPECT_FALSE(c.validation_file.empty());
    EXPECT_GT(c.train.steps, 0);
    EXPECT_EQ(c.spec.alphabet, c.alphabet);
  }
}

// Every value a committed config sets arrives in TrainConfig (the configs are tuned often, so the
// expectations come from the files themselves).
TEST(TrainConfig, CommittedValuesArrive) {
  for (const auto& entry : fs::recursive_directory_iterator(kConfigs)) {
    if (!is_generator_config(entry.path())) continue;
    SCOPED_TRACE(entry.path().string());
    const json j = read_json(entry.path());
    const TrainConfig c = read_train_config(entry.path().string());
    EXPECT_EQ(c.output, j.at("output").get<std::string>());
    EXPECT_EQ(c.init, j.value("init", std::string()));
    if (j.contains("max_minutes")) {
      EXPECT_DOUBLE_EQ(c.max_minutes, j["max_minutes"].get<double>());
    }
    const json& d = j.at("data");
    EXPECT_EQ(c.alphabet, d.at("alphabet").get<std::string>());
    EXPECT_EQ(c.spec.k, c.alphabet == "dna" ? 4u : 20u);
    const json& train = d.at("train");
    EXPECT_EQ(c.train_files, train.is_string() ? std::vector<std::string>{train.get<std::string>()}
                                               : train.get<std::vector<std::string>>());
    EXPECT_EQ(c.validation_file, d.at("validation").get<std::string>());
    if (d.contains("min_length")) {
      EXPECT_EQ(c.min_length, d["min_length"].get<std::size_t>());
    }
    ASSERT_EQ(c.oversample.size(), d.value("oversample", json::array()).size());
    for (std::size_t i = 0; i < c.oversample.size(); ++i) {
      const json& r = d["oversample"][i];
      EXPECT_EQ(c.oversample[i].copies, r.at("copies").get<std::size_t>());
      if (r.contains("tandem_repeat")) {
        EXPECT_FALSE(c.oversample[i].motif);
        EXPECT_EQ(c.oversample[i].tandem_repeat, r["tandem_repeat"].get<std::size_t>());
        continue;
      }
      ASSERT_TRUE(c.oversample[i].motif);
      EXPECT_EQ(c.oversample[i].motif->text(),
                engine::DnaMotif(r.at("motif").get<std::string>()).text());
      EXPECT_EQ(c.oversample[i].from, r.at("from").get<long>());
      EXPECT_EQ(c.oversample[i].to, r.at("to").get<long>());
      EXPECT_EQ(c.oversample[i].forward_only, r.value("forward_only", false));
    }
    const json& m = j.at("model");
    EXPECT_STREQ(engine::method_name(c.spec.method), m.at("method").get<std::string>().c_str());
    EXPECT_EQ(c.spec.length, m.at("length").get<std::size_t>());
    const json& n = m.at("network");
    EXPECT_STREQ(models::network_type_name(c.spec.network.type),
                 n.at("type").get<std::string>().c_str());
    if (n.contains("width")) {
      EXPECT_EQ(c.spec.network.width, n["width"].get<int>());
    }
    if (n.contains("blocks")) {
      EXPECT_EQ(c.spec.network.blocks, n["blocks"].get<int>());
    }
    if (n.contains("kernel")) {
      EXPECT_EQ(c.spec.network.kernel, n["kernel"].get<int>());
    }
    if (n.contains("heads")) {
      EXPECT_EQ(c.spec.network.heads, n["heads"].get<int>());
    }
    if (n.contains("input")) {
      EXPECT_EQ(models::network_input_name(c.spec.network.input), n["input"].get<std::string>());
    }
    const json& t = j.at("train");
    EXPECT_EQ(c.train.steps, t.at("steps").get<std::int64_t>());
    if (t.contains("batch")) {
      EXPECT_EQ(c.train.batch, t["batch"].get<std::size_t>());
    }
    if (t.contains("lr")) {
      EXPECT_DOUBLE_EQ(c.train.lr, t["lr"].get<double>());
    }
    if (t.contains("warmup")) {
      EXPECT_EQ(c.train.warmup, t["warmup"].get<std::int64_t>());
    }
    if (t.contains("ema")) {
      EXPECT_DOUBLE_EQ(c.train.ema, t["ema"].get<double>());
    }
    if (t.contains("validate_every")) {
      EXPECT_EQ(c.train.validate_every, t["validate_every"].get<std::int64_t>());
    }
    if (t.contains("checkpoint_every")) {
      EXPECT_EQ(c.train.checkpoint_every, t["checkpoint_every"].get<std::int64_t>());
    }
    if (t.contains("threads")) {
      EXPECT_EQ(c.train.threads, t["threads"].get<int>());
    }
    if (t.contains("seed")) {
      EXPECT_EQ(c.train.seed, t["seed"].get<std::uint64_t>());
    }
  }
}

// Defaults of the keys a config may leave out.
TEST(TrainConfig, Defaults) {
  const std::string file = temp_path("minimal.json");
  std::ofstream(file, std::ios::trunc) << R"({"name": "m", "output": "m.ckpt",
      "data": {"alphabet": "protein", "train": "a.fasta", "validation": "b.fasta"},
      "model": {"method": "gssm", "length": 30, "network": {"type": "transformer"}},
      "train": {"steps": 10}})";
  const TrainConfig c = read_train_config(file);
  fs::remove(file);
  EXPECT_EQ(c.init, "");
  EXPECT_EQ(c.min_length, 1u);
  EXPECT_DOUBLE_EQ(c.max_minutes, 0.0);
  EXPECT_EQ(c.report_every, 100);
  EXPECT_EQ(c.spec.k, 20u);
  EXPECT_EQ(c.spec.alphabet, "protein");
  EXPECT_EQ(c.spec.method, engine::Method::gssm);
  EXPECT_EQ(c.spec.path.interpolant, engine::Interpolant::consistent);
  EXPECT_EQ(c.spec.network.input, models::NetworkInput::log_probs);
  EXPECT_TRUE(c.spec.network.likelihood_skip);
  EXPECT_FALSE(c.spec.network.block_positions);
  EXPECT_EQ(c.train.time_sampling, models::TimeSampling::stratified);
  EXPECT_TRUE(c.train.position_weights.empty());
  EXPECT_TRUE(c.oversample.empty());
  EXPECT_EQ(c.train.steps, 10);
}

// Writes the promoter config changed by `edit` to a temporary file and expects
// read_train_config to throw std::invalid_argument naming that file and `key`.
void expect_config_error(const std::function<void(json&)>& edit, const std::string& key,
                         const std::string& what = "") {
  json j = read_json(kConfigs / "dna-promoter.json");
  edit(j);
  const std::string file = temp_path("bad.json");
  std::ofstream(file, std::ios::trunc) << j.dump(2);
  SCOPED_TRACE(key);
  try {
    read_train_config(file);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
    // The key itself, not a longer one that starts with it: "train.lr" but not "train.lrx".
    const auto pos = msg.find(": " + key);
    ASSERT_NE(pos, std::string::npos) << msg;
    const std::size_t next = pos + 2 + key.size();
    EXPECT_TRUE(next == msg.size() ||
                !(std::isalnum(static_cast<unsigned char>(msg[next])) || msg[next] == '_'))
        << msg;
    if (!what.empty()) {
      EXPECT_NE(msg.find(what), std::string::npos) << msg;
    }
  }
  fs::remove(file);
}

// data.train takes one file or a list (joined in order, a repeated file used twice); anything
// else is named.
TEST(TrainConfig, TrainFileList) {
  json j = read_json(kConfigs / "peptide.json");
  j["data"]["train"] = {"peptide/train.fasta", "peptide/windows.fasta", "peptide/train.fasta"};
  const std::string file = temp_path("list.json");
  std::ofstream(file, std::ios::trunc) << j.dump(2);
  const TrainConfig c = read_train_config(file);
  fs::remove(file);
  EXPECT_EQ(c.train_files, (std::vector<std::string>{"peptide/train.fasta", "peptide/windows.fasta",
                                                     "peptide/train.fasta"}));
  const std::string what = "must be a FASTA file or a non-empty list of FASTA files";
  expect_config_error([](json& j) { j["data"]["train"] = 3; }, "data.train", what);
  expect_config_error([](json& j) { j["data"]["train"] = json::array(); }, "data.train", what);
  expect_config_error([](json& j) { j["data"]["train"] = {"a.fasta", 2}; }, "data.train", what);
}

TEST(TrainConfig, UnknownKeysAreNamed) {
  expect_config_error([](json& j) { j["epochs"] = 3; }, "epochs", "not a known setting");
  expect_config_error([](json& j) { j["train"]["learning_rate"] = 0.1; }, "train.learning_rate",
                      "not a known setting");
  expect_config_error([](json& j) { j["data"]["test"] = "x.fasta"; }, "data.test",
                      "not a known setting");
  expect_config_error([](json& j) { j["model"]["network"]["dropout"] = 0.1; },
                      "model.network.dropout", "not a known setting");
  expect_config_error(
      [](json& j) {
        j["model"]["path"] = {{"tau", 2.0}};
      },
      "model.path.tau", "not a known setting");
  expect_config_error([](json& j) { j["model"]["width"] = 64; }, "model.width",
                      "not a known setting");
}

TEST(TrainConfig, WrongTypesAreNamed) {
  expect_config_error([](json& j) { j["train"]["lr"] = "fast"; }, "train.lr", "wrong type");
  expect_config_error([](json& j) { j["model"]["length"] = "long"; }, "model.length", "wrong type");
  expect_config_error([](json& j) { j["data"]["alphabet"] = 4; }, "data.alphabet", "wrong type");
  expect_config_error([](json& j) { j["model"]["network"]["likelihood_skip"] = "yes"; },
                      "model.network.likelihood_skip", "wrong type");
  expect_config_error([](json& j) { j["model"]["network"]["block_positions"] = 1; },
                      "model.network.block_positions", "wrong type");
  expect_config_error([](json& j) { j["model"]["network"]["attention"] = 2; },
                      "model.network.attention", "not a known setting");
  expect_config_error([](json& j) { j["data"]["oversample"][0]["forward_only"] = "yes"; },
                      "data.oversample[0].forward_only", "wrong type");
  expect_config_error([](json& j) { j["max_minutes"] = json::array({1}); }, "max_minutes",
                      "wrong type");
  expect_config_error([](json& j) { j["train"]["seed"] = json::object(); }, "train.seed",
                      "wrong type");
  expect_config_error([](json& j) { j["init"] = 5; }, "init", "wrong type");
  expect_config_error([](json& j) { j["model"]["network"] = 3; }, "model.network");
}

TEST(TrainConfig, MissingRequiredKeysAreNamed) {
  expect_config_error([](json& j) { j.erase("name"); }, "name", "required");
  expect_config_error([](json& j) { j.erase("output"); }, "output", "required");
  expect_config_error([](json& j) { j["model"].erase("method"); }, "model.method", "required");
  expect_config_error([](json& j) { j["model"].erase("length"); }, "model.length", "required");
  expect_config_error([](json& j) { j["model"]["network"].erase("type"); }, "model.network.type",
                      "required");
  expect_config_error([](json& j) { j["train"].erase("steps"); }, "train.steps", "required");
  expect_config_error([](json& j) { j["data"].erase("train"); }, "data.train", "required");
  expect_config_error([](json& j) { j.erase("data"); }, "data.alphabet", "required");
}

TEST(TrainConfig, UnknownValuesAreNamed) {
  expect_config_error([](json& j) { j["model"]["network"]["type"] = "rnn"; }, "model.network.type",
                      "rnn");
  expect_config_error([](json& j) { j["model"]["method"] = "diffusion"; }, "model.method",
                      "diffusion");
  expect_config_error([](json& j) { j["data"]["alphabet"] = "rna"; }, "data.alphabet",
                      "dna or protein");
  expect_config_error(
      [](json& j) {
        j["model"]["path"] = {{"interpolant", "cosine"}};
      },
      "model.path.interpolant", "cosine");
  expect_config_error([](json& j) { j["train"]["time_sampling"] = "sobol"; }, "train.time_sampling",
                      "sobol");
  expect_config_error([](json& j) { j["model"]["network"]["input"] = "onehot"; },
                      "model.network.input", "onehot");
}

// model.network.input takes every NetworkInput by name.
TEST(TrainConfig, NetworkInputs) {
  for (const auto input : models::kNetworkInputs) {
    json j = read_json(kConfigs / "dna-promoter.json");
    j["model"]["network"]["input"] = models::network_input_name(input);
    const std::string file = temp_path("input.json");
    std::ofstream(file, std::ios::trunc) << j.dump(2);
    const TrainConfig c = read_train_config(file);
    fs::remove(file);
    EXPECT_EQ(c.spec.network.input, input) << models::network_input_name(input);
  }
}

// train.position_weights: ranges 1-based from the start or negative from the end, both ends
// included, later ranges override earlier ones, 1 elsewhere; every malformed range is named.
TEST(TrainConfig, PositionWeights) {
  json j = read_json(kConfigs / "dna-promoter.json");
  j["train"]["position_weights"] = json::parse(
      R"([{"from": -45, "to": -15, "weight": 8}, {"from": 1, "to": 2, "weight": 0},
          {"from": -20, "to": -20, "weight": 0.5}])");
  const std::string file = temp_path("weights.json");
  std::ofstream(file, std::ios::trunc) << j.dump(2);
  const TrainConfig c = read_train_config(file);
  fs::remove(file);
  const auto& w = c.train.position_weights;
  ASSERT_EQ(w.size(), 256u);
  std::vector<float> expected(256, 1.0f);
  for (std::size_t p = 256 - 45; p <= 256 - 15; ++p) expected[p] = 8.0f;
  expected[0] = expected[1] = 0.0f;
  expected[256 - 20] = 0.5f;
  EXPECT_EQ(w, expected);

  const auto set = [](const char* ranges) {
    return [ranges](json& j) { j["train"]["position_weights"] = json::parse(ranges); };
  };
  expect_config_error(set(R"([{"from": -15, "to": -45, "weight": 2}])"),
                      "train.position_weights[0]", "not a range");
  expect_config_error(set(R"([{"from": 0, "to": 3, "weight": 2}])"), "train.position_weights[0]",
                      "not a range");
  expect_config_error(set(R"([{"from": 1, "to": 2, "weight": 1}, {"from": 1, "to": 257,
                      "weight": 2}])"),
                      "train.position_weights[1]", "not a range");
  expect_config_error(set(R"([{"from": -257, "to": 3, "weight": 2}])"), "train.position_weights[0]",
                      "not a range");
  expect_config_error(set(R"([{"from": 1, "to": 3, "weight": -2}])"),
                      "train.position_weights[0].weight", ">= 0");
  expect_config_error(set(R"([{"from": 1, "to": 3}])"), "train.position_weights[0].weight",
                      "required");
  expect_config_error(set(R"([{"from": 1, "to": 3, "weight": 1, "w": 2}])"),
                      "train.position_weights[0].w", "not a known setting");
  expect_config_error(set(R"([{"from": "a", "to": 3, "weight": 1}])"),
                      "train.position_weights[0].from", "wrong type");
  expect_config_error(set(R"([{"from": 1, "to": -1, "weight": 0}])"), "train.position_weights",
                      "every position weight 0");
  expect_config_error(set(R"([3])"), "train.position_weights[0]", "JSON object");
  expect_config_error(set(R"([])"), "train.position_weights", "non-empty array");
  expect_config_error(set(R"({"from": 1})"), "train.position_weights", "non-empty array");
}

// data.oversample: rules arrive as written; every malformed rule is named.
TEST(TrainConfig, Oversample) {
  json j = read_json(kConfigs / "dna-promoter.json");
  j["data"]["oversample"] = json::parse(
      R"([{"motif": "tatawawr", "from": -45, "to": -15, "copies": 4},
          {"motif": "CCAAT", "from": 1, "to": -1, "copies": 2},
          {"tandem_repeat": 16, "copies": 3}])");
  const std::string file = temp_path("oversample.json");
  std::ofstream(file, std::ios::trunc) << j.dump(2);
  const TrainConfig c = read_train_config(file);
  fs::remove(file);
  ASSERT_EQ(c.oversample.size(), 3u);
  ASSERT_TRUE(c.oversample[0].motif);
  EXPECT_EQ(c.oversample[0].motif->text(), "TATAWAWR");
  EXPECT_EQ(c.oversample[0].from, -45);
  EXPECT_EQ(c.oversample[0].to, -15);
  EXPECT_EQ(c.oversample[0].copies, 4u);
  EXPECT_EQ(c.oversample[1].from, 1);
  EXPECT_EQ(c.oversample[1].to, -1);
  EXPECT_FALSE(c.oversample[2].motif);
  EXPECT_EQ(c.oversample[2].tandem_repeat, 16u);
  EXPECT_EQ(c.oversample[2].copies, 3u);
  EXPECT_EQ(describe(c.oversample[2]), "a perfect tandem repeat (period 1-6) of at least 16 bp");
  EXPECT_EQ(describe(c.oversample[0]), "TATAWAWR starting in -45..-15");

  const auto set = [](const char* rules) {
    return [rules](json& j) { j["data"]["oversample"] = json::parse(rules); };
  };
  expect_config_error(set(R"([{"motif": "TATAXA", "from": -45, "to": -15, "copies": 4}])"),
                      "data.oversample[0].motif", "'X' at position 5");
  expect_config_error(set(R"([{"motif": "TATA", "from": -15, "to": -45, "copies": 4}])"),
                      "data.oversample[0]", "not a range");
  expect_config_error(set(R"([{"motif": "TATA", "from": 0, "to": 5, "copies": 4}])"),
                      "data.oversample[0]", "not a range");
  expect_config_error(set(R"([{"motif": "TATA", "from": -257, "to": -1, "copies": 4}])"),
                      "data.oversample[0]", "not a range");
  expect_config_error(set(R"([{"motif": "TATA", "from": -45, "to": -15, "copies": 0}])"),
                      "data.oversample[0].copies", "1..1000");
  expect_config_error(set(R"([{"motif": "TATA", "from": -45, "to": -15}])"),
                      "data.oversample[0].copies", "required");
  expect_config_error(set(R"([{"motif": "TATA", "from": -45, "to": -15, "copies": 2, "x": 1}])"),
                      "data.oversample[0].x", "not a known setting");
  expect_config_error(set(R"([{"motif": 5, "from": -45, "to": -15, "copies": 2}])"),
                      "data.oversample[0].motif", "wrong type");
  expect_config_error(set(R"([])"), "data.oversample", "non-empty array");
  // A repeat rule: longer than the longest period (6), at most the window; nothing of a motif's.
  expect_config_error(set(R"([{"tandem_repeat": 6, "copies": 2}])"),
                      "data.oversample[0].tandem_repeat", "7..256");
  expect_config_error(set(R"([{"tandem_repeat": 257, "copies": 2}])"),
                      "data.oversample[0].tandem_repeat", "7..256");
  expect_config_error(set(R"([{"tandem_repeat": 12, "copies": 0}])"),
                      "data.oversample[0].copies", "1..1000");
  expect_config_error(set(R"([{"tandem_repeat": 12, "copies": 2, "from": 1}])"),
                      "data.oversample[0].from", "not a known setting");
  expect_config_error(set(R"([{"tandem_repeat": "12", "copies": 2}])"),
                      "data.oversample[0].tandem_repeat", "wrong type");
  expect_config_error(
      [](json& j) {
        j["data"]["alphabet"] = "protein";
        j["data"]["oversample"] =
            json::parse(R"([{"motif": "A", "from": 1, "to": 2, "copies": 2}])");
      },
      "data.oversample", "data.alphabet dna");
}

// oversample() against copies worked out by hand: a sequence matching several rules gets the
// largest copies, copies follow their original, the rest keep their order.
TEST(Oversample, RepeatsMatchingSequencesInPlace) {
  const Sequences in = {dna("GGGGTATAAAAGGG"),   // TATAWAWR starts at -10 (1-based 5)
                        dna("TATAAAAGGGGGGG"),   // starts at -14 (1-based 1)
                        dna("CCCCCCCCCCCCCC"),   // no match
                        dna("GGCCAATGGGGGGG")};  // CCAAT at 1-based 3
  const std::vector<OversampleRule> rules = {{engine::DnaMotif("TATAWAWR"), -12, -8, 3},
                                             {engine::DnaMotif("CCAAT"), 1, 5, 2},
                                             {engine::DnaMotif("TATAWAWR"), 1, 6, 2}};
  std::vector<std::size_t> matched;
  const Sequences out = oversample(in, rules, &matched);
  const Sequences expected = {in[0], in[0], in[0], in[1], in[1], in[2], in[3], in[3]};
  EXPECT_EQ(out, expected);
  EXPECT_EQ(matched, (std::vector<std::size_t>{1, 1, 2}));
  EXPECT_EQ(oversample(in, {}), in);
}

// A repeat rule against repeats worked out by hand (period 1-6, perfect, the region's length
// counted from the first letter of the first copy to the last letter of the last).
TEST(Oversample, TandemRepeatRuleCountsPerfectRepeatsOfTheLength) {
  const Sequences in = {
      dna("GCATCAGAGAGAGAGAGTCG"),  // (AG)x6: 12 bp, period 2
      dna("GCATCAGAGAGAGAGTCGTC"),  // (AG)x5: 10 bp, too short for 12
      dna("ACGTTCAACGTTCAACGTTC"),  // period 7 (ACGTTCA x 2 + 6): not counted
      dna("GTTTTTTTTTTTTTTTTGCA"),  // T x 16: period 1
      dna("CATGCATTGCATGCATGCAT"),  // TGCA x 3 + T: 13 bp at the end, period 4
  };
  std::vector<std::size_t> matched;
  OversampleRule twelve;
  twelve.tandem_repeat = 12;
  twelve.copies = 2;
  EXPECT_EQ(oversample(in, {twelve}, &matched),
            (Sequences{in[0], in[0], in[1], in[2], in[3], in[3], in[4], in[4]}));
  EXPECT_EQ(matched, std::vector<std::size_t>{3});
  twelve.tandem_repeat = 13;  // (AG)x6 is one letter short now
  EXPECT_EQ(oversample(in, {twelve}), (Sequences{in[0], in[1], in[2], in[3], in[3], in[4], in[4]}));
  OversampleRule sixteen = twelve;
  sixteen.tandem_repeat = 16;
  EXPECT_EQ(oversample(in, {sixteen}, &matched), (Sequences{in[0], in[1], in[2], in[3], in[3], in[4]}));
  EXPECT_EQ(matched, std::vector<std::size_t>{1});
}

// forward_only: a box that also reads on the reverse strand beginning in the range (its reverse
// complement's last letter there) is not repeated; one whose reverse reading begins outside is.
TEST(Oversample, ForwardOnlySkipsBoxesThatReadOnBothStrands) {
  const Sequences in = {
      dna("GGGGTATAAAAGGGGG"),  // TATAAAAG at 1-based 5: the forward strand only
      dna("GGGGTATATATAGGGG"),  // TATATATA at 5, read on the reverse strand beginning at 12
      dna("GGTATATATAGGGGGG"),  // TATATATA at 3, read on the reverse strand beginning at 10
  };
  const engine::DnaMotif box("TATAWAWR");
  ASSERT_EQ(box.reverse_complement().text(), "YWTWTATA");
  std::vector<std::size_t> matched;
  EXPECT_EQ(oversample(in, {{box, 1, 10, 2, true}}, &matched),
            (Sequences{in[0], in[0], in[1], in[1], in[2]}));
  EXPECT_EQ(matched, std::vector<std::size_t>{2});
  const Sequences both_skipped = {in[0], in[0], in[1], in[2]};
  EXPECT_EQ(oversample(in, {{box, 3, 12, 2, true}}), both_skipped);
  EXPECT_EQ(oversample(in, {{box, -14, -5, 2, true}}), both_skipped);  // the same, from the 3' end
  EXPECT_EQ(oversample(in, {{box, 3, 12, 2, false}}),
            (Sequences{in[0], in[0], in[1], in[1], in[2], in[2]}));
}

TEST(TrainConfig, MissingFileAndInvalidJson) {
  const std::string absent = temp_path("absent.json");
  try {
    read_train_config(absent);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(absent), std::string::npos) << e.what();
  }
  const std::string broken = temp_path("broken.json");
  std::ofstream(broken, std::ios::trunc) << "{\"name\": \"x\",";
  try {
    read_train_config(broken);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(broken), std::string::npos) << e.what();
  }
  fs::remove(broken);
}

}  // namespace
}  // namespace gsflow::app
