// The headless generation pipeline through the public Model API: sequence lengths (given, fixed,
// drawn from the training lengths), reproducibility and the prefix property, method mismatch,
// cancel and progress. The models are small and untrained: only the pipeline is under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsflow/pipeline/generate.hpp"
#include "gsflow/pipeline/run_params.hpp"

namespace gsflow::pipeline {
namespace {

using models::Model;
using models::ModelSpec;
using models::NetworkType;

ModelSpec mlp_spec() {
  ModelSpec s;
  s.length = 6;
  s.k = 4;
  s.network.type = NetworkType::mlp;
  s.network.width = 16;
  s.network.blocks = 1;
  s.network.time_features = 8;
  return s;
}

ModelSpec transformer_spec() {
  ModelSpec s;
  s.length = 10;
  s.k = 5;
  s.network.type = NetworkType::transformer;
  s.network.width = 16;
  s.network.blocks = 1;
  s.network.heads = 2;
  s.network.time_features = 8;
  return s;
}

// Training lengths 3 : 5 : 8 in proportions 0.1 : 0.3 : 0.6.
Model transformer_model() {
  Model m(transformer_spec(), 3);
  m.record().length_counts = {{3, 100}, {5, 300}, {8, 600}};
  return m;
}

GenerateRequest request(std::size_t n, std::uint64_t seed = 7) {
  GenerateRequest r;
  r.n = n;
  r.sampler.steps = 8;
  r.sampler.seed = seed;
  return r;
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

// ----------------------------------------------------------------------------------------------
// sequence_lengths

TEST(SequenceLengths, ExplicitLength) {
  const Model t = transformer_model();
  auto r = request(5);
  r.length = 4;
  EXPECT_EQ(sequence_lengths(t, r), std::vector<std::size_t>(5, 4));
  r.length = 10;  // the maximum itself
  EXPECT_EQ(sequence_lengths(t, r), std::vector<std::size_t>(5, 10));
  const Model m(mlp_spec(), 1);
  r.length = 6;
  EXPECT_EQ(sequence_lengths(m, r), std::vector<std::size_t>(5, 6));
}

TEST(SequenceLengths, FixedLengthModelRejectsAnotherLength) {
  const Model m(mlp_spec(), 1);
  for (const std::size_t len : {std::size_t{5}, std::size_t{7}}) {
    auto r = request(3);
    r.length = len;
    const std::string msg = error_of([&] { sequence_lengths(m, r); });
    EXPECT_NE(msg.find("length"), std::string::npos) << msg;
    EXPECT_NE(msg.find("exactly 6"), std::string::npos) << msg;
  }
  // No length given: the model's own, whatever the record says.
  Model with_counts(mlp_spec(), 1);
  with_counts.record().length_counts = {{6, 10}};
  EXPECT_EQ(sequence_lengths(with_counts, request(4)), std::vector<std::size_t>(4, 6));
}

TEST(SequenceLengths, TransformerRejectsALengthAboveItsMaximum) {
  const Model t = transformer_model();
  auto r = request(3);
  r.length = 11;
  const std::string msg = error_of([&] { sequence_lengths(t, r); });
  EXPECT_NE(msg.find("length"), std::string::npos) << msg;
  EXPECT_NE(msg.find("at most 10"), std::string::npos) << msg;
}

TEST(SequenceLengths, TransformerWithoutRecordedLengthsUsesItsMaximum) {
  const Model t(transformer_spec(), 1);
  EXPECT_EQ(sequence_lengths(t, request(3)), std::vector<std::size_t>(3, 10));
}

TEST(SequenceLengths, DrawsFollowTheTrainingLengths) {
  const Model t = transformer_model();
  const std::size_t n = 4000;
  const auto lengths = sequence_lengths(t, request(n, 11));
  ASSERT_EQ(lengths.size(), n);
  std::map<std::size_t, std::size_t> seen;
  for (const auto len : lengths) ++seen[len];
  ASSERT_EQ(seen.size(), 3u) << "lengths outside the recorded ones";
  const std::map<std::size_t, double> p{{3, 0.1}, {5, 0.3}, {8, 0.6}};
  double chi2 = 0.0;
  for (const auto& [len, prob] : p) {
    const double expected = prob * static_cast<double>(n);
    const double d = static_cast<double>(seen[len]) - expected;
    chi2 += d * d / expected;
  }
  // 2 degrees of freedom: P(chi2 > 13.8) = 0.001 for a correct sampler (deterministic here).
  EXPECT_LT(chi2, 13.8) << seen[3] << " " << seen[5] << " " << seen[8];
  // Another seed draws other lengths.
  EXPECT_NE(sequence_lengths(t, request(50, 12)),
            std::vector<std::size_t>(lengths.begin(), lengths.begin() + 50));
}

TEST(SequenceLengths, FirstLengthsDoNotDependOnN) {
  const Model t = transformer_model();
  const auto many = sequence_lengths(t, request(300));
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{77}}) {
    const auto few = sequence_lengths(t, request(n));
    EXPECT_EQ(few, std::vector<std::size_t>(many.begin(), many.begin() + n)) << n;
  }
}

TEST(SequenceLengths, RecordedLengthsAboveTheMaximumAreClipped) {
  Model t(transformer_spec(), 1);
  t.record().length_counts = {{4, 1}, {25, 1}};
  for (const auto len : sequence_lengths(t, request(100))) EXPECT_TRUE(len == 4 || len == 10);
}

// ----------------------------------------------------------------------------------------------
// generate

TEST(Generate, SequencesOfTheRightLengths) {
  const engine::Kernels kernels;
  const Model t = transformer_model();
  const auto r = request(12);
  const auto result = generate(t, r, kernels);
  EXPECT_FALSE(result.cancelled);
  EXPECT_EQ(result.completed, 12u);
  ASSERT_EQ(result.sequences.size(), 12u);
  const auto lengths = sequence_lengths(t, r);
  std::set<std::size_t> distinct(lengths.begin(), lengths.end());
  EXPECT_GT(distinct.size(), 1u) << "choose a seed with several lengths";
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(result.sequences[i].size(), lengths[i]) << i;
    for (const auto letter : result.sequences[i]) EXPECT_LT(letter, 5);
  }
  EXPECT_GT(result.network_seconds, 0.0);
  EXPECT_GE(result.total_seconds, result.network_seconds);

