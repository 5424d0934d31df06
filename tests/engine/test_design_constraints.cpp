// Hard design constraints (design/constraints.hpp, design/repair.hpp) against independent
// references: violations() against a naive IUPAC string search on both strands; repair() and
// check_satisfiable() against a brute-force search over every sequence of a short length.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsflow/engine/design/constraints.hpp"
#include "gsflow/engine/design/repair.hpp"

namespace gsflow::engine {
namespace {

using Seq = std::vector<std::uint8_t>;

// IUPAC codes written out by hand, and their complements.
const std::map<char, std::string> kClasses = {
    {'A', "A"},   {'C', "C"},   {'G', "G"},   {'T', "T"},   {'R', "AG"},
    {'Y', "CT"},  {'S', "CG"},  {'W', "AT"},  {'K', "GT"},  {'M', "AC"},
    {'B', "CGT"}, {'D', "AGT"}, {'H', "ACT"}, {'V', "ACG"}, {'N', "ACGT"}};
const std::map<char, char> kComplement = {
    {'A', 'T'}, {'C', 'G'}, {'G', 'C'}, {'T', 'A'}, {'R', 'Y'}, {'Y', 'R'}, {'S', 'S'}, {'W', 'W'},
    {'K', 'M'}, {'M', 'K'}, {'B', 'V'}, {'V', 'B'}, {'D', 'H'}, {'H', 'D'}, {'N', 'N'}};

std::string reverse_complement(const std::string& iupac) {
  std::string out;
  for (auto it = iupac.rbegin(); it != iupac.rend(); ++it) out += kComplement.at(*it);
  return out;
}

// Does the IUPAC motif match the DNA text at `at`?
bool naive_match(const std::string& text, std::size_t at, const std::string& iupac) {
  if (at + iupac.size() > text.size()) return false;
  for (std::size_t j = 0; j < iupac.size(); ++j)
    if (kClasses.at(iupac[j]).find(text[at + j]) == std::string::npos) return false;
  return true;
}

std::string dna_text(const Seq& s) {
  std::string out;
  for (auto c : s) out += "ACGT"[c];
  return out;
}

// Independent check of the exact part (sites, runs, omit) plus optional GC, on DNA.
struct Naive {
  std::vector<std::string> motifs;  // IUPAC, upper case
  std::size_t max_run = 0;
  std::string omit;
  double gc_min = 0.0, gc_max = 1.0;
  std::size_t gc_window = 0;

  bool ok(const Seq& s) const {
    const std::string t = dna_text(s);
    for (std::size_t p = 0, run = 0; p < t.size(); ++p) {
      run = p > 0 && t[p] == t[p - 1] ? run + 1 : 1;
      if (max_run > 0 && run > max_run) return false;
      if (omit.find(t[p]) != std::string::npos) return false;
    }
    for (const auto& m : motifs) {
      const std::string rc = reverse_complement(m);
      for (std::size_t p = 0; p < t.size(); ++p)
        if (naive_match(t, p, m) || naive_match(t, p, rc)) return false;
    }
    const auto gc_ok = [&](std::size_t b, std::size_t n) {
      std::size_t g = 0;
      for (std::size_t p = b; p < b + n; ++p) g += t[p] == 'C' || t[p] == 'G';
      const double f = static_cast<double>(g) / static_cast<double>(n);
      return f >= gc_min - 1e-9 && f <= gc_max + 1e-9;
    };
    if (!gc_ok(0, t.size())) return false;
    if (gc_window > 0 && gc_window < t.size())
      for (std::size_t b = 0; b + gc_window <= t.size(); ++b)
        if (!gc_ok(b, gc_window)) return false;
    return true;
  }

