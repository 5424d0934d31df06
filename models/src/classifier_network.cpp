// The guidance classifier CNN (see classifier_network.hpp).
#include "classifier_network.hpp"

#include <limits>

#include "gsflow/models/blas_kernels.hpp"

namespace gsflow::models {

// Before main, while no thread runs BLAS: the kernels every network's float32 products use.
[[maybe_unused]] static const bool blas_chosen = !choose_blas_kernels().empty();

void check_classifier_options(const ClassifierNetworkOptions& o, std::int64_t k,
                              std::int64_t min_length, std::int64_t max_length,
                              const std::string& what) {
  const auto fail = [&](const std::string& field, const std::string& rule) {
    throw ModelError(what + ": network." + field + " " + rule);
  };
  if (k < 2) throw ModelError(what + ": k must be >= 2");
  if (min_length < 1 || max_length < min_length)
    throw ModelError(what + ": 1 <= min_length <= max_length required");
  if (o.width < 1) fail("width", "must be >= 1");
  if (o.blocks < 0) fail("blocks", "must be >= 0");
  if (o.kernel < 1 || o.kernel % 2 == 0) fail("kernel", "must be an odd number >= 1");
  if (o.hidden < 1) fail("hidden", "must be >= 1");
  if (o.pool < 1) fail("pool", "must be >= 1");
  if (!(o.dropout >= 0.0 && o.dropout < 1.0)) fail("dropout", "must be in [0, 1)");
  if (o.positions && min_length != max_length)
    fail("positions", "needs fixed-length inputs (min_length == max_length)");
}

ClassifierCnnImpl::ClassifierCnnImpl(const ClassifierNetworkOptions& o, std::int64_t k_,
                                     std::int64_t length_)
    : options(o), k(k_), length(length_) {
  const std::int64_t w = o.width;
  input = register_module(
      "input", torch::nn::Conv1d(torch::nn::Conv1dOptions(k, w, o.kernel).padding(o.kernel / 2)));
  convs = register_module("convs", torch::nn::ModuleList());
  for (int b = 0; b < o.blocks; ++b) {
    const int d = 1 << b;  // receptive field grows geometrically: 9, 17, 33, 65 ... at kernel 9
    convs->push_back(torch::nn::Conv1d(
        torch::nn::Conv1dOptions(w, w, o.kernel).dilation(d).padding(d * (o.kernel / 2))));
  }
  if (o.positions) positions = register_parameter("positions", torch::zeros({w, length}));
  head1 = register_module("head1", torch::nn::Linear(2 * w, o.hidden));
  head2 = register_module("head2", torch::nn::Linear(o.hidden, 1));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
}

torch::Tensor ClassifierCnnImpl::forward(const torch::Tensor& x, const torch::Tensor& mask) {
  // Convolutions see [n, C, L]; padded positions are set to zero before each one, so a padded
  // sequence computes exactly what it would alone, zero-padded at both ends by the convolution.
  // An undefined mask (every position real) skips the masking passes: they are memory-bound and
  // cost ~10 % of a DNA forward + backward.
  torch::Tensor keep = mask.defined() ? mask.unsqueeze(1) : torch::Tensor();  // [n, 1, L] bool
  auto h = (mask.defined() ? x.masked_fill(~mask.unsqueeze(-1), 0.0) : x).transpose(1, 2);
  h = input(h);
  if (options.positions) h = h + positions.slice(1, 0, h.size(2)).unsqueeze(0);
  h = torch::gelu(h);
  if (options.pool > 1) {
    // Maximum over windows of `pool` positions from the first one (ceil mode keeps a last, shorter
    // window). Padding is -inf so that it never wins, and a window is real when any of its
    // positions is, so the result does not depend on how far a sequence is padded.
    if (keep.defined()) h = h.masked_fill(~keep, -std::numeric_limits<float>::infinity());
    h = torch::max_pool1d(h, options.pool, options.pool, 0, 1, true);
    if (keep.defined())
      keep = torch::max_pool1d(keep.to(h.dtype()), options.pool, options.pool, 0, 1, true) > 0.5;
  }
  if (keep.defined()) h = h.masked_fill(~keep, 0.0);
  for (const auto& conv : *convs) {
    auto z = torch::gelu(conv->as<torch::nn::Conv1d>()->forward(h));
    h = h + (keep.defined() ? z.masked_fill(~keep, 0.0) : z);
  }
  // Masked pooling: the maximum over real positions and their mean. max(dim) rather than amax():
  // its backward scatters into the one maximal position, where amax's compares, converts and
  // counts ties over the whole activation (the largest item after the convolutions in a profile).
  torch::Tensor max, mean;
  if (keep.defined()) {
    mean = h.sum(-1) / keep.sum(-1).to(h.dtype());           // padded h is 0
    max = std::get<0>(h.masked_fill(~keep, -1e30).max(-1));  // [n, W]
  } else {
    mean = h.sum(-1) / static_cast<double>(h.size(-1));
    max = std::get<0>(h.max(-1));
  }
  auto z = dropout(torch::cat({max, mean}, 1));
  return head2(torch::gelu(head1(z))).squeeze(-1);
}

}  // namespace gsflow::models
