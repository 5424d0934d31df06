// AUROC by ranks and accuracy (see classification_metrics.hpp).
#include "gsflow/engine/classification_metrics.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace gsflow::engine {

double auroc(std::span<const double> scores, std::span<const std::uint8_t> labels) {
  if (scores.size() != labels.size())
    throw std::invalid_argument("auroc: scores and labels differ in size");
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return scores[a] < scores[b]; });
  // Sum of the (mid-)ranks of the positives, ties sharing their average rank.
  double positive_ranks = 0.0;
  std::size_t positives = 0;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j < order.size() && scores[order[j]] == scores[order[i]]) ++j;
    const double mid_rank = 0.5 * static_cast<double>(i + 1 + j);  // ranks i+1 .. j
    for (std::size_t m = i; m < j; ++m) {
      const std::uint8_t label = labels[order[m]];
      if (label > 1) throw std::invalid_argument("auroc: labels must be 0 or 1");
      if (label == 1) {
        positive_ranks += mid_rank;
        ++positives;
      }
    }
    i = j;
  }
  const std::size_t negatives = labels.size() - positives;
  if (positives == 0 || negatives == 0)
    throw std::invalid_argument("auroc: needs at least one positive and one negative");
  const double n1 = static_cast<double>(positives);
  return (positive_ranks - n1 * (n1 + 1.0) / 2.0) / (n1 * static_cast<double>(negatives));
}

double accuracy(std::span<const double> scores, std::span<const std::uint8_t> labels,
                double threshold) {
  if (scores.size() != labels.size() || scores.empty())
    throw std::invalid_argument("accuracy: needs equally many scores and labels, at least one");
  std::size_t right = 0;
  for (std::size_t i = 0; i < scores.size(); ++i)
    right += (scores[i] >= threshold) == (labels[i] == 1);
  return static_cast<double>(right) / static_cast<double>(scores.size());
}

}  // namespace gsflow::engine