  const Model m(mlp_spec(), 2);
  const auto fixed = generate(m, request(9), kernels);
  ASSERT_EQ(fixed.sequences.size(), 9u);
  for (const auto& s : fixed.sequences) {
    EXPECT_EQ(s.size(), 6u);
    for (const auto letter : s) EXPECT_LT(letter, 4);
  }
  auto given = request(4);
  given.length = 7;
  for (const auto& s : generate(t, given, kernels).sequences) EXPECT_EQ(s.size(), 7u);
}

TEST(Generate, ReproducibleFromTheSeed) {
  const engine::Kernels kernels;
  for (const bool variable : {false, true}) {
    const Model m = variable ? transformer_model() : Model(mlp_spec(), 2);
    const auto a = generate(m, request(10, 5), kernels).sequences;
    const auto b = generate(m, request(10, 5), kernels).sequences;
    const auto c = generate(m, request(10, 6), kernels).sequences;
    EXPECT_EQ(a, b) << (variable ? "transformer" : "mlp");
    EXPECT_NE(a, c) << (variable ? "transformer" : "mlp");
    // Threads and sampler batches do not change the result.
    auto other = request(10, 5);
    other.sampler.batch = 3;
    other.threads = 2;
    EXPECT_EQ(generate(m, other, kernels).sequences, a) << (variable ? "transformer" : "mlp");
  }
}

TEST(Generate, LargerNExtendsSmallerN) {
  const engine::Kernels kernels;
  for (const bool variable : {false, true}) {
    const Model m = variable ? transformer_model() : Model(mlp_spec(), 2);
    const auto small = generate(m, request(5), kernels).sequences;
    const auto large = generate(m, request(12), kernels).sequences;
    ASSERT_EQ(small.size(), 5u);
    ASSERT_EQ(large.size(), 12u);
    EXPECT_EQ(small, decltype(small)(large.begin(), large.begin() + 5))
        << (variable ? "transformer" : "mlp");
  }
}