  Constraints constraints() const {
    Constraints c;
    c.avoid = motifs;
    c.max_run = max_run;
    c.omit = omit;
    c.gc_min = gc_min;
    c.gc_max = gc_max;
    c.gc_window = gc_window;
    return c;
  }
};

std::size_t hamming(const Seq& a, const Seq& b) {
  std::size_t d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d += a[i] != b[i];
  return d;
}

Seq random_seq(std::mt19937& rng, std::size_t n, std::size_t k) {
  std::uniform_int_distribution<int> letter(0, static_cast<int>(k) - 1);
  Seq s(n);
  for (auto& c : s) c = static_cast<std::uint8_t>(letter(rng));
  return s;
}

// A random IUPAC motif, mostly concrete letters so that it forbids a fair share of sequences.
std::string random_motif(std::mt19937& rng, std::size_t n) {
  const std::string concrete = "ACGT", codes = "RYSWKMBDHVN";
  std::string m;
  for (std::size_t i = 0; i < n; ++i)
    m += rng() % 4 == 0 ? codes[rng() % codes.size()] : concrete[rng() % 4];
  return m;
}

Seq decode_index(std::size_t code, std::size_t n) {
  Seq s(n);
  for (std::size_t i = 0; i < n; ++i, code >>= 2) s[i] = static_cast<std::uint8_t>(code & 3);
  return s;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(DesignConstraints, BundledEnzymesAreUniqueIupacSites) {
  std::set<std::string> names;
  for (const auto& [name, site] : restriction_enzymes()) {
    EXPECT_TRUE(names.insert(name).second) << name;
    for (char c : site) EXPECT_TRUE(kClasses.count(c)) << name;
  }
  const ConstraintSet cs({.avoid = {"ecori", "bsai"}}, dna_alphabet());
  const Seq s = dna_alphabet().encode("TTGAATTCAAGAGACCTT");
  EXPECT_EQ(cs.violations(s),
            (std::vector<std::string>{"avoid EcoRI (GAATTC) at 3",
                                      "avoid BsaI (GGTCTC) (reverse strand) at 11"}));
}

TEST(DesignConstraints, RefusesBadOptionsNamingThem) {
  const auto make = [](Constraints c, const Alphabet& a = dna_alphabet()) {
    return error_of([&] { ConstraintSet(c, a); });
  };
  EXPECT_NE(make({.avoid = {"XYZ"}}).find("--avoid XYZ:"), std::string::npos);
  EXPECT_NE(make({.avoid = {"GAZTC"}}).find("'Z' at 3 is not an IUPAC DNA letter"),
            std::string::npos);
  EXPECT_NE(make({.avoid = {"Foo"}}).find("not an enzyme of the bundled list (EcoRI, BamHI"),
            std::string::npos);
  EXPECT_NE(make({.avoid = {"NNNNNNNNN"}}).find("at most 4096"), std::string::npos);
  EXPECT_EQ(make({.avoid = {"GGCCNNNNNGGCC", "NNNNNN"}}), "");
  EXPECT_NE(make({.avoid = {"EcoRI"}}, protein_alphabet()).find("--avoid"), std::string::npos);
  EXPECT_NE(make({.gc_min = 0.3}, protein_alphabet()).find("--gc-min"), std::string::npos);
  EXPECT_NE(make({.gc_window = 50}, protein_alphabet()).find("--gc-window"), std::string::npos);
  EXPECT_NE(make({.gc_min = 0.7, .gc_max = 0.6}).find("--gc-min"), std::string::npos);
  EXPECT_NE(make({.gc_max = 1.5}).find("--gc-max"), std::string::npos);
  EXPECT_NE(make({.omit = "CX"}).find("--omit"), std::string::npos);
  EXPECT_NE(make({.omit = "ACGT"}).find("--omit"), std::string::npos);
  EXPECT_EQ(make({.max_run = 1, .omit = "c"}), "");
}

TEST(DesignConstraints, ViolationsMatchANaiveSearchOnBothStrands) {
  for (unsigned seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<std::string> entries = {"CCWGG", "SfiI", random_motif(rng, 3 + rng() % 3)};
      const ConstraintSet cs({.avoid = entries}, dna_alphabet());
      // Plant a few sites so that hits are common.
      Seq s = random_seq(rng, 80, 4);
      const std::string planted = "GGCCTAGCAGGCC" + std::string("CCAGG") + "CCTGG";
      for (std::size_t i = 0; i < planted.size() && trial % 2 == 0; ++i)
        s[20 + i] = static_cast<std::uint8_t>(std::string("ACGT").find(planted[i]));
      const std::string t = dna_text(s);
      std::vector<std::string> expected;
      for (const auto& e : entries) {
        const std::string motif = e == "SfiI" ? "GGCCNNNNNGGCC" : e;
        const std::string label = e == "SfiI" ? "SfiI (GGCCNNNNNGGCC)" : e;
        for (std::size_t p = 0; p < t.size(); ++p) {
          if (naive_match(t, p, motif))
            expected.push_back("avoid " + label + " at " + std::to_string(p + 1));
          else if (naive_match(t, p, reverse_complement(motif)))
            expected.push_back("avoid " + label + " (reverse strand) at " + std::to_string(p + 1));
        }
      }
      EXPECT_EQ(cs.violations(s), expected) << t;
    }
  }
}

TEST(DesignConstraints, ViolationsOfRunsOmitAndGc) {
  const Alphabet& dna = dna_alphabet();
  const ConstraintSet runs({.max_run = 6, .omit = "T"}, dna);
  EXPECT_EQ(runs.violations(dna.encode("CGCGCGCGCGCAAAAAAAACGT")),
            (std::vector<std::string>{"run of 8 A at 12 (max 6)", "omitted T at 22"}));
  const ConstraintSet whole({.gc_min = 0.4, .gc_max = 0.6}, dna);
  EXPECT_EQ(whole.violations(dna.encode("GGGGGGAAAA")), std::vector<std::string>{});
  EXPECT_EQ(whole.violations(dna.encode("GGGGGGGAAA")),
            std::vector<std::string>{"GC 0.70 above 0.60"});
  EXPECT_EQ(whole.violations(dna.encode("GGGAAAAAAA")),
            std::vector<std::string>{"GC 0.30 below 0.40"});
  const ConstraintSet window({.gc_min = 0.4, .gc_max = 0.6, .gc_window = 4}, dna);
  EXPECT_EQ(window.violations(dna.encode("GCATGCAAAAGC")),
            std::vector<std::string>{"GC 0.00 in window 7..10 (0.40..0.60), and 2 more windows"});
  EXPECT_TRUE(window.met(dna.encode("GCATGCATGC")));
}

// One random exact instance on DNA of length n, checked against every sequence.
void check_against_brute_force(std::mt19937& rng, std::size_t n, bool with_budget) {
  Naive naive;
  for (std::size_t i = rng() % 3; i > 0; --i)
    naive.motifs.push_back(random_motif(rng, 2 + rng() % 3));
  naive.max_run = std::vector<std::size_t>{0, 1, 2, 3, 4}[rng() % 5];
  if (rng() % 3 == 0) naive.omit = std::string(1, "ACGT"[rng() % 4]);
  if (rng() % 6 == 0) naive.omit += "ACGT"[rng() % 4];
  std::vector<std::int16_t> fixed(n, -1);
  for (std::size_t p = 0; p < n; ++p)
    if (rng() % 5 == 0) fixed[p] = static_cast<std::int16_t>(rng() % 4);
  const Seq start = random_seq(rng, n, 4);
  const std::size_t budget = with_budget ? rng() % (n / 2 + 1) : kNoEditBudget;
  const auto cs = std::make_unique<ConstraintSet>(naive.constraints(), dna_alphabet());
  std::vector<Seq> feasible;
  for (std::size_t code = 0; code < (std::size_t{1} << (2 * n)); ++code) {
    Seq s = decode_index(code, n);
    bool keeps = true;
    for (std::size_t p = 0; p < n && keeps; ++p) keeps = fixed[p] < 0 || s[p] == fixed[p];
    if (keeps && (!with_budget || hamming(s, start) <= budget) && naive.ok(s))
      feasible.push_back(std::move(s));
  }
  const std::string what = "motifs " + ::testing::PrintToString(naive.motifs) + " max_run " +
                           std::to_string(naive.max_run) + " omit " + naive.omit + " budget " +
                           std::to_string(budget);
  const std::span<const std::uint8_t> start_span =
      with_budget ? std::span<const std::uint8_t>(start) : std::span<const std::uint8_t>();
  const std::string error = error_of([&] { check_satisfiable(*cs, n, fixed, start_span, budget); });
  EXPECT_EQ(error.empty(), !feasible.empty()) << what << ": " << error;

  for (int d = 0; d < 4; ++d) {
    const Seq design = random_seq(rng, n, 4);
    std::vector<float> pref(n * 4);
    for (auto& v : pref) v = std::uniform_real_distribution<float>(0.01f, 1.0f)(rng);
    RepairInput in{design, {pref.data(), n, 4, 4}, fixed};
    if (with_budget) in.start = start, in.max_edits = budget;
    const RepairResult r = repair(*cs, in);
    if (feasible.empty()) {
      EXPECT_FALSE(r.met) << what;
      EXPECT_FALSE(r.unmet.empty());
      continue;
    }
    // Fewest changes, then the lowest sum of -log preference among those.
    std::size_t best = n + 1;
    double best_loss = 0;
    for (const Seq& s : feasible) {
      double loss = 0;
      for (std::size_t p = 0; p < n; ++p) loss -= std::log(pref[p * 4 + s[p]]);
      const std::size_t h = hamming(s, design);
      if (h < best || (h == best && loss < best_loss)) best = h, best_loss = loss;
    }
    ASSERT_TRUE(r.met) << what << " " << ::testing::PrintToString(r.unmet);
    EXPECT_EQ(r.changed, best) << what;
    EXPECT_EQ(r.changed, hamming(r.letters, design));
    EXPECT_TRUE(naive.ok(r.letters)) << what << " " << dna_text(r.letters);
    for (std::size_t p = 0; p < n; ++p)
      if (fixed[p] >= 0) {
        EXPECT_EQ(r.letters[p], fixed[p]);
      }
    if (with_budget) {
      EXPECT_LE(hamming(r.letters, start), budget);
    }
    double loss = 0;
    for (std::size_t p = 0; p < n; ++p) loss -= std::log(pref[p * 4 + r.letters[p]]);
    EXPECT_NEAR(loss, best_loss, 1e-3) << what;
  }
}

TEST(DesignRepair, MatchesBruteForceOnShortDna) {
  for (unsigned seed : {11u, 12u, 13u}) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 25; ++trial) check_against_brute_force(rng, 8, false);
    check_against_brute_force(rng, 9, false);
    check_against_brute_force(rng, 10, false);
  }
}

