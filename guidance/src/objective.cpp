// Objective specs, potentials and whole-sequence scoring (see objective.hpp).
#include "gsflow/guidance/objective.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "classifier_objective.hpp"
#include "gsflow/guidance/natural.hpp"
#include "gsflow/models/classifier.hpp"
#include "property_objectives.hpp"

namespace gsflow::guidance {

double potential(const ObjectiveInfo& info, double score, std::size_t length) {
  if (info.log_potential) return std::log(std::max(score, 1e-12));
  return info.extensive ? static_cast<double>(length) * score : score;
}

std::shared_ptr<const Objective> make_objective(const std::string& spec,
                                                const std::string& alphabet, int threads) {
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (name.empty()) throw std::invalid_argument("--guide '" + spec + "': no objective name");
  if (auto property = detail::make_property_objective(spec, name, arg, alphabet)) return property;
  if (name == "natural") return make_natural_objective(spec, arg, alphabet);
  if (name == "classifier") {
    if (arg.empty())
      throw std::invalid_argument("--guide " + spec + ": give the file, classifier:FILE");
    return detail::make_classifier_objective(spec, arg, alphabet, threads);
  }
  if (!arg.empty())
    throw std::invalid_argument("--guide " + spec + ": the classifier " + name +
                                " takes no argument");
  const auto bundled = models::bundled_classifiers();
  if (std::find(bundled.begin(), bundled.end(), name) == bundled.end()) {
    std::string known;
    for (const auto& n : objective_names(alphabet)) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("--guide " + spec + ": unknown objective '" + name +
                                "' (for " + (alphabet.empty() ? "this model" : alphabet) + ": " +
                                known + ", or classifier:FILE)");
  }
  return detail::make_classifier_objective(spec, models::resolve_classifier(name), alphabet,
                                           threads);
}

std::vector<std::string> objective_names(const std::string& alphabet) {
  auto names = detail::property_objective_names(alphabet);
  for (const auto& c : models::bundled_classifiers()) {
    try {
      if (models::Classifier::load(models::resolve_classifier(c)).info().alphabet == alphabet)
        names.push_back(c);
    } catch (const std::exception&) {  // an unreadable file is reported when it is used
    }
  }
  return names;
}

void require_finite(const Objective& objective, std::span<const double> scores,
                    const engine::Rows* grad) {
  const auto bad = [&objective](const char* what) {
    throw std::invalid_argument("objective " + objective.info().name + " returned " + what +
                                " that is not a number (NaN or infinite); it cannot score or "
                                "guide");
  };
  for (const double s : scores)
    if (!std::isfinite(s)) bad("a score");
  if (grad != nullptr)
    for (std::size_t r = 0; r < grad->rows; ++r)
      for (std::size_t c = 0; c < grad->k; ++c)
        if (!std::isfinite(grad->data[r * grad->stride + c])) bad("a gradient");
}

std::vector<double> score_sequences(const Objective& objective, const engine::SequenceSet& seqs) {
  const std::size_t k = objective.info().k;
  std::vector<double> scores(seqs.size());
  constexpr std::size_t kChunk = 256;
  std::vector<float> rows;
  std::vector<std::uint16_t> lengths;
  for (std::size_t first = 0; first < seqs.size(); first += kChunk) {
    const std::size_t n = std::min(kChunk, seqs.size() - first);
    std::size_t length = 0;
    lengths.clear();
    for (std::size_t i = 0; i < n; ++i) {
      length = std::max(length, seqs[first + i].size());
      lengths.push_back(static_cast<std::uint16_t>(seqs[first + i].size()));
    }
    rows.assign(n * length * k, 0.0f);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t p = 0; p < seqs[first + i].size(); ++p) {
        const std::uint8_t letter = seqs[first + i][p];
        if (letter >= k)
          throw std::invalid_argument("score_sequences: letter " + std::to_string(letter) +
                                      " is outside the objective's alphabet");
        rows[((i * length) + p) * k + letter] = 1.0f;
      }
    SequenceRows s{{rows.data(), n * length, k, k}, n, length, lengths};
    objective.evaluate(s, std::span<double>(scores).subspan(first, n), nullptr);
    require_finite(objective, std::span<const double>(scores).subspan(first, n));
  }
  return scores;
}

}  // namespace gsflow::guidance