// The same with a smaller request whose lengths all fall in one group while the larger one has
// several: the j-th sequence of length L must still depend only on (seed, L, j).
TEST(Generate, LargerNExtendsSmallerNWithOneLengthGroup) {
  const engine::Kernels kernels;
  const Model t = transformer_model();
  std::size_t n_small = 0;
  const auto lengths = sequence_lengths(t, request(12));
  while (n_small < 12 && lengths[n_small] == lengths[0]) ++n_small;
  ASSERT_GE(n_small, 1u);
  ASSERT_LT(n_small, 12u);  // the 12 have several lengths, the first n_small one
  const auto small = generate(t, request(n_small), kernels).sequences;
  const auto large = generate(t, request(12), kernels).sequences;
  ASSERT_EQ(small.size(), n_small);
  EXPECT_EQ(small, decltype(small)(large.begin(), large.begin() + n_small)) << n_small;
}

TEST(Generate, MethodMismatchThrows) {
  const engine::Kernels kernels;
  const Model m(mlp_spec(), 2);
  auto r = request(2);
  r.sampler.method = engine::Method::gssm;
  const std::string msg = error_of([&] { generate(m, r, kernels); });
  EXPECT_NE(msg.find("method"), std::string::npos) << msg;
  EXPECT_NE(msg.find("gsfm"), std::string::npos) << msg;
  r.sampler.method = engine::Method::linear;
  EXPECT_THROW(generate(m, r, kernels), std::invalid_argument);
}

TEST(Generate, CancelFromTheProgressHook) {
  const engine::Kernels kernels;
  const Model m(mlp_spec(), 2);
  auto r = request(12);
  r.sampler.batch = 4;  // three batches of 8 steps
  std::atomic<bool> cancel{false};
  std::size_t calls = 0;
  engine::SamplerHooks hooks;
  hooks.cancel = &cancel;
  hooks.progress = [&](std::size_t, std::size_t) {
    if (++calls == 10) cancel = true;  // in the second batch
  };
  const auto result = generate(m, r, kernels, hooks);
  EXPECT_TRUE(result.cancelled);
  EXPECT_EQ(result.completed, 4u);
  ASSERT_EQ(result.sequences.size(), 4u);
  const auto full = generate(m, r, kernels).sequences;
  EXPECT_EQ(result.sequences, decltype(full)(full.begin(), full.begin() + 4));

  // Variable lengths: only finished sequences come back, each of its own length.
  const Model t = transformer_model();
  cancel = false;
  calls = 0;
  auto rv = request(12);
  rv.sampler.batch = 2;
  const auto lengths = sequence_lengths(t, rv);
  const auto partial = generate(t, rv, kernels, hooks);
  EXPECT_TRUE(partial.cancelled);
  EXPECT_LT(partial.completed, 12u);
  EXPECT_EQ(partial.sequences.size(), partial.completed);
  const auto all = generate(t, rv, kernels).sequences;
  for (const auto& s : partial.sequences) {
    EXPECT_NE(std::find(all.begin(), all.end(), s), all.end());
    EXPECT_NE(std::find(lengths.begin(), lengths.end(), s.size()), lengths.end());
  }
}

