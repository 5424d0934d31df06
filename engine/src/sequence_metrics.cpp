// Evaluation metrics for generated sequence sets and the PWM baseline (see sequence_metrics.hpp).
#include "gsflow/engine/sequence_metrics.hpp"

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
#include "gsflow/engine/philox.hpp"

namespace gsflow::engine {

namespace {

void check_alphabet(std::size_t K) {
  if (K < 2 || K > 255)
    throw std::invalid_argument("alphabet size K must be in 2..255, got " + std::to_string(K));
}

// Throws std::invalid_argument naming `what` for an empty set, an empty sequence or a letter >= K.
void validate(const SequenceSet& seqs, std::size_t K, const char* what) {
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

std::string_view as_key(const Sequence& s) {
  return {reinterpret_cast<const char*>(s.data()), s.size()};
}

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

std::uint32_t check_rows(std::size_t n) {
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("more than 2^32 sequences requested");
  return static_cast<std::uint32_t>(n);
}

// Index of the first cumulative value above u (u in (0, 1)); the last index if none is.
std::size_t draw(const double* cdf, std::size_t size, double u) {
  const double* it = std::upper_bound(cdf, cdf + size, u * cdf[size - 1]);
  return std::min<std::size_t>(static_cast<std::size_t>(it - cdf), size - 1);
}

constexpr std::uint32_t kPairStream = 0x70616972u;    // "pair": diversity pair sample
constexpr std::uint32_t kSubsetStream = 0x73756273u;  // "subs": sample_subset

// Four raw Philox words for draw `index` of `stream` under `seed`.
PhiloxCounter raw_bits(std::uint64_t seed, std::uint32_t stream, std::uint64_t index) {
  return philox4x32_10(
      {static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32), stream, 0u},
      {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
}

// floor(bits * n / 2^32): an index in [0, n).
std::size_t scale(std::uint32_t bits, std::size_t n) {
  return static_cast<std::size_t>((static_cast<std::uint64_t>(bits) * n) >> 32);
}

double pair_distance(const Sequence& a, const Sequence& b, bool equal_lengths) {
  if (equal_lengths) return static_cast<double>(hamming(a, b)) / static_cast<double>(a.size());
  return static_cast<double>(levenshtein(a, b)) / static_cast<double>(std::max(a.size(), b.size()));
}

void check_dna(const SequenceSet& seqs, const char* what) { validate(seqs, 4, what); }

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

// ---- TATA box ----------------------------------------------------------------------------------

bool tata_at(std::span<const std::uint8_t> s, std::size_t start) {
  static const DnaMotif tata(kTataMotif);
  return tata.at(s, start);
}

TataProfile tata_profile(const SequenceSet& seqs, const TataOptions& options) {
  check_dna(seqs, "tata");
  TataProfile prof;
  prof.sequences = seqs.size();
  std::size_t longest = 0;
  for (const Sequence& s : seqs) longest = std::max(longest, s.size());
  prof.start_counts.assign(longest, 0);
  std::size_t in_window = 0;
  for (const Sequence& s : seqs) {
    bool hit = false;
    for (std::size_t start = 0; start + kTataLength <= s.size(); ++start) {
      if (!tata_at(s, start)) continue;
      const std::size_t d = s.size() - 1 - start;  // position -(d + 1) from the 3' end
      ++prof.start_counts[d];
      ++prof.matches;
      const long pos = -static_cast<long>(d) - 1;
      hit = hit || (pos >= options.window_begin && pos <= options.window_end);
    }
    in_window += hit;
  }
  prof.window_fraction = static_cast<double>(in_window) / static_cast<double>(seqs.size());
  return prof;
}

std::vector<double> tata_bin_rates(const TataProfile& p, const TataOptions& options,
                                   std::size_t bins) {
  if (options.bin == 0) throw std::invalid_argument("tata_bin_rates: bin width must be >= 1");
  if (p.sequences == 0) throw std::invalid_argument("tata_bin_rates: the profile has no sequences");
  if (bins == 0) bins = (p.start_counts.size() + options.bin - 1) / options.bin;
  std::vector<double> r(bins, 0.0);
  for (std::size_t d = 0; d < p.start_counts.size() && d / options.bin < bins; ++d)
    r[d / options.bin] += static_cast<double>(p.start_counts[d]);
  for (double& v : r) v /= static_cast<double>(p.sequences);
  return r;
}

TataComparison compare_tata(const TataProfile& a, const TataProfile& b,
                            const TataOptions& options) {
  if (options.bin == 0) throw std::invalid_argument("compare_tata: bin width must be >= 1");
  if (a.sequences == 0 || b.sequences == 0)
    throw std::invalid_argument("compare_tata: a profile has no sequences");
  const std::size_t longest = std::max(a.start_counts.size(), b.start_counts.size());
  const std::size_t bins = (longest + options.bin - 1) / options.bin;
  const std::vector<double> ra = tata_bin_rates(a, options, bins),
                            rb = tata_bin_rates(b, options, bins);
  TataComparison cmp;
  cmp.window_fraction_diff = std::abs(a.window_fraction - b.window_fraction);
  for (std::size_t i = 0; i < bins; ++i) cmp.histogram_l1 += std::abs(ra[i] - rb[i]);
  return cmp;
}

// ---- baselines ---------------------------------------------------------------------------------

PwmModel PwmModel::fit(const SequenceSet& training, std::size_t K, double pseudocount) {
  validate(training, K, "training");
  if (!(pseudocount >= 0.0)) throw std::invalid_argument("PwmModel::fit: pseudocount must be >= 0");
  PwmModel m;
  m.k_ = K;
  for (const Sequence& s : training) m.max_length_ = std::max(m.max_length_, s.size());
  m.probs_.assign(m.max_length_ * K, pseudocount);
  m.length_probs_.assign(m.max_length_ + 1, 0.0);
  std::vector<double> covered(m.max_length_, pseudocount * static_cast<double>(K));
  for (const Sequence& s : training) {
    for (std::size_t p = 0; p < s.size(); ++p) {
      m.probs_[p * K + s[p]] += 1.0;
      covered[p] += 1.0;
    }
    m.length_probs_[s.size()] += 1.0;
  }
  for (std::size_t p = 0; p < m.max_length_; ++p)
    for (std::size_t c = 0; c < K; ++c) m.probs_[p * K + c] /= covered[p];
  for (double& v : m.length_probs_) v /= static_cast<double>(training.size());
  return m;
}

SequenceSet PwmModel::sample(std::size_t n, std::uint64_t seed) const {
  const std::uint32_t rows = check_rows(n);
  std::vector<double> length_cdf(length_probs_.size());
  std::partial_sum(length_probs_.begin(), length_probs_.end(), length_cdf.begin());
  std::vector<double> cdf(probs_.size());
  for (std::size_t p = 0; p < max_length_; ++p)
    std::partial_sum(probs_.begin() + p * k_, probs_.begin() + (p + 1) * k_, cdf.begin() + p * k_);
  SequenceSet out(n);
  for (std::uint32_t i = 0; i < rows; ++i) {
    const std::size_t length =
        draw(length_cdf.data(), length_cdf.size(), noise_uniform(seed, 1, i, 0));
    out[i].resize(length);
    for (std::size_t p = 0; p < length; ++p)
      out[i][p] =
          static_cast<std::uint8_t>(draw(cdf.data() + p * k_, k_, noise_uniform(seed, 0, i, p)));
  }
  return out;
}

SequenceSet PwmModel::sample(std::size_t n, std::size_t length, std::uint64_t seed) const {
  if (length == 0 || length > max_length_)
    throw std::invalid_argument("PwmModel::sample: length " + std::to_string(length) +
                                " is not in 1.." + std::to_string(max_length_));
  const std::uint32_t rows = check_rows(n);
  std::vector<double> cdf(length * k_);
  for (std::size_t p = 0; p < length; ++p)
    std::partial_sum(probs_.begin() + p * k_, probs_.begin() + (p + 1) * k_, cdf.begin() + p * k_);
  SequenceSet out(n, Sequence(length));
  for (std::uint32_t i = 0; i < rows; ++i)
    for (std::size_t p = 0; p < length; ++p)
      out[i][p] =
          static_cast<std::uint8_t>(draw(cdf.data() + p * k_, k_, noise_uniform(seed, 0, i, p)));
  return out;
}

SequenceSet sample_subset(const SequenceSet& set, std::size_t n, std::uint64_t seed) {
  if (set.empty()) throw std::invalid_argument("sample_subset: set is empty");
  check_rows(set.size());
  const std::size_t m = std::min(n, set.size());
  std::vector<std::size_t> index(set.size());
  std::iota(index.begin(), index.end(), std::size_t{0});
  for (std::size_t i = 0; i < m; ++i) {  // partial Fisher-Yates
    const std::size_t j = i + scale(raw_bits(seed, kSubsetStream, i)[0], set.size() - i);
    std::swap(index[i], index[j]);
  }
  SequenceSet out;
  out.reserve(m);
  for (std::size_t i = 0; i < m; ++i) out.push_back(set[index[i]]);
  return out;
}

// ---- the aggregate -----------------------------------------------------------------------------

std::vector<double> kmer_js_floor(const SequenceSet& training_sample, const SequenceSet& reference,
                                  std::size_t K, std::size_t kmax) {
  if (kmax == 0) throw std::invalid_argument("kmax must be >= 1");
  std::vector<double> js(kmax);
  for (std::size_t k = 1; k <= kmax; ++k) js[k - 1] = kmer_js(training_sample, reference, K, k);
  return js;
}

SetMetrics evaluate_set(const SequenceSet& generated, const SequenceSet& reference,
                        const SequenceSet& training, std::size_t K, std::size_t kmax,
                        const EvalOptions& options) {
  validate(generated, K, "generated");
  validate(reference, K, "reference");
  validate(training, K, "training");
  if (kmax == 0) throw std::invalid_argument("kmax must be >= 1");
  SetMetrics m;
  m.n = generated.size();
  m.alphabet_size = K;
  m.dna = K == 4;
  m.kmer_js = kmer_js_floor(generated, reference, K, kmax);
  m.uniqueness = uniqueness(generated, K);
  const NoveltyStats nov = novelty(generated, training, K, options.novelty_threshold);
  m.exact_copy_fraction = nov.exact_copy_fraction;
  m.novelty_mean_identity = nov.mean_identity;
  m.novelty_fraction_above = nov.fraction_above;
  m.novelty_threshold = options.novelty_threshold;
  m.diversity = diversity(generated, K, options.diversity);
  m.reference_diversity = diversity(reference, K, options.diversity);
  m.composition_kl = composition_kl(reference, generated, K, options.composition_pseudocount);
  m.letter_frequencies = letter_frequencies(generated, K);
  m.reference_letter_frequencies = letter_frequencies(reference, K);
  if (m.dna) {
    m.gc = gc_stats(generated);
    m.reference_gc = gc_stats(reference);
    const std::size_t common = std::min(m.gc.profile.size(), m.reference_gc.profile.size());
    for (std::size_t p = 0; p < common; ++p)
      m.gc_profile_mae += std::abs(m.gc.profile[p] - m.reference_gc.profile[p]);
    m.gc_profile_mae /= static_cast<double>(common);
    m.tata = tata_profile(generated, options.tata);
    m.reference_tata = tata_profile(reference, options.tata);
    m.tata_vs_reference = compare_tata(m.tata, m.reference_tata, options.tata);
    m.tata_options = options.tata;
    m.training_gc = gc_stats(training);
    m.training_tata = tata_profile(training, options.tata);
  }
  m.lengths = length_stats(generated);
  m.reference_lengths = length_stats(reference);
  m.training_lengths = length_stats(training);
  m.length_w1 = length_w1(m.lengths, m.reference_lengths);
  return m;
}

}  // namespace gsflow::engine