TEST(DesignRepair, MatchesBruteForceWithAnEditBudget) {
  for (unsigned seed : {21u, 22u, 23u}) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 25; ++trial) check_against_brute_force(rng, 8, true);
    for (int trial = 0; trial < 2; ++trial) check_against_brute_force(rng, 9, true);
  }
}

// check_satisfiable's GC test is a relaxation: it must never refuse a length that has a solution,
// and with GC, omit and fixed letters alone over the whole sequence it is exact. repair()'s GC
// step is greedy: what it calls met must be met, with no fewer changes than the fewest possible.
TEST(DesignRepair, GcCheckNeverRefusesASolvableInstanceAndGreedyGcIsSound) {
  for (unsigned seed : {31u, 32u, 33u}) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 30; ++trial) {
      const std::size_t n = 8;
      Naive naive;
      const bool whole_only = trial % 2 == 0;
      if (!whole_only) {
        if (rng() % 2) naive.motifs.push_back(random_motif(rng, 3));
        naive.max_run = rng() % 4;
        naive.gc_window = 2 + rng() % 5;
      }
      if (rng() % 3 == 0) naive.omit = std::string(1, "ACGT"[rng() % 4]);
      naive.gc_min = static_cast<double>(rng() % 9) / 8.0;
      naive.gc_max = std::min(1.0, naive.gc_min + static_cast<double>(rng() % 5) / 8.0);
      std::vector<std::int16_t> fixed(n, -1);
      for (std::size_t p = 0; p < n; ++p)
        if (rng() % 4 == 0) fixed[p] = static_cast<std::int16_t>(rng() % 4);
      const ConstraintSet cs(naive.constraints(), dna_alphabet());
      const Seq design = random_seq(rng, n, 4);
      bool any = false;
      std::size_t fewest = n + 1;
      for (std::size_t code = 0; code < (std::size_t{1} << (2 * n)); ++code) {
        const Seq s = decode_index(code, n);
        bool keeps = true;
        for (std::size_t p = 0; p < n && keeps; ++p) keeps = fixed[p] < 0 || s[p] == fixed[p];
        if (keeps && naive.ok(s)) any = true, fewest = std::min(fewest, hamming(s, design));
      }
      const RepairResult r = repair(cs, {design, {}, fixed});
      if (r.met) {
        EXPECT_TRUE(naive.ok(r.letters)) << dna_text(r.letters);
        EXPECT_GE(r.changed, fewest);
        for (std::size_t p = 0; p < n; ++p)
          if (fixed[p] >= 0) {
            EXPECT_EQ(r.letters[p], fixed[p]);
          }
      }
      if (whole_only) {
        EXPECT_EQ(r.met, any) << trial;
      }
      const std::string error = error_of([&] { check_satisfiable(cs, n, fixed); });
      if (any) {
        EXPECT_EQ(error, "") << trial;
      }
      if (whole_only) {
        EXPECT_EQ(error.empty(), any) << trial;
      }
    }
  }
}

