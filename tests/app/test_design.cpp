// Design requests through generate() with the real bundled models (models/pretrained): fixed
// letters exact for every method, with and without guidance, over several seeds; hard constraints
// met in every output (checked by an independent string search, not by the code under test);
// the edit budget never exceeded; bad input refused naming the option before any work.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/models/model.hpp"
#include "gsflow/pipeline/generate.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "models/bundled_models.hpp"

namespace gsflow::pipeline {
namespace {

using gsflow::testing::bundled;
using gsflow::testing::kernels;

GenerateRequest small(const models::Model& m, std::size_t n, std::uint64_t seed) {
  GenerateRequest r;
  r.n = n;
  r.sampler.method = m.spec().method;
  r.sampler.steps = 12;
  r.sampler.batch = 8;
  r.sampler.seed = seed;
  return r;
}

std::vector<std::string> texts(const GenerateResult& r, const engine::Alphabet& a) {
  std::vector<std::string> out;
  for (const auto& s : r.sequences) out.push_back(a.decode(s));
  return out;
}

std::string reverse_complement(const std::string& s) {
  std::string out(s.rbegin(), s.rend());
  for (char& c : out) c = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : 'A';
  return out;
}

std::size_t longest_run(const std::string& s) {
  std::size_t best = 0, run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    run = i > 0 && s[i] == s[i - 1] ? run + 1 : 1;
    best = std::max(best, run);
  }
  return best;
}

const std::vector<std::string> kDnaModels{"dna-promoter", "dna-promoter-gssm",
                                          "dna-promoter-linear"};

TEST(Design, FixedMotifIsExactForEveryMethodSeedAndWithGuidance) {
  const auto& dna = engine::dna_alphabet();
  for (const auto& name : kDnaModels) {
    const auto& model = bundled(name);
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      for (double gamma : {0.0, 8.0}) {
        SCOPED_TRACE(name + " seed " + std::to_string(seed) + " gamma " + std::to_string(gamma));
        auto r = small(model, 8, seed);
        r.design.fix = {"-30=TATAAAAG", "5=GGGCCC"};
        if (gamma > 0) {
          r.guidance.terms = {{"gc", 1.0}};  // pushes toward G/C, against the TATA box
          r.guidance.gamma = gamma;
        }
        const auto result = generate(model, r, kernels());
        for (const auto& s : texts(result, dna)) {
          ASSERT_EQ(s.size(), 256u);
          EXPECT_EQ(s.substr(256 - 30, 8), "TATAAAAG") << s;
          EXPECT_EQ(s.substr(4, 6), "GGGCCC") << s;
        }
      }
    }
  }
}

TEST(Design, TemplateSetsLettersAndLength) {
  const auto& dna = engine::dna_alphabet();
  const auto& model = bundled("dna-promoter");
  std::string tmpl(256, 'N');
  tmpl.replace(100, 12, "ACGTACGTACGT");
  auto r = small(model, 6, 4);
  r.design.templates = {tmpl};
  for (const auto& s : texts(generate(model, r, kernels()), dna))
    EXPECT_EQ(s.substr(100, 12), "ACGTACGTACGT");
  // Peptides: a template shorter than the model's maximum sets the length; X is designable.
  const auto& pep = bundled("peptide");
  auto p = small(pep, 6, 4);
  p.design.templates = {"XXXXKKXXXXXXXXXXXXWW"};
  for (const auto& s : texts(generate(pep, p, kernels()), engine::protein_alphabet())) {
    ASSERT_EQ(s.size(), 20u);
    EXPECT_EQ(s.substr(4, 2), "KK");
    EXPECT_EQ(s.substr(18, 2), "WW");
  }
}

TEST(Design, HardConstraintsHoldInEveryOutput) {
  const auto& dna = engine::dna_alphabet();
  for (const auto& name : kDnaModels) {
    const auto& model = bundled(name);
    for (std::uint64_t seed : {5u, 6u}) {
      SCOPED_TRACE(name + " seed " + std::to_string(seed));
      auto r = small(model, 16, seed);
      r.design.constraints.avoid = {"EcoRI", "GGTCTC", "TATA"};  // TATA: frequent, on purpose
      r.design.constraints.max_run = 4;
      r.design.constraints.gc_min = 0.4;
      r.design.constraints.gc_max = 0.6;
      r.design.constraints.gc_window = 50;
      const auto result = generate(model, r, kernels());
      ASSERT_EQ(result.notes.size(), 16u);
      for (std::size_t i = 0; i < result.sequences.size(); ++i) {
        const std::string s = dna.decode(result.sequences[i]);
        for (const std::string site : {"GAATTC", "GGTCTC", "TATA"}) {
          EXPECT_EQ(s.find(site), std::string::npos) << site << " in " << s;
          EXPECT_EQ(s.find(reverse_complement(site)), std::string::npos) << site << " rc in " << s;
        }
        EXPECT_LE(longest_run(s), 4u) << s;
        for (std::size_t w = 0; w + 50 <= s.size(); ++w) {
          const auto gc = std::count_if(s.begin() + w, s.begin() + w + 50,
                                        [](char c) { return c == 'G' || c == 'C'; });
          EXPECT_GE(gc, 20) << "window " << w << " " << s;
          EXPECT_LE(gc, 30) << "window " << w << " " << s;
        }
        EXPECT_TRUE(result.notes[i].met);
      }
    }
  }
}

