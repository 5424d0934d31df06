// The gsflow guidance classifier network (LibTorch; internal to models/): a small dilated 1-D CNN
// with masked global max + mean pooling to one logit (see ClassifierNetworkOptions).
#pragma once

#include <torch/torch.h>

#include "gsflow/models/classifier.hpp"

namespace gsflow::models {

struct ClassifierCnnImpl : torch::nn::Module {
  // k: alphabet size; length: the fixed input length when options.positions (else unused).
  ClassifierCnnImpl(const ClassifierNetworkOptions& options, std::int64_t k, std::int64_t length);

  // x: [n, L, K] (one-hot or soft), mask: [n, L] bool, true at real positions (every sequence
  // needs at least one), or undefined when every position is real -> logits [n]. Padded positions
  // are zeroed before every convolution and left out of the pooling, so a sequence's output depends
  // neither on its padding nor on L nor on its batch mates, and its gradient at padding is zero.
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask);

  ClassifierNetworkOptions options;
  std::int64_t k, length;

 private:
  torch::nn::Conv1d input{nullptr};
  torch::nn::ModuleList convs;
  torch::Tensor positions;  // parameter [width, length] when options.positions
  torch::nn::Linear head1{nullptr}, head2{nullptr};
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(ClassifierCnn);

// Throws ModelError (prefixed by `what`) for impossible options.
void check_classifier_options(const ClassifierNetworkOptions& options, std::int64_t k,
                              std::int64_t min_length, std::int64_t max_length,
                              const std::string& what);

}  // namespace gsflow::models