TEST(DesignRepair, LongDnaMeetsSitesRunsAndGcWindowsKeepingFixedLetters) {
  const Alphabet& dna = dna_alphabet();
  const ConstraintSet cs(
      {.avoid = {"EcoRI", "BsaI"}, .max_run = 6, .gc_min = 0.3, .gc_max = 0.7, .gc_window = 50},
      dna);
  const std::size_t n = 256;
  std::vector<std::int16_t> fixed(n, -1);
  const Seq tata = dna.encode("TATAAAAG");
  for (std::size_t i = 0; i < tata.size(); ++i) fixed[100 + i] = tata[i];
  check_satisfiable(cs, n, fixed);
  for (unsigned seed : {41u, 42u, 43u}) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 100; ++trial) {
      // Skewed compositions and planted sites and runs, so that every kind of repair happens.
      const double gc = std::vector<double>{0.15, 0.5, 0.85}[trial % 3];
      Seq design(n);
      for (auto& c : design)
        c = static_cast<std::uint8_t>(std::bernoulli_distribution(gc)(rng) ? 1 + rng() % 2
                                                                           : 3 * (rng() % 2));
      for (std::size_t i = 0; i < 10; ++i) design[30 + i] = 0;
      const Seq ecori = dna.encode("GAATTC"), bsai_rc = dna.encode("GAGACC");
      std::copy(ecori.begin(), ecori.end(), design.begin() + 60);
      std::copy(bsai_rc.begin(), bsai_rc.end(), design.begin() + 200);
      const RepairResult r = repair(cs, {design, {}, fixed});
      ASSERT_TRUE(r.met) << ::testing::PrintToString(r.unmet);
      EXPECT_TRUE(cs.violations(r.letters).empty());
      for (std::size_t i = 0; i < tata.size(); ++i) EXPECT_EQ(r.letters[100 + i], tata[i]);
      EXPECT_EQ(r.changed, hamming(r.letters, design));
    }
  }
}

