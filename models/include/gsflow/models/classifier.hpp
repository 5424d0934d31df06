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

namespace gsflow::models {

// What a classifier is and what its output means.
struct ClassifierInfo {
  std::string name;         // e.g. "promoter", "amp" (file stem for user files)
  std::string alphabet;     // "dna" or "protein"
  std::size_t k = 4;        // alphabet size
  std::size_t min_length = 1;
  std::size_t max_length = 1;  // longest input accepted (fixed-length models: min == max)
  // Meaning of the raw output: "logit" (P(positive) = sigmoid(output)), "probability" (in 0..1) or
  // "score" (any real number, higher is better).
  std::string output = "logit";
  std::string positive;                   // what a high score means, for users and reports
  std::map<std::string, double> metrics;  // e.g. "validation_auroc", "test_auroc", "test_accuracy"
  bool differentiable = true;             // false: guidance uses the substitution scan instead
};

class Classifier {
 public:
  // Loads a gsflow classifier checkpoint (NAME.ckpt written by train_classifier) or, for a .json
  // file, a user TorchScript classifier described by it:
  //   {"format": "gsflow-classifier-1", "torchscript": "FILE.pt" (relative to the JSON),
  //    "alphabet": "dna"|"protein", "min_length": N, "max_length": N,
  //    "output": "logit"|"probability"|"score", "positive": "...", "differentiable": true}
  // The TorchScript module takes a float tensor [n, L, K] (one-hot rows; padded positions all
  // zero) and returns [n] or [n, 1]. Throws ModelError naming the file and field for a missing,
  // truncated or mismatched file.
  static Classifier load(const std::string& file);
  ~Classifier();
  Classifier(Classifier&&) noexcept;
  Classifier& operator=(Classifier&&) noexcept;

  const ClassifierInfo& info() const;

  // Raw outputs for n sequences given as rows x [n * length, K] (row i * length + p is position p
  // of sequence i; one-hot for real sequences, any values allowed), where sequence i has
  // lengths[i] real positions (lengths empty = all `length`; rows past lengths[i] are ignored).
  // When `grad` is given ([n * length, K]) it receives d output_i / d x (zero at padding).
  // Thread-safe for concurrent calls. Throws ModelError for a length outside the accepted range.
  void evaluate(engine::ConstRows x, std::size_t n, std::size_t length,
                std::span<const std::uint16_t> lengths, std::span<double> outputs,
                const engine::Rows* grad = nullptr) const;

  struct Impl;

 private:
  explicit Classifier(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Folders and names: resolve_classifier("promoter") finds promoter.ckpt among the bundled
// classifiers (models/pretrained/classifiers/) or takes an existing file path as is. Throws
// ModelError listing what was searched.
std::string resolve_classifier(const std::string& name);
std::vector<std::string> bundled_classifiers();

}  // namespace gsflow::models
