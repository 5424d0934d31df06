// Objectives: exact gradients against central finite differences on one-hot inputs, the
// straight-through gradient of linear objectives against exact single-letter substitutions, the
// substitution scan against brute force, JASPAR parsing, and spec errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gsflow/engine/errors.hpp"
#include "gsflow/guidance/motif.hpp"
#include "gsflow/guidance/objective.hpp"
#include "gsflow/guidance/stgflow.hpp"

namespace gsflow::guidance {
namespace {

// n random one-hot sequences of `length` letters over K, with the given real lengths.
struct OneHot {
  std::size_t n, length, k;
  std::vector<std::uint16_t> lengths;
  std::vector<float> rows;
  OneHot(std::size_t n_, std::size_t length_, std::size_t k_, std::vector<std::uint16_t> lens,
         std::uint32_t seed)
      : n(n_), length(length_), k(k_), lengths(std::move(lens)), rows(n_ * length_ * k_, 0.0f) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::size_t> letter(0, k - 1);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t p = 0; p < (lengths.empty() ? length : lengths[i]); ++p)
        rows[(i * length + p) * k + letter(rng)] = 1.0f;
  }
  SequenceRows view() const { return {{rows.data(), n * length, k, k}, n, length, lengths}; }
};

double potential_of(const Objective& o, const OneHot& h, std::size_t i) {
  std::vector<double> s(h.n);
  o.evaluate(h.view(), s, nullptr);
  return potential(o.info(), s[i], h.lengths.empty() ? h.length : h.lengths[i]);
}

// Central differences of the potential in every coordinate of every real position, against the
// objective's gradient. Linear objectives are exact up to float rounding; the motif's soft
// maximum has curvature ~ (log-odds)^2 * eps^2, so eps = 1e-3 keeps the error below 1e-4.
void expect_gradient_matches_finite_differences(const Objective& o, OneHot h, double tol) {
  std::vector<double> scores(h.n);
  std::vector<float> g(h.rows.size());
  engine::Rows grad{g.data(), h.n * h.length, h.k, h.k};
  o.evaluate(h.view(), scores, &grad);
  const float eps = 1e-3f;
  for (std::size_t i = 0; i < h.n; ++i) {
    const std::size_t len = h.lengths.empty() ? h.length : h.lengths[i];
    for (std::size_t p = 0; p < h.length; ++p)
      for (std::size_t c = 0; c < h.k; ++c) {
        const std::size_t at = (i * h.length + p) * h.k + c;
        if (p >= len) {
          EXPECT_EQ(g[at], 0.0f) << "padding must get no gradient";
          continue;
        }
        const float keep = h.rows[at];
        h.rows[at] = keep + eps;
        const double up = potential_of(o, h, i);
        h.rows[at] = keep - eps;
        const double down = potential_of(o, h, i);
        h.rows[at] = keep;
        EXPECT_NEAR(g[at], (up - down) / (2.0 * eps), tol)
            << o.info().name << " sequence " << i << " position " << p << " letter " << c;
      }
  }
}

TEST(Objectives, GradientsMatchFiniteDifferences) {
  for (const char* spec : {"gc", "gc:0.9", "motif", "motif-norm"})
    expect_gradient_matches_finite_differences(*make_objective(spec, "dna"),
                                               OneHot(3, 40, 4, {}, 1), 2e-3);
  for (const char* spec : {"gravy", "gravy:-1", "charge", "charge:2.5", "charge-norm"})
    expect_gradient_matches_finite_differences(*make_objective(spec, "protein"),
                                               OneHot(3, 30, 20, {30, 12, 25}, 2), 2e-3);
}

