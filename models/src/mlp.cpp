// MLP denoiser body: the network behind the toy benchmark and other small problems.
#include "architectures.hpp"

namespace gsflow::models {

MlpImpl::MlpImpl(const ModelSpec& spec) : NetworkImpl(spec) {
  const std::int64_t w = options.width, in = length * k;
  input = register_module("input", torch::nn::Linear(in, w));
  input_norm =
      register_module("input_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})));
  norms = register_module("norms", torch::nn::ModuleList());
  fc1 = register_module("fc1", torch::nn::ModuleList());
  fc2 = register_module("fc2", torch::nn::ModuleList());
  time_proj = register_module("time_proj", torch::nn::ModuleList());
  for (int b = 0; b < options.blocks; ++b) {
    norms->push_back(torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})));
    fc1->push_back(torch::nn::Linear(w, 2 * w));
    fc2->push_back(torch::nn::Linear(2 * w, w));
    time_proj->push_back(torch::nn::Linear(w, w));
  }
  output_norm =
      register_module("output_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({w})));
  output = register_module("output", torch::nn::Linear(w, in));
}

torch::Tensor MlpImpl::body(const torch::Tensor& features, const torch::Tensor& temb,
                            const torch::Tensor& /*mask*/) {
  const auto batch = features.size(0);
  TORCH_CHECK(features.size(1) == length, "the MLP takes sequences of length ", length, " only");
  auto h = input_norm(input(features.reshape({batch, length * k})));
  for (std::size_t b = 0; b < fc1->size(); ++b) {
    auto z = norms[b]->as<torch::nn::LayerNorm>()->forward(h) +
             time_proj[b]->as<torch::nn::Linear>()->forward(torch::silu(temb));
    z = fc1[b]->as<torch::nn::Linear>()->forward(z);
    h = h + fc2[b]->as<torch::nn::Linear>()->forward(torch::silu(z));
  }
  return output(output_norm(h)).reshape({batch, length, k});
}

}  // namespace gsflow::models
