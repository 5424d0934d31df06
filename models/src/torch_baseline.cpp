// LibTorch softmax baselines over raw buffers (narrow ATen headers: the full <torch/torch.h> costs
// ~20 s per translation unit here).
#include "gsflow/models/torch_baseline.hpp"

#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/_log_softmax.h>
#include <ATen/ops/_softmax.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/rand_like.h>
#include <torch/csrc/api/include/torch/version.h>

namespace gsflow::models {

namespace {
at::Tensor wrap(const float* data, std::size_t rows, std::size_t k) {
  return at::from_blob(const_cast<float*>(data),
                       {static_cast<int64_t>(rows), static_cast<int64_t>(k)},
                       at::TensorOptions().dtype(at::kFloat));
}
}  // namespace

void torch_set_threads(int threads) { at::set_num_threads(threads); }

std::string torch_version() { return TORCH_VERSION; }

void torch_softmax(const float* x, float* y, std::size_t rows, std::size_t k) {
  auto out = wrap(y, rows, k);
  at::_softmax_out(out, wrap(x, rows, k), 1, false);
}

void torch_log_softmax(const float* x, float* y, std::size_t rows, std::size_t k) {
  auto out = wrap(y, rows, k);
  at::_log_softmax_out(out, wrap(x, rows, k), 1, false);
}

void torch_gumbel_softmax(const float* x, float* y, std::size_t rows, std::size_t k, float tau) {
  const auto in = wrap(x, rows, k);
  const auto g = -(-at::rand_like(in).log()).log();
  auto out = wrap(y, rows, k);
  at::_softmax_out(out, (in + g) / tau, 1, false);
}

}  // namespace gsflow::models
