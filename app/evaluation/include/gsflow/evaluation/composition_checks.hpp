// The composition checks that issue 38's steering targets name, measured on a set by counting
// letters (engine metrics: the TATA profile and the per-sequence statistics), with no part of the
// guidance or of the guiding classifier: DNA TATA boxes in the -45..-15 window, CpG
// observed/expected and long homopolymers; peptide residues above the range of real positives and
// single-residue runs; for both the share flagged atypical by the model's typicality profile.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gsflow/engine/metrics/tata.hpp"
#include "gsflow/engine/metrics/typicality.hpp"
#include "gsflow/engine/sequence.hpp"

namespace gsflow::evaluation {

struct CompositionOptions {
  engine::TataOptions tata;        // DNA: the window of TATAWAWR starts (default -45..-15)
  std::size_t dna_run = 8;         // DNA: a homopolymer at least this long is counted
  std::size_t protein_run = 5;     // protein: a single-residue run at least this long is counted
  double residue_quantile = 0.99;  // protein: the per-residue ceiling fitted on a real set
};

// Per letter, the `quantile` of that letter's fraction over the sequences of a real set (e.g. the
// AMP-labelled training peptides), by linear interpolation between order statistics.
struct ResidueCeiling {
  std::string letters;
  std::vector<double> high;  // one per letter
  double quantile = 0.99;
  std::size_t reference_size = 0;  // sequences it was fitted on

  // Throws std::invalid_argument for an empty set, an empty sequence, a letter index outside
  // `letters` or a quantile outside (0, 1).
  static ResidueCeiling fit(const engine::SequenceSet& real, const std::string& letters,
                            double quantile = 0.99);
};

struct CompositionChecks {
  std::size_t n = 0;  // sequences checked
  bool dna = false;   // letters == "ACGT": the DNA figures are filled, else the protein ones
  // Both: the share whose longest single-letter run is >= run_min (dna_run or protein_run).
  std::size_t run_min = 0;
  double long_run_fraction = 0.0;
  // DNA only:
  double tata_window_fraction = 0.0;  // sequences with >= 1 TATAWAWR starting in the window
  double cpg_oe_mean = 0.0;           // mean over sequences of CpG observed/expected
  // Protein only, when a ceiling is given:
  bool has_ceiling = false;
  double above_ceiling_fraction = 0.0;           // sequences with any letter's fraction > its ceiling
  std::vector<double> above_ceiling_by_letter;   // per letter: sequences above that letter's ceiling
  double worst_letter_fraction = 0.0;            // the largest of above_ceiling_by_letter
  char worst_letter = '?';                       // its letter
  // Both, when a typicality profile is given: sequences with at least one statistic outside it.
  std::optional<double> atypical_fraction;
};

// The checks of `seqs` (letter indices into `letters`: "ACGT" for DNA, else protein). `ceiling`
// (protein) and `profile` are optional. Throws std::invalid_argument for an empty set, an empty
// sequence, a letter index outside `letters`, or a ceiling or profile for other letters.
CompositionChecks composition_checks(const engine::SequenceSet& seqs, const std::string& letters,
                                     const CompositionOptions& options = {},
                                     const ResidueCeiling* ceiling = nullptr,
                                     const engine::TypicalityProfile* profile = nullptr);

// The checks as a JSON object: n, long_run_min, long_run_fraction; DNA: tata_window,
// tata_window_fraction, cpg_oe_mean; protein with a ceiling: residue_above_ceiling_fraction,
// residue_above_ceiling_by_letter {letter: fraction}, worst_residue, worst_residue_fraction;
// atypical_fraction when measured.
nlohmann::json to_json(const CompositionChecks& checks, const std::string& letters,
                       const CompositionOptions& options = {});

}  // namespace gsflow::evaluation
