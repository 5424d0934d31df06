// Independent judges of guided generation: k-mer logistic regression (L2, fitted exactly by
// Newton's method in double, regularisation chosen by cross-validation), Torch-free, trained on
// another split than the guiding classifier so that fooling the guide does not count as success.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "gsflow/engine/sequence.hpp"

namespace gsflow::models {

// ---- features
// ------------------------------------------------------------------------------------

// The feature vector of one sequence, in this order: [length / length_scale] when `length`, then
// for k = 1..kmax the K^k k-mer frequencies (the k-mer's count divided by L - k + 1; all zero when
// L < k), indexed as engine::kmer_counts indexes them (first letter most significant).
struct JudgeFeatures {
  std::size_t k = 4;            // alphabet size K (2..255)
  std::size_t kmax = 4;         // k-mer orders 1..kmax (K^kmax <= 2^24)
  bool length = false;          // one leading feature: sequence length / length_scale
  double length_scale = 100.0;  // positions; > 0

  // Number of features: sum over k = 1..kmax of K^k, plus 1 with `length`.
  std::size_t size() const;
};

// Writes the features of `sequence` into `out` (size features.size()). Throws
// std::invalid_argument for an empty sequence, a letter >= K, a wrong `out` size or bad
// features (K outside 2..255, kmax 0, K^kmax > 2^24, length_scale <= 0).
void judge_features(const JudgeFeatures& features, std::span<const std::uint8_t> sequence,
                    std::span<double> out);

// [n, features.size()]: row i holds the features of sequence i (same rules).
Eigen::MatrixXd judge_feature_matrix(const JudgeFeatures& features,
                                     const engine::SequenceSet& sequences);

// ---- the exact L2 logistic regression
// ------------------------------------------------------------

struct LogisticOptions {
  double tolerance = 1e-9;   // stop when max |gradient| of the objective is at most this
  int max_iterations = 100;  // Newton steps before giving up (std::runtime_error)
};

struct LogisticFit {
  Eigen::VectorXd weights;     // [p]
  double intercept = 0.0;      // not penalised
  int iterations = 0;          // Newton steps taken
  double gradient_norm = 0.0;  // max |gradient| at the returned point
};

// Minimises J(w, b) = (1/n) sum_i [log(1 + exp(z_i)) - y_i z_i] + (lambda / 2) |w|^2 with
// z_i = b + x_i . w (x_i = row i of x), by Newton's method with an Armijo backtracking line search
// and a Cholesky solve of the exact Hessian (1/n) X^T D X + lambda I, in double. The optimum is
// unique for lambda > 0. `start` (optional) warm-starts from a previous fit of the same shape.
// Throws std::invalid_argument for lambda <= 0, sizes that differ, labels other than 0/1 or n = 0,
// and std::runtime_error when it has not converged after max_iterations.
LogisticFit fit_logistic_l2(const Eigen::MatrixXd& x, std::span<const std::uint8_t> labels,
                            double lambda, const LogisticOptions& options = {},
                            const LogisticFit* start = nullptr);

// ---- the judge
// -----------------------------------------------------------------------------------

// Log-spaced regularisation strengths 10^-5 .. 10^2 in half decades (15 values).
std::vector<double> default_judge_lambdas();

struct JudgeOptions {
  std::string name;                             // e.g. "promoter", "amp"
  std::string alphabet = "dna";                 // "dna" or "protein" (recorded)
  std::string positive;                         // what label 1 means, for reports
  std::size_t k = 4;                            // alphabet size K
  std::vector<std::size_t> kmax_candidates{4};  // k-mer orders 1..kmax; CV picks among them
  bool length_feature = false;                  // add length / length_scale as a feature
  double length_scale = 100.0;                  // positions
  std::vector<double> lambdas = default_judge_lambdas();  // CV grid of lambda (all > 0)
  std::size_t folds = 5;                                  // cross-validation folds (>= 2)
  std::uint64_t seed = 0;                                 // Philox seed of the fold assignment
  LogisticOptions fit;                                    // Newton settings of every fit
  std::string split;                                      // name of the split trained on (recorded)
  std::string data_file;                                  // file trained on (recorded)
};

// One cell of the cross-validation grid: pooled out-of-fold figures over the whole training set.
struct JudgeCvPoint {
  std::size_t kmax = 0;
  double lambda = 0.0;
  double log_loss = 0.0;  // mean held-out negative log-likelihood, nats (what the choice minimises)
  double auroc = 0.0;     // AUROC of the out-of-fold probabilities
  double accuracy = 0.0;  // at probability 0.5
};

struct JudgeInfo {
  std::string name;      // e.g. "promoter"
  std::string alphabet;  // "dna" or "protein"
  std::string positive;  // what a high probability means
  JudgeFeatures features;
  double lambda = 0.0;  // the CV choice
  std::size_t folds = 0;
  std::vector<JudgeCvPoint> cv;  // every (kmax, lambda) tried
  std::string split;             // split trained on, e.g. "validation"
  std::string data_file;         // file trained on
  std::string data_hash;         // FNV-1a 64 of the training sequences and labels (16 hex digits)
  std::size_t sequences = 0;     // training sequences
  std::size_t positives = 0;     // of which label 1
  double seconds = 0.0;          // wall time of train(), CV included
  // Figures by name: cv_log_loss, cv_auroc, cv_accuracy (the chosen cell), fit_auroc and
  // fit_accuracy (the final fit on its own training data), and whatever set_metric added (e.g.
  // train_split_auroc, test_split_accuracy from `gsflow train-judge`).
  std::map<std::string, double> metrics;
};

// A trained judge: P(label 1 | sequence) = sigmoid(b + sum_j w_j (x_j - mean_j) / scale_j) over
// the features x of judge_features. Immutable once trained or loaded except for set_metric, so
// concurrent scoring is safe.
class KmerJudge {
 public:
  // Chooses kmax among options.kmax_candidates and lambda among options.lambdas by
  // options.folds-fold cross-validation inside (sequences, labels) (minimum mean held-out log
  // loss; ties go to the smaller kmax, then the larger lambda), standardising each fold on its own
  // training part, then fits on all of it. `groups` (optional, one id per sequence) keeps
  // sequences of one group (e.g. a 50 %-identity cluster) in one fold; folds are balanced for
  // positives. Throws std::invalid_argument for empty or mismatched inputs, a single class,
  // fewer sequences (or groups) than folds, bad letters or bad options, and std::runtime_error if
  // a Newton fit does not converge.
  static KmerJudge train(const engine::SequenceSet& sequences, std::span<const std::uint8_t> labels,
                         const JudgeOptions& options, std::span<const std::uint32_t> groups = {});

