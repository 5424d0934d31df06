// Lead optimisation under an edit budget with guidance: the guided trajectory from the start
// sequence proposes edits (usually more than the budget allows), and the objectives choose which
// to keep, one at a time, best first (greedy forward selection over the proposed edits only).
// The model decides what is plausible, the objectives what helps: the budget projection of a
// guided design no longer keeps edits by the model's final confidence, which at t = 1 says little
// (docs/notes/2026-12-06-design.md, "Lead optimisation").
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gsflow/guidance/objective.hpp"
#include "gsflow/guidance/stgflow.hpp"

namespace gsflow::pipeline {

struct EditSelection {
  std::vector<std::uint8_t> letters;  // start with at most max_edits of the proposed edits
  std::uint64_t objective_calls = 0;  // sequences scored, per objective
};

// From `start`, adds the proposed edits (positions where `proposal` differs) one at a time, each
// round the one that raises sum_j weight_j * potential_j the most, while it raises it, up to
// `max_edits`. Fixed letters (`fixed[p] >= 0`, or none when empty) that differ from the start
// are taken first and count against the budget. With no more proposed edits than max_edits the
// proposal is returned as it is (no calls).
EditSelection select_edits(std::span<const std::uint8_t> start,
                           std::span<const std::uint8_t> proposal,
                           std::span<const std::int16_t> fixed, std::size_t max_edits,
                           const std::vector<std::shared_ptr<const guidance::Objective>>& objectives,
                           const std::vector<guidance::GuideTerm>& terms);

}  // namespace gsflow::pipeline
