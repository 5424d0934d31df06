// Dilated 1-D CNN denoiser body for DNA (see architectures.hpp).
#include "architectures.hpp"

namespace gsflow::models {

namespace {
int dilation_of(int block) { return 1 << (block % 5); }  // 1, 2, 4, 8, 16, 1, ...

// The attention layer that follows block `block` (0-based) of `blocks` when `layers` are spread
// evenly (after blocks B/n, 2B/n, ... counted from 1), or -1.
int attention_after(int block, int blocks, int layers) {
  if (layers <= 0) return -1;
  for (int j = 0; j < layers; ++j)
    if ((j + 1) * blocks / layers - 1 == block) return j;
  return -1;
}
}  // namespace

CnnImpl::CnnImpl(const ModelSpec& spec) : NetworkImpl(spec) {
  const std::int64_t w = options.width;
  input = register_module("input", torch::nn::Linear(k, w));
  // Learned positions: promoter signals sit at fixed distances from the start site (TATA box at
  // -30), which zero padding alone locates poorly.
  positions = register_parameter("positions", torch::randn({length, w}) * 0.02);
  // Per-block positions (zero at first): a block that detects a motif also learns where it belongs,
  // rather than relying on what of the input's positions survives the residual stream.
  if (options.block_positions)
    block_positions =
        register_parameter("block_positions", torch::zeros({options.blocks, length, w}));
  norms = register_module("norms", torch::nn::ModuleList());
  convs = register_module("convs", torch::nn::ModuleList());
  time_proj = register_module("time_proj", torch::nn::ModuleList());
  for (int b = 0; b < options.blocks; ++b) {
    const int d = dilation_of(b);
    norms->push_back(torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})));
    convs->push_back(torch::nn::Conv1d(torch::nn::Conv1dOptions(w, w, options.kernel)
                                           .dilation(d)
                                           .padding(d * (options.kernel - 1) / 2)));
    time_proj->push_back(torch::nn::Linear(w, w));
  }
  if (options.attention > 0) {  // registered only when used: older checkpoints have none
    attn_norms = register_module("attn_norms", torch::nn::ModuleList());
    attn_time = register_module("attn_time", torch::nn::ModuleList());
    attn_qkv = register_module("attn_qkv", torch::nn::ModuleList());
    attn_out = register_module("attn_out", torch::nn::ModuleList());
  }
  for (int j = 0; j < options.attention; ++j) {
    attn_norms->push_back(torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})));
    attn_time->push_back(torch::nn::Linear(w, w));
    attn_qkv->push_back(torch::nn::Linear(w, 3 * w));
    torch::nn::Linear out(w, w);
    torch::NoGradGuard no_grad;
    out->weight.zero_();  // the layer starts as the identity
    out->bias.zero_();
    attn_out->push_back(out);
  }
  output_norm =
      register_module("output_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})));
  output = register_module("output", torch::nn::Linear(w, k));
}

torch::Tensor CnnImpl::attend(const torch::Tensor& q_k_v, const torch::Tensor& mask,
                              int layer) const {
  const std::int64_t batch = q_k_v.size(0), len = q_k_v.size(1), span = options.attention_span;
  if (span == 0 || span >= len)
    return self_attention(q_k_v, options.heads, padding_key_bias(mask, q_k_v));
  // Chunks of `span` letters; odd layers roll the sequence by half a span first.
  const std::int64_t shift = layer % 2 == 1 ? span / 2 : 0, chunks = len / span;
  const auto chunked = [&](const torch::Tensor& v) {
    const auto r = shift ? torch::roll(v, {-shift}, {1}) : v;
    return r.reshape({batch * chunks, span, -1});
  };
  const auto m = mask.defined() ? chunked(mask.unsqueeze(-1)).squeeze(-1) : torch::Tensor();
  auto out = self_attention(chunked(q_k_v), options.heads, padding_key_bias(m, q_k_v))
                 .reshape({batch, len, -1});
  return shift ? torch::roll(out, {shift}, {1}) : out;
}

torch::Tensor CnnImpl::body(const torch::Tensor& features, const torch::Tensor& temb,
                            const torch::Tensor& mask) {
  // Activations stay [B, L, W] for norms and pointwise layers; only the convolution sees
  // [B, W, L]. Padded positions are zeroed before each convolution so they add nothing.
  const auto keep = mask.defined() ? mask.unsqueeze(-1).to(features.dtype()) : torch::Tensor();
  auto h = input(features) + positions.slice(0, 0, features.size(1)).unsqueeze(0);
  const auto st = torch::silu(temb);
  const int blocks = static_cast<int>(convs->size());
  for (int b = 0; b < blocks; ++b) {
    auto z = norms[b]->as<torch::nn::LayerNorm>()->forward(h) +
             time_proj[b]->as<torch::nn::Linear>()->forward(st).unsqueeze(1);
    if (block_positions.defined())
      z = z + block_positions[static_cast<std::int64_t>(b)].slice(0, 0, h.size(1)).unsqueeze(0);
    z = torch::silu(z);
    if (keep.defined()) z = z * keep;
    z = convs[b]->as<torch::nn::Conv1d>()->forward(z.transpose(1, 2)).transpose(1, 2);
    h = h + z;
    const int j = attention_after(b, blocks, options.attention);
    if (j < 0) continue;
    auto a = attn_norms[j]->as<torch::nn::LayerNorm>()->forward(h) +
             attn_time[j]->as<torch::nn::Linear>()->forward(st).unsqueeze(1);
    h = h + attn_out[j]->as<torch::nn::Linear>()->forward(
                attend(attn_qkv[j]->as<torch::nn::Linear>()->forward(a), mask, j));
  }
  return output(output_norm(h));
}

}  // namespace gsflow::models
