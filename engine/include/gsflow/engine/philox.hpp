// Philox4x32-10 counter-based random numbers (Salmon et al., SC'11) and the exact float uniform
// used by every kernel path, so that the reference and SIMD paths draw identical uniforms.
#pragma once

#include <array>
#include <cstdint>

namespace gsflow::engine {

using PhiloxCounter = std::array<std::uint32_t, 4>;
using PhiloxKey = std::array<std::uint32_t, 2>;

inline constexpr std::uint32_t kPhiloxM0 = 0xD2511F53u;
inline constexpr std::uint32_t kPhiloxM1 = 0xCD9E8D57u;
inline constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9u;
inline constexpr std::uint32_t kPhiloxW1 = 0xBB67AE85u;

// Ten rounds of Philox4x32 on one counter block.
constexpr PhiloxCounter philox4x32_10(PhiloxCounter ctr, PhiloxKey key) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += kPhiloxW0;
      key[1] += kPhiloxW1;
    }
    const std::uint64_t p0 = std::uint64_t{kPhiloxM0} * ctr[0];
    const std::uint64_t p1 = std::uint64_t{kPhiloxM1} * ctr[2];
    ctr = {static_cast<std::uint32_t>(p1 >> 32) ^ ctr[1] ^ key[0], static_cast<std::uint32_t>(p1),
           static_cast<std::uint32_t>(p0 >> 32) ^ ctr[3] ^ key[1], static_cast<std::uint32_t>(p0)};
  }
  return ctr;
}

// Uniform in the open interval (0, 1): (top 23 bits + 0.5) * 2^-23. Every step is exact in float,
// so all paths agree bit for bit; the extremes are 2^-24 and 1 - 2^-24.
constexpr float uniform_from_bits(std::uint32_t bits) {
  return (static_cast<float>(bits >> 9) + 0.5f) * (1.0f / 8388608.0f);
}

// The uniform of element (row, col) under (seed, stream): the rule documented on NoiseKey.
constexpr float noise_uniform(std::uint64_t seed, std::uint64_t stream, std::uint32_t row,
                              std::uint64_t col) {
  const PhiloxCounter ctr{static_cast<std::uint32_t>(col / 4), row,
                          static_cast<std::uint32_t>(stream),
                          static_cast<std::uint32_t>(stream >> 32)};
  const PhiloxKey key{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
  return uniform_from_bits(philox4x32_10(ctr, key)[col % 4]);
}

}  // namespace gsflow::engine
