// The exact repair: the sequence closest to a design (fewest changed positions; among those, the
// letters the model prefers most) that keeps the fixed letters, stays within the edit budget
// from a start sequence, and meets every hard constraint. And the check, before any work, that
// such a sequence exists at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "gsflow/engine/design/constraints.hpp"
#include "gsflow/engine/kernels.hpp"

namespace gsflow::engine {

inline constexpr std::size_t kNoEditBudget = std::numeric_limits<std::size_t>::max();

struct RepairInput {
  std::span<const std::uint8_t> design;  // the sampled letters, [L]
  // [L, K] the model's probabilities at the end of sampling (rows sum to 1): among repairs with
  // equally few changes, the one with the highest product of these is chosen. rows == 0: uniform.
  ConstRows preference{};
  std::span<const std::int16_t> fixed{};  // [L] letter that must stay (-1 = free); empty = none
  std::span<const std::uint8_t> start{};  // [L] start sequence for the budget; empty = none
  std::size_t max_edits = kNoEditBudget;  // at most this many positions differ from `start`
};

struct RepairResult {
  std::vector<std::uint8_t> letters;  // the repaired sequence, [L]
  std::size_t changed = 0;            // positions that differ from input.design
  bool met = false;                   // every constraint, fixed letter and the budget hold
  std::vector<std::string> unmet;     // ConstraintSet::violations of `letters` (+ budget) if not
};

// Changes as few positions of input.design as possible. Forbidden sites, runs, omitted letters,
// fixed letters and the edit budget are solved exactly together (dynamic programming over an
// automaton of the forbidden words and the current run); GC ranges are then met greedily, one
// single change at a time (the one that helps most, then the cheapest) that breaks nothing else.
// Returns the design unchanged (changed == 0) when it already meets everything. When nothing
// meets the exact part, returns the design with the fixed letters written in, met = false.
// Throws std::invalid_argument when the spans' lengths disagree or a letter index is outside the
// alphabet.
RepairResult repair(const ConstraintSet& constraints, const RepairInput& input);

// Throws std::invalid_argument naming the options in conflict (e.g. "--avoid GAATTC conflicts
// with the fixed letters at 31..36", "--max-run 1 cannot be met with --omit ACG (one letter
// left)", "--max-edits 0: the start sequence breaks avoid EcoRI (GAATTC) at 12", "--gc-min 0.9:
// with the fixed letters at most 0.55 is possible") when no sequence of this length meets the
// constraints with these fixed letters (and, when `start` is given, within max_edits of it).
// Exact for sites, runs, omitted and fixed letters and the budget together; for GC it checks,
// for the whole and each window alone, the counts the fixed and allowed letters can reach (a
// necessary condition). Also throws when the spans' lengths disagree with `length`.
void check_satisfiable(const ConstraintSet& constraints, std::size_t length,
                       std::span<const std::int16_t> fixed = {},
                       std::span<const std::uint8_t> start = {},
                       std::size_t max_edits = kNoEditBudget);

}  // namespace gsflow::engine
