// The three denoiser bodies (internal to models/): MLP for small fixed-length problems, dilated
// CNN for DNA, adaptive-layer-norm transformer for variable-length peptides.
#pragma once

#include "network.hpp"

namespace gsflow::models {

// Flattened input projection, residual blocks with the time embedding added before each block,
// layer norm, output projection to L x K logits.
struct MlpImpl : NetworkImpl {
  explicit MlpImpl(const ModelSpec& spec);

 protected:
  torch::Tensor body(const torch::Tensor& features, const torch::Tensor& temb,
                     const torch::Tensor& mask) override;

 private:
  torch::nn::Linear input{nullptr}, output{nullptr};
  torch::nn::LayerNorm input_norm{nullptr}, output_norm{nullptr};
  torch::nn::ModuleList norms, fc1, fc2, time_proj;
};

// Pointwise input projection plus learned positions, residual blocks of (layer norm + time
// embedding, SiLU, dilated convolution) with dilations 1, 2, 4, 8, 16 repeating, as in the
// Dirichlet-FM promoter model but narrower and without its per-block pointwise layers, for CPUs;
// pointwise output projection. With `block_positions`, every block also adds its own learned
// position table where it adds the time embedding.
struct CnnImpl : NetworkImpl {
  explicit CnnImpl(const ModelSpec& spec);

 protected:
  torch::Tensor body(const torch::Tensor& features, const torch::Tensor& temb,
                     const torch::Tensor& mask) override;

 private:
  torch::nn::Linear input{nullptr}, output{nullptr};
  torch::nn::LayerNorm output_norm{nullptr};
  torch::Tensor positions;        // parameter [spec.length, width]
  torch::Tensor block_positions;  // parameter [blocks, spec.length, width], or undefined
  torch::nn::ModuleList norms, convs, time_proj;
};

// Pre-norm transformer (DiT style): letter projection plus learned positions, layers of
// self-attention and a feed-forward block (2x width) whose layer norms are shifted, scaled and
// gated by the time embedding (adaptive layer norm, gates initialised to zero); padded keys are
// masked.
struct TransformerImpl : NetworkImpl {
  explicit TransformerImpl(const ModelSpec& spec);

 protected:
  torch::Tensor body(const torch::Tensor& features, const torch::Tensor& temb,
                     const torch::Tensor& mask) override;

 private:
  torch::nn::Linear input{nullptr}, output{nullptr}, output_mod{nullptr};
  torch::Tensor positions;  // parameter [spec.length, width]
  torch::nn::ModuleList modulation, qkv, attn_out, fc1, fc2;
};

}  // namespace gsflow::models
