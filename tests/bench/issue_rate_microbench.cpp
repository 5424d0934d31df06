// Issue rate of single vector instructions at 256 and 512 bits: twelve independent chains, so
// throughput and not latency is measured. Items are instructions. Comparing the two widths tells
// whether a 512-bit instruction issues as fast as a 256-bit one (full-width AVX-512: the AVX2
// path then processes half the floats per cycle for the same instruction count) or at half the
// rate (double-pumped: AVX2 can match AVX-512). docs/benchmarks.md records the result for the
// development machine. Compiled with the AVX-512 flags; skipped on CPUs without AVX-512.
#include <benchmark/benchmark.h>

#include "gsflow/engine/kernels.hpp"
#include "kernels/simd_avx2.hpp"
#include "kernels/simd_avx512.hpp"

namespace {

enum class Op { fma, max, permute };

// One instruction through the engine's own register traits (the kernels' instructions).
template <class W, Op op>
[[gnu::always_inline]] inline typename W::F apply(typename W::F a, typename W::F b,
                                                  typename W::F c) {
  if constexpr (op == Op::fma) return W::fmadd(a, b, c);
  if constexpr (op == Op::max) return W::max(a, c);
  if constexpr (op == Op::permute) return W::template broadcast_lane<1>(a);  // vpermilps
}

template <class W, Op op>
void bm_issue(benchmark::State& state) {
  if (!gsflow::engine::isa_supported(gsflow::engine::Isa::avx512))
    return state.SkipWithError("AVX-512 not supported on this CPU");
  using F = typename W::F;
  // Twelve named registers (an array would be stored to memory every iteration).
  F a0 = W::set1(0.50f), a1 = W::set1(0.51f), a2 = W::set1(0.52f), a3 = W::set1(0.53f);
  F a4 = W::set1(0.54f), a5 = W::set1(0.55f), a6 = W::set1(0.56f), a7 = W::set1(0.57f);
  F a8 = W::set1(0.58f), a9 = W::set1(0.59f), a10 = W::set1(0.60f), a11 = W::set1(0.61f);
  const F b = W::set1(0.999f), c = W::set1(0.001f);
  constexpr int kRepeat = 64;
  for (auto _ : state) {
    for (int r = 0; r < kRepeat; ++r) {
      a0 = apply<W, op>(a0, b, c);
      a1 = apply<W, op>(a1, b, c);
      a2 = apply<W, op>(a2, b, c);
      a3 = apply<W, op>(a3, b, c);
      a4 = apply<W, op>(a4, b, c);
      a5 = apply<W, op>(a5, b, c);
      a6 = apply<W, op>(a6, b, c);
      a7 = apply<W, op>(a7, b, c);
      a8 = apply<W, op>(a8, b, c);
      a9 = apply<W, op>(a9, b, c);
      a10 = apply<W, op>(a10, b, c);
      a11 = apply<W, op>(a11, b, c);
      // Keeps every chain live and in its register without emitting an instruction.
      asm volatile(""
                   : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5), "+v"(a6), "+v"(a7),
                     "+v"(a8), "+v"(a9), "+v"(a10), "+v"(a11));
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kRepeat * 12);
}

BENCHMARK(bm_issue<Avx2, Op::fma>)->Name("issue_rate/vfmadd_ps/256");
BENCHMARK(bm_issue<Avx512, Op::fma>)->Name("issue_rate/vfmadd_ps/512");
BENCHMARK(bm_issue<Avx2, Op::max>)->Name("issue_rate/vmaxps/256");
BENCHMARK(bm_issue<Avx512, Op::max>)->Name("issue_rate/vmaxps/512");
BENCHMARK(bm_issue<Avx2, Op::permute>)->Name("issue_rate/vpermilps/256");
BENCHMARK(bm_issue<Avx512, Op::permute>)->Name("issue_rate/vpermilps/512");

}  // namespace
