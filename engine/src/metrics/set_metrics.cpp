// Every figure of a generated set at once (see metrics/set_metrics.hpp).
#include "gsflow/engine/metrics/set_metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "gsflow/engine/dna_motif.hpp"
#include "metrics/checks.hpp"

namespace gsflow::engine {

using namespace metrics_detail;

// ---- the aggregate -----------------------------------------------------------------------------

std::vector<double> kmer_js_floor(const SequenceSet& training_sample, const SequenceSet& reference,
                                  std::size_t K, std::size_t kmax) {
  if (kmax == 0) throw std::invalid_argument("kmax must be >= 1");
  std::vector<double> js(kmax);
  for (std::size_t k = 1; k <= kmax; ++k) js[k - 1] = kmer_js(training_sample, reference, K, k);
  return js;
}

SetMetrics evaluate_set(const SequenceSet& generated, const SequenceSet& reference,
                        const SequenceSet& training, std::size_t K, std::size_t kmax,
                        const EvalOptions& options) {
  validate(generated, K, "generated");
  validate(reference, K, "reference");
  validate(training, K, "training");
  if (kmax == 0) throw std::invalid_argument("kmax must be >= 1");
  SetMetrics m;
  m.n = generated.size();
  m.alphabet_size = K;
  m.dna = K == 4;
  m.kmer_js = kmer_js_floor(generated, reference, K, kmax);
  m.uniqueness = uniqueness(generated, K);
  const NoveltyStats nov = novelty(generated, training, K, options.novelty_threshold);
  m.exact_copy_fraction = nov.exact_copy_fraction;
  m.novelty_mean_identity = nov.mean_identity;
  m.novelty_fraction_above = nov.fraction_above;
  m.novelty_threshold = options.novelty_threshold;
  m.diversity = diversity(generated, K, options.diversity);
  m.reference_diversity = diversity(reference, K, options.diversity);
  m.composition_kl = composition_kl(reference, generated, K, options.composition_pseudocount);
  m.letter_frequencies = letter_frequencies(generated, K);
  m.reference_letter_frequencies = letter_frequencies(reference, K);
  if (m.dna) {
    m.gc = gc_stats(generated);
    m.reference_gc = gc_stats(reference);
    const std::size_t common = std::min(m.gc.profile.size(), m.reference_gc.profile.size());
    for (std::size_t p = 0; p < common; ++p)
      m.gc_profile_mae += std::abs(m.gc.profile[p] - m.reference_gc.profile[p]);
    m.gc_profile_mae /= static_cast<double>(common);
    m.tata = tata_profile(generated, options.tata);
    m.reference_tata = tata_profile(reference, options.tata);
    m.tata_vs_reference = compare_tata(m.tata, m.reference_tata, options.tata);
    m.tata_options = options.tata;
    m.training_gc = gc_stats(training);
    m.training_tata = tata_profile(training, options.tata);
  }
  m.lengths = length_stats(generated);
  m.reference_lengths = length_stats(reference);
  m.training_lengths = length_stats(training);
  m.length_w1 = length_w1(m.lengths, m.reference_lengths);
  return m;
}

}  // namespace gsflow::engine
