// The networks' common part: time features, state features, likelihood skip, GSSM score head, and
// the factory (see network.hpp).
#include "network.hpp"

#include <cmath>

#include "architectures.hpp"
#include "gsflow/models/blas_kernels.hpp"

namespace gsflow::models {

// Before main, while no thread runs BLAS: the kernels every network's float32 products use.
[[maybe_unused]] static const bool blas_chosen = !choose_blas_kernels().empty();

NetworkImpl::NetworkImpl(const ModelSpec& spec)
    : length(static_cast<std::int64_t>(spec.length)),
      k(static_cast<std::int64_t>(spec.k)),
      options(spec.network),
      method(spec.method),
      path(engine::Path(spec.path).options()) {
  const std::int64_t w = options.width;
  time1 = register_module("time1", torch::nn::Linear(options.time_features, w));
  time2 = register_module("time2", torch::nn::Linear(w, w));
  // Geometric frequencies 1 .. 1000 (Transformer-style time features).
  const int half = options.time_features / 2;
  frequencies = register_buffer(
      "frequencies", torch::exp(torch::linspace(0.0, std::log(1000.0), half)).mul(2.0 * M_PI));
}

torch::Tensor NetworkImpl::forward(const torch::Tensor& x, const torch::Tensor& t,
                                   const torch::Tensor& mask) {
  const auto batch = x.size(0);
  const bool needs_likelihood = options.likelihood_skip || options.input == NetworkInput::posterior;
  const auto likelihood = needs_likelihood ? log_likelihood(x, t) : torch::Tensor();
  // The body runs in its weights' type (float32, or bfloat16 for inference: Model::denoiser);
  // time features, the likelihood skip and the logits stay float32.
  const auto dtype = time1->weight.scalar_type();
  auto angles = t.reshape({batch, 1}) * frequencies.reshape({1, -1});
  auto temb =
      time2(torch::silu(time1(torch::cat({torch::sin(angles), torch::cos(angles)}, 1).to(dtype))));
  auto logits = body(features(x, likelihood).to(dtype), temb, mask).to(torch::kFloat);
  if (options.likelihood_skip) logits = logits + likelihood;
  return logits;
}

torch::Tensor NetworkImpl::features(const torch::Tensor& x, const torch::Tensor& likelihood) const {
  switch (options.input) {
    case NetworkInput::log_probs: {
      auto lx = torch::log(x.clamp_min(1e-30f));
      return (lx - lx.mean(-1, true)).mul(0.25);
    }
    case NetworkInput::probs:
      return x.mul(static_cast<double>(k));
    case NetworkInput::posterior:
      return torch::softmax(likelihood, -1).mul(static_cast<double>(k)).sub(1.0);
  }
  throw ModelError("model: unknown network input");
}

std::pair<torch::Tensor, torch::Tensor> path_tensors(const engine::PathOptions& path,
                                                     const torch::Tensor& t) {
  auto tt = t.to(torch::kDouble).reshape({-1, 1, 1});
  if (path.interpolant == engine::Interpolant::paper) {
    auto signal = torch::exp(tt * path.lambda) / path.tau_max;  // 1 / tau(t)
    return {signal.to(torch::kFloat), (signal / path.beta).to(torch::kFloat)};
  }
  auto signal = torch::expm1(tt * path.lambda) * (path.signal_max / std::expm1(path.lambda));
  return {signal.to(torch::kFloat), torch::ones_like(signal).to(torch::kFloat)};
}

namespace {
// Concrete parameters of the interpolant, logit gap a = A / S and temperature lam = 1 / S.
std::pair<torch::Tensor, torch::Tensor> concrete_parameters(const engine::PathOptions& path,
                                                            const torch::Tensor& t) {
  auto [signal, noise] = path_tensors(path, t);
  return {signal / noise, 1.0 / noise};
}
}  // namespace

torch::Tensor NetworkImpl::log_likelihood(const torch::Tensor& x, const torch::Tensor& t) const {
  if (method == engine::Method::linear) {
    // x = t e_k + (1 - t) Dirichlet(1): flat where x_k >= t, impossible elsewhere (soft -30 wall).
    return (x >= t.reshape({-1, 1, 1})).to(torch::kFloat).sub(1.0).mul(30.0);
  }
  // Concrete(a e_k, lam): log p = -K log(sum_i x_i^-lam + (e^a - 1) x_k^-lam) + const
  //                              = -K softplus(log(e^a - 1) + u_k - logsumexp(u)) + const,
  // u = -lam log x (method.md section 1, concrete.hpp).
  auto [a, lam] = concrete_parameters(path, t);
  auto u = -lam * torch::log(x.clamp_min(1e-37f));
  auto gain = torch::log(torch::expm1(a));  // -inf at t = 0: no information yet
  return -static_cast<double>(k) *
         torch::nn::functional::softplus(gain + u - torch::logsumexp(u, -1, true));
}

torch::Tensor NetworkImpl::score_q(const torch::Tensor& posterior, const torch::Tensor& x,
                                   const torch::Tensor& t) const {
  // With w = softmax(u), u = -lam log x, and r_j = 1 / (1 + (e^a - 1) w_j):
  //   q_i = w_i (sum_j P_j r_j + (e^a - 1) P_i r_i).
  auto [a, lam] = concrete_parameters(path, t);
  auto w = torch::softmax(-lam * torch::log(x.clamp_min(1e-37f)), -1);
  auto gain = torch::expm1(a);
  auto r = 1.0 / (1.0 + gain * w);
  return w * ((posterior * r).sum(-1, true) + gain * posterior * r);
}

torch::Tensor self_attention(const torch::Tensor& q_k_v, std::int64_t heads,
                             const torch::Tensor& key_bias) {
  const auto batch = q_k_v.size(0), len = q_k_v.size(1), w = q_k_v.size(2) / 3, d = w / heads;
  const auto parts = q_k_v.reshape({batch, len, 3, heads, d});
  const auto q = parts.select(2, 0).transpose(1, 2);  // [B, H, L, d]
  const auto kk = parts.select(2, 1).transpose(1, 2);
  const auto v = parts.select(2, 2).transpose(1, 2);
  auto scores = torch::matmul(q, kk.transpose(-2, -1)) / std::sqrt(static_cast<double>(d));
  if (key_bias.defined()) scores = scores + key_bias;
  return torch::matmul(torch::softmax(scores, -1), v).transpose(1, 2).reshape({batch, len, w});
}

torch::Tensor padding_key_bias(const torch::Tensor& mask, const torch::Tensor& like) {
  if (!mask.defined()) return {};
  const auto batch = mask.size(0), len = mask.size(1);
  return torch::zeros({batch, 1, 1, len}, like.options())
      .masked_fill(mask.logical_not().reshape({batch, 1, 1, len}), -1e9);
}

Network make_network(const ModelSpec& spec) {
  const NetworkOptions& o = spec.network;
  if (spec.length < 1 || spec.k < 2) throw ModelError("model: length must be >= 1 and k >= 2");
  if (o.width < 1 || o.blocks < 0 || o.time_features < 2 || o.time_features % 2 != 0)
    throw ModelError("model: width >= 1, blocks >= 0 and an even time_features >= 2 required");
  if (o.block_positions && o.type != NetworkType::cnn)
    throw ModelError("model: network.block_positions is a CNN option");
  switch (o.type) {
    case NetworkType::mlp:
      return std::make_shared<MlpImpl>(spec);
    case NetworkType::cnn:
      if (o.kernel < 1 || o.kernel % 2 == 0)
        throw ModelError("model: network.kernel must be an odd number >= 1");
      return std::make_shared<CnnImpl>(spec);
    case NetworkType::transformer:
      if (o.heads < 1 || o.width % o.heads != 0)
        throw ModelError("model: network.heads must be >= 1 and divide network.width");
      return std::make_shared<TransformerImpl>(spec);
  }
  throw ModelError("model: unknown network type");
}

}  // namespace gsflow::models
