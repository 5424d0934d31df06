// k-mer counts of sequence sets and Jensen-Shannon divergence between them.
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

// ---- k-mers ------------------------------------------------------------------------------------

// Dense k-mer counts of a set: size K^k; every overlapping k-mer of every sequence (a sequence of
// length L contributes max(0, L - k + 1)) is counted at index sum_j s[i + j] * K^(k - 1 - j), i.e.
// the first letter is the most significant digit. Also throws std::invalid_argument if k == 0 or
// K^k > 2^24 (use kmer_js, which counts sparsely, for larger spaces).
std::vector<std::uint64_t> kmer_counts(const SequenceSet& seqs, std::size_t K, std::size_t k);

// Jensen-Shannon divergence between the distributions p / sum(p) and q / sum(q), in bits (log base
// 2), so in [0, 1]: 0 for proportional counts, 1 for disjoint supports. Throws
// std::invalid_argument if the sizes differ, a count is negative or either total is zero.
double js_divergence_bits(std::span<const double> p, std::span<const double> q);
double js_divergence_bits(std::span<const std::uint64_t> p, std::span<const std::uint64_t> q);

// JS divergence in bits between the k-mer distributions of sets a and b (as kmer_counts counts
// them; counted sparsely, so any K^k < 2^63 works). Throws std::invalid_argument if either set
// has no k-mer at all (every sequence shorter than k).
double kmer_js(const SequenceSet& a, const SequenceSet& b, std::size_t K, std::size_t k);

}  // namespace gsflow::engine
