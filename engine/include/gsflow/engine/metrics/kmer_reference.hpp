// Positional k-mer frequencies of a reference set (a guide's real class), and how much more or less
// often a set of designs uses each k-mer than the reference does. Guidance holds a guided *set*
// near the reference with it (the `kmers:NAME` objective, guidance/kmer_hold.hpp): a per-sequence
// band cannot stop every design from carrying one extra TATA box, each of which is natural on its
// own (docs/notes/2026-12-07-kmer-hold.md).
//
// The starts s = 0..L-k of a sequence of length L fall into `bins` equal parts of that range
// (bin = s * bins / (L - k + 1)), so a motif's position is kept (the TATA box in the core window)
// without fixing the length; use bins = 1 for sequences of varied length.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gsflow/engine/sequence.hpp"

namespace gsflow::engine {

struct KmerReference {
  std::string letters;
  std::size_t k = 4;
  std::size_t bins = 1;
  // freq[b * K^k + w]: the share of k-mer w (letters in base K, first letter most significant)
  // among the starts of bin b, with half a count added to every k-mer so that none is 0.
  std::vector<double> freq;
  std::size_t reference_size = 0;

  std::size_t words() const;  // K^k
  // The bin of start s in a sequence of `length` letters (length >= k).
  std::size_t bin_of(std::size_t start, std::size_t length) const;

  // Throws std::invalid_argument for k outside 1..8 or K^k above 2^16, bins 0, fewer than 10
  // sequences of length >= k, or a letter >= K.
  static KmerReference fit(const SequenceSet& reference, const std::string& letters, std::size_t k,
                           std::size_t bins);
};

// A set's own k-mer shares per bin, shrunk toward the reference: q = (count + A r) / (N + A) with
// A = K^k pseudo-observations, so a small set (a handful of designs) is held only where it differs
// clearly. Returns log(q / r) per bin and k-mer, [bins * K^k]: > 0 where the set over-uses a k-mer.
// Sequences shorter than k are skipped. Throws std::invalid_argument for a letter >= K.
std::vector<double> kmer_log_ratio(const KmerReference& reference, const SequenceSet& set);

}  // namespace gsflow::engine
