// The denoisers and classifiers run a batch as shards on several threads
// (models/src/batch_shards.hpp): the bundled trained networks must give the same bits for every
// thread count, and the shards must cover the batch once and report their errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <random>
#include <stdexcept>
#include <vector>

#include "batch_shards.hpp"
#include "gsflow/engine/kernels.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/classifier.hpp"
#include "gsflow/models/model.hpp"

namespace gsflow::models {
namespace {

// Random states on the simplex for n sequences of the model's length.
std::vector<float> random_states(const Model& m, std::size_t n, std::uint32_t seed) {
  const std::size_t k = m.spec().k, rows = n * m.spec().length;
  std::mt19937 rng(seed);
  std::gamma_distribution<float> gamma(0.5f);
  std::vector<float> x(rows * k);
  for (std::size_t r = 0; r < rows; ++r) {
    float s = 0;
    for (std::size_t c = 0; c < k; ++c) s += x[r * k + c] = gamma(rng) + 1e-6f;
    for (std::size_t c = 0; c < k; ++c) x[r * k + c] /= s;
  }
  return x;
}

std::vector<float> denoise(const Model& m, const std::vector<float>& x, std::size_t n, int threads,
                           const std::vector<std::uint16_t>* lengths = nullptr) {
  const engine::Kernels kernels;
  const std::size_t k = m.spec().k, rows = x.size() / k;
  std::vector<float> out(x.size());
  const auto d = lengths ? m.denoiser(kernels, threads, *lengths) : m.denoiser(kernels, threads);
  d({x.data(), rows, k, k}, n, 0.45, {out.data(), rows, k, k});
  return out;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

class BundledDenoiser : public ::testing::TestWithParam<const char*> {};

// 7 sequences make 4 shards (1 + 2 + 2 + 2 sequences) for every model here; one thread runs them
// one after another, 2, 3 or 8 threads side by side in whatever order the pool takes them.
TEST_P(BundledDenoiser, EveryThreadCountGivesTheSameBits) {
  const Model m = Model::load(resolve_model(GetParam()));
  const std::size_t n = 7;
  const auto x = random_states(m, n, 11);
  const auto one = denoise(m, x, n, 1);
  for (const int threads : {2, 3, 8})
    EXPECT_TRUE(same_bits(one, denoise(m, x, n, threads))) << threads;
  // The sequences are not copies of one another: a shard mix-up would show.
  EXPECT_FALSE(std::equal(one.begin(), one.begin() + static_cast<std::ptrdiff_t>(one.size() / n),
                          one.begin() + static_cast<std::ptrdiff_t>(one.size() / n)));
}

INSTANTIATE_TEST_SUITE_P(Models, BundledDenoiser,
                         ::testing::Values("dna-promoter", "dna-promoter-gssm", "peptide",
                                           "peptide-gssm"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (auto& c : s)
                             if (c == '-') c = '_';
                           return s;
                         });

TEST(BundledDenoiserMasked, PaddedPeptidesGiveTheSameBitsOnEveryThreadCount) {
  const Model m = Model::load(resolve_model("peptide"));
  const std::vector<std::uint16_t> lengths = {10, 100, 37, 64, 12, 99, 50};
  const auto x = random_states(m, lengths.size(), 12);
  const auto one = denoise(m, x, lengths.size(), 1, &lengths);
  for (const int threads : {2, 3})
    EXPECT_TRUE(same_bits(one, denoise(m, x, lengths.size(), threads, &lengths))) << threads;
}

// The guidance classifiers' outputs and input gradients, over shards of 16,384 positions: 130 DNA
// windows of 256 make 4 shards, 400 peptides padded to 100 make 4.
class BundledClassifier : public ::testing::TestWithParam<const char*> {};

TEST_P(BundledClassifier, EveryThreadCountGivesTheSameBits) {
  Classifier c = Classifier::load(resolve_classifier(GetParam()));
  const std::size_t k = c.info().k, length = c.info().max_length;
  const std::size_t n = length > 200 ? 130 : 400, rows = n * length;
  std::vector<std::uint16_t> lengths;
  if (c.info().min_length < length)
    for (std::size_t i = 0; i < n; ++i)
      lengths.push_back(static_cast<std::uint16_t>(c.info().min_length + i % (length - 9)));
  std::mt19937 rng(5);
  std::vector<float> x(rows * k, 0.0f);
  for (std::size_t r = 0; r < rows; ++r) x[r * k + rng() % k] = 1.0f;
  const auto evaluate = [&](int threads, std::vector<double>& out, std::vector<float>& grad) {
    c.set_threads(threads);
    out.assign(n, 0.0);
    grad.assign(rows * k, 0.0f);
    const engine::Rows g{grad.data(), rows, k, k};
    c.evaluate({x.data(), rows, k, k}, n, length, lengths, out, &g);
  };
  std::vector<double> out1, out;
  std::vector<float> grad1, grad;
  evaluate(1, out1, grad1);
  for (const int threads : {2, 3}) {
    evaluate(threads, out, grad);
    EXPECT_EQ(out, out1) << threads;
    EXPECT_TRUE(same_bits(grad, grad1)) << threads;
  }
  EXPECT_NE(*std::min_element(out1.begin(), out1.end()),
            *std::max_element(out1.begin(), out1.end()));
}

INSTANTIATE_TEST_SUITE_P(Classifiers, BundledClassifier, ::testing::Values("promoter", "amp"),
                         [](const auto& info) { return std::string(info.param); });

TEST(BatchShards, AboutAThousandPositionsEachInMultiplesOfFour) {
  const BatchShards shards(1);
  EXPECT_EQ(shards.shards_for(0, 50), 0u);
  EXPECT_EQ(shards.shards_for(1, 5000), 1u);  // never more than one per sequence
  EXPECT_EQ(shards.shards_for(3, 10), 3u);
  EXPECT_EQ(shards.shards_for(20, 50), 4u);                   // 1,000 positions
  EXPECT_EQ(shards.shards_for(100, 50), 8u);                  // 5,000 -> 5 -> 8
  EXPECT_EQ(shards.shards_for(100, 256), 28u);                // 25,600 -> 25 -> 28
  EXPECT_EQ(shards.shards_for(1000, 100), 100u);              // 100,000 -> 98 -> 100
  EXPECT_EQ(BatchShards(1, 16384).shards_for(130, 256), 4u);  // 33,280 -> 3 -> 4
}

TEST(BatchShards, CoverTheBatchOnceInNearEqualContiguousShards) {
  for (const int threads : {1, 2, 3}) {
    BatchShards shards(threads);
    for (const std::size_t items : {0, 1, 2, 7, 100})
      for (const std::size_t length : {1, 50, 300}) {
        std::vector<int> hits(items, 0);
        std::mutex mutex;
        std::vector<std::size_t> sizes;
        shards.run(items, length, [&](std::size_t first, std::size_t count) {
          const std::lock_guard lock(mutex);
          sizes.push_back(count);
          for (std::size_t i = first; i < first + count; ++i) ++hits[i];
        });
        for (std::size_t i = 0; i < items; ++i) EXPECT_EQ(hits[i], 1) << items << " x " << length;
        ASSERT_EQ(sizes.size(), shards.shards_for(items, length));
        if (!sizes.empty()) {
          EXPECT_LE(*std::max_element(sizes.begin(), sizes.end()),
                    *std::min_element(sizes.begin(), sizes.end()) + 1);
        }
      }
  }
}

TEST(BatchShards, AShardsErrorReachesTheCallerAfterTheOthersEnd) {
  BatchShards shards(3);
  std::atomic<int> ended{0};
  EXPECT_THROW(shards.run(9, 1024,
                          [&](std::size_t first, std::size_t) {
                            if (first == 3) throw std::runtime_error("shard failed");
                            ++ended;
                          }),
               std::runtime_error);
  EXPECT_EQ(ended.load(), 8);
  // The pool is still usable afterwards.
  std::atomic<std::size_t> covered{0};
  shards.run(9, 1024, [&](std::size_t, std::size_t count) { covered += count; });
  EXPECT_EQ(covered.load(), 9u);
}

}  // namespace
}  // namespace gsflow::models
