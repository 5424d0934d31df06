// Trajectory frame codec: 8-bit quantisation error bound, renormalised rows, compression of
// near-one-hot frames, and errors for impossible values and damaged blobs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "gsflow/storage/frame_codec.hpp"

namespace gsflow::storage {
namespace {

std::vector<float> random_rows(std::size_t rows, std::size_t k, double sharpness, unsigned seed) {
  std::mt19937 rng(seed);
  std::gamma_distribution<double> gamma(1.0 / sharpness, 1.0);
  std::vector<float> p(rows * k);
  for (std::size_t r = 0; r < rows; ++r) {
    double sum = 0;
    std::vector<double> g(k);
    for (auto& v : g) sum += (v = gamma(rng) + 1e-300);
    for (std::size_t j = 0; j < k; ++j) p[r * k + j] = static_cast<float>(g[j] / sum);
  }
  return p;
}

TEST(FrameCodec, RoundTripWithinHalfAQuantumPerValueAfterRenormalising) {
  for (const std::size_t k : {4u, 20u}) {
    const auto p = random_rows(300, k, 1.0, 5);
    const auto q = decode_probabilities(encode_probabilities(p), p.size(), k);
    ASSERT_EQ(q.size(), p.size());
    for (std::size_t r = 0; r < 300; ++r) {
      double sum = 0, sum_q = 0;
      for (std::size_t j = 0; j < k; ++j) {
        sum += q[r * k + j];
        // Each value is off by <= 0.5/255 before renormalising; the row sum by <= k*0.5/255.
        sum_q += std::round(p[r * k + j] * 255.0);
      }
      EXPECT_NEAR(sum, 1.0, 1e-5);
      for (std::size_t j = 0; j < k; ++j)
        EXPECT_NEAR(q[r * k + j], std::round(p[r * k + j] * 255.0) / sum_q, 1e-6);
      for (std::size_t j = 0; j < k; ++j)
        EXPECT_NEAR(q[r * k + j], p[r * k + j], 1.1 * (0.5 + 0.5 * static_cast<double>(k)) / 255.0);
    }
  }
}

TEST(FrameCodec, NearOneHotFramesCompressAndNoiseStaysRaw) {
  const auto sharp = random_rows(256, 4, 50.0, 1);  // late trajectory: nearly one-hot
  const auto blob = encode_probabilities(sharp);
  EXPECT_EQ(blob[0], 1);  // zlib
  EXPECT_LT(blob.size(), sharp.size() / 2);
  std::vector<float> noise(1024);
  std::mt19937 rng(2);
  for (auto& v : noise) v = static_cast<float>(rng() % 256) / 255.0f;  // incompressible
  const auto raw = encode_probabilities(noise);
  EXPECT_EQ(raw[0], 0);
  EXPECT_EQ(raw.size(), noise.size() + 1);
}

TEST(FrameCodec, AllZeroRowDecodesUniform) {
  const std::vector<float> p = {0.001f, 0.0f, 0.0f, 0.001f, 1.0f, 0.0f, 0.0f, 0.0f};
  const auto q = decode_probabilities(encode_probabilities(p), 8, 4);
  for (int j = 0; j < 4; ++j) EXPECT_FLOAT_EQ(q[j], 0.25f);
  EXPECT_FLOAT_EQ(q[4], 1.0f);
}

TEST(FrameCodec, RejectsImpossibleValuesAndDamagedBlobs) {
  EXPECT_THROW(encode_probabilities(std::vector<float>{0.5f, NAN}), std::invalid_argument);
  EXPECT_THROW(encode_probabilities(std::vector<float>{1.5f}), std::invalid_argument);
  EXPECT_THROW(encode_probabilities(std::vector<float>{-0.1f}), std::invalid_argument);
  const auto blob = encode_probabilities(random_rows(256, 4, 50.0, 3));
  EXPECT_THROW(decode_probabilities(blob, 1020, 4), std::runtime_error);  // wrong count
  EXPECT_THROW(decode_probabilities(blob.substr(0, blob.size() / 2), 1024, 4), std::runtime_error);
  EXPECT_THROW(decode_probabilities(std::string("\x07xyz", 4), 3, 1), std::runtime_error);
  EXPECT_THROW(decode_probabilities("", 4, 4), std::runtime_error);
}

}  // namespace
}  // namespace gsflow::storage
