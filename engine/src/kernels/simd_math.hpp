// exp, log, Philox4x32-10 and Gumbel noise written once over a register-traits class V
// (simd_avx2.hpp or simd_avx512.hpp). log follows Cephes' logf (range reduction, form of the
// polynomial) with a minimax polynomial of lower degree, exp takes a table of 2^(j / T) and a short
// polynomial; scripts/fit-simd-poly fits both. The bounds tests/engine/test_simd_math.cpp checks
// are given there.
#pragma once

#include <bit>
#include <cfloat>
#include <cstdint>
#include <limits>
#include <span>

#include "gsflow/engine/philox.hpp"

namespace {

// Every helper on the hot path is forced inline: an out-of-line call clobbers all vector registers,
// so the caller spills its whole working set around it (measured: 118 calls to vlog, 3x slower).
#define GSFLOW_SIMD_INLINE [[gnu::always_inline]] inline
#define GSFLOW_SIMD_LAMBDA_INLINE __attribute__((always_inline))  // after a lambda's parameters

// Each primitive below works on N independent registers at once, one statement across all N
// before the next. GCC keeps source order on x86, so writing the chains side by side is what lets
// the core overlap them: block by block, a Philox -> log -> log chain runs serially.

// exp(x) in place, from a table of 2^(j / T) with T = V::W entries, one register (8 on AVX2, 16
// on AVX-512), and a short polynomial:
// - k = x T / ln 2 + 1.5 * 2^23 in one fused multiply-add rounds n = round(x T / ln 2) to nearest
//   and leaves it in k's low mantissa bits (no vroundps or integer conversion);
// - one vpermps with k as the index (it reads only the low kBits bits of each lane) picks the entry
//   for j = n mod T. The entries are stored less j << (23 - kBits), so adding n << (23 - kBits)
//   to them as integers gives the bits of 2^(j / T) 2^a with a = n div T, which is 2^(n / T);
// - exp(r) for r = x - n ln 2 / T, |r| <= ln 2 / 2T: 1 + q with q = r + c2 r^2 + ..., so the result
//   is one fused multiply-add S q + S.
// Against the form it replaced (Cephes' reduction, a degree-6 polynomial on |r| <= ln 2 / 2, then
// 2^n) this takes 6 (AVX-512) or 7 (AVX2) multiply-type operations where that took 9, and measured
// up to 1.1x faster (docs/notes/2026-12-kernel-tuning.md, "Table exp"). Every kernel passes z - max
// <= 0 or, summing unshifted, an argument clamped by vexp_ceiling. -inf, and anything below
// -88.07 (a <= -128), gives exactly 0: the clamp at -104 keeps a finite, and a <= -128 makes the
// bits negative, which the integer max turns into 0. Between -88.07 and -87.34 (a = -127, exp below
// FLT_MIN) the entry's mantissa reads as a subnormal: off by at most 1.05 * 2^-127.
template <int kBits>
struct ExpTable;
// scripts/fit-simd-poly exp 3 4: 1.9e-10 relative; entries rounded to float by up to 3.2e-8.
template <>
struct ExpTable<3> {
  alignas(32) static constexpr std::uint32_t entries[8] = {0x3f800000, 0x3f7b95c2, 0x3f7837f0,
                                                           0x3f75fed7, 0x3f7504f3, 0x3f75672a,
                                                           0x3f7744fd, 0x3f7ac0c7};
  static constexpr float c[] = {4.1660405695e-02f, 1.6668030620e-01f, 5.0000000000e-01f};  // c4..c2
};
// scripts/fit-simd-poly exp 4 3: 1.6e-9 relative; entries rounded to float by up to 4.7e-8.
template <>
struct ExpTable<4> {
  alignas(64) static constexpr std::uint32_t entries[16] = {
      0x3f800000, 0x3f7daac3, 0x3f7b95c2, 0x3f79c3d3, 0x3f7837f0, 0x3f76f532,
      0x3f75fed7, 0x3f75583f, 0x3f7504f3, 0x3f7508a4, 0x3f75672a, 0x3f76248c,
      0x3f7744fd, 0x3f78ccdf, 0x3f7ac0c7, 0x3f7d257d};
  static constexpr float c[] = {1.6666719317e-01f, 5.0001621246e-01f};  // c3, c2
};

template <class V, int N>
GSFLOW_SIMD_INLINE void vexp_n(typename V::F* x) {
  using F = typename V::F;
  using I = typename V::I;
  constexpr int kBits = std::bit_width(unsigned{V::W}) - 1;  // T = 2^kBits = W
  using Table = ExpTable<kBits>;
  constexpr float kT = 1 << kBits;
  const F magic = V::set1(12582912.0f);  // 1.5 * 2^23
  F r[N], q[N];
  I k[N];
  for (int i = 0; i < N; ++i) {
    const F xc = V::max(V::set1(-104.0f), x[i]);  // NaN stays (max returns its second operand)
    const F kf = V::fmadd(xc, V::set1(1.44269504088896341f * kT), magic);
    k[i] = V::cast_i(kf);
    // One fused step with ln 2 rounded to float (1.9e-9 off; ln 2 / T is exact from it): up to
    // |n / T| 1.9e-9 = 2.75e-9 |x| relative error in the result.
    r[i] = V::fnmadd(V::sub(kf, magic), V::set1(0.693147182464599609375f / kT), xc);
    q[i] = V::set1(Table::c[0]);
  }
  for (float c : std::span(Table::c).subspan(1))
    for (int i = 0; i < N; ++i) q[i] = V::fmadd(q[i], r[i], V::set1(c));
  for (int i = 0; i < N; ++i) q[i] = V::mul(V::fmadd(q[i], r[i], V::set1(1.0f)), r[i]);
  const F entries = V::cast_f(V::load_i(Table::entries));
  for (int i = 0; i < N; ++i) {
    const I bits =
        V::add_i(V::cast_i(V::permute(entries, k[i])), V::template slli<23 - kBits>(k[i]));
    const F s = V::cast_f(V::max_i(bits, V::set1_i(0)));
    x[i] = V::fmadd(s, q[i], s);
  }
}

// Unshifted sums (simd_softmax.hpp) pass exp positive arguments. Above 88 the result must be
// at least 2^126 (so the row fails every sink's bound and is redone shifted), never finite garbage:
// past a = 127 the integer add runs out of the exponent field. exp(88) > 2^126. min returns its
// second operand for NaN, so NaN passes, and exp gives NaN for it.
template <class V>
GSFLOW_SIMD_INLINE typename V::F vexp_ceiling(typename V::F x) {
  return V::min(V::set1(88.0f), x);
}

template <class V>
GSFLOW_SIMD_INLINE typename V::F vexp(typename V::F x) {
  vexp_n<V, 1>(&x);
  return x;
}

// Natural log in place. kAnyInput: x >= 0 with subnormals, log(0) = -inf, negative or NaN -> NaN.
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
      res = V::select(V::nge(x[i], V::zero()), V::set1(std::numeric_limits<float>::quiet_NaN()),
                      res);  // negative or NaN
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