TEST(Design, OmittedResiduesNeverAppearInPeptides) {
  for (const std::string name : {"peptide", "peptide-gssm", "peptide-linear"}) {
    const auto& model = bundled(name);
    auto r = small(model, 24, 7);
    r.design.constraints.omit = "CW";
    r.design.constraints.max_run = 2;
    for (const auto& s : texts(generate(model, r, kernels()), engine::protein_alphabet())) {
      EXPECT_EQ(s.find_first_of("CW"), std::string::npos) << name << " " << s;
      EXPECT_LE(longest_run(s), 2u) << name << " " << s;
    }
  }
}

TEST(Design, EditBudgetFromAStartSequenceIsNeverExceeded) {
  const auto& dna = engine::dna_alphabet();
  const auto& model = bundled("dna-promoter");
  std::string start;
  for (std::size_t i = 0; i < 256; ++i) start.push_back("ACGT"[(i * 7 + i / 3) % 4]);
  for (std::size_t budget : {0u, 2u, 5u}) {
    auto r = small(model, 8, 9);
    r.design.starts = {start};
    r.design.start_time = 0.3;  // far from the start: many more edits wanted than allowed
    r.design.max_edits = budget;
    r.guidance.terms = {{"gc", 1.0}};
    r.guidance.gamma = 4.0;
    const auto result = generate(model, r, kernels());
    for (std::size_t i = 0; i < result.sequences.size(); ++i) {
      const std::string s = dna.decode(result.sequences[i]);
      std::size_t edits = 0;
      for (std::size_t p = 0; p < 256; ++p) edits += s[p] != start[p];
      EXPECT_LE(edits, budget);
      EXPECT_EQ(result.notes[i].edits, edits);
      EXPECT_TRUE(result.notes[i].from_start);
    }
  }
  // Without a budget, a start near t = 1 is mostly kept and at t = 0.3 mostly rewritten.
  auto keep = small(model, 4, 9);
  keep.design.starts = {start};
  keep.design.start_time = 0.95;
  auto redo = keep;
  redo.design.start_time = 0.1;
  const auto kept = generate(model, keep, kernels()).notes;
  const auto redone = generate(model, redo, kernels()).notes;
  for (std::size_t i = 0; i < 4; ++i) EXPECT_LT(kept[i].edits, redone[i].edits);
}

