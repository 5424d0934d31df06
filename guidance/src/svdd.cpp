// SVDD's value guide (see svdd.hpp).
#include "gsflow/guidance/svdd.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace gsflow::guidance {

engine::ValueGuide make_value_guide(std::vector<std::shared_ptr<const Objective>> objectives,
                                    const GuidanceOptions& options,
                                    std::function<std::size_t(std::size_t)> length_of,
                                    StepScoreSink sink, GuidanceStats* stats) {
  check_guidance(options);
  if (objectives.size() != options.terms.size())
    throw std::invalid_argument("guidance: one objective per term is needed");
  struct State {
    std::vector<std::shared_ptr<const Objective>> objectives;
    GuidanceOptions options;
    std::function<std::size_t(std::size_t)> length_of;
    StepScoreSink sink;
    GuidanceStats* stats;
    std::vector<std::uint16_t> lengths;
    std::vector<double> scores;
  };
  auto state = std::make_shared<State>(
      State{std::move(objectives), options, std::move(length_of), std::move(sink), stats, {}, {}});
  engine::ValueGuide guide;
  guide.candidates = options.samples;
  guide.alpha = 1.0;  // the strength is gamma's, inside the value
  guide.value = [state](const engine::CandidateStep& step, std::span<double> values) {
    const auto t_start = std::chrono::steady_clock::now();
    auto& s = *state;
    const std::size_t total = step.sequences * step.candidates, l = step.length;
    s.lengths.resize(total);
    for (std::size_t i = 0; i < step.sequences; ++i)
      for (std::size_t m = 0; m < step.candidates; ++m)
        s.lengths[i * step.candidates + m] =
            static_cast<std::uint16_t>(std::min(s.length_of(step.first_sequence + i), l));
    const SequenceRows rows{step.rows, total, l, s.lengths};
    const double gamma = gamma_at(s.options, step.t0);
    std::fill(values.begin(), values.end(), 0.0);
    s.scores.resize(total);
    for (std::size_t j = 0; j < s.objectives.size(); ++j) {
      const Objective& objective = *s.objectives[j];
      objective.evaluate(rows, s.scores, nullptr);
      require_finite(objective, s.scores);
      if (s.stats) s.stats->objective_calls += total;
      const double w = gamma * s.options.terms[j].weight;
      double sum = 0.0;
      for (std::size_t c = 0; c < total; ++c) {
        values[c] += w * potential(objective.info(), s.scores[c], s.lengths[c]);
        sum += s.scores[c];
      }
      if (s.sink)
        s.sink({step.first_sequence, step.step, s.options.terms[j].objective, sum / total});
    }
    if (s.stats)
      s.stats->seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  };
  return guide;
}

}  // namespace gsflow::guidance
