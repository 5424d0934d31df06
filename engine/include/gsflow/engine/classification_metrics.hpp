// Metrics of binary classifiers (guidance classifiers and judges): AUROC and accuracy.
#pragma once

#include <cstdint>
#include <span>

namespace gsflow::engine {

// Area under the ROC curve: the probability that a random positive scores above a random
// negative, ties counting one half (Mann-Whitney U / (n1 n0)). labels are 0 or 1. Throws
// std::invalid_argument if the sizes differ, a label is not 0/1, or either class is absent.
double auroc(std::span<const double> scores, std::span<const std::uint8_t> labels);

// Share of labels predicted right by score >= threshold. Throws std::invalid_argument for
// different sizes or an empty input.
double accuracy(std::span<const double> scores, std::span<const std::uint8_t> labels,
                double threshold);

}  // namespace gsflow::engine
