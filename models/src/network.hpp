// The denoiser networks' common part (LibTorch; internal to models/): time embedding, the state
// features, the exact likelihood skip and the GSSM score head. Each architecture adds a body.
#pragma once

#include <torch/torch.h>

#include <memory>
#include <utility>

#include "gsflow/models/model.hpp"

namespace gsflow::models {

struct NetworkImpl : torch::nn::Module {
  explicit NetworkImpl(const ModelSpec& spec);
  // x: [B, L, K] states on the simplex, t: [B] times in [0, 1], mask: [B, L] bool with true at
  // real positions (padding of shorter sequences is false), or an undefined tensor when every
  // position is real -> logits [B, L, K]. L may be below spec.length only for the transformer.
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& t,
                        const torch::Tensor& mask = {});

  // log p(x_t | e_k) per position and letter, up to a per-position constant: [B, L, K].
  torch::Tensor log_likelihood(const torch::Tensor& x, const torch::Tensor& t) const;

  // What the body sees of x_t, as options.input says: [B, L, K]. `likelihood` is
  // log_likelihood(x, t), needed (and only read) for NetworkInput::posterior.
  torch::Tensor features(const torch::Tensor& x, const torch::Tensor& likelihood) const;

  // GSSM: the score model's q = 1/K + score/(K lam_c) implied by posterior probabilities
  // `posterior` [B, L, K] at state x and time t (q = sum_j P_j softmax(a e_j - lam_c log x)).
  torch::Tensor score_q(const torch::Tensor& posterior, const torch::Tensor& x,
                        const torch::Tensor& t) const;

  std::int64_t length, k;
  NetworkOptions options;
  engine::Method method;
  engine::PathOptions path;

 protected:
  // features: [B, L, K] (the state as NetworkInput says), temb: [B, width] time embedding,
  // mask as in forward() -> logits [B, L, K] before the likelihood skip.
  virtual torch::Tensor body(const torch::Tensor& features, const torch::Tensor& temb,
                             const torch::Tensor& mask) = 0;

 private:
  torch::nn::Linear time1{nullptr}, time2{nullptr};
  torch::Tensor frequencies;  // buffer: sinusoidal time frequencies
};
using Network = std::shared_ptr<NetworkImpl>;

// Multi-head scaled dot-product self-attention: q_k_v [B, L, 3W] (queries, keys, values, each W =
// heads x d) -> [B, L, W]; key_bias [B, 1, 1, L] is added to the scores when defined.
torch::Tensor self_attention(const torch::Tensor& q_k_v, std::int64_t heads,
                             const torch::Tensor& key_bias);

// The additive key mask for self_attention: -1e9 at padding (mask [B, L] false; finite, so a query
// whose keys are all padding gets a finite average instead of NaN), in the type and device of
// `like`; undefined when the mask is.
torch::Tensor padding_key_bias(const torch::Tensor& mask, const torch::Tensor& like);

// Builds the network a spec describes (throws ModelError on impossible sizes).
Network make_network(const ModelSpec& spec);

// engine::Path's A(t) and S(t) as float tensors of shape [B, 1, 1] for times t [B]
// (x_t = softmax(A e_k + S g)); `path` must have signal_max resolved (engine::Path::options()).
std::pair<torch::Tensor, torch::Tensor> path_tensors(const engine::PathOptions& path,
                                                     const torch::Tensor& t);

}  // namespace gsflow::models
