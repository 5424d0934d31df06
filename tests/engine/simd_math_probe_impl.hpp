// The loops behind simd_math_probe.hpp, written once over the register traits V. Included only by
// the per-ISA probe files; internal linkage, like the engine's own SIMD headers. Those files
// include no GoogleTest or container header: an inline function shared with portable code, compiled
// there with AVX-512 flags, could be the copy the linker keeps for every caller (`nm` on their
// objects lists only the two probes each).
#pragma once

#include <cstddef>

#include "kernels/simd_math.hpp"

namespace {

template <class V>
void probe_exp(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; i += V::W) {
    const int m = n - i < V::W ? static_cast<int>(n - i) : V::W;
    // As the kernels call it: above exp's ceiling the argument is clamped first.
    V::store_n(y + i, vexp<V>(vexp_ceiling<V>(V::load_n(x + i, m, 0.0f))), m);
  }
}

template <class V>
void probe_log(const float* x, float* y, std::size_t n, bool any_input) {
  for (std::size_t i = 0; i < n; i += V::W) {
    const int m = n - i < V::W ? static_cast<int>(n - i) : V::W;
    const auto v = V::load_n(x + i, m, 1.0f);
    V::store_n(y + i, any_input ? vlog<V, true>(v) : vlog<V, false>(v), m);
  }
}

}  // namespace
