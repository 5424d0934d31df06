// Composition checks of issue 38's targets (see composition_checks.hpp).
#include "gsflow/evaluation/composition_checks.hpp"

#include "gsflow/engine/metrics/quantile.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace gsflow::evaluation {

namespace {

// sequence_stats' layout: letter fractions, then longest_run, entropy and (DNA) cpg_oe.
std::vector<double> stats_of(std::span<const std::uint8_t> seq, const std::string& letters) {
  for (const auto c : seq)
    if (c >= letters.size())
      throw std::invalid_argument("composition checks: letter index outside the alphabet");
  return engine::sequence_stats(seq, letters);
}

}  // namespace

ResidueCeiling ResidueCeiling::fit(const engine::SequenceSet& real, const std::string& letters,
                                   double quantile) {
  if (real.empty()) throw std::invalid_argument("residue ceiling: no real sequences");
  if (!(quantile > 0.0 && quantile < 1.0))
    throw std::invalid_argument("residue ceiling: the quantile must be in (0, 1)");
  std::vector<std::vector<double>> columns(letters.size());
  for (const auto& seq : real) {
    const auto s = stats_of(seq, letters);
    for (std::size_t j = 0; j < letters.size(); ++j) columns[j].push_back(s[j]);
  }
  ResidueCeiling c;
  c.letters = letters;
  c.quantile = quantile;
  c.reference_size = real.size();
  for (auto& column : columns) c.high.push_back(engine::quantile(std::move(column), quantile));
  return c;
}

CompositionChecks composition_checks(const engine::SequenceSet& seqs, const std::string& letters,
                                     const CompositionOptions& options,
                                     const ResidueCeiling* ceiling,
                                     const engine::TypicalityProfile* profile) {
  if (seqs.empty()) throw std::invalid_argument("composition checks: no sequences");
  if (ceiling && ceiling->letters != letters)
    throw std::invalid_argument("composition checks: the residue ceiling is for letters " +
                                ceiling->letters + ", not " + letters);
  if (profile && profile->letters != letters)
    throw std::invalid_argument("composition checks: the typicality profile is for letters " +
                                profile->letters + ", not " + letters);
  const std::size_t k = letters.size();
  CompositionChecks out;
  out.n = seqs.size();
  out.dna = letters == "ACGT";
  out.run_min = out.dna ? options.dna_run : options.protein_run;
  const std::size_t run_index = k;  // sequence_stats: longest_run follows the K letter fractions
  const std::size_t cpg_index = k + 2;
  out.has_ceiling = !out.dna && ceiling != nullptr;
  if (out.has_ceiling) out.above_ceiling_by_letter.assign(k, 0.0);
  std::size_t long_runs = 0, above = 0, atypical = 0;
  double cpg_sum = 0.0;
  for (const auto& seq : seqs) {
    const auto s = stats_of(seq, letters);
    if (s[run_index] >= static_cast<double>(out.run_min)) ++long_runs;
    if (out.dna) cpg_sum += s[cpg_index];
    if (out.has_ceiling) {
      bool any = false;
      for (std::size_t j = 0; j < k; ++j)
        if (s[j] > ceiling->high[j]) {
          out.above_ceiling_by_letter[j] += 1.0;
          any = true;
        }
      if (any) ++above;
    }
    if (profile && !profile->atypical(seq).empty()) ++atypical;
  }
  const double n = static_cast<double>(seqs.size());
  out.long_run_fraction = static_cast<double>(long_runs) / n;
  if (out.dna) {
    out.cpg_oe_mean = cpg_sum / n;
    out.tata_window_fraction = engine::tata_profile(seqs, options.tata).window_fraction;
  }
  if (out.has_ceiling) {
    out.above_ceiling_fraction = static_cast<double>(above) / n;
    for (std::size_t j = 0; j < k; ++j) {
      out.above_ceiling_by_letter[j] /= n;
      if (j == 0 || out.above_ceiling_by_letter[j] > out.worst_letter_fraction) {
        out.worst_letter_fraction = out.above_ceiling_by_letter[j];
        out.worst_letter = letters[j];
      }
    }
  }
  if (profile) out.atypical_fraction = static_cast<double>(atypical) / n;
  return out;
}

nlohmann::json to_json(const CompositionChecks& c, const std::string& letters,
                       const CompositionOptions& options) {
  nlohmann::json j = {{"n", c.n}, {"long_run_min", c.run_min}, {"long_run_fraction", c.long_run_fraction}};
  if (c.dna) {
    j["tata_window"] = {options.tata.window_begin, options.tata.window_end};
    j["tata_window_fraction"] = c.tata_window_fraction;
    j["cpg_oe_mean"] = c.cpg_oe_mean;
  }
  if (c.has_ceiling) {
    j["residue_above_ceiling_fraction"] = c.above_ceiling_fraction;
    nlohmann::json by = nlohmann::json::object();
    for (std::size_t i = 0; i < letters.size() && i < c.above_ceiling_by_letter.size(); ++i)
      by[std::string(1, letters[i])] = c.above_ceiling_by_letter[i];
    j["residue_above_ceiling_by_letter"] = by;
    j["worst_residue"] = std::string(1, c.worst_letter);
    j["worst_residue_fraction"] = c.worst_letter_fraction;
  }
  if (c.atypical_fraction) j["atypical_fraction"] = *c.atypical_fraction;
  return j;
}

}  // namespace gsflow::evaluation
