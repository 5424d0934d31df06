// The MLP denoiser for small problems (LibTorch module; internal to models/).
#pragma once

#include <torch/torch.h>

#include "gsflow/models/model.hpp"

namespace gsflow::models {

struct MlpImpl : torch::nn::Module {
  explicit MlpImpl(const ModelSpec& spec);
  // x: [B, L, K] states on the simplex, t: [B] times in [0, 1] -> logits [B, L, K].
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& t);

  // log p(x_t | e_k) per position and letter, up to a per-position constant: [B, L, K].
  torch::Tensor log_likelihood(const torch::Tensor& x, const torch::Tensor& t) const;

  // GSSM: the score model's q = 1/K + score/(K lam_c) implied by posterior probabilities
  // `posterior` [B, L, K] at state x and time t (q = sum_j P_j softmax(a e_j - lam_c log x)).
  torch::Tensor score_q(const torch::Tensor& posterior, const torch::Tensor& x,
                        const torch::Tensor& t) const;

  std::int64_t length, k;
  MlpOptions options;
  engine::Method method;
  engine::PathOptions path;
  torch::nn::Linear input{nullptr}, time1{nullptr}, time2{nullptr}, output{nullptr};
  torch::nn::LayerNorm input_norm{nullptr}, output_norm{nullptr};
  torch::nn::ModuleList norms, fc1, fc2, time_proj;
  torch::Tensor frequencies;  // buffer: sinusoidal time frequencies
};
TORCH_MODULE(Mlp);

// engine::Path's A(t) and S(t) as float tensors of shape [B, 1, 1] for times t [B]
// (x_t = softmax(A e_k + S g)); `path` must have signal_max resolved (engine::Path::options()).
std::pair<torch::Tensor, torch::Tensor> path_tensors(const engine::PathOptions& path,
                                                     const torch::Tensor& t);

}  // namespace gsflow::models
