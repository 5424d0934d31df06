// Dilated 1-D CNN denoiser body for DNA (see architectures.hpp).
#include "architectures.hpp"

namespace gsflow::models {

namespace {
int dilation_of(int block) { return 1 << (block % 5); }  // 1, 2, 4, 8, 16, 1, ...
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
  output_norm =
      register_module("output_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})));
  output = register_module("output", torch::nn::Linear(w, k));
}

torch::Tensor CnnImpl::body(const torch::Tensor& features, const torch::Tensor& temb,
                            const torch::Tensor& mask) {
  // Activations stay [B, L, W] for norms and pointwise layers; only the convolution sees
  // [B, W, L]. Padded positions are zeroed before each convolution so they add nothing.
  const auto keep = mask.defined() ? mask.unsqueeze(-1).to(features.dtype()) : torch::Tensor();
  auto h = input(features) + positions.slice(0, 0, features.size(1)).unsqueeze(0);
  const auto st = torch::silu(temb);
  for (std::size_t b = 0; b < convs->size(); ++b) {
    auto z = norms[b]->as<torch::nn::LayerNorm>()->forward(h) +
             time_proj[b]->as<torch::nn::Linear>()->forward(st).unsqueeze(1);
    if (block_positions.defined())
      z = z + block_positions[static_cast<std::int64_t>(b)].slice(0, 0, h.size(1)).unsqueeze(0);
    z = torch::silu(z);
    if (keep.defined()) z = z * keep;
    z = convs[b]->as<torch::nn::Conv1d>()->forward(z.transpose(1, 2)).transpose(1, 2);
    h = h + z;
  }
  return output(output_norm(h));
}

}  // namespace gsflow::models
