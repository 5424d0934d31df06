// exp, log, Philox4x32-10 and Gumbel noise written once over a register-traits class V
// (simd_avx2.hpp or simd_avx512.hpp). exp and log follow Cephes' expf/logf (range reductions,
// form of the log polynomial) with minimax polynomials of lower degree fitted by
// scripts/fit-simd-poly; both stay within 1 ulp on the ranges the kernels use
// (tests/engine/test_simd_math.cpp).
#pragma once

#include <cfloat>
#include <cstdint>
#include <limits>

#include "gsflow/engine/philox.hpp"

namespace {

// Every helper on the hot path is forced inline: an out-of-line call clobbers all vector registers,
// so the caller spills its whole working set around it (measured: 118 calls to vlog, 3x slower).
#define GSFLOW_SIMD_INLINE [[gnu::always_inline]] inline
#define GSFLOW_SIMD_LAMBDA_INLINE __attribute__((always_inline))  // after a lambda's parameters

// Each primitive below works on N independent registers at once, one statement across all N
// before the next. GCC keeps source order on x86, so writing the chains side by side is what lets
// the core overlap them: block by block, a Philox -> log -> log chain runs serially.

// exp(x) in place for x <= 0 (every kernel exponentiates z - max); -inf and anything below the
// traits' kExpFloor give exactly 0. Rounding x / ln 2 and the 2^n scaling are the traits' job
// (AVX-512: vrndscaleps and vscalefps, which underflows gradually down to the floor -104, where
// true exp is below the smallest subnormal; AVX2: a magic-number add that leaves n + 127 in the
// low mantissa bits, shifted into the exponent, flushing to 0 below about -87.7).
template <class V, int N>
GSFLOW_SIMD_INLINE void vexp_n(typename V::F* x) {
  using F = typename V::F;
  F r[N], p[N], key[N];
  for (int i = 0; i < N; ++i) {
    const F xc = V::max(x[i], V::set1(V::kExpFloor));
    const F n = V::exp_round(xc, key[i]);  // round(xc / ln 2), and what scale2 needs for 2^n
    // One fused step with ln 2 rounded to float: |error| <= |n| * 1.9e-9, under 2.5e-7 relative
    // for every argument the kernels pass (>= -104), < 1 ulp for |x| < 20.
    r[i] = V::fnmadd(n, V::set1(0.693147182464599609375f), xc);
    p[i] = V::set1(1.3814320555e-3f);
  }
  // exp(r) on |r| <= ln2 / 2: 1 + r + c2 r^2 + ... + c6 r^6, a minimax fit (scripts/fit-simd-poly
  // exp), 4.2e-9 relative with these float coefficients. Horner ends with fma(p, r, 1), so the
  // polynomial costs 6 fused multiply-adds (Cephes' degree-7 form took 8 operations).
  for (int i = 0; i < N; ++i) p[i] = V::fmadd(p[i], r[i], V::set1(8.3688506857e-3f));
  for (int i = 0; i < N; ++i) p[i] = V::fmadd(p[i], r[i], V::set1(4.1668400168e-2f));
  for (int i = 0; i < N; ++i) p[i] = V::fmadd(p[i], r[i], V::set1(1.6666519642e-1f));
  for (int i = 0; i < N; ++i) p[i] = V::fmadd(p[i], r[i], V::set1(4.9999994040e-1f));
  for (int i = 0; i < N; ++i) p[i] = V::fmadd(p[i], r[i], V::set1(1.0f));
  for (int i = 0; i < N; ++i) x[i] = V::scale2(V::fmadd(p[i], r[i], V::set1(1.0f)), key[i]);
}

template <class V>
GSFLOW_SIMD_INLINE typename V::F vexp(typename V::F x) {
  vexp_n<V, 1>(&x);
  return x;
}

// Natural log in place. kAnyInput: x >= 0 with subnormals, log(0) = -inf, negative -> NaN.
// Otherwise the caller guarantees a normal positive x (Gumbel noise), which saves the fix-ups.
template <class V, bool kAnyInput, int N>
GSFLOW_SIMD_INLINE void vlog_n(typename V::F* x) {
  using F = typename V::F;
  F e[N], m[N], z[N], y[N];
  for (int i = 0; i < N; ++i) {
    [[maybe_unused]] const auto tiny = V::lt(x[i], V::set1(FLT_MIN));
    F xs = x[i];
    if constexpr (kAnyInput) xs = V::select(tiny, V::mul(x[i], V::set1(8388608.0f)), x[i]);  // 2^23
    // xs = 2^e m with m in [sqrt(1/2), sqrt(2)), Cephes' range: subtracting the bits of
    // sqrt(1/2) borrows from the exponent field exactly when the mantissa is below sqrt(1/2)'s, so
    // one arithmetic shift gives e, and removing e from the exponent field gives m (no compare or
    // select; the same e and m as halving into [0.5, 1) and doubling where below sqrt(1/2)).
    const auto bits = V::cast_i(xs);
    const auto k = V::template srai<23>(V::sub_i(bits, V::set1_i(0x3f3504f3)));
    e[i] = V::cvt_f(k);
    if constexpr (kAnyInput) e[i] = V::select(tiny, V::sub(e[i], V::set1(23.0f)), e[i]);
    m[i] = V::sub(V::cast_f(V::sub_i(bits, V::template slli<23>(k))), V::set1(1.0f));  // exact
    z[i] = V::mul(m[i], m[i]);
    y[i] = V::set1(-7.6344974339e-2f);
  }
  // log(1 + m) = m - m^2 / 2 + m^3 P(m), Cephes' form; P of degree 7 is a minimax fit
  // (scripts/fit-simd-poly log), 6.4e-9 relative, one multiply-add fewer than Cephes' degree 8.
  for (int i = 0; i < N; ++i) y[i] = V::fmadd(y[i], m[i], V::set1(1.2761577964e-1f));
  for (int i = 0; i < N; ++i) y[i] = V::fmadd(y[i], m[i], V::set1(-1.3160182536e-1f));
  for (int i = 0; i < N; ++i) y[i] = V::fmadd(y[i], m[i], V::set1(1.4201757312e-1f));
  for (int i = 0; i < N; ++i) y[i] = V::fmadd(y[i], m[i], V::set1(-1.6623356938e-1f));
  for (int i = 0; i < N; ++i) y[i] = V::fmadd(y[i], m[i], V::set1(2.0001226664e-1f));
  for (int i = 0; i < N; ++i) y[i] = V::fmadd(y[i], m[i], V::set1(-2.5000819564e-1f));
  for (int i = 0; i < N; ++i) y[i] = V::fmadd(y[i], m[i], V::set1(3.3333331347e-1f));
  for (int i = 0; i < N; ++i) {
    y[i] = V::mul(V::mul(y[i], m[i]), z[i]);
    y[i] = V::fmadd(e[i], V::set1(-2.12194440e-4f), y[i]);
    y[i] = V::fnmadd(z[i], V::set1(0.5f), y[i]);
    F res = V::fmadd(e[i], V::set1(0.693359375f), V::add(m[i], y[i]));
    if constexpr (kAnyInput) {
      res =
          V::select(V::eq(x[i], V::zero()), V::set1(-std::numeric_limits<float>::infinity()), res);
      res =
          V::select(V::lt(x[i], V::zero()), V::set1(std::numeric_limits<float>::quiet_NaN()), res);
    }
    x[i] = res;
  }
}

template <class V, bool kAnyInput = true>
GSFLOW_SIMD_INLINE typename V::F vlog(typename V::F x) {
  vlog_n<V, kAnyInput, 1>(&x);
  return x;
}

// Philox4x32-10 in place with one counter block per group of 4 lanes (lanes = c0, c1, c2, c3). The
// key register holds {k0, 0, k1, 0} per group. Same rounds as gsflow::engine::philox4x32_10.
template <class V, int N>
GSFLOW_SIMD_INLINE void vphilox_n(typename V::I* ctr, typename V::I key) {
  using gsflow::engine::kPhiloxM0, gsflow::engine::kPhiloxM1;
  using gsflow::engine::kPhiloxW0, gsflow::engine::kPhiloxW1;
  const auto mul = V::set_groups(kPhiloxM0, 0, kPhiloxM1, 0);
  const auto bump = V::set_groups(kPhiloxW0, 0, kPhiloxW1, 0);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) key = V::add_i(key, bump);
    // products = {lo0, hi0, lo1, hi1}; reversed = {hi1, lo1, hi0, lo0}; odd_down = {c1, 0, c3, 0}
    for (int i = 0; i < N; ++i) {
      const auto reversed = V::reverse_groups(V::mul_epu32(ctr[i], mul));
      ctr[i] = V::xor_i(V::xor_i(reversed, V::odd_down(ctr[i])), key);
    }
  }
}

