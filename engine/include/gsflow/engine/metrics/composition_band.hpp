// Composition bands: the central range a reference set (a guide's real class) spans in simple
// per-sequence statistics that can be differentiated on soft rows, and a score that is 0 inside the
// range and falls quadratically outside it. Guidance adds it as a term (the `natural:NAME`
// objective) so that a guided design keeps the composition of the sequences the guide's class
// really contains instead of piling up what fools the guide (28 % cysteine, CpG-rich stretches;
// docs/method.md §10, docs/notes/2026-12-06-naturalness.md).
//
// Features of a sequence x_1..x_L (rows on the simplex; one-hot for real sequences):
//   letter c:            f_c = mean_i x_i[c]
//   DNA (K = 4) pair ab: f_ab = mean_{i<L} x_i[a] x_{i+1}[b]   (16 pairs: CpG, AA/TT runs, ...)
//   other alphabets:     f_same = mean_{i<L} sum_c x_i[c] x_{i+1}[c]   (single-letter runs)
//   linear features:     f_w = sum_c w_c f_c, weights given when the band is fitted (GC content,
//                        hydropathy, charge: sums that letter-by-letter bands cannot hold)
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "gsflow/engine/kernels.hpp"
#include "gsflow/engine/sequence.hpp"

namespace gsflow::engine {

// Feature names for an alphabet's letters, in the order composition_features() returns them.
std::vector<std::string> composition_feature_names(const std::string& letters);

// The features of one sequence given as `length` rows of K = letters.size() (one-hot or soft).
// Throws std::invalid_argument for length < 2 or rows.k != K.
std::vector<double> composition_features(ConstRows rows, std::size_t length,
                                         const std::string& letters);

// A weighted sum of the letter fractions, e.g. GRAVY (Kyte-Doolittle weights).
struct LinearFeature {
  std::string name;
  std::vector<double> weights;  // one per letter
};

struct CompositionBand {
  std::string letters;
  std::vector<LinearFeature> linear;  // after the letters and pairs
  std::vector<std::string> names;     // composition_feature_names(letters), then linear names
  std::vector<double> low, high;    // the quantile and 1 - quantile of each feature
  std::vector<double> scale;        // each feature's standard deviation in the reference
  double quantile = 0.01;
  std::size_t reference_size = 0;
  std::string reference;            // where the reference came from (file and label), for cards

  // Throws std::invalid_argument for fewer than 10 reference sequences (of length >= 2), a
  // quantile outside (0, 0.5) or a linear feature without one weight per letter.
  static CompositionBand fit(const SequenceSet& reference, const std::string& letters,
                             double quantile = 0.01, std::vector<LinearFeature> linear = {});

  // All features of one sequence, in `names` order. Throws as composition_features().
  std::vector<double> features(ConstRows rows, std::size_t length) const;

  // -sum_f huber(z_f), z_f = distance of feature f outside [low, high] / scale_f and huber(z) =
  // z^2 for |z| <= 1, 2|z| - 1 beyond: 0 for a sequence inside every band, a bounded gradient far
  // outside. When `grad` is given ([length, K]) it receives the score's gradient with respect to the
  // rows. Throws as composition_features().
  double score(ConstRows rows, std::size_t length, Rows* grad = nullptr) const;
  // The features outside their band, as "C 0.31 > 0.22".
  std::vector<std::string> outside(ConstRows rows, std::size_t length) const;
};

}  // namespace gsflow::engine
