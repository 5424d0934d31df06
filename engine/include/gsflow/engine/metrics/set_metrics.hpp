// Every figure of a generated set against a reference split and the training set (gsflow eval).
// Unless stated otherwise every function here throws std::invalid_argument when a set it needs
// is empty, when a sequence is empty, when a letter is >= K, or when K is outside 2..255.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "gsflow/engine/sequence.hpp"
#include "gsflow/engine/metrics/kmer.hpp"
#include "gsflow/engine/metrics/distance.hpp"
#include "gsflow/engine/metrics/composition.hpp"
#include "gsflow/engine/metrics/tata.hpp"
#include "gsflow/engine/metrics/baselines.hpp"

namespace gsflow::engine {

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
