// Evaluation metrics for sets of generated sequences (issue 4 section 3): k-mer Jensen-Shannon
// divergence, diversity, uniqueness, novelty against training data, composition, GC and TATA-box
// profiles, lengths, and the position-specific (PWM) baseline sampler. No models involved.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

namespace gsflow::engine {

// One sequence: letter indices 0..K-1 (alphabet.hpp order; DNA is A=0 C=1 G=2 T=3).
using Sequence = std::vector<std::uint8_t>;
// A set of sequences, possibly of different lengths.
using SequenceSet = std::vector<Sequence>;

// Unless stated otherwise every function below throws std::invalid_argument when a set it needs
// is empty, when a sequence is empty, when a letter is >= K, or when K is outside 2..255.

// ---- k-mers ------------------------------------------------------------------------------------

// Dense k-mer counts of a set: size K^k; every overlapping k-mer of every sequence (a sequence of
// length L contributes max(0, L - k + 1)) is counted at index sum_j s[i + j] * K^(k - 1 - j), i.e.
// the first letter is the most significant digit. Also throws std::invalid_argument if k == 0 or
// K^k > 2^24 (use kmer_js, which counts sparsely, for larger spaces).
std::vector<std::uint64_t> kmer_counts(const SequenceSet& seqs, std::size_t K, std::size_t k);

// Jensen-Shannon divergence between the distributions p / sum(p) and q / sum(q), in bits (log base
// 2), so in [0, 1]: 0 for proportional counts, 1 for disjoint supports. Throws
// std::invalid_argument if the sizes differ, a count is negative or either total is zero.
double js_divergence_bits(std::span<const double> p, std::span<const double> q);
double js_divergence_bits(std::span<const std::uint64_t> p, std::span<const std::uint64_t> q);

// JS divergence in bits between the k-mer distributions of sets a and b (as kmer_counts counts
// them; counted sparsely, so any K^k < 2^63 works). Throws std::invalid_argument if either set
// has no k-mer at all (every sequence shorter than k).
double kmer_js(const SequenceSet& a, const SequenceSet& b, std::size_t K, std::size_t k);

// ---- distances, diversity, uniqueness ----------------------------------------------------------

// Number of mismatching positions. Throws std::invalid_argument if the lengths differ.
std::size_t hamming(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);
// Edit distance with unit costs for substitution, insertion and deletion. O(|a| |b|) time.
std::size_t levenshtein(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

struct DiversityOptions {
  std::size_t max_pairs = 20000;  // all n(n-1)/2 pairs when at most this many, else a sample
  std::uint64_t seed = 0;         // Philox seed of the pair sample (same seed, same pairs)
};

// Mean normalised distance over pairs of distinct indices i < j of the set: Hamming / L when every
// sequence has the same length L, otherwise Levenshtein / max(|a|, |b|) for every pair. When the
// set has more than options.max_pairs pairs, the mean is over options.max_pairs pairs (i != j)
// drawn uniformly with replacement from Philox(options.seed), so it is deterministic. In [0, 1];
// 0 for a set of one sequence. Throws only for an empty set or bad letters.
double diversity(const SequenceSet& seqs, std::size_t K, const DiversityOptions& options = {});

// Fraction of distinct sequences: (number of distinct sequences) / n, in (0, 1].
double uniqueness(const SequenceSet& seqs, std::size_t K);

// ---- novelty against training data -------------------------------------------------------------

struct NoveltyStats {
  // identity[i]: for generated sequence i, the highest ungapped identity (matching positions / L)
  // to any training sequence of the same length L; 0 when no training sequence has length L.
  // Ungapped and same-length only, by choice: it is the question "is this a near-copy of a
  // training sequence?" asked cheaply (bit-parallel, 64 positions per word); an alignment would
  // cost O(L^2) per pair.
  std::vector<double> identity;
  double mean_identity = 0.0;        // mean of identity
  double fraction_above = 0.0;       // fraction of identity >= the threshold (default 0.9)
  double exact_copy_fraction = 0.0;  // fraction of generated sequences found verbatim in training
};

// Novelty of `generated` against `training` (both non-empty). exact_copy_fraction compares whole
// sequences of any length through a hash set. Runs in O(n_generated * n_training * L / 64) word
// operations, with early exit once a training row cannot beat the best so far (1,000 x 14,000 DNA
// sequences of 256 bp take a fraction of a second on one core).
NoveltyStats novelty(const SequenceSet& generated, const SequenceSet& training, std::size_t K,
                     double threshold = 0.9);

// ---- composition, GC, lengths ------------------------------------------------------------------

// Letter frequencies over every letter of every sequence; size K, sums to 1.
std::vector<double> letter_frequencies(const SequenceSet& seqs, std::size_t K);

// KL(reference || generated) in nats between letter compositions, with `pseudocount` added to
// every letter count of both sets before normalising (default 1, Laplace), so it is finite.
double composition_kl(const SequenceSet& reference, const SequenceSet& generated, std::size_t K,
                      double pseudocount = 1.0);

struct GcStats {
  double mean = 0.0;            // mean over sequences of the fraction of G or C letters
  std::vector<double> profile;  // [max length]: fraction of G/C at each 0-based position (5'
                                // first), over the sequences long enough to have it
};
// DNA only (K = 4, ACGT order: G = 2, C = 1).
GcStats gc_stats(const SequenceSet& seqs);

struct LengthStats {
  double mean = 0.0;                             // mean length
  std::size_t min = 0, max = 0;                  // shortest and longest
  std::map<std::size_t, std::size_t> histogram;  // length -> number of sequences
};
LengthStats length_stats(const SequenceSet& seqs);

// Wasserstein-1 (earth mover's) distance between two length distributions, in positions.
double length_w1(const LengthStats& a, const LengthStats& b);

// ---- TATA box ----------------------------------------------------------------------------------

struct TataOptions {
  int window_begin = -45;  // window of match starts (inclusive), positions from the 3' end
  int window_end = -15;    // (-1 = last base)
  std::size_t bin = 10;    // histogram bin width for compare_tata, in bp
};

struct TataProfile {
  std::size_t sequences = 0;  // number of sequences scanned
  std::size_t matches = 0;    // number of matches (overlapping matches all count)
  // start_counts[d]: matches whose first base is at position -(d + 1) from the 3' end (d = 0: the
  // last base). Size = longest sequence.
  std::vector<std::size_t> start_counts;
  double window_fraction = 0.0;  // fraction of sequences with >= 1 match starting in the window
};

// The TATA box as an IUPAC motif (W = A/T, R = A/G) and its length.
inline constexpr const char* kTataMotif = "TATAWAWR";
inline constexpr std::size_t kTataLength = 8;
// True when TATAWAWR starts at `start` of the DNA letters `s` (ACGT order); false when fewer than
// kTataLength letters follow.
bool tata_at(std::span<const std::uint8_t> s, std::size_t start);

// Matches of TATAWAWR on the given strand only (no reverse complement). DNA only (K = 4, ACGT
// order).
TataProfile tata_profile(const SequenceSet& seqs, const TataOptions& options = {});

// Matches per sequence starting in each bin of options.bin positions from the 3' end: element b
// covers positions -(b*bin + 1) .. -(b+1)*bin; `bins` elements (0 = as many as the profile needs).
std::vector<double> tata_bin_rates(const TataProfile& p, const TataOptions& options = {},
                                   std::size_t bins = 0);

struct TataComparison {
  double window_fraction_diff = 0.0;  // |a.window_fraction - b.window_fraction|
  // L1 distance between binned match rates: bin b holds positions -(b*bin + 1) .. -(b+1)*bin and
  // its rate is (matches starting there) / (sequences scanned), so sets of different sizes compare.
  double histogram_l1 = 0.0;
};
TataComparison compare_tata(const TataProfile& a, const TataProfile& b,
                            const TataOptions& options = {});

// ---- baselines ---------------------------------------------------------------------------------

// Position-specific independent-letter model (a position weight matrix). Letters at different
// positions are independent; lengths follow the training length distribution.
class PwmModel {
 public:
  // Fits per-position letter frequencies (count + pseudocount, normalised) at each position over
  // the training sequences long enough to have it, and the empirical length distribution. Throws
  // std::invalid_argument for an empty set, bad letters or a negative pseudocount (0 allowed).
  static PwmModel fit(const SequenceSet& training, std::size_t K, double pseudocount = 1.0);

  std::size_t alphabet_size() const noexcept { return k_; }
  std::size_t max_length() const noexcept { return max_length_; }
  // [max_length, K] row-major; each row sums to 1.
  const std::vector<double>& probabilities() const noexcept { return probs_; }
  // [max_length + 1]: P(length = l); sums to 1.
  const std::vector<double>& length_probabilities() const noexcept { return length_probs_; }

  // n sequences with lengths drawn from the fitted distribution. Deterministic in seed: sequence i
  // depends only on (seed, i), through Philox (stream 0 letters, stream 1 length).
  SequenceSet sample(std::size_t n, std::uint64_t seed) const;
  // n sequences of the given length. Throws std::invalid_argument if length is 0 or longer than
  // max_length() (no data for those positions).
  SequenceSet sample(std::size_t n, std::size_t length, std::uint64_t seed) const;

 private:
  std::size_t k_ = 0;
  std::size_t max_length_ = 0;
  std::vector<double> probs_;
  std::vector<double> length_probs_;
};

// min(n, set size) sequences of `set` drawn without replacement (Philox, seed), e.g. the training
// sample of kmer_js_floor. Throws std::invalid_argument for an empty set.
SequenceSet sample_subset(const SequenceSet& set, std::size_t n, std::uint64_t seed);

// ---- the aggregate -----------------------------------------------------------------------------

struct EvalOptions {
  DiversityOptions diversity;            // pair sampling of the diversity figures
  double novelty_threshold = 0.9;        // identity counted as a near-copy
  double composition_pseudocount = 1.0;  // added to each letter count in composition_kl
  TataOptions tata;                      // TATA window and bins (DNA only)
};

// Every figure of a generated set, compared with a reference split and the training set.
struct SetMetrics {
  std::size_t n = 0;                    // generated sequences
  std::size_t alphabet_size = 0;        // K
  bool dna = false;                     // K == 4: the gc and tata figures are filled
  std::vector<double> kmer_js;          // [kmax]: kmer_js[k - 1] = JS(generated, reference) in bits
  double uniqueness = 0.0;              // fraction of distinct generated sequences
  double exact_copy_fraction = 0.0;     // generated sequences found verbatim in training
  double novelty_mean_identity = 0.0;   // mean best ungapped identity to training (see novelty)
  double novelty_fraction_above = 0.0;  // fraction with that identity >= novelty_threshold
  double novelty_threshold = 0.9;       // the threshold used
  double diversity = 0.0;               // mean pairwise normalised distance within generated
  double reference_diversity = 0.0;     // the same for the reference split
  double composition_kl = 0.0;          // KL(reference || generated) letters, nats
  std::vector<double> letter_frequencies;            // [K] generated
  std::vector<double> reference_letter_frequencies;  // [K] reference
  // DNA only:
  GcStats gc;                        // generated
  GcStats reference_gc;              // reference split
  double gc_profile_mae = 0.0;       // mean |profile difference| over positions both have
  TataProfile tata;                  // generated
  TataProfile reference_tata;        // reference split
  TataComparison tata_vs_reference;  // generated vs reference
  TataOptions tata_options;          // the window and bins used
  // The training set's own figures (what a model that learned it exactly would show; the split
  // may differ from it, e.g. DNA arms differ in TATA boxes):
  GcStats training_gc;        // DNA only
  TataProfile training_tata;  // DNA only
  // Lengths:
  LengthStats lengths;            // generated
  LengthStats reference_lengths;  // reference split
  LengthStats training_lengths;   // training set
  double length_w1 = 0.0;         // Wasserstein-1 between the two length distributions
};

// Computes SetMetrics for `generated` against the `reference` split (k-mer JS, composition, GC,
// TATA, lengths) and the `training` set (copies, novelty). kmax >= 1. Throws std::invalid_argument
// for an empty set, an empty sequence, letters >= K, kmax == 0, or a set without any k-mer.
SetMetrics evaluate_set(const SequenceSet& generated, const SequenceSet& reference,
                        const SequenceSet& training, std::size_t K, std::size_t kmax,
                        const EvalOptions& options = {});

// The k-mer JS floor: kmer_js(training_sample, reference, K, k) for k = 1..kmax, i.e. what a
// perfect model scores at this sample size. The caller passes a training sample as large as the
// generated set (e.g. sample_subset(training, n, seed)).
std::vector<double> kmer_js_floor(const SequenceSet& training_sample, const SequenceSet& reference,
                                  std::size_t K, std::size_t kmax);

}  // namespace gsflow::engine