// Progress is monotone, never above the total, and ends at the total, for one and several
// length groups, one and several sampler batches.
TEST(Generate, ProgressReachesTheTotal) {
  const engine::Kernels kernels;
  for (const bool variable : {false, true})
    for (const std::size_t batch : {std::size_t{1024}, std::size_t{3}}) {
      const Model m = variable ? transformer_model() : Model(mlp_spec(), 2);
      auto r = request(12);
      r.sampler.batch = batch;
      std::size_t last_done = 0, last_total = 0, calls = 0;
      bool monotone = true, bounded = true;
      engine::SamplerHooks hooks;
      hooks.progress = [&](std::size_t done, std::size_t total) {
        monotone = monotone && done >= last_done && (calls == 0 || total == last_total);
        bounded = bounded && done <= total;
        last_done = done;
        last_total = total;
        ++calls;
      };
      generate(m, r, kernels, hooks);
      const std::string what =
          std::string(variable ? "transformer" : "mlp") + ", batch " + std::to_string(batch);
      EXPECT_GT(calls, 0u) << what;
      EXPECT_TRUE(monotone) << what;
      EXPECT_TRUE(bounded) << what;
      EXPECT_GT(last_total, 0u) << what;
      EXPECT_EQ(last_done, last_total) << what;
    }
}

}  // namespace
}  // namespace gsflow::pipeline

// ----------------------------------------------------------------------------------------------
// Shards (request.first) and batch delivery (BatchSink), which the run store builds on.