TEST(DesignRepair, EditBudgetIsNeverExceeded) {
  const ConstraintSet cs({.avoid = {"GAATTC", "GGTCTC"}, .max_run = 3}, dna_alphabet());
  for (unsigned seed : {51u, 52u}) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 100; ++trial) {
      const std::size_t n = 40, budget = rng() % 8;
      const Seq start = random_seq(rng, n, 4), design = random_seq(rng, n, 4);
      const RepairResult r = repair(cs, {.design = design, .start = start, .max_edits = budget});
      if (r.met) {
        EXPECT_LE(hamming(r.letters, start), budget);
        EXPECT_TRUE(cs.met(r.letters));
      } else {
        EXPECT_FALSE(r.unmet.empty());
        EXPECT_FALSE(error_of([&] { check_satisfiable(cs, n, {}, start, budget); }).empty());
      }
    }
  }
  // With GC windows the greedy GC step must respect the budget too: starts rich in GC, designs
  // poor in it, so that GC needs changes and the budget binds.
  const ConstraintSet gc(
      {.avoid = {"EcoRI"}, .max_run = 4, .gc_min = 0.4, .gc_max = 0.6, .gc_window = 20},
      dna_alphabet());
  std::mt19937 rng(53);
  int met = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const std::size_t n = 60, budget = 5 + rng() % 20;
    Seq start = random_seq(rng, n, 4), design = start;
    for (std::size_t i = 0; i < 2 * budget; ++i) design[rng() % n] = rng() % 2 ? 0 : 3;
    const RepairResult r = repair(gc, {.design = design, .start = start, .max_edits = budget});
    if (r.met) {
      ++met;
      EXPECT_LE(hamming(r.letters, start), budget);
      EXPECT_TRUE(gc.met(r.letters));
    } else {
      EXPECT_FALSE(r.unmet.empty());
    }
  }
  EXPECT_GT(met, 50);
}

TEST(DesignRepair, PeptidesWithoutCysteineAndShortRuns) {
  const Alphabet& protein = protein_alphabet();
  const ConstraintSet cs({.max_run = 3, .omit = "C"}, protein);
  for (unsigned seed : {61u, 62u, 63u}) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 100; ++trial) {
      const std::size_t n = 10 + rng() % 41;
      Seq design = random_seq(rng, n, 20);
      for (std::size_t i = 0; i < std::min<std::size_t>(n, 6); ++i) design[i] = design[0];
      design[n - 1] = 1;  // C
      const RepairResult r = repair(cs, {design});
      ASSERT_TRUE(r.met);
      EXPECT_TRUE(cs.met(r.letters));
      EXPECT_EQ(std::count(r.letters.begin(), r.letters.end(), 1), 0);
      EXPECT_GE(r.changed, 2u);  // at least one in the run of six, and the C
    }
  }
  const Seq fine = protein.encode("MKTAYIAKQR");
  const RepairResult r = repair(cs, {fine});
  EXPECT_TRUE(r.met);
  EXPECT_EQ(r.changed, 0u);
  EXPECT_EQ(r.letters, fine);
}

