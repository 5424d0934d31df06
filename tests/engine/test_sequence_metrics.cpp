// The evaluation metrics of sequence_metrics.hpp against independent references: brute-force
// double computations, std::map k-mer counts, hand-made sets, planted motifs and a known PWM.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

#include "gsflow/engine/sequence_metrics.hpp"

namespace gsflow::engine {
namespace {

SequenceSet random_set(std::size_t n, std::size_t length, std::size_t K, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> letter(0, static_cast<int>(K) - 1);
  SequenceSet out(n, Sequence(length));
  for (Sequence& s : out)
    for (auto& c : s) c = static_cast<std::uint8_t>(letter(rng));
  return out;
}

SequenceSet random_varlen_set(std::size_t n, std::size_t lo, std::size_t hi, std::size_t K,
                              std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> len(lo, hi);
  std::uniform_int_distribution<int> letter(0, static_cast<int>(K) - 1);
  SequenceSet out(n);
  for (Sequence& s : out) {
    s.resize(len(rng));
    for (auto& c : s) c = static_cast<std::uint8_t>(letter(rng));
  }
  return out;
}

Sequence dna(const std::string& letters) {
  Sequence s;
  for (char c : letters) s.push_back(static_cast<std::uint8_t>(std::string("ACGT").find(c)));
  return s;
}

// k-mer counts keyed by the k-mer itself (letters as bytes), independent of the code layout.
std::map<std::string, double> naive_kmers(const SequenceSet& seqs, std::size_t k) {
  std::map<std::string, double> counts;
  for (const Sequence& s : seqs)
    for (std::size_t i = 0; i + k <= s.size(); ++i)
      counts[std::string(s.begin() + i, s.begin() + i + k)] += 1.0;
  return counts;
}

// JS in bits straight from the definition 0.5 KL(P||M) + 0.5 KL(Q||M), M = (P + Q) / 2.
double brute_js(const SequenceSet& a, const SequenceSet& b, std::size_t k) {
  const auto ca = naive_kmers(a, k), cb = naive_kmers(b, k);
  double na = 0, nb = 0;
  for (const auto& [key, c] : ca) na += c;
  for (const auto& [key, c] : cb) nb += c;
  std::set<std::string> keys;
  for (const auto& [key, c] : ca) keys.insert(key);
  for (const auto& [key, c] : cb) keys.insert(key);
  double kl_pm = 0, kl_qm = 0;
  for (const std::string& key : keys) {
    const double p = ca.count(key) ? ca.at(key) / na : 0.0;
    const double q = cb.count(key) ? cb.at(key) / nb : 0.0;
    const double m = 0.5 * (p + q);
    if (p > 0) kl_pm += p * std::log(p / m);
    if (q > 0) kl_qm += q * std::log(q / m);
  }
  return (0.5 * kl_pm + 0.5 * kl_qm) / std::log(2.0);
}

TEST(SequenceMetrics, KmerCountsMatchNaiveMapCount) {
  for (std::size_t K : {4u, 20u}) {
    const SequenceSet seqs = random_varlen_set(30, 3, 40, K, 7);
    for (std::size_t k = 1; k <= 3; ++k) {
      const std::vector<std::uint64_t> counts = kmer_counts(seqs, K, k);
      ASSERT_EQ(counts.size(), static_cast<std::size_t>(std::pow(K, k)));
      const auto naive = naive_kmers(seqs, k);
      std::uint64_t total = 0;
      for (std::uint64_t c : counts) total += c;
      double naive_total = 0;
      for (const auto& [key, c] : naive) {
        std::size_t index = 0;
        for (char x : key)
          index = index * K + static_cast<std::uint8_t>(x);  // first letter most significant
        EXPECT_EQ(counts[index], static_cast<std::uint64_t>(c)) << "K=" << K << " k=" << k;
        naive_total += c;
      }
      EXPECT_EQ(static_cast<double>(total), naive_total);
    }
  }
}

TEST(SequenceMetrics, KmerCountsSkipShortSequencesAndRejectHugeSpaces) {
  const SequenceSet seqs{dna("AC"), dna("ACGTA")};
  const auto counts = kmer_counts(seqs, 4, 3);
  std::uint64_t total = 0;
  for (auto c : counts) total += c;
  EXPECT_EQ(total, 3u);  // only the 5-mer contributes 3 overlapping 3-mers
  EXPECT_THROW(kmer_counts(seqs, 20, 6), std::invalid_argument);  // 20^6 > 2^24
}

TEST(SequenceMetrics, JsOfIdenticalSetsIsZeroAndOfDisjointSupportsIsOneBit) {
  const SequenceSet a = random_set(50, 30, 4, 1);
  for (std::size_t k = 1; k <= 6; ++k) EXPECT_NEAR(kmer_js(a, a, 4, k), 0.0, 1e-12);
  // Same distribution, different multiplicity: still 0.
  SequenceSet doubled = a;
  doubled.insert(doubled.end(), a.begin(), a.end());
  EXPECT_NEAR(kmer_js(a, doubled, 4, 3), 0.0, 1e-12);
  const SequenceSet only_a{dna("AAAAAA"), dna("AAAA")};
  const SequenceSet only_c{dna("CCCCC")};
  for (std::size_t k = 1; k <= 4; ++k) EXPECT_NEAR(kmer_js(only_a, only_c, 4, k), 1.0, 1e-12);
  const std::vector<double> p{1, 0, 2, 0}, q{0, 5, 0, 1};
  EXPECT_NEAR(js_divergence_bits(p, q), 1.0, 1e-12);
}

TEST(SequenceMetrics, JsMatchesBruteForceDouble) {
  for (std::size_t K : {4u, 20u}) {
    const SequenceSet a = random_varlen_set(20, 5, 25, K, 11);
    const SequenceSet b = random_varlen_set(15, 5, 25, K, 12);
    for (std::size_t k = 1; k <= 4; ++k) {
      const double expected = brute_js(a, b, k);
      EXPECT_NEAR(kmer_js(a, b, K, k), expected, 1e-12) << "K=" << K << " k=" << k;
      if (std::pow(K, k) <= (1 << 24)) {
        const auto ca = kmer_counts(a, K, k), cb = kmer_counts(b, K, k);
        EXPECT_NEAR(js_divergence_bits(ca, cb), expected, 1e-12);
      }
    }
  }
  // Protein 6-mers (20^6 codes) go through the sparse path only.
  const SequenceSet a = random_varlen_set(10, 10, 30, 20, 3),
                    b = random_varlen_set(10, 10, 30, 20, 4);
  EXPECT_NEAR(kmer_js(a, b, 20, 6), brute_js(a, b, 6), 1e-12);
}

TEST(SequenceMetrics, JsRejectsSetsWithoutKmersAndBadInput) {
  const SequenceSet shorter{dna("ACG")}, longer{dna("ACGTAC")};
  EXPECT_THROW(kmer_js(shorter, longer, 4, 4), std::invalid_argument);
  EXPECT_THROW(kmer_js({}, longer, 4, 1), std::invalid_argument);
  EXPECT_THROW(kmer_js(SequenceSet{Sequence{0, 4}}, longer, 4, 1), std::invalid_argument);
  EXPECT_THROW(kmer_js(longer, longer, 4, 0), std::invalid_argument);
  const std::vector<double> zero{0, 0}, one{1, 0};
  EXPECT_THROW(js_divergence_bits(zero, one), std::invalid_argument);
}

TEST(SequenceMetrics, LevenshteinKnownPairs) {
  auto lev = [](const std::string& a, const std::string& b) {
    Sequence x(a.begin(), a.end()), y(b.begin(), b.end());  // bytes as letters
    return levenshtein(x, y);
  };
  EXPECT_EQ(lev("kitten", "sitting"), 3u);
  EXPECT_EQ(lev("sitting", "kitten"), 3u);
  EXPECT_EQ(lev("flaw", "lawn"), 2u);
  EXPECT_EQ(lev("", "abc"), 3u);
  EXPECT_EQ(lev("abc", "abc"), 0u);
  EXPECT_EQ(lev("intention", "execution"), 5u);
  EXPECT_EQ(lev("ACGT", "TGCA"), 4u);
  EXPECT_EQ(hamming(dna("ACGT"), dna("ACCA")), 2u);
  EXPECT_THROW(hamming(dna("ACGT"), dna("ACG")), std::invalid_argument);
}

TEST(SequenceMetrics, DiversityAllPairsAndSampledPairs) {
  // Equal lengths: Hamming / L. Pairs: (0,1) 1/4, (0,2) 4/4, (1,2) 3/4.
  const SequenceSet eq{dna("AAAA"), dna("AAAC"), dna("CCCC")};
  EXPECT_NEAR(diversity(eq, 4), (0.25 + 1.0 + 0.75) / 3.0, 1e-12);
  // Mixed lengths: Levenshtein / max length. (AAAA, AAA) 1/4, (AAAA, CC) 4/4, (AAA, CC) 3/3.
  const SequenceSet mixed{dna("AAAA"), dna("AAA"), dna("CC")};
  EXPECT_NEAR(diversity(mixed, 4), (0.25 + 1.0 + 1.0) / 3.0, 1e-12);
  EXPECT_EQ(diversity(SequenceSet{dna("ACGT")}, 4), 0.0);
  // 300 sequences = 44,850 pairs: sampled, deterministic in the seed, close to the exact mean.
  const SequenceSet big = random_set(300, 40, 4, 5);
  DiversityOptions all;
  all.max_pairs = 1'000'000;
  const double exact = diversity(big, 4, all);
  DiversityOptions sampled;
  sampled.seed = 9;
  const double d1 = diversity(big, 4, sampled), d2 = diversity(big, 4, sampled);
  EXPECT_EQ(d1, d2);
  EXPECT_NEAR(d1, exact, 0.005);   // sd of a pair distance ~0.07 / sqrt(20000) ~ 0.0005
  EXPECT_NEAR(exact, 0.75, 0.01);  // random DNA letters differ with probability 3/4
}

TEST(SequenceMetrics, Uniqueness) {
  const SequenceSet s{dna("ACGT"), dna("ACGT"), dna("ACG"), dna("TTTT")};
  EXPECT_DOUBLE_EQ(uniqueness(s, 4), 0.75);
  EXPECT_DOUBLE_EQ(uniqueness(SequenceSet{dna("A")}, 4), 1.0);
  EXPECT_THROW(uniqueness({}, 4), std::invalid_argument);
}

TEST(SequenceMetrics, NoveltyOnHandMadeSets) {
  const SequenceSet training{dna("AAAAAAAAAA"), dna("CCCCCCCCCC"), dna("ACGT")};
  const SequenceSet generated{
      dna("AAAAAAAAAA"),  // exact copy: identity 1
      dna("AAAAAAAAAC"),  // 9/10 to the first
      dna("GGGGGCCCCC"),  // 5/10 to the second
      dna("ACG"),         // no training sequence of length 3: identity 0, not a copy
      dna("ACGT"),        // exact copy of another length
  };
  const NoveltyStats st = novelty(generated, training, 4);
  ASSERT_EQ(st.identity.size(), 5u);
  EXPECT_DOUBLE_EQ(st.identity[0], 1.0);
  EXPECT_DOUBLE_EQ(st.identity[1], 0.9);
  EXPECT_DOUBLE_EQ(st.identity[2], 0.5);
  EXPECT_DOUBLE_EQ(st.identity[3], 0.0);
  EXPECT_DOUBLE_EQ(st.identity[4], 1.0);
  EXPECT_DOUBLE_EQ(st.exact_copy_fraction, 2.0 / 5.0);
  EXPECT_DOUBLE_EQ(st.fraction_above, 3.0 / 5.0);
  EXPECT_DOUBLE_EQ(st.mean_identity, (1.0 + 0.9 + 0.5 + 0.0 + 1.0) / 5.0);
}

TEST(SequenceMetrics, NoveltyMatchesBruteForceAcrossWordBoundaries) {
  // Lengths around 64 and 128 and protein letters (5 bit planes) against a plain Hamming scan.
  for (std::size_t K : {4u, 20u, 7u}) {
    SequenceSet training = random_varlen_set(200, 60, 130, K, 21);
    SequenceSet generated = random_varlen_set(50, 60, 130, K, 22);
    // Near-copies so that the best is not just chance level.
    for (std::size_t i = 0; i < 10; ++i) {
      generated[i] = training[i * 3];
      generated[i][i] = static_cast<std::uint8_t>((generated[i][i] + 1) % K);
    }
    const NoveltyStats st = novelty(generated, training, K);
    for (std::size_t i = 0; i < generated.size(); ++i) {
      double best = 0.0;
      for (const Sequence& t : training)
        if (t.size() == generated[i].size())
          best = std::max(best, 1.0 - static_cast<double>(hamming(generated[i], t)) /
                                          static_cast<double>(t.size()));
      EXPECT_NEAR(st.identity[i], best, 1e-12) << "K=" << K << " i=" << i;
    }
  }
}

TEST(SequenceMetrics, CompositionKlAgainstHandComputation) {
  // reference letters: A x3, C x1 -> with pseudocount 1 over K = 4: (4, 2, 1, 1) / 8.
  // generated letters: A x1, G x1 -> (2, 1, 2, 1) / 6.
  const SequenceSet reference{dna("AAAC")}, generated{dna("AG")};
  const double p[4] = {4.0 / 8, 2.0 / 8, 1.0 / 8, 1.0 / 8};
  const double q[4] = {2.0 / 6, 1.0 / 6, 2.0 / 6, 1.0 / 6};
  double expected = 0;
  for (int c = 0; c < 4; ++c) expected += p[c] * std::log(p[c] / q[c]);
  EXPECT_NEAR(composition_kl(reference, generated, 4), expected, 1e-12);
  EXPECT_NEAR(composition_kl(reference, reference, 4), 0.0, 1e-15);
  const auto freq = letter_frequencies(reference, 4);
  EXPECT_DOUBLE_EQ(freq[0], 0.75);
  EXPECT_DOUBLE_EQ(freq[1], 0.25);
}

TEST(SequenceMetrics, GcAndLengthStats) {
  const SequenceSet s{dna("GCAT"), dna("GGGG"), dna("AT")};
  const GcStats gc = gc_stats(s);
  EXPECT_NEAR(gc.mean, (0.5 + 1.0 + 0.0) / 3.0, 1e-12);
  ASSERT_EQ(gc.profile.size(), 4u);
  EXPECT_NEAR(gc.profile[0], 2.0 / 3.0, 1e-12);  // G, G, A
  EXPECT_NEAR(gc.profile[2], 0.5, 1e-12);        // A, G (the 2-mer has no position 2)
  const LengthStats ls = length_stats(s);
  EXPECT_NEAR(ls.mean, 10.0 / 3.0, 1e-12);
  EXPECT_EQ(ls.min, 2u);
  EXPECT_EQ(ls.max, 4u);
  EXPECT_EQ(ls.histogram.at(4), 2u);
  // W1 between {2, 4, 4} and {4, 4, 4}: one third of the mass moves 2 positions.
  const LengthStats fours = length_stats(SequenceSet{dna("AAAA"), dna("CCCC"), dna("GGGG")});
  EXPECT_NEAR(length_w1(ls, fours), 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(length_w1(ls, ls), 0.0, 1e-15);
}

TEST(SequenceMetrics, TataProfileFindsPlantedMotifs) {
  // 100 bp of C (never part of TATAWAWR) with TATAAAAG planted at a known start.
  auto planted = [](std::size_t start, const std::string& motif) {
    std::string s(100, 'C');
    s.replace(start, motif.size(), motif);
    return dna(s);
  };
  const SequenceSet seqs{
      planted(70, "TATAAAAG"),  // start -30: in the window
      planted(55, "TATATATA"),  // start -45: in the window (inclusive bound)
      planted(90, "TATAAATA"),  // start -10: outside
      planted(10, "TATGAAAG"),  // not a match (G at position 4)
      dna(std::string(100, 'C')),
  };
  const TataProfile prof = tata_profile(seqs);
  EXPECT_EQ(prof.sequences, 5u);
  ASSERT_EQ(prof.start_counts.size(), 100u);
  EXPECT_EQ(prof.start_counts[29], 1u);  // position -30
  EXPECT_EQ(prof.start_counts[44], 1u);  // position -45
  EXPECT_EQ(prof.start_counts[9], 1u);   // position -10
  EXPECT_EQ(prof.matches, 3u);           // TATATATA then C: the shifted TATATACC is not a match
  EXPECT_DOUBLE_EQ(prof.window_fraction, 2.0 / 5.0);

  // Overlapping matches all count: TATATATAAA holds TATATATA (start 0) and TATATAAA (start 2).
  const TataProfile two = tata_profile(SequenceSet{planted(80, "TATATATAAA")});
  EXPECT_EQ(two.matches, 2u);
  EXPECT_EQ(two.start_counts[19], 1u);
  EXPECT_EQ(two.start_counts[17], 1u);

  const TataComparison self = compare_tata(prof, prof);
  EXPECT_EQ(self.window_fraction_diff, 0.0);
  EXPECT_EQ(self.histogram_l1, 0.0);
  // prof: rates 1/5 in bins 0 (-1..-10), 2 (-21..-30), 4 (-41..-50); none: all 0.
  const TataProfile none = tata_profile(SequenceSet{dna(std::string(100, 'C'))});
  const TataComparison cmp = compare_tata(prof, none);
  EXPECT_NEAR(cmp.window_fraction_diff, 0.4, 1e-12);
  EXPECT_NEAR(cmp.histogram_l1, 3.0 / 5.0, 1e-12);

  // The same bins as rates: 10 of them for 100 bp, or as many as asked (cut or zero-padded).
  EXPECT_EQ(tata_bin_rates(prof), (std::vector<double>{0.2, 0, 0.2, 0, 0.2, 0, 0, 0, 0, 0}));
  EXPECT_EQ(tata_bin_rates(prof, {}, 3), (std::vector<double>{0.2, 0, 0.2}));
  EXPECT_EQ(tata_bin_rates(prof, {}, 11).back(), 0.0);
  TataOptions wide;
  wide.bin = 25;  // -1..-25, -26..-50, ...
  EXPECT_EQ(tata_bin_rates(prof, wide), (std::vector<double>{0.2, 0.4, 0, 0}));
  EXPECT_THROW(tata_bin_rates(TataProfile{}), std::invalid_argument);
}

TEST(SequenceMetrics, PwmSamplesMatchFittedFrequenciesWithinBinomialTolerance) {
  // Training data with a strongly position-dependent distribution.
  const std::size_t K = 4, L = 12;
  SequenceSet training;
  std::mt19937 rng(3);
  for (int i = 0; i < 500; ++i) {
    Sequence s(L);
    for (std::size_t p = 0; p < L; ++p) {
      std::discrete_distribution<int> d({1.0 + p, 2.0, 0.5 + (p % 3), 3.0});
      s[p] = static_cast<std::uint8_t>(d(rng));
    }
    training.push_back(s);
  }
  const PwmModel pwm = PwmModel::fit(training, K, 1.0);
  ASSERT_EQ(pwm.max_length(), L);
  // Fitted = (count + 1) / (500 + 4), checked for position 0.
  std::vector<double> count0(K, 0.0);
  for (const Sequence& s : training) count0[s[0]] += 1.0;
  for (std::size_t c = 0; c < K; ++c)
    EXPECT_NEAR(pwm.probabilities()[c], (count0[c] + 1.0) / 504.0, 1e-12);

  const std::size_t n = 20000;
  const SequenceSet sample = pwm.sample(n, 42);
  ASSERT_EQ(sample.size(), n);
  for (std::size_t p = 0; p < L; ++p)
    for (std::size_t c = 0; c < K; ++c) {
      double hits = 0;
      for (const Sequence& s : sample) hits += s[p] == c;
      const double prob = pwm.probabilities()[p * K + c];
      const double sd = std::sqrt(prob * (1 - prob) / static_cast<double>(n));
      // 48 cells: 4.5 sd keeps the chance of any false alarm below 0.05 %.
      EXPECT_NEAR(hits / static_cast<double>(n), prob, 4.5 * sd) << "p=" << p << " c=" << c;
    }
  // Reproducible from the seed; another seed differs.
  EXPECT_EQ(pwm.sample(100, 42), SequenceSet(sample.begin(), sample.begin() + 100));
  EXPECT_NE(pwm.sample(100, 43), SequenceSet(sample.begin(), sample.begin() + 100));
  EXPECT_EQ(pwm.sample(50, 8, 7), pwm.sample(50, 8, 7));
  EXPECT_EQ(pwm.sample(50, 8, 7)[0].size(), 8u);
  EXPECT_THROW(pwm.sample(5, L + 1, 7), std::invalid_argument);
}

TEST(SequenceMetrics, PwmFitsLengthDistributionForVariableLengths) {
  // Lengths 10 (1/4) and 20 (3/4); positions 10..19 are fitted from the long sequences only,
  // which are all-W (letter 18) there.
  SequenceSet training;
  for (int i = 0; i < 100; ++i) training.push_back(Sequence(10, 0));
  for (int i = 0; i < 300; ++i) {
    Sequence s(20, 0);
    for (std::size_t p = 10; p < 20; ++p) s[p] = 18;
    training.push_back(s);
  }
  const PwmModel pwm = PwmModel::fit(training, 20, 0.0);
  EXPECT_DOUBLE_EQ(pwm.length_probabilities()[10], 0.25);
  EXPECT_DOUBLE_EQ(pwm.length_probabilities()[20], 0.75);
  EXPECT_DOUBLE_EQ(pwm.probabilities()[15 * 20 + 18], 1.0);
  const SequenceSet sample = pwm.sample(8000, 1);
  double long_ones = 0;
  for (const Sequence& s : sample) {
    ASSERT_TRUE(s.size() == 10 || s.size() == 20);
    long_ones += s.size() == 20;
    if (s.size() == 20) {
      EXPECT_EQ(s[19], 18);
    }
    EXPECT_EQ(s[0], 0);
  }
  const double sd = std::sqrt(0.75 * 0.25 / 8000);
  EXPECT_NEAR(long_ones / 8000, 0.75, 4.5 * sd);
}

TEST(SequenceMetrics, SampleSubsetDrawsWithoutReplacement) {
  SequenceSet set;
  for (std::uint8_t i = 0; i < 50; ++i) set.push_back(Sequence{i});
  const SequenceSet sub = sample_subset(set, 20, 3);
  ASSERT_EQ(sub.size(), 20u);
  EXPECT_EQ(uniqueness(sub, 255), 1.0);
  EXPECT_EQ(sub, sample_subset(set, 20, 3));
  EXPECT_EQ(sample_subset(set, 500, 3).size(), 50u);
}

TEST(SequenceMetrics, EvaluateSetAggregatesTheFigures) {
  const SequenceSet training = random_set(400, 64, 4, 31);
  const SequenceSet reference = random_set(200, 64, 4, 32);
  SequenceSet generated = random_set(100, 64, 4, 33);
  generated[0] = training[5];  // one exact copy
  const SetMetrics m = evaluate_set(generated, reference, training, 4, 6);
  EXPECT_EQ(m.n, 100u);
  EXPECT_TRUE(m.dna);
  ASSERT_EQ(m.kmer_js.size(), 6u);
  for (std::size_t k = 1; k <= 6; ++k)
    EXPECT_DOUBLE_EQ(m.kmer_js[k - 1], kmer_js(generated, reference, 4, k));
  EXPECT_LT(m.kmer_js[0], m.kmer_js[5]);  // finite-sample JS grows with k for random letters
  EXPECT_DOUBLE_EQ(m.exact_copy_fraction, 0.01);
  EXPECT_DOUBLE_EQ(m.uniqueness, 1.0);
  EXPECT_DOUBLE_EQ(m.novelty_fraction_above, 0.01);
  EXPECT_NEAR(m.diversity, 0.75, 0.02);
  EXPECT_DOUBLE_EQ(m.composition_kl, composition_kl(reference, generated, 4));
  EXPECT_EQ(m.gc.profile.size(), 64u);
  EXPECT_EQ(m.length_w1, 0.0);
  EXPECT_EQ(kmer_js_floor(generated, reference, 4, 6), m.kmer_js);
  // Protein: no DNA figures, variable lengths.
  const SequenceSet pt = random_varlen_set(100, 10, 100, 20, 1);
  const SequenceSet pr = random_varlen_set(50, 10, 100, 20, 2);
  const SetMetrics pm = evaluate_set(pr, pr, pt, 20, 3);
  EXPECT_FALSE(pm.dna);
  EXPECT_NEAR(pm.kmer_js[2], 0.0, 1e-12);
  EXPECT_GT(pm.diversity, 0.5);
  EXPECT_THROW(evaluate_set({}, pr, pt, 20, 3), std::invalid_argument);
  EXPECT_THROW(evaluate_set(pr, pr, pt, 4, 3), std::invalid_argument);  // letters >= 4
}

}  // namespace
}  // namespace gsflow::engine
