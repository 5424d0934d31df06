// The per-sequence naturalness signal: simple statistics of one sequence (letter fractions, the
// longest single-letter run, composition entropy; for DNA also CpG observed/expected) compared
// with the range a reference set (the model's training data) spans, so that a degenerate design
// (28 % cysteine, CCCCC runs, a CpG-rich stretch) is flagged at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gsflow/engine/sequence.hpp"

namespace gsflow::engine {

// The statistics' names, in the order sequence_stats() returns them: "A", "C", ... (letter
// fractions, letters from `letters`), "longest_run", "entropy" (bits of the letter composition)
// and, for DNA (letters == "ACGT"), "cpg_oe".
std::vector<std::string> sequence_stat_names(const std::string& letters);
std::vector<double> sequence_stats(std::span<const std::uint8_t> seq, const std::string& letters);

// Per statistic, the reference set's range: the `tail` and 1 - `tail` quantiles.
struct TypicalityProfile {
  std::string letters;             // the alphabet's letters
  std::vector<std::string> names;  // sequence_stat_names(letters)
  std::vector<double> low, high;   // per statistic
  double tail = 0.001;             // the quantile each bound leaves outside
  std::size_t reference_size = 0;  // sequences the profile was fitted on

  // Throws std::invalid_argument for an empty reference or tail outside (0, 0.5).
  static TypicalityProfile fit(const SequenceSet& reference, const std::string& letters,
                               double tail = 0.001);
  // The statistics of `seq` outside the range, as "C 0.28 > 0.19" / "entropy 2.1 < 3.4".
  std::vector<std::string> atypical(std::span<const std::uint8_t> seq) const;
};

}  // namespace gsflow::engine