// The bundled guidance classifiers as objectives: the gradient of the potential log P(positive)
// against central differences of log P on one-hot inputs, at sampled coordinates (a network: one
// evaluation per difference). Max pooling has kinks where two positions' activations tie; there
// the one-sided differences disagree, the gradient must match one of them, and kinks stay rare.
void expect_classifier_gradient_matches_differences(const std::string& spec,
                                                    const std::string& alphabet, OneHot h) {
  const auto o = make_objective(spec, alphabet);
  EXPECT_TRUE(o->info().log_potential);
  std::vector<double> scores(h.n);
  std::vector<float> g(h.rows.size());
  engine::Rows grad{g.data(), h.n * h.length, h.k, h.k};
  o->evaluate(h.view(), scores, &grad);
  std::mt19937_64 rng(7);
  const float eps = 1e-2f;
  int kinks = 0;
  double largest = 0.0;
  const int trials = 30;
  for (int trial = 0; trial < trials; ++trial) {
    const std::size_t i = rng() % h.n;
    const std::size_t len = h.lengths.empty() ? h.length : h.lengths[i];
    const std::size_t at = (i * h.length + rng() % len) * h.k + rng() % h.k;
    const double f0 = potential_of(*o, h, i);
    const float keep = h.rows[at];
    h.rows[at] = keep + eps;
    const double up = potential_of(*o, h, i);
    h.rows[at] = keep - eps;
    const double down = potential_of(*o, h, i);
    h.rows[at] = keep;
    const double fd = (up - down) / (2.0 * eps), right = (up - f0) / eps, left = (f0 - down) / eps;
    const double tol = 2e-3 + 0.02 * std::abs(fd);
    largest = std::max(largest, std::abs(fd));
    if (std::abs(right - left) <= 2.0 * tol) {
      EXPECT_NEAR(g[at], fd, tol) << spec << " sequence " << i << " entry " << at;
    } else {
      ++kinks;
      EXPECT_TRUE(std::abs(g[at] - right) <= 2.0 * tol || std::abs(g[at] - left) <= 2.0 * tol)
          << spec << ": at a kink the gradient " << g[at] << " matches neither " << left
          << " nor " << right;
    }
  }
  EXPECT_LE(kinks, trials / 4) << spec;
  EXPECT_GT(largest, 1e-3) << spec << ": gradients too small for the check to mean anything";
  // Padding gets no gradient.
  for (std::size_t i = 0; i < h.n; ++i)
    for (std::size_t p = h.lengths.empty() ? h.length : h.lengths[i]; p < h.length; ++p)
      for (std::size_t c = 0; c < h.k; ++c) EXPECT_EQ(g[(i * h.length + p) * h.k + c], 0.0f);
}

TEST(Objectives, BundledClassifierGradientsMatchFiniteDifferences) {
  expect_classifier_gradient_matches_differences("promoter", "dna", OneHot(2, 256, 4, {}, 4));
  expect_classifier_gradient_matches_differences("amp", "protein",
                                                 OneHot(3, 40, 20, {40, 12, 25}, 5));
}

// STGFlow's straight-through gradient at a one-hot h, G[p][c] - G[p][h_p], must be the exact
// change of the score when letter c replaces h_p at p: true for objectives linear in h.
TEST(Objectives, StraightThroughGradientOfLinearObjectivesIsTheSubstitutionDifference) {
  struct Case {
    const char* spec;
    const char* alphabet;
    std::size_t k;
  };
  for (const Case c : {Case{"gc", "dna", 4}, Case{"gravy", "protein", 20},
                       Case{"charge", "protein", 20}, Case{"charge-norm", "protein", 20}}) {
    SCOPED_TRACE(c.spec);
    const auto o = make_objective(c.spec, c.alphabet);
    const OneHot h(1, 25, c.k, {}, 3);
    std::vector<double> s(1);
    std::vector<float> g(h.rows.size()), delta(h.rows.size());
    engine::Rows grad{g.data(), h.length, h.k, h.k};
    o->evaluate(h.view(), s, &grad);
    substitution_scan(*o, {h.rows.data(), h.length, h.k, h.k}, h.length,
                      {delta.data(), h.length, h.k, h.k});
    for (std::size_t p = 0; p < h.length; ++p) {
      std::size_t own = 0;
      while (h.rows[p * h.k + own] == 0.0f) ++own;
      for (std::size_t l = 0; l < h.k; ++l)
        EXPECT_NEAR(g[p * h.k + l] - g[p * h.k + own], delta[p * h.k + l], 1e-5)
            << "position " << p << " letter " << l;
    }
  }
}

