// The per-sequence naturalness signal (see typicality.hpp).
#include "gsflow/engine/metrics/typicality.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gsflow::engine {

namespace {
bool is_dna(const std::string& letters) { return letters == "ACGT"; }

std::string shown(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}
}  // namespace

std::vector<std::string> sequence_stat_names(const std::string& letters) {
  std::vector<std::string> names;
  for (const char c : letters) names.emplace_back(1, c);
  names.emplace_back("longest_run");
  names.emplace_back("entropy");
  if (is_dna(letters)) names.emplace_back("cpg_oe");
  return names;
}

std::vector<double> sequence_stats(std::span<const std::uint8_t> seq, const std::string& letters) {
  const std::size_t k = letters.size();
  if (seq.empty()) throw std::invalid_argument("sequence_stats: empty sequence");
  std::vector<double> counts(k, 0.0);
  std::size_t longest = 0, run = 0, cpg = 0;
  for (std::size_t i = 0; i < seq.size(); ++i) {
    if (seq[i] >= k) throw std::invalid_argument("sequence_stats: letter index out of range");
    counts[seq[i]] += 1.0;
    run = i > 0 && seq[i] == seq[i - 1] ? run + 1 : 1;
    longest = std::max(longest, run);
    if (i > 0 && seq[i - 1] == 1 && seq[i] == 2) ++cpg;  // C then G (ACGT order)
  }
  const double n = static_cast<double>(seq.size());
  std::vector<double> stats;
  double entropy = 0.0;
  for (const double c : counts) {
    stats.push_back(c / n);
    if (c > 0.0) entropy -= c / n * std::log2(c / n);
  }
  stats.push_back(static_cast<double>(longest));
  stats.push_back(entropy);
  if (is_dna(letters)) {
    // CpG observed / expected = count(CG) * n / (count(C) * count(G)); 0 without C or G.
    const double expected = counts[1] * counts[2];
    stats.push_back(expected > 0.0 ? static_cast<double>(cpg) * n / expected : 0.0);
  }
  return stats;
}

TypicalityProfile TypicalityProfile::fit(const SequenceSet& reference, const std::string& letters,
                                         double tail) {
  if (reference.empty()) throw std::invalid_argument("typicality profile: no reference sequences");
  if (!(tail > 0.0 && tail < 0.5))
    throw std::invalid_argument("typicality profile: tail must be in (0, 0.5)");
  TypicalityProfile p;
  p.letters = letters;
  p.names = sequence_stat_names(letters);
  p.tail = tail;
  p.reference_size = reference.size();
  std::vector<std::vector<double>> columns(p.names.size());
  for (const auto& seq : reference) {
    const auto s = sequence_stats(seq, letters);
    for (std::size_t j = 0; j < s.size(); ++j) columns[j].push_back(s[j]);
  }
  for (auto& column : columns) {
    std::sort(column.begin(), column.end());
    const auto at = [&column](double q) {  // the lower order statistic at quantile q
      const auto i = static_cast<std::size_t>(std::floor(q * static_cast<double>(column.size() - 1)));
      return column[i];
    };
    p.low.push_back(at(tail));
    p.high.push_back(column[static_cast<std::size_t>(
        std::ceil((1.0 - tail) * static_cast<double>(column.size() - 1)))]);
  }
  return p;
}

std::vector<std::string> TypicalityProfile::atypical(std::span<const std::uint8_t> seq) const {
  const auto s = sequence_stats(seq, letters);
  std::vector<std::string> out;
  for (std::size_t j = 0; j < s.size() && j < low.size(); ++j) {
    if (s[j] > high[j]) out.push_back(names[j] + " " + shown(s[j]) + " > " + shown(high[j]));
    if (s[j] < low[j]) out.push_back(names[j] + " " + shown(s[j]) + " < " + shown(low[j]));
  }
  return out;
}

}  // namespace gsflow::engine
