// The position-specific (PWM) baseline sampler and subsampling of a set.
// Unless stated otherwise every function here throws std::invalid_argument when a set it needs
// is empty, when a sequence is empty, when a letter is >= K, or when K is outside 2..255.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "gsflow/engine/sequence.hpp"

namespace gsflow::engine {

// ---- baselines ---------------------------------------------------------------------------------

// Position-specific independent-letter model (a position weight matrix). Letters at different
// positions are independent; lengths follow the training length distribution.
class PwmModel {
 public:
  // Fits per-position letter frequencies (count + pseudocount, normalised) at each position over
  // the training sequences long enough to have it, and the empirical length distribution. Throws
  // std::invalid_argument for an empty set, bad letters or a negative pseudocount (0 allowed).
  static PwmModel fit(const SequenceSet& training, std::size_t K, double pseudocount = 1.0);

  std::size_t alphabet_size() const noexcept { return k_; }
  std::size_t max_length() const noexcept { return max_length_; }
  // [max_length, K] row-major; each row sums to 1.
  const std::vector<double>& probabilities() const noexcept { return probs_; }
  // [max_length + 1]: P(length = l); sums to 1.
  const std::vector<double>& length_probabilities() const noexcept { return length_probs_; }

  // n sequences with lengths drawn from the fitted distribution. Deterministic in seed: sequence i
  // depends only on (seed, i), through Philox (stream 0 letters, stream 1 length).
  SequenceSet sample(std::size_t n, std::uint64_t seed) const;
  // n sequences of the given length. Throws std::invalid_argument if length is 0 or longer than
  // max_length() (no data for those positions).
  SequenceSet sample(std::size_t n, std::size_t length, std::uint64_t seed) const;

 private:
  std::size_t k_ = 0;
  std::size_t max_length_ = 0;
  std::vector<double> probs_;
  std::vector<double> length_probs_;
};

// min(n, set size) sequences of `set` drawn without replacement (Philox, seed), e.g. the training
// sample of kmer_js_floor. Throws std::invalid_argument for an empty set.
SequenceSet sample_subset(const SequenceSet& set, std::size_t n, std::uint64_t seed);

}  // namespace gsflow::engine
