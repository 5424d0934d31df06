// STGFlow through generate() with the bundled generators (real trained models): the guided
// objective rises monotonically with gamma at a fixed seed set, for GSFM, GSSM and Linear FM;
// gamma = 0 reproduces unguided samples bit for bit; guidance is keyed by sequence (batches and
// shards agree); per-step scores rise; run parameters keep the guidance.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <span>
#include <numeric>
#include <string>
#include <vector>

#include "gsflow/guidance/stgflow.hpp"
#include "gsflow/pipeline/generate.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "models/bundled_models.hpp"

namespace gsflow::guidance {
namespace {

// STGFlow is exercised through the run pipeline's generate() and its run parameters.
using namespace gsflow::pipeline;

using gsflow::testing::bundled;
using gsflow::testing::kernels;

GenerateRequest guided(const models::Model& model, const std::string& objective, double gamma,
                       std::size_t n = 16, int steps = 12) {
  GenerateRequest r;
  r.n = n;
  r.sampler.method = model.spec().method;
  r.sampler.steps = steps;
  r.sampler.seed = 5;
  r.sampler.batch = 64;
  if (!objective.empty()) r.guidance.terms = {{objective, 1.0}};
  r.guidance.gamma = gamma;
  return r;
}

double mean_score(const models::Model& model, const std::string& objective,
                  const GenerateResult& res) {
  const auto o = make_objective(objective, model.spec().alphabet);
  engine::SequenceSet seqs(res.sequences.begin(), res.sequences.end());
  const auto s = score_sequences(*o, seqs);
  return std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
}

TEST(Stgflow, GcRisesMonotonicallyWithGammaForEveryMethod) {
  for (const char* name : {"dna-promoter", "dna-promoter-gssm", "dna-promoter-linear"}) {
    SCOPED_TRACE(name);
    const auto& model = bundled(name);
    std::vector<double> means;
    for (double gamma : {0.0, 0.5, 1.0, 2.0, 4.0})
      means.push_back(mean_score(model, "gc", generate(model, guided(model, "gc", gamma), kernels())));
    for (std::size_t i = 1; i < means.size(); ++i)
      EXPECT_GT(means[i], means[i - 1]) << "gamma step " << i << ": " << means[i - 1] << " -> "
                                        << means[i];
    EXPECT_GT(means.back(), means.front() + 0.15);
  }
}

TEST(Stgflow, PeptideChargeRisesWithGammaAtDrawnLengths) {
  const auto& model = bundled("peptide");
  std::vector<double> means;
  for (double gamma : {0.0, 0.5, 1.0, 2.0}) {
    const auto res = generate(model, guided(model, "charge", gamma), kernels());
    means.push_back(mean_score(model, "charge", res));
  }
  for (std::size_t i = 1; i < means.size(); ++i)
    EXPECT_GT(means[i], means[i - 1]) << means[i - 1] << " -> " << means[i];
}

TEST(Stgflow, GammaZeroReproducesUnguidedSamplesBitForBit) {
  for (const char* name : {"dna-promoter", "dna-promoter-gssm", "peptide"}) {
    SCOPED_TRACE(name);
    const auto& model = bundled(name);
    const std::string objective = model.spec().alphabet == "dna" ? "gc" : "gravy";
    const auto plain = generate(model, guided(model, "", 0.0), kernels());
    const auto zero = generate(model, guided(model, objective, 0.0), kernels());
    EXPECT_EQ(plain.sequences, zero.sequences);
    // Active guidance with weight 0 runs the whole guide and still changes nothing.
    auto weightless = guided(model, objective, 4.0);
    weightless.guidance.terms[0].weight = 0.0;
    const auto w0 = generate(model, weightless, kernels());
    EXPECT_EQ(plain.sequences, w0.sequences);
    EXPECT_GT(w0.guidance.objective_calls, 0u);
    const auto on = generate(model, guided(model, objective, 8.0), kernels());
    EXPECT_NE(plain.sequences, on.sequences);
  }
}

TEST(Stgflow, BatchSplitAndShardsDoNotChangeGuidedSamples) {
  const auto& model = bundled("dna-promoter");
  auto r = guided(model, "gc", 8.0, 12, 10);
  r.sampler.batch = 12;
  const auto whole = generate(model, r, kernels());
  r.sampler.batch = 5;
  const auto split = generate(model, r, kernels());
  EXPECT_EQ(whole.sequences, split.sequences);
  r.first = 7;
  r.n = 5;
  const auto tail = generate(model, r, kernels());
  EXPECT_EQ(tail.sequences, std::vector<std::vector<std::uint8_t>>(whole.sequences.begin() + 7,
                                                                    whole.sequences.end()));
}

TEST(Stgflow, StepScoresAreRecordedPerBatchAndRise) {
  const auto& model = bundled("dna-promoter");
  auto r = guided(model, "gc", 2.0, 20, 10);
  r.guidance.terms.push_back({"motif", 0.5});
  r.sampler.batch = 8;  // three batches
  std::vector<GuideStepScore> seen;
  std::size_t batches = 0;
  generate(
      model, r, kernels(), {},
      [&](std::size_t, std::span<const std::vector<std::uint8_t>>, auto) {
        ++batches;
        return true;
      },
      [&](const GuideStepScore& s) { seen.push_back(s); });
  EXPECT_EQ(batches, 3u);
  ASSERT_EQ(seen.size(), 3u * 10u * 2u);  // batches x steps x objectives
  EXPECT_EQ(seen[0].objective, "gc");
  EXPECT_EQ(seen[1].objective, "motif");
  EXPECT_EQ(seen.back().first_sequence, 16u);
  EXPECT_EQ(seen.back().step, 9);
  // First batch: GC of the draws at the last step is well above that at the first.
  EXPECT_GT(seen[2 * 9].mean, seen[0].mean + 0.05);
}

TEST(Stgflow, ObjectiveForAnotherAlphabetIsRefused) {
  const auto& model = bundled("dna-promoter");
  EXPECT_THROW(generate(model, guided(model, "gravy", 1.0), kernels()), std::invalid_argument);
  auto r = guided(model, "gc", 1.0);
  r.guidance.samples = 0;
  EXPECT_THROW(generate(model, r, kernels()), std::invalid_argument);
}

TEST(Stgflow, RunParamsKeepTheGuidance) {
  RunParams p;
  p.guidance.terms = {{"amp", 1.0}, {"gc:0.4", 0.25}};
  p.guidance.gamma = 3.5;
  p.guidance.schedule = GammaSchedule::rising;
  p.guidance.samples = 6;
  p.guidance.from = GuideFrom::prediction;
  const auto q = parse_run_params(run_params_json(p));
  ASSERT_EQ(q.guidance.terms.size(), 2u);
  EXPECT_EQ(q.guidance.terms[1].objective, "gc:0.4");
  EXPECT_EQ(q.guidance.terms[1].weight, 0.25);
  EXPECT_EQ(q.guidance.gamma, 3.5);
  EXPECT_EQ(q.guidance.schedule, GammaSchedule::rising);
  EXPECT_EQ(q.guidance.samples, 6);
  EXPECT_EQ(q.guidance.from, GuideFrom::prediction);
  EXPECT_EQ(run_params_json(q), run_params_json(p));
  // Unguided records carry no guidance fields (older records read the same).
  EXPECT_EQ(run_params_json(RunParams{}).find("guide"), std::string::npos);
  EXPECT_THROW(parse_run_params(R"({"guide": [{"objective": "gc"}]})"), std::invalid_argument);
  EXPECT_THROW(parse_run_params(R"({"guide_samples": 0})"), std::invalid_argument);
  EXPECT_THROW(parse_run_params(R"({"gamma_schedule": "wild"})"), std::invalid_argument);
  p.guidance.schedule = GammaSchedule::falling;
  EXPECT_EQ(parse_run_params(run_params_json(p)).guidance.schedule, GammaSchedule::falling);
}

// Every schedule gives the same total push over t in [0, 1] (midpoint rule, exact for linear
// schedules): they differ only in when it is given.
TEST(Stgflow, SchedulesShareTheTotalPush) {
  for (const auto schedule : {GammaSchedule::constant, GammaSchedule::rising, GammaSchedule::falling}) {
    GuidanceOptions o;
    o.gamma = 3.0;
    o.schedule = schedule;
    double total = 0.0;
    const int n = 10;
    for (int i = 0; i < n; ++i) total += gamma_at(o, (i + 0.5) / n) / n;
    EXPECT_NEAR(total, 3.0, 1e-12) << gamma_schedule_name(schedule);
    EXPECT_EQ(parse_gamma_schedule(gamma_schedule_name(schedule), "test"), schedule);
  }
  GuidanceOptions late, early;
  late.gamma = early.gamma = 1.0;
  late.schedule = GammaSchedule::rising;
  early.schedule = GammaSchedule::falling;
  EXPECT_EQ(gamma_at(late, 0.0), 0.0);
  EXPECT_EQ(gamma_at(early, 1.0), 0.0);
  EXPECT_EQ(gamma_at(early, 0.25), 1.5);
}

}  // namespace
}  // namespace gsflow::guidance

