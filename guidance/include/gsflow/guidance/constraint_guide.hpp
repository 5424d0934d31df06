// Steering away from hard-constraint violations during sampling: a potential in the same
// framework as STGFlow (an engine::Guide drift), the expected number of violations under the
// model's prediction. The exact part (every output meets the constraints) is the repair that
// follows sampling (engine/design/repair.hpp); steering makes it change fewer positions.
#pragma once

#include <cstddef>
#include <functional>
#include <span>

#include "gsflow/engine/design/constraints.hpp"
#include "gsflow/engine/sampler.hpp"

namespace gsflow::guidance {

// V(p) for one sequence's prediction p ([length, K] letter probabilities, positions independent):
//   forbidden sites: the expected number of matches, on both strands, of every --avoid motif
//     (sum over starts of the product of the motif letters' probabilities);
//   runs: the expected number of windows of max_run + 1 equal letters;
//   GC: (excess / w)^2 * w for the whole sequence and each window of w letters, where excess is
//     how far the expected GC count lies outside the range.
// Omitted letters need no potential: the sampler gives them probability 0 (Conditioning).
// Writes dV/dp into grad ([length, K], overwritten) and returns V.
double constraint_potential(const engine::ConstraintSet& constraints, engine::ConstRows p,
                            std::size_t length, engine::Rows grad);

// The sampler hook: drift += -strength * dV/dp at the prediction (GuideStep::xhat), per
// sequence of real length length_of(global index). Adds to whatever drift is already there, so
// it composes with STGFlow's guide (call one after the other). strength 0 = no drift.
engine::Guide make_constraint_guide(const engine::ConstraintSet& constraints, double strength,
                                    std::function<std::size_t(std::size_t)> length_of);

// For value guidance (SVDD): wraps a candidate value function so that each candidate's value
// falls by strength * V(candidate) (V at a one-hot sequence: its number of violations, GC
// excess squared) over its first length_of(global sequence) letters. strength 0 or no
// constraints: `value` itself.
std::function<void(const engine::CandidateStep&, std::span<double>)> penalise_violations(
    std::function<void(const engine::CandidateStep&, std::span<double>)> value,
    const engine::ConstraintSet& constraints, double strength,
    std::function<std::size_t(std::size_t)> length_of);

}  // namespace gsflow::guidance
