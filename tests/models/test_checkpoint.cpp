// Checkpoints: round trip, and a clear ModelError for missing, foreign, newer, truncated, corrupt
// and mismatched files.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "../../models/src/checkpoint.hpp"
#include "gsflow/engine/kernels.hpp"
#include "gsflow/models/model.hpp"

namespace gsflow::models {
namespace {

namespace fs = std::filesystem;

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("gsflow_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::string read_all(const std::string& file) {
  std::ifstream f(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void write_all(const std::string& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

ModelSpec small_spec() {
  ModelSpec s;
  s.length = 3;
  s.k = 5;
  s.network.width = 16;
  s.network.blocks = 1;
  return s;
}

// Expects load(file) to throw a ModelError whose message contains the file name and `needle`.
void expect_load_error(const std::string& file, const std::string& needle) {
  try {
    Model::load(file);
    FAIL() << "no error for " << needle;
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  }
}

std::vector<float> predict(const Model& m, const engine::Kernels& kernels) {
  const std::size_t rows = m.spec().length * 2, k = m.spec().k;
  std::vector<float> x(rows * k, 1.0f / static_cast<float>(k)), out(rows * k);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += 0.01f * static_cast<float>(i % 3);
  m.denoiser(kernels)({x.data(), rows, k, k}, 2, 0.4, {out.data(), rows, k, k});
  return out;
}

TEST(Checkpoint, RoundTripKeepsSpecRecordAndOutputs) {
  const engine::Kernels kernels;
  ModelSpec spec = small_spec();
  spec.alphabet = "dna";
  spec.path.interpolant = engine::Interpolant::paper;
  spec.path.beta = 3.0;
  Model m(spec, 11);
  m.record().train_steps = 42;
  m.record().data_hash = "00ff";
  m.record().metrics["val_loss"] = 1.5;
  const std::string file = temp_path("roundtrip.gsflow");
  m.save(file);
  const Model back = Model::load(file);
  EXPECT_EQ(back.spec().length, 3u);
  EXPECT_EQ(back.spec().k, 5u);
  EXPECT_EQ(back.spec().alphabet, "dna");
  EXPECT_EQ(back.spec().path.interpolant, engine::Interpolant::paper);
  EXPECT_DOUBLE_EQ(back.spec().path.beta, 3.0);
  EXPECT_EQ(back.record().train_steps, 42);
  EXPECT_EQ(back.record().data_hash, "00ff");
  EXPECT_DOUBLE_EQ(back.record().metrics.at("val_loss"), 1.5);
  EXPECT_EQ(predict(m, kernels), predict(back, kernels));
  // A differently seeded network predicts something else (the comparison above can fail).
  EXPECT_NE(predict(Model(spec, 12), kernels), predict(back, kernels));
  fs::remove(file);
}

TEST(Checkpoint, MissingFile) { expect_load_error(temp_path("absent.gsflow"), "cannot open"); }

TEST(Checkpoint, ForeignFile) {
  const std::string file = temp_path("foreign.gsflow");
  write_all(file, ">seq1\nACGT\n");
  expect_load_error(file, "not a gsflow checkpoint");
  fs::remove(file);
}

TEST(Checkpoint, TruncatedFileAtManyLengths) {
  const std::string file = temp_path("trunc.gsflow");
  Model(small_spec(), 1).save(file);
  const std::string bytes = read_all(file);
  for (const std::size_t keep :
       {std::size_t{12}, std::size_t{40}, bytes.size() / 2, bytes.size() - 1}) {
    write_all(file, bytes.substr(0, keep));
    expect_load_error(file, "truncated");
  }
  fs::remove(file);
}

TEST(Checkpoint, FlippedByteIsCorrupt) {
  const std::string file = temp_path("corrupt.gsflow");
  Model(small_spec(), 1).save(file);
  std::string bytes = read_all(file);
  bytes[bytes.size() / 2] ^= 0x40;
  write_all(file, bytes);
  expect_load_error(file, "checksum");
  fs::remove(file);
}

TEST(Checkpoint, NewerFormatIsRefused) {
  const std::string file = temp_path("newer.gsflow");
  Model(small_spec(), 1).save(file);
  std::string bytes = read_all(file);
  bytes[8] = static_cast<char>(kCheckpointFormat + 1);  // the u32 format after the magic
  write_all(file, bytes);
  expect_load_error(file, "newer");
  fs::remove(file);
}

TEST(Checkpoint, MetadataThatDoesNotFitTheWeights) {
  const std::string file = temp_path("mismatch.gsflow");
  Model(small_spec(), 1).save(file);
  CheckpointData data = read_checkpoint(file);
  const auto pos = data.metadata.find("\"width\": 16");
  ASSERT_NE(pos, std::string::npos) << data.metadata;
  data.metadata.replace(pos, 11, "\"width\": 32");
  write_checkpoint(file, data);
  expect_load_error(file, "does not fit");
  fs::remove(file);
}

TEST(Checkpoint, MissingMetadataFieldIsNamed) {
  const std::string file = temp_path("nofield.gsflow");
  Model(small_spec(), 1).save(file);
  CheckpointData data = read_checkpoint(file);
  const auto pos = data.metadata.find("\"beta\"");
  ASSERT_NE(pos, std::string::npos);
  data.metadata.replace(pos, 6, "\"btea\"");
  write_checkpoint(file, data);
  expect_load_error(file, "path.beta");
  fs::remove(file);
}

TEST(Checkpoint, CheckMatchesNamesTheField) {
  const Model m(small_spec(), 1);
  ModelSpec want = small_spec();
  EXPECT_NO_THROW(m.check_matches(want, "model.gsflow"));
  want.k = 4;
  try {
    m.check_matches(want, "model.gsflow");
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("'k' is 5 but 4"), std::string::npos) << e.what();
  }
  want = small_spec();
  want.method = engine::Method::gssm;
  EXPECT_THROW(m.check_matches(want, "model.gsflow"), ModelError);
}

TEST(Checkpoint, ImpossibleSpecIsRefused) {
  ModelSpec s = small_spec();
  s.k = 1;
  EXPECT_THROW(Model(s, 1), ModelError);
  s = small_spec();
  s.network.time_features = 7;
  EXPECT_THROW(Model(s, 1), ModelError);
  s = small_spec();
  s.path.lambda = -1.0;
  EXPECT_THROW(Model(s, 1), ModelError);
}

}  // namespace
}  // namespace gsflow::models
