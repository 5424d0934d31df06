// Letter composition, GC content and length statistics of sequence sets.
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

// ---- composition, GC, lengths ------------------------------------------------------------------

// Letter frequencies over every letter of every sequence; size K, sums to 1.
std::vector<double> letter_frequencies(const SequenceSet& seqs, std::size_t K);

// KL(reference || generated) in nats between letter compositions, with `pseudocount` added to
// every letter count of both sets before normalising (default 1, Laplace), so it is finite.
double composition_kl(const SequenceSet& reference, const SequenceSet& generated, std::size_t K,
                      double pseudocount = 1.0);

struct GcStats {
  double mean = 0.0;            // mean over sequences of the fraction of G or C letters
  std::vector<double> profile;  // [max length]: fraction of G/C at each 0-based position (5'
                                // first), over the sequences long enough to have it
};
// DNA only (K = 4, ACGT order: G = 2, C = 1).
GcStats gc_stats(const SequenceSet& seqs);

struct LengthStats {
  double mean = 0.0;                             // mean length
  std::size_t min = 0, max = 0;                  // shortest and longest
  std::map<std::size_t, std::size_t> histogram;  // length -> number of sequences
};
LengthStats length_stats(const SequenceSet& seqs);

// Wasserstein-1 (earth mover's) distance between two length distributions, in positions.
double length_w1(const LengthStats& a, const LengthStats& b);

}  // namespace gsflow::engine
