// SVDD guidance (soft value-based decoding, Li et al. 2024) for the sampler's ValueGuide: at every
// step M candidate clean sequences are drawn from the model's prediction, each is scored by the
// objectives, and one is kept with probability proportional to
// exp(gamma(t) * sum_j weight_j * potential_j(candidate)); the state then moves to the path's
// sample given it (engine/sampler.hpp, ValueGuide). It never leaves the model's own proposals and
// needs no gradients (docs/method.md §9).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "gsflow/engine/sampler.hpp"
#include "gsflow/guidance/objective.hpp"
#include "gsflow/guidance/stgflow.hpp"

namespace gsflow::guidance {

// The value guide for `objectives` (one per options.terms entry): M = options.samples candidates,
// potentials as STGFlow's (objective.hpp, potential()), strength gamma(t0) of the schedule.
// `length_of(i)`: real length of global sequence i. `sink` receives each step's mean score of each
// objective over the candidates; `stats` counts the sequences scored and the time. Both must
// outlive the guide. Throws std::invalid_argument for options check_guidance refuses.
engine::ValueGuide make_value_guide(std::vector<std::shared_ptr<const Objective>> objectives,
                                    const GuidanceOptions& options,
                                    std::function<std::size_t(std::size_t)> length_of,
                                    StepScoreSink sink = {}, GuidanceStats* stats = nullptr);

}  // namespace gsflow::guidance
