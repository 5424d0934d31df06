// Protein-likeness of peptides (issue 39, item 1): each sequence's best Smith-Waterman local
// alignment (BLOSUM62, affine gaps) against a training set, by Debian's parasail (SIMD striped,
// one query profile per sequence), summarised beside real held-out and composition-shuffled
// held-out sequences, and the memorisation guard (identity >= 0.9 to the nearest training peptide,
// and the near copies among them: such an alignment spanning >= 80 % of the sequence).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gsflow::evaluation {

// Scoring and work split of the training-set search. Gap costs follow parasail's convention: a gap
// of k residues costs gap_open + (k - 1) * gap_extend. The defaults are BLAST's blastp defaults for
// BLOSUM62 (existence 11, extension 1: a gap of k residues costs 11 + k).
struct AlignmentOptions {
  int gap_open = 12;   // cost of a gap's first residue (> 0)
  int gap_extend = 1;  // cost of each further residue (> 0, <= gap_open)
  int threads = 1;     // worker threads over the queries (>= 1)
};

// The longest sequence accepted: 16-bit SIMD scores stay below their saturation (BLOSUM62's
// largest entry is 11, 11 * 2000 < 32767), so no result is ever a saturated underestimate.
inline constexpr std::size_t kMaxAlignedLength = 2000;

// One query's nearest training sequence: the best local alignment score over the whole training
// set; among training sequences that reach it (ties), the one whose alignment has the highest
// identity. Identity = matches / length of the best-scoring local alignment parasail reports (its
// columns, gap columns included).
struct NearestHit {
  int score = 0;             // BLOSUM62 score of the best local alignment (0: nothing aligns)
  std::size_t training = 0;  // index of the nearest training sequence
  int matches = 0;           // identical aligned pairs
  int length = 0;            // alignment columns (matches + mismatches + gap columns)
  double identity = 0.0;     // matches / length (0 when length is 0)
  int query_length = 0;      // letters of the query
};

// The nearest training hit of every query (same order). Letters are the 20 standard amino acids in
// upper case (BLOSUM62's X/B/Z/* work too). Throws std::invalid_argument for an empty training
// set, an empty sequence, a sequence longer than kMaxAlignedLength or bad options, and
// std::runtime_error if parasail fails (allocation).
std::vector<NearestHit> nearest_training_hits(const std::vector<std::string>& queries,
                                              const std::vector<std::string>& training,
                                              const AlignmentOptions& options = {});

// Summary of one set's nearest hits. Medians of an even count average the two middle values; every
// figure is NaN for an empty set. A near copy is a hit at identity >= the threshold whose alignment
// has at least coverage_threshold * query_length columns: a copied peptide, not a short exact match
// found by chance nor one copied fragment of several
// (docs/notes/2026-12-07-peptide-markov-scale.md).
struct AlignmentSummary {
  std::size_t n = 0;
  double score_median = 0.0;
  double score_mean = 0.0;
  double identity_median = 0.0;
  double identity_mean = 0.0;
  double fraction_identity_at_least = 0.0;  // share of hits with identity >= the threshold
  double fraction_near_copies = 0.0;        // share of hits that are near copies (above)
  double identity_threshold = 0.9;
  double coverage_threshold = 0.8;
};

AlignmentSummary summarize_hits(const std::vector<NearestHit>& hits,
                                double identity_threshold = 0.9, double coverage_threshold = 0.8);

// Each sequence's letters in a random order (Fisher-Yates driven by Philox keyed by `seed` and the
// sequence's index), so composition and length are kept and any order is lost.
std::vector<std::string> shuffle_letters(const std::vector<std::string>& sequences,
                                         std::uint64_t seed);

// The `gsflow eval` figures: the evaluated set, the held-out split's real sequences (a sample of
// them) and the same sample with shuffled letters, and each baseline set.
struct ProteinLikeness {
  AlignmentOptions options;
  std::size_t training_size = 0;
  std::string split;  // name of the held-out split (e.g. validation)
  std::uint64_t shuffle_seed = 0;
  AlignmentSummary designs;
  AlignmentSummary reference;  // real held-out sequences
  AlignmentSummary shuffled;   // the same held-out sequences, letters shuffled
  std::map<std::string, AlignmentSummary> baselines;
  double seconds = 0.0;  // wall time of all alignments
};

// {"aligner", "matrix", "gap_open", "gap_extend", "identity", "training_sequences", "split",
// "shuffle_seed", "seconds", "designs": SUMMARY, "reference": SUMMARY, "shuffled": SUMMARY} with
// SUMMARY = {"n", "score_median", "score_mean", "identity_median", "identity_mean",
// "fraction_identity_at_least", "identity_threshold", "fraction_near_copies",
// "coverage_threshold"}; baselines are left to the caller (eval puts them under
// baselines.NAME.protein_likeness). Non-finite numbers are null.
nlohmann::json protein_likeness_json(const ProteinLikeness& result);
nlohmann::json alignment_summary_json(const AlignmentSummary& summary);

// A fixed-width table: one row per set (the model headed `model`, the split, "shuffled", then the
// baselines in name order), columns n, median and mean score, median identity, the >= threshold
// fraction and the near copies; a title line names the scoring. Ends with a newline.
std::string protein_likeness_table(const std::string& model, const ProteinLikeness& result);

}  // namespace gsflow::evaluation
