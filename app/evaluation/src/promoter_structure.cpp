// Promoter-structure figures: strand TATA densities and tandem-repeat share (see
// promoter_structure.hpp).
#include "gsflow/evaluation/promoter_structure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "gsflow/engine/dna_motif.hpp"
#include "gsflow/engine/metrics/tata.hpp"

namespace gsflow::evaluation {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double per(std::size_t count, std::size_t positions) {
  return positions == 0 ? kNaN : static_cast<double>(count) / static_cast<double>(positions);
}

nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

// Adds the anchors of `motif` in `s` to `d`: a match at `start` is anchored at start + offset.
void count_strand(std::span<const std::uint8_t> s, const engine::DnaMotif& motif,
                  std::size_t offset, const PromoterStructureOptions& o, StrandDensity& d) {
  const std::size_t m = motif.size();
  if (s.size() < m) return;
  const long length = static_cast<long>(s.size());
  for (std::size_t start = 0; start + m <= s.size(); ++start) {
    const long pos = static_cast<long>(start + offset) - length;  // -1 = the last base
    const bool core = pos >= o.window_begin && pos <= o.window_end;
    const bool hit = motif.at(s, start);
    (core ? d.core_positions : d.elsewhere_positions) += 1;
    (core ? d.core_matches : d.elsewhere_matches) += hit;
  }
}

nlohmann::json density_json(const StrandDensity& d) {
  return {{"core_matches", d.core_matches},
          {"core_positions", d.core_positions},
          {"elsewhere_matches", d.elsewhere_matches},
          {"elsewhere_positions", d.elsewhere_positions},
          {"core_per_bp", number(d.core_density())},
          {"elsewhere_per_bp", number(d.elsewhere_density())},
          {"ratio", number(d.ratio())}};
}

}  // namespace

double StrandDensity::core_density() const { return per(core_matches, core_positions); }
double StrandDensity::elsewhere_density() const {
  return per(elsewhere_matches, elsewhere_positions);
}
double StrandDensity::ratio() const {
  const double e = elsewhere_density();
  return e > 0.0 ? core_density() / e : kNaN;
}

double PromoterStructure::repeat_share() const { return per(repeat_bases, bases); }
double PromoterStructure::strict_repeat_share() const { return per(strict_repeat_bases, bases); }

std::vector<bool> tandem_repeat_mask(std::span<const std::uint8_t> s, std::size_t max_period,
                                     std::size_t min_length, std::size_t min_copies) {
  if (min_copies < 2)
    throw std::invalid_argument("tandem repeats: a region needs at least 2 copies of its unit");
  if (max_period == 0)
    throw std::invalid_argument("tandem repeats: the longest period must be >= 1");
  if (min_length <= max_period)
    throw std::invalid_argument(fmt::format(
        "tandem repeats: the shortest region ({} bp) must exceed the longest period ({})",
        min_length, max_period));
  const std::size_t n = s.size();
  std::vector<bool> mask(n, false);
  for (std::size_t p = 1; p <= max_period && p < n; ++p) {
    std::size_t i = 0;
    while (i + p < n) {
      if (s[i] != s[i + p]) {
        ++i;
        continue;
      }
      const std::size_t a = i;
      while (i + p < n && s[i] == s[i + p]) ++i;  // i = b: the first mismatch (or the end)
      if (i - a + p >= std::max(min_length, min_copies * p))
        for (std::size_t j = a; j < i + p; ++j) mask[j] = true;
    }
  }
  return mask;
}

PromoterStructure promoter_structure(const engine::SequenceSet& seqs,
                                     const PromoterStructureOptions& options) {
  if (options.window_begin > options.window_end || options.window_end >= 0)
    throw std::invalid_argument(fmt::format(
        "promoter structure: window {}..{} must run from a lower to a higher negative position",
        options.window_begin, options.window_end));
  // Checks the repeat options before any sequence (an empty set included).
  (void)tandem_repeat_mask({}, options.repeat_max_period, options.repeat_min_length,
                           options.repeat_strict_copies);
  static const engine::DnaMotif forward(engine::kTataMotif);
  static const engine::DnaMotif reverse = forward.reverse_complement();
  PromoterStructure out;
  out.sequences = seqs.size();
  for (std::size_t q = 0; q < seqs.size(); ++q) {
    const engine::Sequence& s = seqs[q];
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i] > 3)
        throw std::invalid_argument(fmt::format(
            "promoter structure: sequence {} has letter {} at position {} (DNA is 0..3)", q + 1,
            static_cast<int>(s[i]), i + 1));
    count_strand(s, forward, 0, options, out.forward_tata);
    count_strand(s, reverse, reverse.size() - 1, options, out.reverse_tata);
    const std::vector<bool> mask =
        tandem_repeat_mask(s, options.repeat_max_period, options.repeat_min_length);
    const std::vector<bool> strict = tandem_repeat_mask(
        s, options.repeat_max_period, options.repeat_min_length, options.repeat_strict_copies);
    out.bases += s.size();
    for (const bool b : mask) out.repeat_bases += b;
    for (const bool b : strict) out.strict_repeat_bases += b;
  }
  return out;
}

nlohmann::json promoter_structure_json(const PromoterStructure& p) {
  return {{"sequences", p.sequences},
          {"fwd_tata", density_json(p.forward_tata)},
          {"rev_tata", density_json(p.reverse_tata)},
          {"tandem_repeat",
           {{"bases", p.bases},
            {"repeat_bases", p.repeat_bases},
            {"share", number(p.repeat_share())},
            {"strict_repeat_bases", p.strict_repeat_bases},
            {"strict_share", number(p.strict_repeat_share())}}}};
}

}  // namespace gsflow::evaluation