namespace gsflow::guidance {
namespace {

// An objective that records the share of letter 0 among the draws it is given (no gradient).
class LetterShareProbe final : public Objective {
 public:
  explicit LetterShareProbe(bool on_prediction) {
    info_.name = "probe";
    info_.alphabet = "dna";
    info_.k = 4;
    info_.on_prediction = on_prediction;
  }
  const ObjectiveInfo& info() const override { return info_; }
  void evaluate(const SequenceRows& seqs, std::span<double> scores,
                const engine::Rows* grad) const override {
    std::size_t zeros = 0, total = 0;
    for (std::size_t i = 0; i < seqs.n; ++i)
      for (std::size_t p = 0; p < seqs.length_of(i); ++p, ++total)
        zeros += seqs.x.data[(i * seqs.length + p) * seqs.x.stride] == 1.0f ? 1 : 0;
    *share = static_cast<double>(zeros) / static_cast<double>(total);
    std::fill(scores.begin(), scores.end(), 0.0);
    if (grad)
      for (std::size_t r = 0; r < grad->rows; ++r)
        std::fill(grad->data + r * grad->stride, grad->data + r * grad->stride + 4, 0.0f);
  }
  std::shared_ptr<double> share = std::make_shared<double>(-1.0);

 private:
  ObjectiveInfo info_;
};

// A state that is uniform and a prediction that is all letter 0: an objective that asks for the
// prediction sees only letter 0, one on the state sees about a quarter (4 * 64 * 50 draws), and
// with GuideFrom::prediction both see the prediction.
TEST(Stgflow, ObjectivesOnThePredictionAreScoredOnItsDraws) {
  const std::size_t n = 64, l = 50;
  std::vector<float> x(n * l * 4, 0.25f), xhat(n * l * 4, 0.0f), drift(n * l * 4, 0.0f);
  for (std::size_t r = 0; r < n * l; ++r) xhat[r * 4] = 1.0f;
  engine::GuideStep step{{x.data(), n * l, 4, 4}, {xhat.data(), n * l, 4, 4}, 0, n, l, 3, 0.4, 0.41};
  for (const GuideFrom from : {GuideFrom::state, GuideFrom::prediction}) {
    auto on_state = std::make_shared<LetterShareProbe>(false);
    auto on_xhat = std::make_shared<LetterShareProbe>(true);
    GuidanceOptions options;
    options.terms = {{"probe", 1.0}, {"probe", 1.0}};
    options.gamma = 1.0;
    options.from = from;
    const auto guide = make_guide({on_state, on_xhat}, options, 9, [l](std::size_t) { return l; });
    guide(step, {drift.data(), n * l, 4, 4});
    EXPECT_EQ(*on_xhat->share, 1.0);
    if (from == GuideFrom::state)
      EXPECT_NEAR(*on_state->share, 0.25, 0.02);  // binomial sd 0.0038
    else
      EXPECT_EQ(*on_state->share, 1.0);
  }
}

}  // namespace
}  // namespace gsflow::guidance
