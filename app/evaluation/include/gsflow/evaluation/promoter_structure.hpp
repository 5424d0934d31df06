// Promoter-structure figures of `gsflow eval` for DNA sets (issue 39): TATA-box density on each
// strand in the core window against the rest of the window, and the share of bases in short
// perfect tandem repeats. Counting only; the report rows are in eval_report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <vector>

#include "gsflow/engine/sequence.hpp"

namespace gsflow::evaluation {

struct PromoterStructureOptions {
  int window_begin = -45;              // core window of motif anchors (inclusive), from the 3' end
  int window_end = -15;                // (-1 = the last base); the TATA profile's window
  std::size_t repeat_max_period = 6;   // tandem repeats of period 1..this
  std::size_t repeat_min_length = 12;  // a repeat region counts from this many bases
  // The second, stricter share also needs this many whole copies of the unit (>= 12 bp already
  // means 3 copies for periods 1..4; it drops the 12..14-bp period-5 and 12..17-bp period-6
  // regions, two copies of a 5- or 6-mer that AT-rich sequence makes often by chance).
  std::size_t repeat_strict_copies = 3;
};

// Motif matches of one strand by where their anchor base lies. A match's anchor is its 5' end on
// the strand it is read from: for TATAWAWR on the given strand its first base (as the TATA
// profile's starts), for the reverse-strand box (YWTWTATA on the given strand) its last base on
// the given strand. Positions count the anchors a whole motif fits around (L - 7 per sequence of
// length L >= 8), so densities are matches per possible anchor.
struct StrandDensity {
  std::size_t core_matches = 0;         // anchors inside the core window
  std::size_t core_positions = 0;       // possible anchors inside it
  std::size_t elsewhere_matches = 0;    // anchors elsewhere in the sequence
  std::size_t elsewhere_positions = 0;  // possible anchors elsewhere
  // Matches per possible anchor in the core, and elsewhere; NaN with no positions.
  double core_density() const;
  double elsewhere_density() const;
  // core_density / elsewhere_density: below 1 = depleted in the core. NaN when either has no
  // positions or nothing matches elsewhere.
  double ratio() const;
};

struct PromoterStructure {
  std::size_t sequences = 0;
  StrandDensity forward_tata;    // TATAWAWR
  StrandDensity reverse_tata;    // its reverse complement YWTWTATA, anchored at its last base
  std::size_t bases = 0;         // letters in all sequences
  std::size_t repeat_bases = 0;  // of them, inside a tandem repeat region (tandem_repeat_mask)
  std::size_t strict_repeat_bases = 0;  // the same with repeat_strict_copies whole copies
  // repeat_bases / bases and strict_repeat_bases / bases; NaN for no bases.
  double repeat_share() const;
  double strict_repeat_share() const;
};

// Bases of `s` (letters 0..3 = A C G T, or any small alphabet) inside a perfect tandem repeat:
// for a period p in 1..max_period, a maximal stretch of consecutive i = a..b-1 with
// s[i] == s[i + p] makes s[a .. b - 1 + p] a repeat region of (b - a) + p bases (its period-p
// unit copied without error); the region counts when it has >= min_length bases and
// >= min_copies * p bases (min_copies whole copies). Element i is true when base i lies in a
// counted region of any period, so a base covered by several periods (AAAA... is a region of
// every period) counts once. Throws std::invalid_argument when max_period is 0, min_length <=
// max_period (a region must hold two whole copies) or min_copies < 2.
std::vector<bool> tandem_repeat_mask(std::span<const std::uint8_t> s, std::size_t max_period = 6,
                                     std::size_t min_length = 12, std::size_t min_copies = 2);

// Both strands' TATA densities and the tandem-repeat share of a DNA set (letters 0..3 = A C G T).
// Sequences of any length; an empty set gives zero counts (NaN ratios and share). Throws
// std::invalid_argument for a letter > 3, for window_begin > window_end or window_end >= 0, and as
// tandem_repeat_mask for the repeat options.
PromoterStructure promoter_structure(const engine::SequenceSet& seqs,
                                     const PromoterStructureOptions& options = {});

// The figures of one set for eval's --json: {"fwd_tata": {...}, "rev_tata": {...}} with
// "core_matches", "core_positions", "elsewhere_matches", "elsewhere_positions",
// "core_per_bp", "elsewhere_per_bp", "ratio", and "tandem_repeat": {"bases", "repeat_bases",
// "share", "strict_repeat_bases", "strict_share"}. Non-finite numbers are null.
nlohmann::json promoter_structure_json(const PromoterStructure& p);

// The sets of one `gsflow eval` report: the evaluated set, the split, the training set and the
// baselines by name (the names of eval_table's baseline columns).
struct PromoterStructureColumns {
  PromoterStructureOptions options;
  PromoterStructure model, reference, training;
  std::map<std::string, PromoterStructure> baselines;
};

}  // namespace gsflow::evaluation