  // Reads a "gsflow-judge-1" JSON file. Throws engine::InputError naming the file and the field
  // for a missing or unreadable file, bad JSON, another format or version, a missing field, a
  // value of the wrong type and arrays of the wrong size.
  static KmerJudge load(const std::string& path);
  // Writes the "gsflow-judge-1" JSON file (doubles written to round-trip exactly). Throws
  // engine::InputError naming the file when it cannot be written.
  void save(const std::string& path) const;

  // P(label 1) of one sequence (letters 0..K-1, any length >= 1). Throws std::invalid_argument for
  // an empty sequence or a letter >= K.
  double probability(std::span<const std::uint8_t> sequence) const;
  std::vector<double> probabilities(const engine::SequenceSet& sequences) const;

  const JudgeInfo& info() const noexcept { return info_; }
  // Adds or replaces a figure in info().metrics (saved with the judge).
  void set_metric(const std::string& name, double value) { info_.metrics[name] = value; }

  // The fitted model, in standardised feature space (what the optimality test checks).
  const Eigen::VectorXd& weights() const noexcept { return weights_; }
  double intercept() const noexcept { return intercept_; }
  const Eigen::VectorXd& feature_mean() const noexcept { return mean_; }
  const Eigen::VectorXd& feature_scale() const noexcept { return scale_; }

 private:
  KmerJudge() = default;  // only train() and load() make judges

  JudgeInfo info_;
  Eigen::VectorXd weights_, mean_, scale_;
  double intercept_ = 0.0;
};

// The judge file for `name`: `name` itself when it is an existing file, else NAME.json in the
// "judges" subfolder of each of models::model_folders() ($GSFLOW_MODELS/judges, then
// <prefix>/share/gsflow/models/judges when installed, else the source tree's
// models/pretrained/judges). Throws
// models::ModelError listing the folders searched and the judges found.
std::string resolve_judge(const std::string& name);
// Names (file stems) of the judges in those folders, sorted, without duplicates.
std::vector<std::string> bundled_judges();

}  // namespace gsflow::models
