// STGFlow: straight-through guided flows (method.md section 4). At every sampler step, M letter
// sequences are drawn from the current state, each objective scores them with gradients with
// respect to the one-hot input (straight through: hard one-hot forward, gradient at the one-hot),
// the gradients are averaged and weighted, and the sampler moves the state along them scaled by
// gamma(t) (engine::Guide). Objectives without gradients use the exact substitution scan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gsflow/engine/sampler.hpp"
#include "gsflow/guidance/objective.hpp"

namespace gsflow::guidance {

enum class GammaSchedule {
  constant,  // gamma(t) = gamma
  rising,    // gamma(t) = 2 gamma t: the same total push, given late when the state means more
  falling,   // gamma(t) = 2 gamma (1 - t): the same total push, given early, so that the
             // denoiser's later steps fill in details that agree with it
};
inline constexpr engine::EnumNames<GammaSchedule, 3> kGammaScheduleNames{
    "schedule",
    {{{GammaSchedule::constant, "constant"}, {GammaSchedule::rising, "rising"},
      {GammaSchedule::falling, "falling"}}}};
const char* gamma_schedule_name(GammaSchedule schedule);
GammaSchedule parse_gamma_schedule(const std::string& text, const std::string& field);

// Where the M sequences of a step are drawn from.
enum class GuideFrom {
  state,       // the current state x_n (method.md's reconstruction)
  prediction,  // the denoiser's prediction x_hat (a variant: sequences the model expects)
};
inline constexpr engine::EnumNames<GuideFrom, 2> kGuideFromNames{
    "source", {{{GuideFrom::state, "state"}, {GuideFrom::prediction, "prediction"}}}};
const char* guide_from_name(GuideFrom from);
GuideFrom parse_guide_from(const std::string& text, const std::string& field);

// How guidance steers (docs/method.md §7 and §9).
enum class GuidanceMethod {
  stgflow,  // straight-through gradients of the objectives as a drift on the state
  svdd,     // value-based: M candidates from the model's own transition, one kept by its value
};
inline constexpr engine::EnumNames<GuidanceMethod, 2> kGuidanceMethodNames{
    "guidance method",
    {{{GuidanceMethod::stgflow, "stgflow"}, {GuidanceMethod::svdd, "svdd"}}}};

struct GuideTerm {
  std::string objective;  // spec for make_objective(), e.g. "amp", "gc:0.6"
  double weight = 1.0;    // multiplies this objective's gradient (multi-objective guidance)
};

// Parses "SPEC[=WEIGHT]" (the weight after the last '=', default 1). Throws
// std::invalid_argument naming the text for an empty spec or a weight that is not a finite number.
GuideTerm parse_guide_term(const std::string& text);

struct GuidanceOptions {
  std::vector<GuideTerm> terms;  // empty = unguided
  double gamma = 1.0;            // guidance strength (>= 0)
  GammaSchedule schedule = GammaSchedule::constant;  // see GammaSchedule
  int samples = 4;                                   // M, sequences drawn per step (1..64)
  GuideFrom from = GuideFrom::state;                 // see GuideFrom (STGFlow)
  GuidanceMethod method = GuidanceMethod::stgflow;   // see GuidanceMethod
  // True when guidance changes anything: some term and gamma > 0.
  bool active() const { return !terms.empty() && gamma > 0.0; }
};

// gamma(t) of the schedule.
double gamma_at(const GuidanceOptions& options, double t);

// Throws std::invalid_argument naming the field for gamma < 0 or not finite, samples outside
// 1..64, or a weight that is not finite.
void check_guidance(const GuidanceOptions& options);

// The mean score of one objective over the M * n sequences drawn at one step of one batch: the
// score curve of the trajectory view (rises over the steps when guidance works).
struct GuideStepScore {
  std::size_t first_sequence = 0;  // the batch (global index of its first sequence)
  int step = 0;                    // 0-based step the sequences were drawn at
  std::string objective;           // the term's spec
  double mean = 0.0;
};
using StepScoreSink = std::function<void(const GuideStepScore&)>;

// What guidance cost, summed over the calls of a guide.
struct GuidanceStats {
  std::uint64_t objective_calls = 0;  // sequences scored (per objective; the scan counts each)
  double seconds = 0.0;               // time inside the guide (sampling, objectives, gradients)
};

// The sampler hook for `objectives` (one per options.terms entry, same order). `length_of(i)`
// gives the real length of global sequence i (padding beyond it is ignored). Randomness: the
// draws of sequence i at step s are keyed by (seed, s, m, i), so batches and shards agree.
// `sink` (optional) receives each step's mean scores; `stats` (optional) is added to. Both must
// outlive the guide, which must not be called from two threads at once. Throws
// std::invalid_argument for options check_guidance refuses.
engine::Guide make_guide(std::vector<std::shared_ptr<const Objective>> objectives,
                         const GuidanceOptions& options, std::uint64_t seed,
                         std::function<std::size_t(std::size_t)> length_of,
                         StepScoreSink sink = {}, GuidanceStats* stats = nullptr);

// The substitution scan for one sequence: delta[p][c] = potential(sequence with letter c at
// position p) - potential(sequence), for the first `length` positions of the one-hot rows `one_hot`
// ([length, K]); 0 at the sequence's own letters. Exact for any scorer; L * (K - 1) scores.
// Public for tests; make_guide uses it for objectives without gradients.
void substitution_scan(const Objective& objective, engine::ConstRows one_hot, std::size_t length,
                       engine::Rows delta);

}  // namespace gsflow::guidance
