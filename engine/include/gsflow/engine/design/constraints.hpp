// Hard constraints on designed sequences (forbidden sites, letter runs, GC content, omitted
// letters): checking a sequence, and the exact repair that makes a sequence meet them by changing
// as few positions as possible (repair.hpp). Steering toward them during sampling is a guidance
// potential (guidance/constraint_guide.hpp); this file is the exact part.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gsflow/engine/alphabet.hpp"

namespace gsflow::engine {

// The constraints as the user gives them (`gsflow generate` options; stored with the run).
// The {} initializers keep -Wmissing-field-initializers quiet for designated initializers.
struct Constraints {
  // DNA: sites that must not occur on either strand, as IUPAC motifs (GAATTC, GGTCTC, CCWGG) or
  // names of bundled restriction enzymes (EcoRI, BsaI; restriction_enzymes(), case-insensitive).
  std::vector<std::string> avoid{};
  std::size_t max_run = 0;  // longest run of one letter allowed (homopolymer / residue run); 0 = any
  double gc_min = 0.0;      // DNA: GC fraction of the whole sequence in [gc_min, gc_max] ...
  double gc_max = 1.0;
  std::size_t gc_window = 0;  // ... and of every window of this many letters (0 = whole only)
  std::string omit{};         // letters never used, e.g. "C" (any letters of the alphabet)

  bool active() const {
    return !avoid.empty() || max_run > 0 || gc_min > 0.0 || gc_max < 1.0 || !omit.empty();
  }
};

// The bundled restriction enzymes: (name, recognition site in IUPAC), e.g. ("EcoRI", "GAATTC").
const std::vector<std::pair<std::string, std::string>>& restriction_enzymes();

// Constraints resolved for one alphabet: motifs expanded on both strands, letters encoded.
// Immutable after construction; safe to share between threads.
class ConstraintSet {
 public:
  // Throws std::invalid_argument naming the option ("--avoid XYZ: ...", "--omit CX: ...",
  // "--gc-min 0.7 is above --gc-max 0.6", "--gc-window: DNA only ...") for an unknown enzyme, a
  // letter that is not IUPAC, a motif of more than 4096 concrete words, --avoid / --gc-* for a
  // non-DNA alphabet, an omitted letter outside the alphabet, omitting every letter, or gc_min >
  // gc_max or outside 0..1. max_run 1 is allowed (no two equal letters in a row).
  ConstraintSet(const Constraints& constraints, const Alphabet& alphabet);

  const Constraints& constraints() const { return constraints_; }
  const Alphabet& alphabet() const { return *alphabet_; }
  bool active() const { return constraints_.active(); }

  // What `seq` (letter indices) breaks, one line per site hit, run and omitted letter, e.g.
  // "avoid EcoRI (GAATTC) at 37", "avoid GGTCTC (reverse strand) at 120" (a hit of the reverse
  // complement only), "run of 8 A at 12 (max 6)", "omitted C at 5" (1-based positions), then GC:
  // "GC 0.62 above 0.60" for the whole sequence and one line for the windows, naming the worst,
  // "GC 0.71 in window 41..90 (0.40..0.60), and 3 more windows". Empty when every constraint is
  // met. Throws std::invalid_argument for a letter index outside the alphabet.
  std::vector<std::string> violations(std::span<const std::uint8_t> seq) const;
  bool met(std::span<const std::uint8_t> seq) const { return violations(seq).empty(); }

  // The automaton of the forbidden words (both strands, IUPAC expanded): repair.cpp walks it.
  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  Constraints constraints_;
  const Alphabet* alphabet_;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace gsflow::engine
