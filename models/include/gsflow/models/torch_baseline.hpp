// LibTorch's own CPU softmax family on raw float buffers, without exposing Torch types: the
// baseline that `gsflow bench kernels` measures our kernels against in the same run.
#pragma once

#include <cstddef>
#include <string>

namespace gsflow::models {

// Sets LibTorch's intra-op thread count (it defaults to 1 on these machines; benchmarks set it).
void torch_set_threads(int threads);
// "1.13.1" etc.
std::string torch_version();

// y = softmax(x) (or log_softmax) over contiguous [rows, k] floats with at::_softmax_out into the
// caller's buffer, so that no allocation or first-touch cost is charged to LibTorch.
void torch_softmax(const float* x, float* y, std::size_t rows, std::size_t k);
void torch_log_softmax(const float* x, float* y, std::size_t rows, std::size_t k);
// Unfused Gumbel-softmax as one would write it in LibTorch: u = rand, g = -log(-log u),
// y = softmax((x + g) / tau). Temporaries are allocated by LibTorch as usual.
void torch_gumbel_softmax(const float* x, float* y, std::size_t rows, std::size_t k, float tau);

}  // namespace gsflow::models
