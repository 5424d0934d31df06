// Classifier objectives (see classifier_objective.hpp).
#include "classifier_objective.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "gsflow/models/classifier.hpp"

namespace gsflow::guidance::detail {

namespace {

class ClassifierObjective final : public Objective {
 public:
  ClassifierObjective(ObjectiveInfo info, models::Classifier classifier)
      : info_(std::move(info)), classifier_(std::move(classifier)) {}
  const ObjectiveInfo& info() const override { return info_; }

  void evaluate(const SequenceRows& s, std::span<double> scores,
                const engine::Rows* grad) const override {
    const auto& ci = classifier_.info();
    for (std::size_t i = 0; i < s.n; ++i) {
      const std::size_t len = s.length_of(i);
      if (len < ci.min_length || len > ci.max_length)
        throw std::invalid_argument("--guide " + info_.name + ": the classifier scores " +
                                    std::to_string(ci.min_length) + ".." +
                                    std::to_string(ci.max_length) + " letters, not " +
                                    std::to_string(len));
    }
    std::vector<double> out(s.n);
    classifier_.evaluate(s.x, s.n, s.length, s.lengths, out, grad);
    for (std::size_t i = 0; i < s.n; ++i) {
      const double z = out[i];
      // d potential / d output: log sigmoid(z) -> 1 - sigmoid(z); log p -> 1 / p; identity -> 1.
      double slope = 1.0;
      if (ci.output == "logit") {
        scores[i] = 1.0 / (1.0 + std::exp(-z));
        slope = 1.0 / (1.0 + std::exp(z));
      } else if (ci.output == "probability") {
        scores[i] = z;
        slope = 1.0 / std::max(z, 1e-12);
      } else {
        scores[i] = z;
      }
      if (!grad || slope == 1.0) continue;
      for (std::size_t p = 0; p < s.length; ++p) {
        float* g = grad->data + (i * s.length + p) * grad->stride;
        for (std::size_t c = 0; c < info_.k; ++c) g[c] = static_cast<float>(g[c] * slope);
      }
    }
  }

 private:
  ObjectiveInfo info_;
  models::Classifier classifier_;
};

}  // namespace

std::shared_ptr<const Objective> make_classifier_objective(const std::string& spec,
                                                           const std::string& file,
                                                           const std::string& alphabet,
                                                           int threads) {
  auto classifier = models::Classifier::load(file);
  classifier.set_threads(threads);
  const auto& ci = classifier.info();
  if (ci.alphabet != alphabet)
    throw std::invalid_argument("--guide " + spec + ": " + file + " classifies " + ci.alphabet +
                                " sequences, not " + (alphabet.empty() ? "this model's" : alphabet));
  ObjectiveInfo info;
  info.name = spec;
  info.alphabet = ci.alphabet;
  info.k = ci.k;
  info.description = ci.output == "score" ? ci.positive + " (score)" : "P(" + ci.positive + ")";
  info.log_potential = ci.output != "score";
  info.differentiable = ci.differentiable;
  return std::make_shared<ClassifierObjective>(info, std::move(classifier));
}

}  // namespace gsflow::guidance::detail
