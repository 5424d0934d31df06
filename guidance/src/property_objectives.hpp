// Built-in property objectives (see objective.hpp for their specs): per-letter linear scores
// (GC, GRAVY, net charge), the PWM motif score and the TATA-box count.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "gsflow/guidance/objective.hpp"

namespace gsflow::guidance::detail {

// The objective `name` with argument `arg` ("" = none) for `alphabet`, or nullptr when `name` is
// not a built-in property. Throws std::invalid_argument naming `spec` for a bad argument or
// alphabet.
std::shared_ptr<const Objective> make_property_objective(const std::string& spec,
                                                         const std::string& name,
                                                         const std::string& arg,
                                                         const std::string& alphabet);

// Names of the built-in properties for `alphabet`.
std::vector<std::string> property_objective_names(const std::string& alphabet);

}  // namespace gsflow::guidance::detail
