// Distances, diversity, uniqueness and novelty against training data (see metrics/distance.hpp).
#include "gsflow/engine/metrics/distance.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "gsflow/engine/dna_motif.hpp"
#include "metrics/checks.hpp"

namespace gsflow::engine {

using namespace metrics_detail;

namespace {

// Bit-plane packing for the novelty search: position p of a sequence sets bit p % 64 of word
// (p / 64) * planes + q when bit q of its letter is set. Two sequences of one length differ at
// position p iff some plane differs there, so OR of the plane XORs + popcount counts mismatches.
struct PackedGroup {
  std::size_t words = 0;  // 64-position blocks per sequence
  std::size_t count = 0;
  std::vector<std::uint64_t> bits;  // [count][words][planes]
};

void pack(const Sequence& s, std::size_t planes, std::uint64_t* out) {
  for (std::size_t p = 0; p < s.size(); ++p) {
    const std::uint64_t bit = std::uint64_t{1} << (p % 64);
    std::uint64_t* block = out + (p / 64) * planes;
    for (std::size_t q = 0; q < planes; ++q)
      if ((s[p] >> q) & 1u) block[q] |= bit;
  }
}

// Mismatches between packed a and b, or any value >= stop once the count reaches stop.
template <std::size_t Planes>
[[gnu::always_inline]] inline std::size_t packed_mismatches(const std::uint64_t* a,
                                                            const std::uint64_t* b,
                                                            std::size_t words, std::size_t planes,
                                                            std::size_t stop) {
  std::size_t mism = 0;
  for (std::size_t w = 0; w < words; ++w) {
    std::uint64_t m = 0;
    if constexpr (Planes > 0) {
      for (std::size_t q = 0; q < Planes; ++q) m |= a[w * Planes + q] ^ b[w * Planes + q];
    } else {
      for (std::size_t q = 0; q < planes; ++q) m |= a[w * planes + q] ^ b[w * planes + q];
    }
    mism += static_cast<std::size_t>(std::popcount(m));
    if (mism >= stop) return mism;
  }
  return mism;
}

template <std::size_t Planes>
[[gnu::always_inline]] inline std::size_t best_mismatches(const PackedGroup& group,
                                                          const std::uint64_t* g,
                                                          std::size_t planes, std::size_t length) {
  const std::size_t stride = group.words * planes;
  std::size_t best = length + 1;
  for (std::size_t t = 0; t < group.count && best > 0; ++t) {
    const std::size_t m =
        packed_mismatches<Planes>(g, group.bits.data() + t * stride, group.words, planes, best);
    best = std::min(best, m);
  }
  return best;
}

// Fewest mismatches between packed g and any row of the group (length + 1 for an empty group).
// Cloned for CPUs with the popcnt instruction (about twice as fast as the portable popcount) and
// chosen at load time; constant plane counts let the compiler unroll DNA and protein.
__attribute__((target_clones("popcnt", "default"))) std::size_t scan_group(const PackedGroup& group,
                                                                           const std::uint64_t* g,
                                                                           std::size_t planes,
                                                                           std::size_t length) {
  switch (planes) {
    case 2:
      return best_mismatches<2>(group, g, planes, length);
    case 5:
      return best_mismatches<5>(group, g, planes, length);
    default:
      return best_mismatches<0>(group, g, planes, length);
  }
}

double pair_distance(const Sequence& a, const Sequence& b, bool equal_lengths) {
  if (equal_lengths) return static_cast<double>(hamming(a, b)) / static_cast<double>(a.size());
  return static_cast<double>(levenshtein(a, b)) / static_cast<double>(std::max(a.size(), b.size()));
}

}  // namespace

// ---- distances, diversity, uniqueness ----------------------------------------------------------

std::size_t hamming(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  if (a.size() != b.size())
    throw std::invalid_argument("hamming: lengths differ (" + std::to_string(a.size()) + " vs " +
                                std::to_string(b.size()) + ")");
  std::size_t d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d += a[i] != b[i];
  return d;
}

std::size_t levenshtein(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  if (a.size() < b.size()) std::swap(a, b);  // rows over the shorter one
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({up + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

double diversity(const SequenceSet& seqs, std::size_t K, const DiversityOptions& options) {
  validate(seqs, K, "diversity");
  const std::size_t n = seqs.size();
  if (n < 2) return 0.0;
  const bool equal = std::all_of(seqs.begin(), seqs.end(),
                                 [&](const Sequence& s) { return s.size() == seqs[0].size(); });
  const std::uint64_t all_pairs = static_cast<std::uint64_t>(n) * (n - 1) / 2;
  double sum = 0.0;
  if (all_pairs <= options.max_pairs) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) sum += pair_distance(seqs[i], seqs[j], equal);
    return sum / static_cast<double>(all_pairs);
  }
  check_rows(n);
  for (std::size_t p = 0; p < options.max_pairs; ++p) {
    const PhiloxCounter bits = raw_bits(options.seed, kPairStream, p);
    const std::size_t i = scale(bits[0], n);
    std::size_t j = scale(bits[1], n - 1);
    if (j >= i) ++j;
    sum += pair_distance(seqs[i], seqs[j], equal);
  }
  return sum / static_cast<double>(options.max_pairs);
}

double uniqueness(const SequenceSet& seqs, std::size_t K) {
  validate(seqs, K, "uniqueness");
  std::unordered_set<std::string_view> distinct;
  distinct.reserve(seqs.size());
  for (const Sequence& s : seqs) distinct.insert(as_key(s));
  return static_cast<double>(distinct.size()) / static_cast<double>(seqs.size());
}

// ---- novelty -----------------------------------------------------------------------------------

NoveltyStats novelty(const SequenceSet& generated, const SequenceSet& training, std::size_t K,
                     double threshold) {
  validate(generated, K, "generated");
  validate(training, K, "training");
  const std::size_t planes = static_cast<std::size_t>(std::bit_width(K - 1));

  std::unordered_set<std::string_view> copies;
  copies.reserve(training.size());
  std::unordered_map<std::size_t, PackedGroup> groups;
  for (const Sequence& t : training) {
    copies.insert(as_key(t));
    PackedGroup& g = groups[t.size()];
    g.words = (t.size() + 63) / 64;
    ++g.count;
  }
  for (auto& [length, g] : groups) g.bits.reserve(g.count * g.words * planes);
  for (const Sequence& t : training) {
    PackedGroup& g = groups[t.size()];
    const std::size_t offset = g.bits.size();
    g.bits.resize(offset + g.words * planes, 0);
    pack(t, planes, g.bits.data() + offset);
  }

  NoveltyStats stats;
  stats.identity.resize(generated.size(), 0.0);
  std::vector<std::uint64_t> packed;
  std::size_t exact = 0, above = 0;
  for (std::size_t i = 0; i < generated.size(); ++i) {
    const Sequence& s = generated[i];
    double identity = 0.0;
    if (copies.count(as_key(s)) != 0) {
      ++exact;
      identity = 1.0;
    } else if (const auto it = groups.find(s.size()); it != groups.end()) {
      const PackedGroup& g = it->second;
      packed.assign(g.words * planes, 0);
      pack(s, planes, packed.data());
      const std::size_t best = scan_group(g, packed.data(), planes, s.size());
      identity = static_cast<double>(s.size() - best) / static_cast<double>(s.size());
    }
    stats.identity[i] = identity;
    stats.mean_identity += identity;
    above += identity >= threshold;
  }
  const double n = static_cast<double>(generated.size());
  stats.mean_identity /= n;
  stats.fraction_above = static_cast<double>(above) / n;
  stats.exact_copy_fraction = static_cast<double>(exact) / n;
  return stats;
}

}  // namespace gsflow::engine
