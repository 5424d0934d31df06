// k-mer counts and Jensen-Shannon divergence (see metrics/kmer.hpp).
#include "gsflow/engine/metrics/kmer.hpp"

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

// K^k, or throws when it reaches 2^63 (codes are uint64).
std::uint64_t power(std::size_t K, std::size_t k) {
  std::uint64_t size = 1;
  for (std::size_t j = 0; j < k; ++j) {
    if (size > (std::uint64_t{1} << 63) / K)
      throw std::invalid_argument("k-mer space K^k is too large (K = " + std::to_string(K) +
                                  ", k = " + std::to_string(k) + ")");
    size *= K;
  }
  return size;
}

// K^k for a k-mer length k >= 1.
std::uint64_t kmer_space(std::size_t K, std::size_t k) {
  if (k == 0) throw std::invalid_argument("k-mer length k must be >= 1");
  return power(K, k);
}

// Calls f(code) for each overlapping k-mer of each sequence (rolling base-K code).
template <typename F>
void for_each_kmer(const SequenceSet& seqs, std::size_t K, std::size_t k, F&& f) {
  const std::uint64_t top = power(K, k - 1);  // K^(k-1), weight of the first letter
  for (const Sequence& s : seqs) {
    if (s.size() < k) continue;
    std::uint64_t code = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (i >= k) code -= s[i - k] * top;
      code = code * K + s[i];
      if (i + 1 >= k) f(code);
    }
  }
}

std::vector<std::uint64_t> sorted_kmer_codes(const SequenceSet& seqs, std::size_t K,
                                             std::size_t k) {
  std::vector<std::uint64_t> codes;
  std::size_t total = 0;
  for (const Sequence& s : seqs) total += s.size() >= k ? s.size() - k + 1 : 0;
  codes.reserve(total);
  for_each_kmer(seqs, K, k, [&](std::uint64_t c) { codes.push_back(c); });
  std::sort(codes.begin(), codes.end());
  return codes;
}

// One category's contribution to JS in bits, from p = a / A and q = b / B.
double js_term(double p, double q) {
  const double m = 0.5 * (p + q);
  double t = 0.0;
  if (p > 0.0) t += 0.5 * p * std::log2(p / m);
  if (q > 0.0) t += 0.5 * q * std::log2(q / m);
  return t;
}

template <typename T>
double js_bits(std::span<const T> p, std::span<const T> q) {
  if (p.size() != q.size())
    throw std::invalid_argument("js_divergence_bits: count vectors differ in size (" +
                                std::to_string(p.size()) + " vs " + std::to_string(q.size()) + ")");
  double sp = 0.0, sq = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!(p[i] >= 0) || !(q[i] >= 0))
      throw std::invalid_argument("js_divergence_bits: negative or NaN count");
    sp += static_cast<double>(p[i]);
    sq += static_cast<double>(q[i]);
  }
  if (sp <= 0.0 || sq <= 0.0) throw std::invalid_argument("js_divergence_bits: a total is zero");
  double js = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i)
    js += js_term(static_cast<double>(p[i]) / sp, static_cast<double>(q[i]) / sq);
  return std::clamp(js, 0.0, 1.0);
}

}  // namespace

// ---- k-mers ------------------------------------------------------------------------------------

std::vector<std::uint64_t> kmer_counts(const SequenceSet& seqs, std::size_t K, std::size_t k) {
  validate(seqs, K, "k-mer");
  const std::uint64_t size = kmer_space(K, k);
  if (size > (std::uint64_t{1} << 24))
    throw std::invalid_argument("kmer_counts: K^k = " + std::to_string(size) +
                                " is above 2^24; use kmer_js");
  std::vector<std::uint64_t> counts(size, 0);
  for_each_kmer(seqs, K, k, [&](std::uint64_t c) { ++counts[c]; });
  return counts;
}

double js_divergence_bits(std::span<const double> p, std::span<const double> q) {
  return js_bits(p, q);
}

double js_divergence_bits(std::span<const std::uint64_t> p, std::span<const std::uint64_t> q) {
  return js_bits(p, q);
}

double kmer_js(const SequenceSet& a, const SequenceSet& b, std::size_t K, std::size_t k) {
  validate(a, K, "first");
  validate(b, K, "second");
  const std::uint64_t space = kmer_space(K, k);
  if (space <= (std::uint64_t{1} << 20)) {  // small spaces (DNA k <= 10): dense counts, no sort
    std::vector<std::uint64_t> ca(space, 0), cb(space, 0);
    for_each_kmer(a, K, k, [&](std::uint64_t c) { ++ca[c]; });
    for_each_kmer(b, K, k, [&](std::uint64_t c) { ++cb[c]; });
    const bool a_empty = std::all_of(ca.begin(), ca.end(), [](auto c) { return c == 0; });
    const bool b_empty = std::all_of(cb.begin(), cb.end(), [](auto c) { return c == 0; });
    if (a_empty || b_empty)
      throw std::invalid_argument("kmer_js: a set has no " + std::to_string(k) +
                                  "-mer (all its sequences are shorter than k)");
    return js_bits<std::uint64_t>(ca, cb);
  }
  const std::vector<std::uint64_t> ca = sorted_kmer_codes(a, K, k);
  const std::vector<std::uint64_t> cb = sorted_kmer_codes(b, K, k);
  if (ca.empty() || cb.empty())
    throw std::invalid_argument("kmer_js: a set has no " + std::to_string(k) +
                                "-mer (all its sequences are shorter than k)");
  const double na = static_cast<double>(ca.size()), nb = static_cast<double>(cb.size());
  double js = 0.0;
  std::size_t i = 0, j = 0;
  while (i < ca.size() || j < cb.size()) {
    const std::uint64_t code = j == cb.size()   ? ca[i]
                               : i == ca.size() ? cb[j]
                                                : std::min(ca[i], cb[j]);
    std::size_t x = 0, y = 0;
    while (i < ca.size() && ca[i] == code) ++i, ++x;
    while (j < cb.size() && cb[j] == code) ++j, ++y;
    js += js_term(static_cast<double>(x) / na, static_cast<double>(y) / nb);
  }
  return std::clamp(js, 0.0, 1.0);
}

}  // namespace gsflow::engine
