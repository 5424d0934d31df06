// Independent checks of designed sequences and region k-mer JS (see design_checks.hpp).
#include "gsflow/evaluation/design_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <stdexcept>

#include "gsflow/engine/metrics/kmer.hpp"

namespace gsflow::evaluation {

std::optional<std::size_t> resolve_position(long position, std::size_t length) {
  const long n = static_cast<long>(length);
  if (position > 0 && position <= n) return static_cast<std::size_t>(position - 1);
  if (position < 0 && -position <= n) return static_cast<std::size_t>(n + position);
  return std::nullopt;
}

std::string reverse_complement(std::string_view dna) {
  std::string out(dna.rbegin(), dna.rend());
  for (char& c : out) {
    switch (c) {
      case 'A':
        c = 'T';
        break;
      case 'C':
        c = 'G';
        break;
      case 'G':
        c = 'C';
        break;
      case 'T':
        c = 'A';
        break;
      default:
        throw std::invalid_argument(fmt::format("reverse_complement: '{}' is not A, C, G or T", c));
    }
  }
  return out;
}

std::vector<std::string> check_design(std::string_view s, const DesignCheck& check) {
  std::vector<std::string> out;
  for (const auto& f : check.fixed) {
    const auto at = resolve_position(f.position, s.size());
    if (!at || *at + f.letters.size() > s.size()) {
      out.push_back(fmt::format("fixed {}: outside a sequence of {}", f.position, s.size()));
      continue;
    }
    const std::string_view got = s.substr(*at, f.letters.size());
    if (got != f.letters)
      out.push_back(fmt::format("fixed {}: {} reads {}", f.position, f.letters, got));
  }
  for (const auto& site : check.sites) {
    if (site.empty()) continue;
    for (std::size_t p = s.find(site); p != std::string_view::npos; p = s.find(site, p + 1))
      out.push_back(fmt::format("site {} at {}", site, p + 1));
    const std::string rc = reverse_complement(site);
    if (rc == site) continue;  // a palindrome: the search above found both strands
    for (std::size_t p = s.find(rc); p != std::string_view::npos; p = s.find(rc, p + 1))
      out.push_back(fmt::format("site {} on the reverse strand ({}) at {}", site, rc, p + 1));
  }
  if (check.max_run > 0) {
    for (std::size_t i = 0; i < s.size();) {
      std::size_t j = i;
      while (j < s.size() && s[j] == s[i]) ++j;
      if (j - i > check.max_run)
        out.push_back(
            fmt::format("run of {} {} at {} (max {})", j - i, s[i], i + 1, check.max_run));
      i = j;
    }
  }
  for (std::size_t p = 0; p < s.size(); ++p)
    if (check.omit.find(s[p]) != std::string::npos)
      out.push_back(fmt::format("omitted {} at {}", s[p], p + 1));
  return out;
}

namespace {

// [begin, end) of a range in a sequence of `length` letters, clipped to it (empty if outside).
std::pair<std::size_t, std::size_t> clip(const PositionRange& r, std::size_t length) {
  const long n = static_cast<long>(length);
  const auto zero_based = [n](long p) { return p > 0 ? p - 1 : n + p; };
  const long a = std::max(0L, zero_based(r.first));
  const long b = std::min(n, zero_based(r.last) + 1);
  if (a >= b) return {0, 0};
  return {static_cast<std::size_t>(a), static_cast<std::size_t>(b)};
}

std::size_t space(std::size_t K, std::size_t k) {
  if (K < 2) throw std::invalid_argument("region k-mers: K must be at least 2");
  if (k == 0) throw std::invalid_argument("region k-mers: k must be at least 1");
  std::size_t size = 1;
  for (std::size_t j = 0; j < k; ++j) {
    size *= K;
    if (size > (std::size_t{1} << 24))
      throw std::invalid_argument(fmt::format("region k-mers: K^k above 2^24 (K {}, k {})", K, k));
  }
  return size;
}

// The k-mer codes of one sequence in `region`.
std::vector<std::uint32_t> region_codes(const engine::Sequence& s, std::size_t K, std::size_t k,
                                        const KmerRegion& region) {
  std::vector<std::uint8_t> usable(s.size(), 1);
  if (region.within) {
    const auto [a, b] = clip(*region.within, s.size());
    for (std::size_t p = 0; p < s.size(); ++p) usable[p] = p >= a && p < b;
  }
  for (const auto& r : region.excluded) {
    const auto [a, b] = clip(r, s.size());
    for (std::size_t p = a; p < b; ++p) usable[p] = 0;
  }
  std::vector<std::uint32_t> codes;
  std::size_t run = 0;  // usable letters ending at p
  std::uint64_t code = 0;
  const std::uint64_t size = space(K, k);
  for (std::size_t p = 0; p < s.size(); ++p) {
    if (s[p] >= K)
      throw std::invalid_argument(
          fmt::format("region k-mers: letter {} at {} is >= K = {}", s[p], p + 1, K));
    run = usable[p] ? run + 1 : 0;
    code = (code * K + s[p]) % size;
    if (run >= k) codes.push_back(static_cast<std::uint32_t>(code));
  }
  return codes;
}

std::vector<std::vector<std::uint32_t>> all_codes(const engine::SequenceSet& seqs, std::size_t K,
                                                  std::size_t k, const KmerRegion& region) {
  std::vector<std::vector<std::uint32_t>> out;
  out.reserve(seqs.size());
  for (const auto& s : seqs) out.push_back(region_codes(s, K, k, region));
  return out;
}

}  // namespace

std::vector<double> region_kmer_counts(const engine::SequenceSet& seqs, std::size_t K,
                                       std::size_t k, const KmerRegion& region) {
  std::vector<double> counts(space(K, k), 0.0);
  for (const auto& s : seqs)
    for (const auto c : region_codes(s, K, k, region)) counts[c] += 1.0;
  return counts;
}

RegionJs region_kmer_js(const engine::SequenceSet& generated, const KmerRegion& region,
                        const engine::SequenceSet& reference, const KmerRegion& reference_region,
                        std::size_t K, std::size_t k, std::size_t bootstrap, std::uint64_t seed) {
  const auto ref = region_kmer_counts(reference, K, k, reference_region);
  const auto codes = all_codes(generated, K, k, region);
  std::vector<double> counts(ref.size(), 0.0);
  RegionJs out;
  for (const auto& c : codes) {
    for (const auto code : c) counts[code] += 1.0;
    out.kmers += c.size();
  }
  if (out.kmers == 0) throw std::invalid_argument("region k-mer JS: no k-mer in the generated set");
  out.js = engine::js_divergence_bits(counts, ref);
  if (bootstrap == 0) return out;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, generated.size() - 1);
  double sum = 0.0, sum2 = 0.0;
  std::size_t done = 0;
  for (std::size_t b = 0; b < bootstrap; ++b) {
    std::fill(counts.begin(), counts.end(), 0.0);
    std::size_t total = 0;
    for (std::size_t i = 0; i < generated.size(); ++i) {
      const auto& c = codes[pick(rng)];
      for (const auto code : c) counts[code] += 1.0;
      total += c.size();
    }
    if (total == 0) continue;
    const double js = engine::js_divergence_bits(counts, ref);
    sum += js;
    sum2 += js * js;
    ++done;
  }
  if (done > 1) {
    const double m = sum / static_cast<double>(done);
    out.bootstrap_sd = std::sqrt(
        std::max(0.0, (sum2 - static_cast<double>(done) * m * m) / static_cast<double>(done - 1)));
  }
  return out;
}

