// Where the sampler's steps fall in time (docs/method.md, "Fewer steps"). The uniform grid spends
// a third of its steps before the state carries any information about the clean letters; the
// information grid spends them where the path's information about the clean letter arrives.
#pragma once

#include <string>
#include <vector>

#include "gsflow/engine/enum_names.hpp"
#include "gsflow/engine/path.hpp"

namespace gsflow::engine {

enum class TimeGrid {
  uniform,      // t_i = begin + (1 - begin) i / N
  information,  // equal steps of F(t) = (1 - w) I(t) + w t, I: the path's information (below)
};
inline constexpr EnumNames<TimeGrid, 2> kTimeGridNames{
    "time_grid", {{{TimeGrid::uniform, "uniform"}, {TimeGrid::information, "information"}}}};

// Share of the steps laid out uniformly in t by the information grid (the rest follows I(t)), so
// that no stretch of time is left without a step.
inline constexpr double kInformationGridFloor = 0.25;

// I(t) in [0, 1]: how much of the clean letter the path's state tells at time t, as the fall of
// the exact posterior's mean entropy under a uniform prior, (H(0) - H(t)) / (H(0) - H(1)),
// estimated on `points` times from a fixed Monte Carlo sample (deterministic). For Linear FM
// (`linear` true) the path is t e + (1 - t) Dirichlet(1).
std::vector<double> path_information(const Path& path, std::size_t k, bool linear, int points);

// The N + 1 times begin = t_0 < t_1 < ... < t_N = 1 of an N-step run from `begin`.
std::vector<double> time_grid(TimeGrid grid, const Path& path, std::size_t k, bool linear,
                              int steps, double begin);

}  // namespace gsflow::engine
