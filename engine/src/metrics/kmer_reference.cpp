// Positional k-mer frequencies (see kmer_reference.hpp).
#include "gsflow/engine/metrics/kmer_reference.hpp"

#include <cmath>
#include <stdexcept>

namespace gsflow::engine {

namespace {
// Counts per bin and k-mer of the sequences of `set` that have length >= k; adds each bin's total
// to `totals`.
std::vector<double> count(const KmerReference& ref, const SequenceSet& set,
                          std::vector<double>& totals, std::size_t* used = nullptr) {
  const std::size_t kk = ref.letters.size(), words = ref.words();
  std::vector<double> counts(ref.bins * words, 0.0);
  totals.assign(ref.bins, 0.0);
  for (const auto& s : set) {
    if (s.size() < ref.k) continue;
    if (used) ++*used;
    std::size_t w = 0;
    for (std::size_t p = 0; p < s.size(); ++p) {
      if (s[p] >= kk)
        throw std::invalid_argument("k-mer reference: letter index " + std::to_string(s[p]) +
                                    " outside an alphabet of " + std::to_string(kk));
      w = (w * kk + s[p]) % words;
      if (p + 1 < ref.k) continue;
      const std::size_t b = ref.bin_of(p + 1 - ref.k, s.size());
      counts[b * words + w] += 1.0;
      totals[b] += 1.0;
    }
  }
  return counts;
}
}  // namespace

std::size_t KmerReference::words() const {
  std::size_t w = 1;
  for (std::size_t i = 0; i < k; ++i) w *= letters.size();
  return w;
}

std::size_t KmerReference::bin_of(std::size_t start, std::size_t length) const {
  return start * bins / (length - k + 1);
}

KmerReference KmerReference::fit(const SequenceSet& reference, const std::string& letters,
                                 std::size_t k, std::size_t bins) {
  KmerReference ref;
  ref.letters = letters;
  ref.k = k;
  ref.bins = bins;
  if (k < 1 || k > 8 || letters.size() < 2 || ref.words() > 65536)
    throw std::invalid_argument("k-mer reference: k = " + std::to_string(k) + " for " +
                                std::to_string(letters.size()) +
                                " letters (k in 1..8 and at most 65536 k-mers)");
  if (bins < 1) throw std::invalid_argument("k-mer reference: bins must be >= 1");
  std::vector<double> totals;
  ref.freq = count(ref, reference, totals, &ref.reference_size);
  if (ref.reference_size < 10)
    throw std::invalid_argument("k-mer reference: fewer than 10 sequences of length >= k");
  const std::size_t words = ref.words();
  for (std::size_t b = 0; b < bins; ++b)
    for (std::size_t w = 0; w < words; ++w)
      ref.freq[b * words + w] =
          (ref.freq[b * words + w] + 0.5) / (totals[b] + 0.5 * static_cast<double>(words));
  return ref;
}

std::vector<double> kmer_log_ratio(const KmerReference& ref, const SequenceSet& set) {
  std::vector<double> totals;
  auto q = count(ref, set, totals);
  const std::size_t words = ref.words();
  const auto prior = static_cast<double>(words);
  for (std::size_t b = 0; b < ref.bins; ++b)
    for (std::size_t w = 0; w < words; ++w) {
      const double r = ref.freq[b * words + w];
      q[b * words + w] = std::log((q[b * words + w] + prior * r) / (totals[b] + prior) / r);
    }
  return q;
}

}  // namespace gsflow::engine