namespace gsflow::pipeline {
namespace {

TEST(Generate, ShardsTileTheUnshardedRequest) {
  const engine::Kernels kernels;
  for (const bool variable : {false, true}) {
    const Model m = variable ? transformer_model() : Model(mlp_spec(), 2);
    auto whole = request(11);
    whole.sampler.batch = 3;
    const auto all = generate(m, whole, kernels).sequences;
    std::vector<std::vector<std::uint8_t>> joined;
    for (std::size_t shard = 0; shard < 4; ++shard) {
      RunParams p;
      p.n = 11;
      p.shard = shard;
      p.shards = 4;
      p.sampler = whole.sampler;
      auto part = to_request(p);
      part.sampler.batch = 2;  // a different batch split, too
      const auto lengths = sequence_lengths(m, whole);
      EXPECT_EQ(sequence_lengths(m, part),
                std::vector<std::size_t>(
                    lengths.begin() + static_cast<std::ptrdiff_t>(part.first),
                    lengths.begin() + static_cast<std::ptrdiff_t>(part.first + part.n)));
      for (auto& s : generate(m, part, kernels).sequences) joined.push_back(std::move(s));
    }
    EXPECT_EQ(joined, all) << (variable ? "transformer" : "mlp");
  }
}

TEST(Generate, BatchesArriveInOrderAndFalseStopsAfterTheBatch) {
  const engine::Kernels kernels;
  const Model m(mlp_spec(), 2);
  auto r = request(10);
  r.first = 100;
  r.sampler.batch = 4;
  std::vector<std::pair<std::size_t, std::size_t>> seen;  // (first, size)
  std::vector<std::vector<std::uint8_t>> delivered;
  const auto result = generate(m, r, kernels, {}, [&](std::size_t first, auto batch, auto) {
    seen.emplace_back(first, batch.size());
    delivered.insert(delivered.end(), batch.begin(), batch.end());
    return true;
  });
  EXPECT_EQ(seen, (std::vector<std::pair<std::size_t, std::size_t>>{{100, 4}, {104, 4}, {108, 2}}));
  EXPECT_EQ(delivered, result.sequences);
  EXPECT_FALSE(result.cancelled);

  seen.clear();
  const auto stopped = generate(m, r, kernels, {}, [&](std::size_t first, auto batch, auto) {
    seen.emplace_back(first, batch.size());
    return false;  // a graceful stop: this batch is kept, no more are made
  });
  EXPECT_TRUE(stopped.cancelled);
  EXPECT_EQ(stopped.completed, 4u);
  EXPECT_EQ(seen.size(), 1u);
  EXPECT_EQ(stopped.sequences,
            decltype(result.sequences)(result.sequences.begin(), result.sequences.begin() + 4));
}

// ----------------------------------------------------------------------------------------------
// Run parameters

TEST(RunParams, JsonRoundTripKeepsEveryField) {
  RunParams p;
  p.model = "peptide";
  p.n = 1000;
  p.length = 30;
  p.shard = 2;
  p.shards = 5;
  p.threads = 3;
  p.consistent = true;
  auto& s = p.sampler;
  s.method = engine::Method::gssm;
  s.integrator = engine::Integrator::euler;
  s.steps = 77;
  s.decode = engine::Decode::x;
  s.temperature = 0.7;
  s.start_scale = 1.5;
  s.reinject = 0.25;
  s.corrector_steps = 3;
  s.snr = 0.2;
  s.batch = 17;
  s.seed = 0xFFFFFFFFFFFFFFFFull;
  s.frames_every = 5;
  const auto q = parse_run_params(run_params_json(p));
  EXPECT_EQ(run_params_json(q), run_params_json(p));
  EXPECT_EQ(q.sampler.seed, 0xFFFFFFFFFFFFFFFFull);
  EXPECT_EQ(q.sampler.method, engine::Method::gssm);
  EXPECT_EQ(q.sampler.decode, engine::Decode::x);
  EXPECT_DOUBLE_EQ(q.sampler.temperature, 0.7);
  EXPECT_EQ(q.shard, 2u);
  // Missing fields take the defaults, except those that came later (what older records were
  // made with: RunParam::absent).
  RunParams made_before;
  made_before.sampler.grid = engine::TimeGrid::uniform;
  made_before.precision = models::Precision::float32;
  EXPECT_EQ(run_params_json(parse_run_params("{}")), run_params_json(made_before));
}

TEST(RunParams, BadInputNamesTheField) {
  const auto msg = [](const char* json) {
    try {
      parse_run_params(json);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(msg("[1]").find("JSON object"), std::string::npos);
  EXPECT_NE(msg("{\"n\":").find("not JSON"), std::string::npos);
  EXPECT_NE(msg(R"({"stepz": 3})").find("stepz: unknown field"), std::string::npos);
  EXPECT_NE(msg(R"({"steps": "3"})").find("steps: expected an integer"), std::string::npos);
  EXPECT_NE(msg(R"({"steps": -1})").find("steps"), std::string::npos);
  EXPECT_NE(msg(R"({"n": -4})").find("n: must not be negative"), std::string::npos);
  EXPECT_NE(msg(R"({"shard": 3, "shards": 3})").find("shard:"), std::string::npos);
  EXPECT_NE(msg(R"({"method": "diffusion"})").find("method"), std::string::npos);
  EXPECT_NE(msg(R"({"temperature": -1})").find("temperature"), std::string::npos);
  EXPECT_NE(msg(R"({"consistent": 1})").find("consistent: expected true or false"),
            std::string::npos);
  EXPECT_NE(msg(R"({"model": 5})").find("model: expected a string"), std::string::npos);
  EXPECT_NE(msg(R"({"seed": 1.5})").find("seed: expected an integer"), std::string::npos);
  // Integers beyond the field's type are refused, not wrapped (found by fuzz_run_params).
  EXPECT_NE(msg(R"({"steps": 21474836803})").find("steps: 21474836803 is out of range"),
            std::string::npos);
  EXPECT_NE(msg(R"({"threads": 4294967297})").find("threads:"), std::string::npos);
  EXPECT_NE(msg(R"({"corrector_steps": -4294967297})").find("corrector_steps:"),
            std::string::npos);
}

TEST(RunParams, ShardRangesTileAndParse) {
  for (const std::size_t n : {1u, 7u, 10u, 1000u})
    for (const std::size_t shards : {1u, 3u, 4u}) {
      std::size_t next = 0;
      for (std::size_t i = 0; i < shards; ++i) {
        const auto [first, count] = shard_range(n, i, shards);
        EXPECT_EQ(first, next);
        EXPECT_LE(count, n / shards + 1);
        EXPECT_GE(count, n / shards);
        next = first + count;
      }
      EXPECT_EQ(next, n);
    }
  EXPECT_EQ(parse_shard("2/4"), (std::pair<std::size_t, std::size_t>{2, 4}));
  for (const char* bad : {"4/4", "1", "/4", "1/", "a/b", "1/0", "-1/4", "1/4x", ""})
    EXPECT_THROW(parse_shard(bad), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace gsflow::pipeline
