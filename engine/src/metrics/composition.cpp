// Letter composition, GC and length statistics (see metrics/composition.hpp).
#include "gsflow/engine/metrics/composition.hpp"

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

// ---- composition, GC, lengths ------------------------------------------------------------------

std::vector<double> letter_frequencies(const SequenceSet& seqs, std::size_t K) {
  validate(seqs, K, "composition");
  std::vector<double> freq(K, 0.0);
  double total = 0.0;
  for (const Sequence& s : seqs) {
    for (std::uint8_t c : s) freq[c] += 1.0;
    total += static_cast<double>(s.size());
  }
  for (double& f : freq) f /= total;
  return freq;
}

double composition_kl(const SequenceSet& reference, const SequenceSet& generated, std::size_t K,
                      double pseudocount) {
  validate(reference, K, "reference");
  validate(generated, K, "generated");
  if (!(pseudocount >= 0.0))
    throw std::invalid_argument("composition_kl: pseudocount must be >= 0");
  auto smoothed = [&](const SequenceSet& seqs) {
    std::vector<double> c(K, pseudocount);
    double total = pseudocount * static_cast<double>(K);
    for (const Sequence& s : seqs) {
      for (std::uint8_t x : s) c[x] += 1.0;
      total += static_cast<double>(s.size());
    }
    for (double& v : c) v /= total;
    return c;
  };
  const std::vector<double> p = smoothed(reference), q = smoothed(generated);
  double kl = 0.0;
  for (std::size_t c = 0; c < K; ++c)
    if (p[c] > 0.0) kl += p[c] * std::log(p[c] / q[c]);  // q[c] = 0 only if pseudocount = 0
  return std::max(kl, 0.0);
}

GcStats gc_stats(const SequenceSet& seqs) {
  check_dna(seqs, "gc");
  std::size_t longest = 0;
  for (const Sequence& s : seqs) longest = std::max(longest, s.size());
  GcStats gc;
  gc.profile.assign(longest, 0.0);
  std::vector<std::size_t> covered(longest, 0);
  for (const Sequence& s : seqs) {
    std::size_t count = 0;
    for (std::size_t p = 0; p < s.size(); ++p) {
      const bool is_gc = s[p] == 1 || s[p] == 2;
      count += is_gc;
      gc.profile[p] += is_gc;
      ++covered[p];
    }
    gc.mean += static_cast<double>(count) / static_cast<double>(s.size());
  }
  gc.mean /= static_cast<double>(seqs.size());
  for (std::size_t p = 0; p < longest; ++p) gc.profile[p] /= static_cast<double>(covered[p]);
  return gc;
}

LengthStats length_stats(const SequenceSet& seqs) {
  if (seqs.empty()) throw std::invalid_argument("length_stats: set is empty");
  LengthStats st;
  st.min = std::numeric_limits<std::size_t>::max();
  for (const Sequence& s : seqs) {
    if (s.empty()) throw std::invalid_argument("length_stats: a sequence is empty");
    ++st.histogram[s.size()];
    st.mean += static_cast<double>(s.size());
    st.min = std::min(st.min, s.size());
    st.max = std::max(st.max, s.size());
  }
  st.mean /= static_cast<double>(seqs.size());
  return st;
}

double length_w1(const LengthStats& a, const LengthStats& b) {
  auto total = [](const LengthStats& s) {
    double t = 0.0;
    for (const auto& [l, c] : s.histogram) t += static_cast<double>(c);
    return t;
  };
  const double na = total(a), nb = total(b);
  if (na == 0.0 || nb == 0.0) throw std::invalid_argument("length_w1: empty length histogram");
  // W1 on the integers = sum over l of |CDF_a(l) - CDF_b(l)|; the CDFs only change at lengths
  // present in either histogram.
  std::map<std::size_t, double> diff;  // length -> P_a(length) - P_b(length)
  for (const auto& [l, c] : a.histogram) diff[l] += static_cast<double>(c) / na;
  for (const auto& [l, c] : b.histogram) diff[l] -= static_cast<double>(c) / nb;
  double w1 = 0.0, cdf = 0.0;
  for (auto it = diff.begin(); it != diff.end(); ++it) {
    cdf += it->second;
    const auto next = std::next(it);
    if (next != diff.end()) w1 += std::abs(cdf) * static_cast<double>(next->first - it->first);
  }
  return w1;
}

}  // namespace gsflow::engine
