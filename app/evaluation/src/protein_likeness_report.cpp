// JSON and terminal table of the protein-likeness figures of `gsflow eval` (see
// protein_likeness.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "gsflow/evaluation/protein_likeness.hpp"

namespace gsflow::evaluation {

namespace {

nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

std::string cell(double v, int decimals, std::size_t width) {
  return std::isfinite(v) ? fmt::format("  {:>{}.{}f}", v, width, decimals)
                          : fmt::format("  {:>{}}", "-", width);
}

}  // namespace

nlohmann::json alignment_summary_json(const AlignmentSummary& s) {
  return {{"n", s.n},
          {"score_median", number(s.score_median)},
          {"score_mean", number(s.score_mean)},
          {"identity_median", number(s.identity_median)},
          {"identity_mean", number(s.identity_mean)},
          {"fraction_identity_at_least", number(s.fraction_identity_at_least)},
          {"identity_threshold", number(s.identity_threshold)},
          {"fraction_near_copies", number(s.fraction_near_copies)},
          {"coverage_threshold", number(s.coverage_threshold)}};
}

nlohmann::json protein_likeness_json(const ProteinLikeness& r) {
  return {{"aligner", "parasail sw_striped_profile_sat (identity: sw_stats_striped_profile_sat)"},
          {"matrix", "BLOSUM62"},
          {"gap_open", r.options.gap_open},
          {"gap_extend", r.options.gap_extend},
          {"identity",
           "matches / columns of the best-scoring local alignment against the nearest "
           "(best-scoring) training sequence"},
          {"training_sequences", r.training_size},
          {"split", r.split},
          {"shuffle_seed", r.shuffle_seed},
          {"seconds", number(r.seconds)},
          {"designs", alignment_summary_json(r.designs)},
          {"reference", alignment_summary_json(r.reference)},
          {"shuffled", alignment_summary_json(r.shuffled)}};
}

std::string protein_likeness_table(const std::string& model, const ProteinLikeness& r) {
  std::vector<std::pair<std::string, const AlignmentSummary*>> rows{
      {model, &r.designs}, {r.split, &r.reference}, {"shuffled " + r.split, &r.shuffled}};
  for (const auto& [name, s] : r.baselines) rows.emplace_back(name, &s);
  std::size_t label = 3;
  for (const auto& row : rows) label = std::max(label, row.first.size());
  const double threshold = r.designs.identity_threshold;
  std::string out = fmt::format(
      "protein-likeness: best Smith-Waterman hit (BLOSUM62, gap {} + {} per further residue) "
      "among {} training sequences; {:.1f} s\n",
      r.options.gap_open, r.options.gap_extend, r.training_size, r.seconds);
  const std::string identity_header = fmt::format("identity >= {:g}", threshold);
  const std::string copies_header =
      fmt::format("near copies ({:g} % long)", 100.0 * r.designs.coverage_threshold);
  const std::string header =
      fmt::format("{:<{}}  {:>6}  {:>12}  {:>10}  {:>15}  {:>15}  {:>{}}", "set", label, "n",
                  "median score", "mean score", "median identity", identity_header,
                  copies_header, copies_header.size());
  out += header + '\n' + std::string(header.size(), '-') + '\n';
  for (const auto& [name, s] : rows) {
    out += fmt::format("{:<{}}  {:>6}", name, label, s->n);
    out += cell(s->score_median, 1, 12) + cell(s->score_mean, 1, 10) +
           cell(s->identity_median, 3, 15) + cell(s->fraction_identity_at_least, 3, 15) +
           cell(s->fraction_near_copies, 3, copies_header.size()) + '\n';
  }
  return out;
}

}  // namespace gsflow::evaluation
