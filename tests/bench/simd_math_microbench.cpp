// Cost of the SIMD building blocks on the AVX-512 path (Philox4x32-10 block, log, exp), four
// independent 16-lane chains per iteration so that throughput, not latency, is measured. Items are
// 16-lane vectors: ns per item = ns per 16 values. Compiled with the AVX-512 flags; skipped (with
// an error message) on CPUs without AVX-512.
#include <benchmark/benchmark.h>

#include "gsflow/engine/kernels.hpp"
#include "kernels/simd_avx512.hpp"
#include "kernels/simd_math.hpp"

namespace {

using V = Avx512;

template <int kWhich>
void bm_simd(benchmark::State& state) {
  if (!gsflow::engine::isa_supported(gsflow::engine::Isa::avx512))
    return state.SkipWithError("AVX-512 not supported on this CPU");
  const auto key = V::set_groups(1, 0, 2, 0);
  auto acc_i = V::set1_i(0);
  auto acc_f = V::zero();
  std::uint32_t i = 0;
  for (auto _ : state) {
    for (int u = 0; u < 4; ++u, ++i) {
      const auto ctr = V::set_groups(i, static_cast<std::uint32_t>(u), 3, 4);
      if constexpr (kWhich == 0) acc_i = V::xor_i(acc_i, vphilox<V>(ctr, key));
      if constexpr (kWhich == 1)
        acc_f = V::add(acc_f, vlog<V, false>(V::add(V::cvt_f(ctr), V::set1(1.0f))));
      if constexpr (kWhich == 2) acc_f = V::add(acc_f, vexp<V>(V::sub(V::zero(), V::cvt_f(ctr))));
      if constexpr (kWhich == 3) acc_f = V::add(acc_f, vgumbel<V>(vphilox<V>(ctr, key)));
    }
  }
  benchmark::DoNotOptimize(acc_i);
  benchmark::DoNotOptimize(acc_f);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 4);
}

BENCHMARK(bm_simd<0>)->Name("simd_avx512/philox4x32_10_block_x4");
BENCHMARK(bm_simd<1>)->Name("simd_avx512/log");
BENCHMARK(bm_simd<2>)->Name("simd_avx512/exp");
BENCHMARK(bm_simd<3>)->Name("simd_avx512/gumbel_noise");

}  // namespace
