// Distances between sequences, diversity and uniqueness of a set, novelty against training data.
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

// ---- distances, diversity, uniqueness ----------------------------------------------------------

// Number of mismatching positions. Throws std::invalid_argument if the lengths differ.
std::size_t hamming(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);
// Edit distance with unit costs for substitution, insertion and deletion. O(|a| |b|) time.
std::size_t levenshtein(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

struct DiversityOptions {
  std::size_t max_pairs = 20000;  // all n(n-1)/2 pairs when at most this many, else a sample
  std::uint64_t seed = 0;         // Philox seed of the pair sample (same seed, same pairs)
};

// Mean normalised distance over pairs of distinct indices i < j of the set: Hamming / L when every
// sequence has the same length L, otherwise Levenshtein / max(|a|, |b|) for every pair. When the
// set has more than options.max_pairs pairs, the mean is over options.max_pairs pairs (i != j)
// drawn uniformly with replacement from Philox(options.seed), so it is deterministic. In [0, 1];
// 0 for a set of one sequence. Throws only for an empty set or bad letters.
double diversity(const SequenceSet& seqs, std::size_t K, const DiversityOptions& options = {});

// Fraction of distinct sequences: (number of distinct sequences) / n, in (0, 1].
double uniqueness(const SequenceSet& seqs, std::size_t K);

// ---- novelty against training data -------------------------------------------------------------

struct NoveltyStats {
  // identity[i]: for generated sequence i, the highest ungapped identity (matching positions / L)
  // to any training sequence of the same length L; 0 when no training sequence has length L.
  // Ungapped and same-length only, by choice: it is the question "is this a near-copy of a
  // training sequence?" asked cheaply (bit-parallel, 64 positions per word); an alignment would
  // cost O(L^2) per pair.
  std::vector<double> identity;
  double mean_identity = 0.0;        // mean of identity
  double fraction_above = 0.0;       // fraction of identity >= the threshold (default 0.9)
  double exact_copy_fraction = 0.0;  // fraction of generated sequences found verbatim in training
};

// Novelty of `generated` against `training` (both non-empty). exact_copy_fraction compares whole
// sequences of any length through a hash set. Runs in O(n_generated * n_training * L / 64) word
// operations, with early exit once a training row cannot beat the best so far (1,000 x 14,000 DNA
// sequences of 256 bp take a fraction of a second on one core).
NoveltyStats novelty(const SequenceSet& generated, const SequenceSet& training, std::size_t K,
                     double threshold = 0.9);

}  // namespace gsflow::engine