std::vector<double> flank_counts(const engine::SequenceSet& seqs, std::size_t K,
                                 const std::vector<Site>& sites, std::size_t motif_length,
                                 std::size_t flank) {
  std::vector<double> counts(2 * flank * K, 0.0);
  for (const auto& site : sites) {
    if (site.sequence >= seqs.size() || site.start >= seqs[site.sequence].size())
      throw std::invalid_argument(
          fmt::format("flank_counts: site ({}, {}) is outside the set", site.sequence, site.start));
    const auto& s = seqs[site.sequence];
    for (std::size_t r = 0; r < 2 * flank; ++r) {
      const long p = r < flank ? static_cast<long>(site.start) - static_cast<long>(flank - r)
                               : static_cast<long>(site.start + motif_length + r - flank);
      if (p < 0 || p >= static_cast<long>(s.size())) continue;
      const auto c = s[static_cast<std::size_t>(p)];
      if (c >= K)
        throw std::invalid_argument(fmt::format("flank_counts: letter {} is >= K = {}", c, K));
      counts[r * K + c] += 1.0;
    }
  }
  return counts;
}

double flank_js(const std::vector<double>& a, const std::vector<double>& b, std::size_t K) {
  if (K == 0 || a.size() != b.size() || a.size() % K != 0)
    throw std::invalid_argument("flank_js: tables of different sizes or not rows of K");
  double sum = 0.0;
  std::size_t rows = 0;
  for (std::size_t r = 0; r < a.size() / K; ++r) {
    const std::span<const double> ra(a.data() + r * K, K), rb(b.data() + r * K, K);
    const auto total = [](std::span<const double> v) {
      double t = 0.0;
      for (const double x : v) t += x;
      return t;
    };
    if (total(ra) <= 0.0 || total(rb) <= 0.0) continue;
    sum += engine::js_divergence_bits(ra, rb);
    ++rows;
  }
  if (rows == 0) throw std::invalid_argument("flank_js: no row counted on both sides");
  return sum / static_cast<double>(rows);
}

}  // namespace gsflow::evaluation
