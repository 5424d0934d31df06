// SVDD value guidance through generate() with the bundled generators: the objective rises with
// gamma for every method, gradient-free objectives work directly, the cost is M candidates per
// sequence per step, step scores are recorded, and constraints still hold in every output.
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "gsflow/pipeline/generate.hpp"
#include "models/bundled_models.hpp"

namespace gsflow::guidance {
namespace {

using namespace gsflow::pipeline;

using gsflow::testing::bundled;
using gsflow::testing::kernels;

GenerateRequest svdd(const models::Model& model, const std::string& objective, double gamma) {
  GenerateRequest r;
  r.n = 16;
  r.sampler.method = model.spec().method;
  r.sampler.steps = 12;
  r.sampler.seed = 5;
  r.sampler.batch = 64;
  r.guidance.terms = {{objective, 1.0}};
  r.guidance.gamma = gamma;
  r.guidance.method = GuidanceMethod::svdd;
  return r;
}

double mean_score(const models::Model& model, const std::string& objective,
                  const GenerateResult& res) {
  const auto o = make_objective(objective, model.spec().alphabet);
  engine::SequenceSet seqs(res.sequences.begin(), res.sequences.end());
  const auto s = score_sequences(*o, seqs);
  return std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
}

TEST(Svdd, GcRisesWithGammaForEveryMethod) {
  for (const char* name : {"dna-promoter", "dna-promoter-gssm", "dna-promoter-linear"}) {
    SCOPED_TRACE(name);
    const auto& model = bundled(name);
    std::vector<double> means;
    // GC guides as the GC count (extensive): gamma 0.5 already keeps nearly the best of M = 4,
    // so the rise is measured below it; above, proposals limit it (measured ~0.50 at 2 and 8).
    for (double gamma : {0.0, 0.1, 0.5, 2.0})
      means.push_back(mean_score(model, "gc", generate(model, svdd(model, "gc", gamma), kernels())));
    for (std::size_t i = 1; i < means.size(); ++i)
      EXPECT_GT(means[i], means[i - 1]) << "gamma step " << i << ": " << means[i - 1] << " -> "
                                        << means[i];
    EXPECT_GT(means.back(), means.front() + 0.05);
  }
}

TEST(Svdd, GradientFreeObjectiveCostsMCandidatesPerStepAndRecordsScores) {
  const auto& model = bundled("dna-promoter");
  std::vector<GuideStepScore> seen;
  auto r = svdd(model, "tata", 4.0);
  const auto res = generate(model, r, kernels(), {}, {},
                            [&](const GuideStepScore& s) { seen.push_back(s); });
  // M = 4 candidates per sequence per step, no substitution scan.
  EXPECT_EQ(res.guidance.objective_calls, 16u * 4u * 12u);
  EXPECT_EQ(seen.size(), 12u);
  const double guided = mean_score(model, "tata", res);
  r.guidance.gamma = 0.0;
  const double plain = mean_score(model, "tata", generate(model, r, kernels()));
  EXPECT_GT(guided, plain);
}

TEST(Svdd, ConstraintsAndFixedLettersStillHold) {
  const auto& model = bundled("dna-promoter");
  auto r = svdd(model, "gc", 8.0);
  r.design.fix = {"-30=TATAAAAG"};
  r.design.constraints.avoid = {"GGCC"};  // frequent under GC guidance, on purpose
  const auto res = generate(model, r, kernels());
  const auto& dna = engine::dna_alphabet();
  for (const auto& s : res.sequences) {
    const std::string text = dna.decode(s);
    EXPECT_EQ(text.substr(256 - 30, 8), "TATAAAAG");
    EXPECT_EQ(text.find("GGCC"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace gsflow::guidance