// The scan is exact for any scorer: compare with recounting TATAWAWR after each substitution.
TEST(Objectives, SubstitutionScanOfTheTataCountIsExact) {
  const auto o = make_objective("tata", "dna");
  EXPECT_FALSE(o->info().differentiable);
  const std::string text = "GGTATAAAAGCCTATATATAGGCATAAAACC";  // two and a near miss
  const auto count = [](const std::string& s) {
    const std::string pattern = "TATAWAWR";
    int n = 0;
    for (std::size_t q = 0; q + 8 <= s.size(); ++q) {
      bool ok = true;
      for (std::size_t j = 0; j < 8 && ok; ++j) {
        const char a = s[q + j], want = pattern[j];
        ok = want == 'W' ? (a == 'A' || a == 'T') : want == 'R' ? (a == 'A' || a == 'G') : a == want;
      }
      n += ok;
    }
    return n;
  };
  const std::string letters = "ACGT";
  std::vector<float> rows(text.size() * 4, 0.0f), delta(rows.size());
  for (std::size_t p = 0; p < text.size(); ++p) rows[p * 4 + letters.find(text[p])] = 1.0f;
  std::vector<double> s(1);
  o->evaluate({{rows.data(), text.size(), 4, 4}, 1, text.size(), {}}, s, nullptr);
  EXPECT_EQ(s[0], count(text));
  substitution_scan(*o, {rows.data(), text.size(), 4, 4}, text.size(), {delta.data(), text.size(), 4, 4});
  int nonzero = 0;
  for (std::size_t p = 0; p < text.size(); ++p)
    for (std::size_t c = 0; c < 4; ++c) {
      std::string changed = text;
      changed[p] = letters[c];
      EXPECT_EQ(delta[p * 4 + c], count(changed) - count(text)) << "position " << p << " " << letters[c];
      nonzero += delta[p * 4 + c] != 0.0f;
    }
  EXPECT_GT(nonzero, 5);
}

TEST(Objectives, ScoresOfWholeSequences) {
  const auto gc = make_objective("gc", "dna");
  EXPECT_EQ(score_sequences(*gc, {{0, 1, 2, 3}, {1, 1, 2, 2, 0}}), (std::vector<double>{0.5, 0.8}));
  const auto gc_target = make_objective("gc:0.6", "dna");
  EXPECT_NEAR(score_sequences(*gc_target, {{0, 1, 2, 3}})[0], -0.1, 1e-12);
  // K (+1) R (+1) D (-1) E (-1) H (+0.1) in ACDEFGHIKLMNPQRSTVWY order: K=8 R=14 D=2 E=3 H=6.
  const auto charge = make_objective("charge", "protein");
  EXPECT_NEAR(score_sequences(*charge, {{8, 14, 8, 2, 6}})[0], 2.1, 1e-6);
  const auto norm = make_objective("charge-norm", "protein");
  EXPECT_NEAR(score_sequences(*norm, {{8, 14, 8, 2, 6}})[0], 2.1 / 5, 1e-6);
  // The TBP matrix prefers TATAAAAG: a sequence holding it scores far above a poly-C one.
  const auto motif = make_objective("motif", "dna");
  const std::vector<std::uint8_t> tata = {1, 1, 3, 0, 3, 0, 0, 0, 0, 2, 1, 1, 1, 1, 1, 1, 1, 1};
  const std::vector<std::uint8_t> poly_c(18, 1);
  const auto m = score_sequences(*motif, {tata, poly_c});
  EXPECT_GT(m[0], m[1] + 10.0);
}

