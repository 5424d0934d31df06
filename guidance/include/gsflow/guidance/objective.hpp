// Objectives that guidance steers toward and that score finished sequences: built-in properties
// with exact gradients (GC, motif, GRAVY, net charge), classifiers (bundled networks or user
// TorchScript files) and gradient-free scorers (guided through the substitution scan).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gsflow/engine/kernels.hpp"
#include "gsflow/engine/sequence.hpp"

namespace gsflow::guidance {

struct ObjectiveInfo {
  std::string name;         // the spec as the user gave it, e.g. "gc", "gc:0.6", "amp"
  std::string alphabet;     // "dna" or "protein"
  std::size_t k = 4;        // alphabet size
  std::string description;  // what the score is, for reports (e.g. "P(antimicrobial)")
  // Guidance follows the gradient of log(score) (classifier probabilities: the usual classifier
  // guidance, which does not vanish where the probability is small) instead of the score itself.
  bool log_potential = false;
  bool differentiable = true;  // false: gradients come from the exact substitution scan
  // Per-letter averages (GC fraction, GRAVY, charge per residue) guide as the sums they average:
  // potential = length x score, so a letter's gradient is O(1) whatever the length and one gamma
  // means the same push for every objective and length.
  bool extensive = false;
  // STGFlow scores this objective on draws from the denoiser's prediction x_hat whatever the
  // guide's source (GuideFrom): a statistic of the finished sequence (composition) that the
  // state's early, noise-like draws cannot show (docs/notes/2026-12-06-naturalness.md).
  bool on_prediction = false;
};

// n sequences as rows [n * length, K], row i * length + p = position p of sequence i (one-hot for
// real sequences; soft rows are allowed and scored by the objective's natural extension).
struct SequenceRows {
  engine::ConstRows x;
  std::size_t n = 0;
  std::size_t length = 0;
  std::span<const std::uint16_t> lengths;  // real positions per sequence; empty = all `length`
  std::size_t length_of(std::size_t i) const { return lengths.empty() ? length : lengths[i]; }
};

class Objective {
 public:
  virtual ~Objective() = default;
  virtual const ObjectiveInfo& info() const = 0;
  // Writes the n scores (higher is better) and, when `grad` is given ([n * length, K]), the
  // gradient of the guidance potential (see potential()) with respect to the rows, zero at
  // padding. `grad` must be null when !info().differentiable.
  // Thread-safe. Throws std::invalid_argument for a length the objective cannot score.
  virtual void evaluate(const SequenceRows& seqs, std::span<double> scores,
                        const engine::Rows* grad) const = 0;
};

// The guidance potential of the score of a sequence of `length` letters: log(max(score, 1e-12))
// when info.log_potential, length x score when info.extensive, else the score itself.
double potential(const ObjectiveInfo& info, double score, std::size_t length);

// Builds an objective from its spec NAME[:ARG] for sequences of `alphabet` ("dna" / "protein"):
//   gc[:TARGET]            DNA: GC fraction, or -|GC fraction - TARGET|
//   motif[:FILE[#ID]]      DNA: log2 of the summed odds ratios of a PWM over all sites (bits);
//                          default: the bundled JASPAR TBP matrix MA0108.2
//   motif-norm[:FILE[#ID]] the same per site (log2 of the mean odds ratio): length-normalised
//   tata                   DNA: number of TATAWAWR matches (no gradient: substitution scan)
//   gravy[:TARGET]         protein: mean Kyte-Doolittle hydropathy, or -|GRAVY - TARGET|
//   charge[:TARGET]        protein: net charge at pH 7 (K, R +1; H +0.1; D, E -1), or -|q - TARGET|
//   charge-norm[:TARGET]   protein: net charge per residue (length-normalised)
//   natural:NAME|FILE      composition inside a real class's band (natural.hpp): 0 inside, < 0 out
//   promoter, amp, ...     a bundled classifier (models/pretrained/classifiers): P(positive)
//   classifier:FILE        a classifier checkpoint (.ckpt) or TorchScript descriptor (.json)
// Throws std::invalid_argument naming the spec for an unknown name, a bad argument or an objective
// for another alphabet, and models::ModelError / engine::InputError for unreadable files.
// A classifier evaluates its batches on `threads` threads (models::Classifier::set_threads).
std::shared_ptr<const Objective> make_objective(const std::string& spec,
                                                const std::string& alphabet, int threads = 1);

// Built-in objective names for `alphabet` and the bundled classifiers for it, for help texts.
std::vector<std::string> objective_names(const std::string& alphabet);

// Scores of whole sequences (letter indices), one-hot encoded internally, in chunks.
std::vector<double> score_sequences(const Objective& objective, const engine::SequenceSet& seqs);

// Throws std::invalid_argument naming the objective (for a plug-in classifier, its file) when a
// score, or an entry of `grad` (if given), is NaN or infinite: such a number would steer every
// sequence to garbage or be stored as a missing score.
void require_finite(const Objective& objective, std::span<const double> scores,
                    const engine::Rows* grad = nullptr);

}  // namespace gsflow::guidance
