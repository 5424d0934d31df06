// TATA-box (TATAWAWR) profiles of DNA sequence sets and their comparison.
// Unless stated otherwise every function here throws std::invalid_argument when a set it needs
// is empty, when a sequence is empty, when a letter is >= K, or when K is outside 2..255.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "gsflow/engine/sequence.hpp"

namespace gsflow::engine {

// ---- TATA box ----------------------------------------------------------------------------------

struct TataOptions {
  int window_begin = -45;  // window of match starts (inclusive), positions from the 3' end
  int window_end = -15;    // (-1 = last base)
  std::size_t bin = 10;    // histogram bin width for compare_tata, in bp
};

struct TataProfile {
  std::size_t sequences = 0;  // number of sequences scanned
  std::size_t matches = 0;    // number of matches (overlapping matches all count)
  // start_counts[d]: matches whose first base is at position -(d + 1) from the 3' end (d = 0: the
  // last base). Size = longest sequence.
  std::vector<std::size_t> start_counts;
  double window_fraction = 0.0;  // fraction of sequences with >= 1 match starting in the window
};

// The TATA box as an IUPAC motif (W = A/T, R = A/G) and its length.
inline constexpr const char* kTataMotif = "TATAWAWR";
inline constexpr std::size_t kTataLength = 8;
// True when TATAWAWR starts at `start` of the DNA letters `s` (ACGT order); false when fewer than
// kTataLength letters follow.
bool tata_at(std::span<const std::uint8_t> s, std::size_t start);

// Matches of TATAWAWR on the given strand only (no reverse complement). DNA only (K = 4, ACGT
// order).
TataProfile tata_profile(const SequenceSet& seqs, const TataOptions& options = {});

// Matches per sequence starting in each bin of options.bin positions from the 3' end: element b
// covers positions -(b*bin + 1) .. -(b+1)*bin; `bins` elements (0 = as many as the profile needs).
std::vector<double> tata_bin_rates(const TataProfile& p, const TataOptions& options = {},
                                   std::size_t bins = 0);

struct TataComparison {
  double window_fraction_diff = 0.0;  // |a.window_fraction - b.window_fraction|
  // L1 distance between binned match rates: bin b holds positions -(b*bin + 1) .. -(b+1)*bin and
  // its rate is (matches starting there) / (sequences scanned), so sets of different sizes compare.
  double histogram_l1 = 0.0;
};
TataComparison compare_tata(const TataProfile& a, const TataProfile& b,
                            const TataOptions& options = {});

}  // namespace gsflow::engine
