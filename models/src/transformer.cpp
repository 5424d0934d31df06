// Adaptive-layer-norm transformer denoiser body for variable-length peptides (see
// architectures.hpp).
#include <cmath>

#include "architectures.hpp"

namespace gsflow::models {

namespace {
// Layer norm without learned affine: the time embedding supplies shift and scale.
torch::Tensor plain_norm(const torch::Tensor& h) {
  return torch::layer_norm(h, {h.size(-1)}, {}, {}, 1e-6);
}
torch::Tensor modulate(const torch::Tensor& h, const torch::Tensor& shift,
                       const torch::Tensor& scale) {
  return plain_norm(h) * (1.0 + scale.unsqueeze(1)) + shift.unsqueeze(1);
}
}  // namespace

TransformerImpl::TransformerImpl(const ModelSpec& spec) : NetworkImpl(spec) {
  const std::int64_t w = options.width;
  input = register_module("input", torch::nn::Linear(k, w));
  positions = register_parameter("positions", torch::randn({length, w}) * 0.02);
  modulation = register_module("modulation", torch::nn::ModuleList());
  qkv = register_module("qkv", torch::nn::ModuleList());
  attn_out = register_module("attn_out", torch::nn::ModuleList());
  fc1 = register_module("fc1", torch::nn::ModuleList());
  fc2 = register_module("fc2", torch::nn::ModuleList());
  torch::NoGradGuard no_grad;
  for (int b = 0; b < options.blocks; ++b) {
    torch::nn::Linear mod(w, 6 * w);
    mod->weight.zero_();  // adaLN-zero: every block starts as the identity
    mod->bias.zero_();
    modulation->push_back(mod);
    qkv->push_back(torch::nn::Linear(w, 3 * w));
    attn_out->push_back(torch::nn::Linear(w, w));
    fc1->push_back(torch::nn::Linear(w, 2 * w));  // 2x, not 4x: CPU time
    fc2->push_back(torch::nn::Linear(2 * w, w));
  }
  output_mod = register_module("output_mod", torch::nn::Linear(w, 2 * w));
  output_mod->weight.zero_();
  output_mod->bias.zero_();
  output = register_module("output", torch::nn::Linear(w, k));
}

torch::Tensor TransformerImpl::body(const torch::Tensor& features, const torch::Tensor& temb,
                                    const torch::Tensor& mask) {
  const auto len = features.size(1);
  TORCH_CHECK(len <= length, "the transformer takes sequences of up to ", length, " letters, not ",
              len);
  auto h = input(features) + positions.slice(0, 0, len).unsqueeze(0);
  const auto st = torch::silu(temb);
  const auto key_bias = padding_key_bias(mask, features);
  for (std::size_t b = 0; b < qkv->size(); ++b) {
    auto m = modulation[b]->as<torch::nn::Linear>()->forward(st).chunk(6, -1);
    auto a = modulate(h, m[0], m[1]);
    auto attended =
        self_attention(qkv[b]->as<torch::nn::Linear>()->forward(a), options.heads, key_bias);
    h = h + m[2].unsqueeze(1) * attn_out[b]->as<torch::nn::Linear>()->forward(attended);
    auto f = modulate(h, m[3], m[4]);
    f = fc2[b]->as<torch::nn::Linear>()->forward(
        torch::gelu(fc1[b]->as<torch::nn::Linear>()->forward(f)));
    h = h + m[5].unsqueeze(1) * f;
  }
  auto om = output_mod(st).chunk(2, -1);
  return output(modulate(h, om[0], om[1]));
}

}  // namespace gsflow::models
