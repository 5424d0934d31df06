// Helpers shared by the sequence-metric sources (engine/src/metrics/): input checks and the
// Philox draws of the sampled figures. Internal to the engine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "gsflow/engine/philox.hpp"
#include "gsflow/engine/sequence.hpp"

namespace gsflow::engine::metrics_detail {

inline void check_alphabet(std::size_t K) {
  if (K < 2 || K > 255)
    throw std::invalid_argument("alphabet size K must be in 2..255, got " + std::to_string(K));
}

// Throws std::invalid_argument naming `what` for an empty set, an empty sequence or a letter >= K.
inline void validate(const SequenceSet& seqs, std::size_t K, const char* what) {
  check_alphabet(K);
  if (seqs.empty()) throw std::invalid_argument(std::string(what) + " set is empty");
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    const Sequence& s = seqs[i];
    if (s.empty())
      throw std::invalid_argument(std::string(what) + " sequence " + std::to_string(i) +
                                  " is empty");
    const std::uint8_t top = *std::max_element(s.begin(), s.end());
    if (top >= K) {
      const auto pos = std::find_if(s.begin(), s.end(), [&](std::uint8_t c) { return c >= K; });
      throw std::invalid_argument(std::string(what) + " sequence " + std::to_string(i) +
                                  " has letter " + std::to_string(*pos) + " at position " +
                                  std::to_string(pos - s.begin()) +
                                  ", not < K = " + std::to_string(K));
    }
  }
}

inline std::string_view as_key(const Sequence& s) {
  return {reinterpret_cast<const char*>(s.data()), s.size()};
}

inline void check_dna(const SequenceSet& seqs, const char* what) { validate(seqs, 4, what); }

inline std::uint32_t check_rows(std::size_t n) {
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("more than 2^32 sequences requested");
  return static_cast<std::uint32_t>(n);
}

// Index of the first cumulative value above u (u in (0, 1)); the last index if none is.
inline std::size_t draw(const double* cdf, std::size_t size, double u) {
  const double* it = std::upper_bound(cdf, cdf + size, u * cdf[size - 1]);
  return std::min<std::size_t>(static_cast<std::size_t>(it - cdf), size - 1);
}

inline constexpr std::uint32_t kPairStream = 0x70616972u;    // "pair": diversity pair sample
inline constexpr std::uint32_t kSubsetStream = 0x73756273u;  // "subs": sample_subset

// Four raw Philox words for draw `index` of `stream` under `seed`.
inline PhiloxCounter raw_bits(std::uint64_t seed, std::uint32_t stream, std::uint64_t index) {
  return philox4x32_10(
      {static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32), stream, 0u},
      {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
}

// floor(bits * n / 2^32): an index in [0, n).
inline std::size_t scale(std::uint32_t bits, std::size_t n) {
  return static_cast<std::size_t>((static_cast<std::uint64_t>(bits) * n) >> 32);
}

}  // namespace gsflow::engine::metrics_detail
