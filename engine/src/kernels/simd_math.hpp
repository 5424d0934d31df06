// exp, log, Philox4x32-10 and Gumbel noise written once over a register-traits class V
// (simd_avx2.hpp or simd_avx512.hpp). Polynomials are Cephes' expf/logf (about 1 ulp on their
// reduced ranges).
#pragma once

#include <cfloat>
#include <cstdint>
#include <limits>

#include "gsflow/engine/philox.hpp"

namespace {

// Every helper on the hot path is forced inline: an out-of-line call clobbers all vector registers,
// so the caller spills its whole working set around it (measured: 118 calls to vlog, 3x slower).
#define GSFLOW_SIMD_INLINE [[gnu::always_inline]] inline

// exp(x) for x <= 0 (every kernel exponentiates z - max); -inf and anything below -104 give exactly
// 0 (true exp(-104) is below the smallest subnormal). The 2^n scaling is the traits' job (vscalefps
// on AVX-512 handles gradual underflow in one instruction; AVX2 builds the exponent bits and
// flushes below -87.3 to 0).
template <class V>
GSFLOW_SIMD_INLINE typename V::F vexp(typename V::F x) {
  using F = typename V::F;
  const F xc = V::max(x, V::set1(-104.0f));
  const F n = V::round(V::mul(xc, V::set1(1.44269504088896341f)));
  // One fused step with ln 2 rounded to float: |error| <= |n| * 1.9e-9, under 2.5e-7 relative for
  // every argument the kernels pass (>= -104), about 2 ulp at the extreme and < 1 ulp for |x| < 20.
  const F r = V::fnmadd(n, V::set1(0.693147182464599609375f), xc);
  F p = V::set1(1.9875691500e-4f);
  p = V::fmadd(p, r, V::set1(1.3981999507e-3f));
  p = V::fmadd(p, r, V::set1(8.3334519073e-3f));
  p = V::fmadd(p, r, V::set1(4.1665795894e-2f));
  p = V::fmadd(p, r, V::set1(1.6666665459e-1f));
  p = V::fmadd(p, r, V::set1(5.0000001201e-1f));
  p = V::add(V::fmadd(p, V::mul(r, r), r), V::set1(1.0f));
  return V::scale2(p, n, x);
}

// Natural log. kAnyInput: x >= 0 with subnormals, log(0) = -inf, negative -> NaN. Otherwise the
// caller guarantees a normal positive x (Gumbel noise), which saves the range fix-ups.
template <class V, bool kAnyInput = true>
GSFLOW_SIMD_INLINE typename V::F vlog(typename V::F x) {
  using F = typename V::F;
  [[maybe_unused]] const auto tiny = V::lt(x, V::set1(FLT_MIN));
  F xs = x;
  if constexpr (kAnyInput)
    xs = V::select(tiny, V::mul(x, V::set1(8388608.0f)), x);  // subnormal * 2^23
  const auto bits = V::cast_i(xs);
  F e = V::cvt_f(V::sub_i(V::template srli<23>(bits), V::set1_i(126)));
  if constexpr (kAnyInput) e = V::select(tiny, V::sub(e, V::set1(23.0f)), e);
  F m =
      V::cast_f(V::or_i(V::and_i(bits, V::set1_i(0x007fffff)), V::set1_i(0x3f000000)));  // [0.5,1)
  const auto below = V::lt(m, V::set1(0.707106781186547524f));
  e = V::select(below, V::sub(e, V::set1(1.0f)), e);
  m = V::sub(V::select(below, V::add(m, m), m), V::set1(1.0f));  // exact by Sterbenz
  const F z = V::mul(m, m);
  F y = V::set1(7.0376836292e-2f);
  y = V::fmadd(y, m, V::set1(-1.1514610310e-1f));
  y = V::fmadd(y, m, V::set1(1.1676998740e-1f));
  y = V::fmadd(y, m, V::set1(-1.2420140846e-1f));
  y = V::fmadd(y, m, V::set1(1.4249322787e-1f));
  y = V::fmadd(y, m, V::set1(-1.6668057665e-1f));
  y = V::fmadd(y, m, V::set1(2.0000714765e-1f));
  y = V::fmadd(y, m, V::set1(-2.4999993993e-1f));
  y = V::fmadd(y, m, V::set1(3.3333331174e-1f));
  y = V::mul(V::mul(y, m), z);
  y = V::fmadd(e, V::set1(-2.12194440e-4f), y);
  y = V::fnmadd(z, V::set1(0.5f), y);
  F res = V::fmadd(e, V::set1(0.693359375f), V::add(m, y));
  if constexpr (!kAnyInput) return res;
  res = V::select(V::eq(x, V::zero()), V::set1(-std::numeric_limits<float>::infinity()), res);
  return V::select(V::lt(x, V::zero()), V::set1(std::numeric_limits<float>::quiet_NaN()), res);
}

// Philox4x32-10 with one counter block per group of 4 lanes (lanes = c0, c1, c2, c3). The key
// register holds {k0, 0, k1, 0} per group. Same rounds as gsflow::engine::philox4x32_10.
template <class V>
GSFLOW_SIMD_INLINE typename V::I vphilox(typename V::I ctr, typename V::I key) {
  using gsflow::engine::kPhiloxM0, gsflow::engine::kPhiloxM1;
  using gsflow::engine::kPhiloxW0, gsflow::engine::kPhiloxW1;
  const auto mul = V::set_groups(kPhiloxM0, 0, kPhiloxM1, 0);
  const auto bump = V::set_groups(kPhiloxW0, 0, kPhiloxW1, 0);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) key = V::add_i(key, bump);
    // products = {lo0, hi0, lo1, hi1}; reversed = {hi1, lo1, hi0, lo0}; odd_down = {c1, 0, c3, 0}
    const auto reversed = V::reverse_groups(V::mul_epu32(ctr, mul));
    ctr = V::xor_i(V::xor_i(reversed, V::odd_down(ctr)), key);
  }
  return ctr;
}

// Gumbel(0, 1) noise from Philox bits, with the exact uniform of uniform_from_bits().
template <class V>
GSFLOW_SIMD_INLINE typename V::F vgumbel(typename V::I bits) {
  const auto u = V::mul(V::add(V::cvt_f(V::template srli<9>(bits)), V::set1(0.5f)),
                        V::set1(1.0f / 8388608.0f));
  // u in [2^-24, 1 - 2^-24] and -log u in [6e-8, 16.7]: both normal and positive.
  return V::sub(V::zero(), vlog<V, false>(V::sub(V::zero(), vlog<V, false>(u))));
}

}  // namespace
