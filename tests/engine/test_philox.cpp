// Philox4x32-10 known-answer tests and the exact float uniform that every kernel path draws.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>

#include "gsflow/engine/philox.hpp"

namespace gsflow::engine {
namespace {

// Known-answer vectors of Philox4x32-10 from the Random123 distribution (tests/kat_vectors). Each
// line there reads "philox4x32 10", the counter (4 words), the key (2 words), then the expected
// output (4 words), all hex:
//   00000000 00000000 00000000 00000000  00000000 00000000 -> 6627e8d5 e169c58d bc57ac4c 9b00dbd8
//   ffffffff ffffffff ffffffff ffffffff  ffffffff ffffffff -> 408f276d 41c83b0e a20bc7c6 6d5451fd
//   243f6a88 85a308d3 13198a2e 03707344  a4093822 299f31d0 -> d16cfe09 94fdcceb 5001e420 24126ea1
struct Kat {
  PhiloxCounter ctr;
  PhiloxKey key;
  PhiloxCounter expected;
};
constexpr Kat kKats[] = {
    {{0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u},
     {0x00000000u, 0x00000000u},
     {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
    {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
     {0xffffffffu, 0xffffffffu},
     {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
    {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
     {0xa4093822u, 0x299f31d0u},
     {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
};

// The generator is usable in constant expressions (all three vectors evaluated at compile time).
static_assert(philox4x32_10(kKats[0].ctr, kKats[0].key) == kKats[0].expected);
static_assert(philox4x32_10(kKats[1].ctr, kKats[1].key) == kKats[1].expected);
static_assert(philox4x32_10(kKats[2].ctr, kKats[2].key) == kKats[2].expected);
// So are the uniform and the per-element noise rule.
static_assert(uniform_from_bits(0u) == 0x1p-24f);
static_assert(uniform_from_bits(0xffffffffu) == 1.0f - 0x1p-24f);
static_assert(noise_uniform(0, 0, 0, 0) == uniform_from_bits(0x6627e8d5u));

TEST(Philox, KnownAnswerVectorsFromRandom123) {
  for (const Kat& kat : kKats) {
    const PhiloxCounter got = philox4x32_10(kat.ctr, kat.key);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(got[i], kat.expected[i]) << "word " << i << " of ctr " << std::hex << kat.ctr[0];
  }
}

// A second implementation written from the published description (Salmon et al., SC'11): the key
// of round r is key + r * W (mod 2^32), the round is a pair of 32x32 -> 64 multiplications.
PhiloxCounter independent_philox(PhiloxCounter c, PhiloxKey k) {
  for (std::uint32_t r = 0; r < 10; ++r) {
    const std::uint32_t k0 = k[0] + r * 0x9E3779B9u, k1 = k[1] + r * 0xBB67AE85u;
    const std::uint64_t m0 = 0xD2511F53ull * c[0], m1 = 0xCD9E8D57ull * c[2];
    const std::uint32_t hi0 = static_cast<std::uint32_t>(m0 >> 32),
                        lo0 = static_cast<std::uint32_t>(m0);
    const std::uint32_t hi1 = static_cast<std::uint32_t>(m1 >> 32),
                        lo1 = static_cast<std::uint32_t>(m1);
    c = {hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0};
  }
  return c;
}

TEST(Philox, MatchesIndependentImplementation) {
  for (const Kat& kat : kKats) EXPECT_EQ(independent_philox(kat.ctr, kat.key), kat.expected);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t a = rng(), b = rng(), c = rng();
    const PhiloxCounter ctr{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32),
                            static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32)};
    const PhiloxKey key{static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c >> 32)};
    ASSERT_EQ(philox4x32_10(ctr, key), independent_philox(ctr, key)) << "iteration " << i;
  }
}

TEST(UniformFromBits, ExtremesAreTwoToMinus24FromTheEnds) {
  EXPECT_EQ(uniform_from_bits(0u), 0x1p-24f);
  EXPECT_EQ(uniform_from_bits(0x1ffu), 0x1p-24f);  // the low 9 bits are ignored
  EXPECT_EQ(uniform_from_bits(0xffffffffu), 1.0f - 0x1p-24f);
  EXPECT_EQ(uniform_from_bits(0xfffffe00u), 1.0f - 0x1p-24f);
  EXPECT_LT(uniform_from_bits(0xffffffffu), 1.0f);
  EXPECT_GT(uniform_from_bits(0u), 0.0f);
  // The Gumbel transform is finite at both extremes, in float as in double.
  for (std::uint32_t bits : {0u, 0xffffffffu}) {
    const float u = uniform_from_bits(bits);
    EXPECT_TRUE(std::isfinite(-std::log(-std::log(u)))) << bits;
    EXPECT_TRUE(std::isfinite(-std::log(-std::log(static_cast<double>(u))))) << bits;
  }
}

// Every one of the 2^23 values: exactly (i + 0.5) 2^-23, strictly increasing, inside (0, 1).
TEST(UniformFromBits, ExactStrictlyMonotoneAndInsideOpenInterval) {
  float prev = 0.0f;
  for (std::uint32_t i = 0; i < (1u << 23); ++i) {
    const float u = uniform_from_bits(i << 9);
    ASSERT_EQ(static_cast<double>(u), (i + 0.5) * 0x1p-23) << "i = " << i;
    ASSERT_GT(u, prev) << "not strictly increasing at i = " << i;
    ASSERT_LT(u, 1.0f) << "i = " << i;
    ASSERT_EQ(uniform_from_bits((i << 9) | 0x1ffu), u) << "low bits changed the value, i = " << i;
    prev = u;
  }
}

// noise_uniform follows the rule documented on NoiseKey: counter {col / 4, row, stream_lo,
// stream_hi}, key {seed_lo, seed_hi}, word col % 4.
TEST(NoiseUniform, FollowsDocumentedCounterLayout) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t seed = rng(), stream = rng();
    const std::uint32_t row = static_cast<std::uint32_t>(rng());
    const std::uint64_t col = rng() % 100000;
    const PhiloxCounter ctr{static_cast<std::uint32_t>(col / 4), row,
                            static_cast<std::uint32_t>(stream & 0xffffffffu),
                            static_cast<std::uint32_t>(stream >> 32)};
    const PhiloxKey key{static_cast<std::uint32_t>(seed & 0xffffffffu),
                        static_cast<std::uint32_t>(seed >> 32)};
    ASSERT_EQ(noise_uniform(seed, stream, row, col),
              uniform_from_bits(independent_philox(ctr, key)[col % 4]))
        << "seed " << seed << " stream " << stream << " row " << row << " col " << col;
  }
}

// All 64 bits of seed and stream, and row and col, select the uniform.
TEST(NoiseUniform, EveryCoordinateMatters) {
  const std::uint64_t seed = 0x0123456789abcdefULL, stream = 0xfedcba9876543210ULL;
  const std::uint32_t row = 77;
  int same = 0, total = 0;
  for (std::uint64_t col = 0; col < 64; ++col) {
    const float u = noise_uniform(seed, stream, row, col);
    const float variants[] = {
        noise_uniform(seed ^ 1, stream, row, col),
        noise_uniform(seed ^ (std::uint64_t{1} << 63), stream, row, col),
        noise_uniform(seed, stream ^ 1, row, col),
        noise_uniform(seed, stream ^ (std::uint64_t{1} << 63), row, col),
        noise_uniform(seed, stream, row + 1, col),
        noise_uniform(seed, stream, row, col + 4),  // next counter block, same word
        noise_uniform(seed, stream, row, col ^ 1),  // other word of the same block
    };
    for (float v : variants) {
      same += (v == u);
      ++total;
    }
  }
  // 23-bit uniforms: a chance coincidence has probability 2^-23 per pair.
  EXPECT_EQ(same, 0) << same << " of " << total;
}

}  // namespace
}  // namespace gsflow::engine
