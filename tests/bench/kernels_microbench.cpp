// Google Benchmark view of the kernels: each op on each ISA path for K = 4, 20, 64, 1024 on an
// in-cache batch (32K floats). `gsflow bench kernels` is the command with baselines and ratios.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "gsflow/engine/kernels.hpp"

namespace {

using namespace gsflow::engine;

template <KernelOp op>
void bm_op(benchmark::State& state) {
  const auto isa = static_cast<Isa>(state.range(0));
  const auto k = static_cast<std::size_t>(state.range(1));
  if (!isa_supported(isa)) return state.SkipWithError("ISA not supported on this CPU");
  const std::size_t rows = (std::size_t{1} << 15) / k;
  std::vector<float> x(rows * k), y(rows * k), p(rows * k, 1.0f / static_cast<float>(k));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(-5, 5);
  for (auto& v : x) v = d(rng);
  const Kernels kern(KernelOptions{.isa = isa});
  const ConstRows xr{x.data(), rows, k, k};
  const Rows yr{y.data(), rows, k, k};
  for (auto _ : state) {
    if constexpr (op == KernelOp::softmax) kern.softmax(xr, yr);
    if constexpr (op == KernelOp::log_softmax) kern.log_softmax(xr, yr);
    if constexpr (op == KernelOp::logsumexp) kern.logsumexp(xr, y.data());
    if constexpr (op == KernelOp::gumbel_softmax) kern.gumbel_softmax(xr, yr, 1.0f, {.seed = 1});
    if constexpr (op == KernelOp::flow_step) kern.flow_step({p.data(), rows, k, k}, xr, yr, 0.1f);
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows * k));
  state.SetLabel(kern.kernel_name(op, k));
}

void args(benchmark::internal::Benchmark* b) {
  for (int isa : {0, 1, 2})
    for (int k : {4, 20, 64, 1024}) b->Args({isa, k});
}

BENCHMARK(bm_op<KernelOp::softmax>)->Apply(args);
BENCHMARK(bm_op<KernelOp::log_softmax>)->Apply(args);
BENCHMARK(bm_op<KernelOp::logsumexp>)->Apply(args);
BENCHMARK(bm_op<KernelOp::gumbel_softmax>)->Apply(args);
BENCHMARK(bm_op<KernelOp::flow_step>)->Apply(args);

}  // namespace
