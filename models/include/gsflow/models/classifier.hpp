// Sequence classifiers for guidance: networks trained on clean one-hot sequences (gsflow
// classifier checkpoints) and user TorchScript files with a JSON descriptor. Torch-free header;
// scores come with exact gradients with respect to the (one-hot or soft) input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gsflow/engine/kernels.hpp"
#include "gsflow/models/model.hpp"  // ModelError

namespace gsflow::models {

// What a classifier is and what its output means.
struct ClassifierInfo {
  std::string name;      // e.g. "promoter", "amp" (file stem for user files)
  std::string alphabet;  // "dna" or "protein"
  std::size_t k = 4;     // alphabet size
  std::size_t min_length = 1;
  std::size_t max_length = 1;  // longest input accepted (fixed-length models: min == max)
  // Meaning of the raw output: "logit" (P(positive) = sigmoid(output)), "probability" (in 0..1) or
  // "score" (any real number, higher is better). gsflow checkpoints output logits of a classifier
  // trained with class weights (metrics "positive_weight", "train_positive_fraction"): with
  // positive_weight = n_negative / n_positive, sigmoid(output) is P(positive) under equal priors.
  std::string output = "logit";
  std::string positive;                   // what a high score means, for users and reports
  std::map<std::string, double> metrics;  // e.g. "validation_auroc", "test_auroc", "test_accuracy"
  bool differentiable = true;             // false: guidance uses the substitution scan instead
  std::string kind = "cnn";               // "cnn" (gsflow checkpoint) or "torchscript"
  std::string data_hash;                  // training data hash (gsflow checkpoints; else "")
  std::int64_t parameters = 0;            // number of weights (TorchScript: its parameters)
};

// Architecture of the gsflow classifier (models/src/classifier_network.hpp): a convolution from
// the K letters to `width` channels and GELU, optionally max pooling over windows of `pool`
// positions, `blocks` residual dilated convolutions (dilations 1, 2, 4, ... per block), masked
// global max and mean pooling over real positions, and a two-layer head to one logit. No
// normalisation layer: a sequence's output never depends on its batch.
struct ClassifierNetworkOptions {
  int width = 32;          // channels
  int blocks = 2;          // residual convolution blocks after the first convolution
  int kernel = 9;          // convolution width (odd)
  int hidden = 32;         // units of the head's hidden layer
  int pool = 1;            // max pooling window (= stride) after the first convolution; 1 = none
                           // (2 halves the blocks' cost: guidance evaluates at every step)
  double dropout = 0.1;    // dropout on the pooled features while training (0 = none)
  bool positions = false;  // learned position embedding after the first convolution; needs
                           // min_length == max_length (fixed-length inputs, e.g. DNA windows)
};

class Classifier {
 public:
  // Loads a gsflow classifier checkpoint (NAME.ckpt written by train_classifier) or, for a .json
  // file, a user TorchScript classifier described by it:
  //   {"format": "gsflow-classifier-1", "torchscript": "FILE.pt" (relative to the JSON),
  //    "alphabet": "dna"|"protein", "min_length": N, "max_length": N,
  //    "output": "logit"|"probability"|"score", "positive": "...", "differentiable": true}
  // Optional keys: "name" (default: the JSON file's stem), "k" (must match the alphabet),
  // "metrics" ({"name": number}). Unknown keys are refused (typos must not pass silently).
  // The TorchScript module takes a float tensor [n, L, K] (one-hot rows; padded positions all
  // zero) and returns [n] or [n, 1]; load() runs it once on one sequence of min_length to check.
  // evaluate() may call it on consecutive subsets of its sequences (chunks of ~16k positions).
  // Throws ModelError naming the file and field for a missing, truncated or mismatched file.
  static Classifier load(const std::string& file);
  ~Classifier();
  Classifier(Classifier&&) noexcept;
  Classifier& operator=(Classifier&&) noexcept;

  const ClassifierInfo& info() const;

  // Raw outputs for n sequences given as rows x [n * length, K] (row i * length + p is position p
  // of sequence i; one-hot for real sequences, any values allowed), where sequence i has
  // lengths[i] real positions (lengths empty = all `length`; rows past lengths[i] are ignored,
  // even NaN). Every lengths[i] must lie in min_length..max_length, and `length` (the padded row
  // count) in max(lengths)..max_length. When `grad` is given ([n * length, K]) it receives
  // d output_i / d x (zero at padding); a classifier with info().differentiable false refuses it.
  // Thread-safe for concurrent calls. Throws ModelError for a length outside the accepted range,
  // shapes that do not fit, or a failure inside the network.
  void evaluate(engine::ConstRows x, std::size_t n, std::size_t length,
                std::span<const std::uint16_t> lengths, std::span<double> outputs,
                const engine::Rows* grad = nullptr) const;

  // Threads that evaluate() uses (default 1): shards of the batch run side by side, with the same
  // bits for every thread count. Not thread-safe: set it before sharing the classifier.
  void set_threads(int threads);
  // Records a metric in info().metrics (e.g. test results added after training), kept by save().
  void set_metric(const std::string& name, double value);
  // Writes a gsflow classifier checkpoint (inference weights only; temporary file + rename).
  // Throws ModelError for a TorchScript classifier (its file is the user's) or on I/O failure.
  void save(const std::string& file) const;

  // Internal (models/src defines Impl): a classifier from a trained network.
  struct Impl;
  explicit Classifier(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

// Folders and names: resolve_classifier("promoter") finds promoter.ckpt among the bundled
// classifiers (models/pretrained/classifiers/) or takes an existing file path as is. Throws
// ModelError listing what was searched.
// Folders searched, in order: DIR/classifiers for each DIR of model_folders() (catalog.hpp):
// $GSFLOW_MODELS/classifiers, then <prefix>/share/gsflow/models/classifiers when installed, else
// the source tree's models/pretrained/classifiers. A name finds NAME.ckpt, then NAME.json.
std::string resolve_classifier(const std::string& name);
// Names (file stems) of the .ckpt and .json classifiers in those folders, sorted, no duplicates.
std::vector<std::string> bundled_classifiers();
// The folders above, in search order.
std::vector<std::string> classifier_folders();

}  // namespace gsflow::models
