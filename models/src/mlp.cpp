// MLP denoiser: the network behind the toy benchmark and other small problems (see mlp.hpp).
#include "mlp.hpp"

#include <cmath>

namespace gsflow::models {

MlpImpl::MlpImpl(const ModelSpec& spec)
    : length(static_cast<std::int64_t>(spec.length)),
      k(static_cast<std::int64_t>(spec.k)),
      options(spec.mlp),
      method(spec.method),
      path(engine::Path(spec.path).options()) {
  const MlpOptions& opt = spec.mlp;
  const std::int64_t w = opt.width, in = length * k;
  input = register_module("input", torch::nn::Linear(in, w));
  input_norm =
      register_module("input_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})));
  time1 = register_module("time1", torch::nn::Linear(opt.time_features, w));
  time2 = register_module("time2", torch::nn::Linear(w, w));
  norms = register_module("norms", torch::nn::ModuleList());
  fc1 = register_module("fc1", torch::nn::ModuleList());
  fc2 = register_module("fc2", torch::nn::ModuleList());
  time_proj = register_module("time_proj", torch::nn::ModuleList());
  for (int b = 0; b < opt.blocks; ++b) {
    norms->push_back(torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})));
    fc1->push_back(torch::nn::Linear(w, 2 * w));
    fc2->push_back(torch::nn::Linear(2 * w, w));
    time_proj->push_back(torch::nn::Linear(w, w));
  }
  output_norm =
      register_module("output_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})));
  output = register_module("output", torch::nn::Linear(w, in));
  // Geometric frequencies 1 .. 1000 (Transformer-style time features).
  const int half = opt.time_features / 2;
  frequencies = register_buffer(
      "frequencies", torch::exp(torch::linspace(0.0, std::log(1000.0), half)).mul(2.0 * M_PI));
}

torch::Tensor MlpImpl::forward(const torch::Tensor& x, const torch::Tensor& t) {
  const auto batch = x.size(0);
  torch::Tensor features;
  if (options.input == NetworkInput::log_probs) {
    auto lx = torch::log(x.clamp_min(1e-30f));
    features = (lx - lx.mean(-1, true)).mul(0.25);
  } else {
    features = x.mul(static_cast<double>(k));
  }
  auto h = input_norm(input(features.reshape({batch, length * k})));
  auto angles = t.reshape({batch, 1}) * frequencies.reshape({1, -1});
  auto temb = time2(torch::silu(time1(torch::cat({torch::sin(angles), torch::cos(angles)}, 1))));
  for (std::size_t b = 0; b < fc1->size(); ++b) {
    auto z = norms[b]->as<torch::nn::LayerNorm>()->forward(h) +
             time_proj[b]->as<torch::nn::Linear>()->forward(torch::silu(temb));
    z = fc1[b]->as<torch::nn::Linear>()->forward(z);
    h = h + fc2[b]->as<torch::nn::Linear>()->forward(torch::silu(z));
  }
  auto logits = output(output_norm(h)).reshape({batch, length, k});
  if (options.likelihood_skip) logits = logits + log_likelihood(x, t);
  return logits;
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

torch::Tensor MlpImpl::log_likelihood(const torch::Tensor& x, const torch::Tensor& t) const {
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

torch::Tensor MlpImpl::score_q(const torch::Tensor& posterior, const torch::Tensor& x,
                               const torch::Tensor& t) const {
  // With w = softmax(u), u = -lam log x, and r_j = 1 / (1 + (e^a - 1) w_j):
  //   q_i = w_i (sum_j P_j r_j + (e^a - 1) P_i r_i).
  auto [a, lam] = concrete_parameters(path, t);
  auto w = torch::softmax(-lam * torch::log(x.clamp_min(1e-37f)), -1);
  auto gain = torch::expm1(a);
  auto r = 1.0 / (1.0 + gain * w);
  return w * ((posterior * r).sum(-1, true) + gain * posterior * r);
}

}  // namespace gsflow::models