// K = 20: every peptide of length 4 against repair(), with omitted letters, short runs and fixed
// letters.
TEST(DesignRepair, MatchesBruteForceOnShortPeptides) {
  const Alphabet& protein = protein_alphabet();
  const std::size_t n = 4, K = 20;
  for (unsigned seed : {71u, 72u}) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 6; ++trial) {
      std::string omit;
      for (std::size_t i = rng() % 19; i > 0; --i) omit += protein.letters()[rng() % K];
      const std::size_t max_run = rng() % 3;
      std::vector<std::int16_t> fixed(n, -1);
      if (rng() % 2) fixed[rng() % n] = static_cast<std::int16_t>(rng() % K);
      const ConstraintSet cs({.max_run = max_run, .omit = omit}, protein);
      const Seq design = random_seq(rng, n, K);
      std::size_t fewest = n + 1;
      for (std::size_t code = 0; code < 160000; ++code) {
        Seq s(n);
        for (std::size_t i = 0, x = code; i < n; ++i, x /= K)
          s[i] = static_cast<std::uint8_t>(x % K);
        bool ok = true;
        for (std::size_t p = 0, run = 0; p < n && ok; ++p) {
          run = p > 0 && s[p] == s[p - 1] ? run + 1 : 1;
          ok = (max_run == 0 || run <= max_run) && (fixed[p] < 0 || s[p] == fixed[p]) &&
               omit.find(protein.letters()[s[p]]) == std::string::npos;
        }
        if (ok) fewest = std::min(fewest, hamming(s, design));
      }
      const RepairResult r = repair(cs, {design, {}, fixed});
      const bool satisfiable = error_of([&] { check_satisfiable(cs, n, fixed); }).empty();
      EXPECT_EQ(satisfiable, fewest <= n) << omit;
      EXPECT_EQ(r.met, fewest <= n) << omit;
      if (r.met) {
        EXPECT_EQ(r.changed, fewest) << omit;
      }
    }
  }
}

TEST(DesignRepair, CheckSatisfiableNamesTheConflictingOptions) {
  const Alphabet& dna = dna_alphabet();
  const std::size_t n = 60;
  std::vector<std::int16_t> fixed(n, -1);
  const Seq site = dna.encode("GAATTC");
  for (std::size_t i = 0; i < site.size(); ++i) fixed[30 + i] = site[i];
  EXPECT_NE(error_of([&] {
              check_satisfiable(ConstraintSet({.avoid = {"GAATTC"}}, dna), n, fixed);
            }).find("--avoid GAATTC conflicts with the fixed letters at 31..36"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              check_satisfiable(ConstraintSet({.max_run = 1, .omit = "ACG"}, dna), n);
            }).find("--max-run 1 cannot be met with --omit ACG (one letter left)"),
            std::string::npos);
  std::mt19937 rng(5);
  Seq start = random_seq(rng, n, 4);
  std::replace(start.begin(), start.end(), std::uint8_t{0}, std::uint8_t{3});  // no A: no EcoRI
  std::copy(site.begin(), site.end(), start.begin() + 11);
  const ConstraintSet ecori({.avoid = {"EcoRI"}}, dna);
  EXPECT_NE(error_of([&] {
              check_satisfiable(ecori, n, {}, start, 0);
            }).find("--max-edits 0: the start sequence breaks avoid EcoRI (GAATTC) at 12"),
            std::string::npos);
  EXPECT_EQ(error_of([&] { check_satisfiable(ecori, n, {}, start, 1); }), "");
  std::vector<std::int16_t> at_rich(n, -1);
  for (std::size_t p = 0; p < 27; ++p) at_rich[p] = 0;
  EXPECT_NE(error_of([&] {
              check_satisfiable(ConstraintSet({.gc_min = 0.9}, dna), n, at_rich);
            }).find("--gc-min 0.9: with the fixed letters at most 0.55 is possible"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              check_satisfiable(ConstraintSet({.gc_max = 0.3, .omit = "AT"}, dna), n);
            }).find("--gc-max 0.3: with --omit AT at least 1.00"),
            std::string::npos);
}

}  // namespace
}  // namespace gsflow::engine
