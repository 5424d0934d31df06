// Portable 64-bit hashes: the same values on every machine and build, for checksums (checkpoints,
// data sets, kernel outputs) and for seeded choices that a recorded seed must reproduce.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsflow::engine {

// FNV-1a 64 over `size` bytes, continuing from `hash` (the offset basis to start).
inline std::uint64_t fnv1a64(const void* data, std::size_t size,
                             std::uint64_t hash = 0xcbf29ce484222325ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// splitmix64's output step (the golden-ratio increment, then the finaliser): a well-mixed 64-bit
// hash of x; mix64(i) for i = 0, 1, ... is splitmix64's sequence from seed 0.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace gsflow::engine