template <class V>
GSFLOW_SIMD_INLINE typename V::I vphilox(typename V::I ctr, typename V::I key) {
  vphilox_n<V, 1>(&ctr, key);
  return ctr;
}

// Gumbel(0, 1) noise from the Philox bits of N registers, with the exact uniform of
// uniform_from_bits(): u in [2^-24, 1 - 2^-24] and -log u in [6e-8, 16.7], both normal.
template <class V, int N>
GSFLOW_SIMD_INLINE void vgumbel_n(const typename V::I* bits, typename V::F* g) {
  // (m + 0.5) 2^-23 for the top 23 bits m, as one multiply-add: m 2^-23 + 2^-24 is exact in float.
  for (int i = 0; i < N; ++i)
    g[i] = V::fmadd(V::cvt_f(V::template srli<9>(bits[i])), V::set1(0x1p-23f), V::set1(0x1p-24f));
  vlog_n<V, false, N>(g);
  for (int i = 0; i < N; ++i) g[i] = V::sub(V::zero(), g[i]);
  vlog_n<V, false, N>(g);
  for (int i = 0; i < N; ++i) g[i] = V::sub(V::zero(), g[i]);
}

template <class V>
GSFLOW_SIMD_INLINE typename V::F vgumbel(typename V::I bits) {
  typename V::F g;
  vgumbel_n<V, 1>(&bits, &g);
  return g;
}

}  // namespace
