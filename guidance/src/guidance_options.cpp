// Parsing and checking of GuidanceOptions (stgflow.hpp): schedule and source names, --guide
// terms, gamma. Kept apart from the sampler-side STGFlow so that the run-parameter reader (and its
// fuzz target) needs only this.
#include <cmath>
#include <stdexcept>
#include <string>

#include "gsflow/guidance/stgflow.hpp"

namespace gsflow::guidance {

const char* gamma_schedule_name(GammaSchedule schedule) { return kGammaScheduleNames.name(schedule); }
GammaSchedule parse_gamma_schedule(const std::string& text, const std::string& field) {
  return kGammaScheduleNames.parse(text, field);
}
const char* guide_from_name(GuideFrom from) { return kGuideFromNames.name(from); }
GuideFrom parse_guide_from(const std::string& text, const std::string& field) {
  return kGuideFromNames.parse(text, field);
}

GuideTerm parse_guide_term(const std::string& text) {
  GuideTerm term;
  const auto eq = text.rfind('=');
  term.objective = text.substr(0, eq);
  if (eq != std::string::npos) {
    const std::string w = text.substr(eq + 1);
    std::size_t used = 0;
    try {
      term.weight = std::stod(w, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (w.empty() || used != w.size() || !std::isfinite(term.weight))
      throw std::invalid_argument("--guide " + text + ": the weight '" + w +
                                  "' is not a number (use NAME=WEIGHT)");
  }
  if (term.objective.empty())
    throw std::invalid_argument("--guide '" + text + "': no objective (use NAME=WEIGHT)");
  return term;
}

double gamma_at(const GuidanceOptions& options, double t) {
  switch (options.schedule) {
    case GammaSchedule::rising: return 2.0 * options.gamma * t;
    case GammaSchedule::falling: return 2.0 * options.gamma * (1.0 - t);
    default: return options.gamma;
  }
}

void check_guidance(const GuidanceOptions& options) {
  if (!(options.gamma >= 0.0) || !std::isfinite(options.gamma))
    throw std::invalid_argument("gamma: " + std::to_string(options.gamma) +
                                " is not a number >= 0");
  if (options.samples < 1 || options.samples > 64)
    throw std::invalid_argument("guide-samples must be in 1..64");
  for (const auto& term : options.terms)
    if (!std::isfinite(term.weight))
      throw std::invalid_argument("--guide " + term.objective + ": the weight is not finite");
}

}  // namespace gsflow::guidance