// Every refusal names the option, and comes before any sequence is made.
TEST(Design, ImpossibleRequestsNameTheOption) {
  const auto& model = bundled("dna-promoter");
  const auto message = [&](auto edit) {
    auto r = small(model, 4, 1);
    edit(r);
    try {
      generate(model, r, kernels(), {}, [](auto, auto, auto) {
        ADD_FAILURE() << "a sequence was made";
        return true;
      });
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const auto has = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  std::string m = message([](GenerateRequest& r) { r.design.templates = {std::string(200, 'N')}; });
  EXPECT_TRUE(has(m, "--template") && has(m, "200")) << m;
  m = message([](GenerateRequest& r) { r.design.templates = {std::string(255, 'N') + "Z"}; });
  EXPECT_TRUE(has(m, "--template") && has(m, "256")) << m;
  m = message([](GenerateRequest& r) { r.design.fix = {"10=TATA", "12=GG"}; });
  EXPECT_TRUE(has(m, "--fix 12=GG") && has(m, "12")) << m;
  m = message([](GenerateRequest& r) { r.design.fix = {"-3=TATA"}; });
  EXPECT_TRUE(has(m, "--fix") && has(m, "does not fit")) << m;
  m = message([](GenerateRequest& r) { r.design.starts = {std::string(256, 'K')}; });
  EXPECT_TRUE(has(m, "--start") && has(m, "position 1")) << m;
  m = message([](GenerateRequest& r) { r.design.max_edits = 3; });
  EXPECT_TRUE(has(m, "--max-edits")) << m;
  m = message([](GenerateRequest& r) {
    r.design.fix = {"20=GAATTC"};
    r.design.constraints.avoid = {"EcoRI"};
  });
  EXPECT_TRUE(has(m, "--avoid") && has(m, "EcoRI")) << m;
  m = message([](GenerateRequest& r) {
    r.design.constraints.gc_min = 0.7;
    r.design.constraints.gc_max = 0.6;
  });
  EXPECT_TRUE(has(m, "--gc-min") || has(m, "--gc-max")) << m;
  m = message([](GenerateRequest& r) { r.design.constraints.omit = "ACGT"; });
  EXPECT_TRUE(has(m, "--omit")) << m;
  m = message([](GenerateRequest& r) { r.design.constraints.avoid = {"NotAnEnzyme"}; });
  EXPECT_TRUE(has(m, "--avoid NotAnEnzyme")) << m;
}

TEST(Design, RunParamsRoundTripTheDesign) {
  RunParams p;
  p.design.templates = {"NNACGTNN", "NNNNTTTT"};
  p.design.fix = {"-3=GG"};
  p.design.fixed_hold = engine::FixedHold::path;
  p.design.constraints.avoid = {"EcoRI", "GGTCTC"};
  p.design.constraints.max_run = 5;
  p.design.constraints.gc_min = 0.3;
  p.design.constraints.gc_max = 0.65;
  p.design.constraints.gc_window = 40;
  p.design.constraints.omit = "C";
  p.design.constraint_strength = 2.5;
  p.design.starts = {"ACGTACGT"};
  p.design.start_ids = {"lead1"};
  p.design.start_time = 0.6;
  p.design.max_edits = 3;
  const RunParams q = parse_run_params(run_params_json(p));
  EXPECT_EQ(run_params_json(q), run_params_json(p));
  EXPECT_EQ(q.design.templates, p.design.templates);
  EXPECT_EQ(q.design.constraints.avoid, p.design.constraints.avoid);
  EXPECT_EQ(q.design.max_edits, 3u);
  EXPECT_EQ(q.design.fixed_hold, engine::FixedHold::path);
  // A run without a design writes none of these keys: older records read the same.
  const std::string plain = run_params_json(RunParams{});
  for (const char* key : {"template", "fix", "avoid", "max_run", "start", "max_edits", "omit"})
    EXPECT_EQ(plain.find(std::string("\"") + key + "\""), std::string::npos) << key;
}

}  // namespace
}  // namespace gsflow::pipeline

#include "gsflow/pipeline/edit_selection.hpp"

namespace gsflow::pipeline {
namespace {

// Greedy selection over the proposed edits with the GC objective: from all-A, a proposal with
// three C/G edits and three T edits under a budget of 2 keeps two C/G edits (each raises GC, the
// T edits do not), scoring 1 + 6 + 5 sequences; a fixed letter that differs is forced first.
TEST(EditSelection, KeepsTheEditsTheObjectiveWantsWithinTheBudget) {
  const std::vector<std::uint8_t> start(12, 0);
  std::vector<std::uint8_t> proposal = start;
  proposal[1] = 1;   // C
  proposal[4] = 3;   // T
  proposal[6] = 2;   // G
  proposal[7] = 3;   // T
  proposal[9] = 1;   // C
  proposal[11] = 3;  // T
  const std::vector<std::shared_ptr<const guidance::Objective>> gc{
      guidance::make_objective("gc", "dna")};
  const std::vector<guidance::GuideTerm> terms{{"gc", 1.0}};
  const auto picked = select_edits(start, proposal, {}, 2, gc, terms);
  std::size_t edits = 0, gc_edits = 0;
  for (std::size_t p = 0; p < start.size(); ++p) {
    edits += picked.letters[p] != start[p];
    gc_edits += picked.letters[p] == 1 || picked.letters[p] == 2;
    if (picked.letters[p] != start[p]) {
      EXPECT_EQ(picked.letters[p], proposal[p]);
    }
  }
  EXPECT_EQ(edits, 2u);
  EXPECT_EQ(gc_edits, 2u);
  EXPECT_EQ(picked.objective_calls, 1u + 6u + 5u);
  // A budget the proposal fits in returns it unchanged, without a call.
  const auto all = select_edits(start, proposal, {}, 6, gc, terms);
  EXPECT_EQ(all.letters, proposal);
  EXPECT_EQ(all.objective_calls, 0u);
  // Position 4 fixed to T: forced, so one free edit is left, and it is a C/G one.
  std::vector<std::int16_t> fixed(12, -1);
  fixed[4] = 3;
  const auto forced = select_edits(start, proposal, fixed, 2, gc, terms);
  EXPECT_EQ(forced.letters[4], 3u);
  std::size_t others = 0;
  for (std::size_t p = 0; p < 12; ++p) others += p != 4 && forced.letters[p] != 0;
  EXPECT_EQ(others, 1u);
  // Once no proposed edit raises the objective, selection stops below the budget.
  const auto stop = select_edits(start, proposal, {}, 5, gc, terms);
  std::size_t taken = 0;
  for (std::size_t p = 0; p < 12; ++p) taken += stop.letters[p] != 0;
  EXPECT_EQ(taken, 3u);
}

}  // namespace
}  // namespace gsflow::pipeline
