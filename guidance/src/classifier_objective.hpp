// Classifiers (models::Classifier) as guidance objectives: the score is P(positive) (or the raw
// score for "score" outputs) and guidance follows log P.
#pragma once

#include <memory>
#include <string>

#include "gsflow/guidance/objective.hpp"

namespace gsflow::guidance::detail {

// Loads the classifier `file` for the objective named `spec`; throws std::invalid_argument naming
// `spec` when it is for another alphabet. It evaluates on `threads` threads.
std::shared_ptr<const Objective> make_classifier_objective(const std::string& spec,
                                                           const std::string& file,
                                                           const std::string& alphabet,
                                                           int threads);

}  // namespace gsflow::guidance::detail