TEST(Objectives, BadSpecsNameTheProblem) {
  const auto message = [](const std::string& spec, const std::string& alphabet) {
    try {
      make_objective(spec, alphabet);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("gravy", "dna").find("protein"), std::string::npos);
  EXPECT_NE(message("gc", "protein").find("DNA"), std::string::npos);
  EXPECT_NE(message("gc:high", "dna").find("not a number"), std::string::npos);
  EXPECT_NE(message("gc:1.5", "dna").find("0..1"), std::string::npos);
  EXPECT_NE(message("nonsense", "dna").find("unknown objective"), std::string::npos);
  EXPECT_NE(message("classifier", "dna").find("classifier:FILE"), std::string::npos);
  EXPECT_THROW(make_objective("motif:/nonexistent.jaspar", "dna"), engine::InputError);
  // An endless file is refused, not read until memory runs out (issue 36).
  try {
    make_objective("motif:/dev/zero", "dna");
    ADD_FAILURE() << "/dev/zero was read as a motif file";
  } catch (const engine::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a JASPAR motif file"), std::string::npos) << e.what();
  }
}

TEST(GuideTerms, ParseWeights) {
  EXPECT_EQ(parse_guide_term("amp").weight, 1.0);
  const auto t = parse_guide_term("gc:0.6=0.25");
  EXPECT_EQ(t.objective, "gc:0.6");
  EXPECT_EQ(t.weight, 0.25);
  EXPECT_EQ(parse_guide_term("charge=-1").weight, -1.0);
  EXPECT_THROW(parse_guide_term("amp="), std::invalid_argument);
  EXPECT_THROW(parse_guide_term("=2"), std::invalid_argument);
  EXPECT_THROW(parse_guide_term("amp=x"), std::invalid_argument);
}

// ---- JASPAR ----------------------------------------------------------------------------------

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

TEST(Jaspar, BundledTbpMatrix) {
  const Pwm pwm = read_jaspar(bundled_motif_file());
  EXPECT_EQ(pwm.id, "MA0108.2");
  EXPECT_EQ(pwm.name, "TBP");
  ASSERT_EQ(pwm.counts.size(), 15u);
  EXPECT_EQ(pwm.counts[1][3], 309.0);  // the T of TATA
  // log2(((309 + 0.25) / (N + 1)) / 0.25), N = 16 + 46 + 18 + 309.
  EXPECT_NEAR(pwm.log_odds[1][3], std::log2((309.25 / 390.0) / 0.25), 1e-12);
}

TEST(Jaspar, BracketFormatAndChoosingAMatrixById) {
  const auto file = write_temp("gsflow-two.jaspar",
                               ">M1 FIRST\nA [ 1 2 ]\nC [ 3 4 ]\nG [ 5 6 ]\nT [ 7 8 ]\n"
                               ">M2 SECOND\n10 0\n0 10\n0 0\n0 0\n");
  EXPECT_EQ(read_jaspar(file).id, "M1");
  EXPECT_EQ(read_jaspar(file).counts[1][2], 6.0);
  const Pwm second = read_jaspar(file, "M2");
  EXPECT_EQ(second.name, "SECOND");
  EXPECT_EQ(second.counts[1][1], 10.0);
  EXPECT_THROW(read_jaspar(file, "M3"), engine::InputError);
}

TEST(Jaspar, ErrorsNameTheLine) {
  const auto expect_line = [](const std::string& text, std::size_t line) {
    const auto file = write_temp("gsflow-bad.jaspar", text);
    try {
      read_jaspar(file);
      ADD_FAILURE() << "no error for:\n" << text;
    } catch (const engine::InputError& e) {
      EXPECT_EQ(e.line(), line) << e.what();
    }
  };
  expect_line("1 2\n", 1);                                    // no header
  expect_line(">M\n1 2\n3 4\n5 x\n7 8\n", 4);                 // not a number
  expect_line(">M\n1 2\n3 4\n5 6\n7\n", 5);                   // widths differ
  expect_line(">M\n1 2\n3 -4\n5 6\n7 8\n", 3);                // negative
  expect_line(">M\nA [ 1 ]\nG [ 1 ]\nG [ 1 ]\nT [ 1 ]\n", 3);  // rows out of order
  expect_line(">M\n1 2\n3 4\n", 3);                           // ends early
}

}  // namespace
}  // namespace gsflow::guidance
