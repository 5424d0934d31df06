// AVX-512 register traits for the shared kernel templates: 16 float lanes = 4 groups of 4.
// Included only by table_avx512.cpp (compiled with AVX-512 flags); everything has internal linkage.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace {

struct Avx512 {
  using F = __m512;
  using I = __m512i;
  using M = __mmask16;
  static constexpr int W = 16;  // float lanes
  static constexpr int G = 4;   // 4-lane groups (one short row or one Philox block each)

  [[gnu::always_inline]] static F zero() { return _mm512_setzero_ps(); }
  [[gnu::always_inline]] static F set1(float v) { return _mm512_set1_ps(v); }
  [[gnu::always_inline]] static I set1_i(std::int32_t v) { return _mm512_set1_epi32(v); }
  [[gnu::always_inline]] static F load(const float* p) { return _mm512_loadu_ps(p); }
  [[gnu::always_inline]] static void store(float* p, F v) { _mm512_storeu_ps(p, v); }
  [[gnu::always_inline]] static M first_n(int n) { return static_cast<M>((1u << n) - 1u); }
  // Lanes >= n read nothing and hold `fill`.
  [[gnu::always_inline]] static F load_n(const float* p, int n, float fill) {
    return _mm512_mask_loadu_ps(set1(fill), first_n(n), p);
  }
  [[gnu::always_inline]] static void store_n(float* p, F v, int n) {
    _mm512_mask_storeu_ps(p, first_n(n), v);
  }
  [[gnu::always_inline]] static F fill_tail(F v, int n, float fill) {
    return _mm512_mask_blend_ps(first_n(n), set1(fill), v);
  }
  [[gnu::always_inline]] static I load_i(const std::uint32_t* p) { return _mm512_loadu_si512(p); }

  [[gnu::always_inline]] static F add(F a, F b) { return _mm512_add_ps(a, b); }
  [[gnu::always_inline]] static F sub(F a, F b) { return _mm512_sub_ps(a, b); }
  [[gnu::always_inline]] static F mul(F a, F b) { return _mm512_mul_ps(a, b); }
  [[gnu::always_inline]] static F div(F a, F b) { return _mm512_div_ps(a, b); }
  [[gnu::always_inline]] static F max(F a, F b) { return _mm512_max_ps(a, b); }
  [[gnu::always_inline]] static F min(F a, F b) { return _mm512_min_ps(a, b); }
  [[gnu::always_inline]] static F fmadd(F a, F b, F c) {
    return _mm512_fmadd_ps(a, b, c);
  }  // a*b + c
  [[gnu::always_inline]] static F fnmadd(F a, F b, F c) {
    return _mm512_fnmadd_ps(a, b, c);
  }  // c - a*b
  // Bit i set when lane i is in [lo, hi] (false for NaN).
  [[gnu::always_inline]] static unsigned in_range_bits(F v, float lo, float hi) {
    return _mm512_cmp_ps_mask(v, set1(lo), _CMP_GE_OQ) &
           _mm512_cmp_ps_mask(v, set1(hi), _CMP_LE_OQ);
  }
  [[gnu::always_inline]] static M lt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
  // a < b, or either is NaN (not a >= b).
  [[gnu::always_inline]] static M nge(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_NGE_UQ); }
  [[gnu::always_inline]] static M eq(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
  [[gnu::always_inline]] static F select(M m, F a, F b) {
    return _mm512_mask_blend_ps(m, b, a);
  }  // m ? a : b

  [[gnu::always_inline]] static I cvt_i(F a) { return _mm512_cvtps_epi32(a); }
  [[gnu::always_inline]] static F cvt_f(I a) { return _mm512_cvtepi32_ps(a); }
  [[gnu::always_inline]] static F cast_f(I a) { return _mm512_castsi512_ps(a); }
  [[gnu::always_inline]] static I cast_i(F a) { return _mm512_castps_si512(a); }
  [[gnu::always_inline]] static I add_i(I a, I b) { return _mm512_add_epi32(a, b); }
  [[gnu::always_inline]] static I max_i(I a, I b) { return _mm512_max_epi32(a, b); }
  [[gnu::always_inline]] static I sub_i(I a, I b) { return _mm512_sub_epi32(a, b); }
  [[gnu::always_inline]] static I and_i(I a, I b) { return _mm512_and_si512(a, b); }
  [[gnu::always_inline]] static I or_i(I a, I b) { return _mm512_or_si512(a, b); }
  [[gnu::always_inline]] static I xor_i(I a, I b) { return _mm512_xor_si512(a, b); }
  template <int n>
  [[gnu::always_inline]] static I srli(I a) {
    return _mm512_srli_epi32(a, n);
  }
  template <int n>
  [[gnu::always_inline]] static I srai(I a) {
    return _mm512_srai_epi32(a, n);
  }
  template <int n>
  [[gnu::always_inline]] static I slli(I a) {
    return _mm512_slli_epi32(a, n);
  }
  // Philox helpers: 32x32->64 products of lanes 0 and 2 of each group, and lanes 1,3 moved down.
  [[gnu::always_inline]] static I mul_epu32(I a, I b) { return _mm512_mul_epu32(a, b); }
  [[gnu::always_inline]] static I reverse_groups(I a) {
    return _mm512_shuffle_epi32(a, _MM_PERM_ABCD);
  }
  [[gnu::always_inline]] static I odd_down(I a) { return _mm512_srli_epi64(a, 32); }
  [[gnu::always_inline]] static I set_groups(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                             std::uint32_t d) {
    return _mm512_set4_epi32(static_cast<int>(d), static_cast<int>(c), static_cast<int>(b),
                             static_cast<int>(a));
  }

  // Lane u of each group broadcast to the whole group.
  template <int u>
  [[gnu::always_inline]] static F broadcast_lane(F v) {
    return _mm512_permute_ps(v, _MM_SHUFFLE(u, u, u, u));
  }
  // Lane i of the result = lane idx[i] of v, across the whole register.
  [[gnu::always_inline]] static F permute(F v, I idx) { return _mm512_permutexvar_ps(idx, v); }
  // Reductions inside each group of 4 lanes, result broadcast to the group.
  [[gnu::always_inline]] static F max4(F v) {
    v = max(v, _mm512_permute_ps(v, _MM_SHUFFLE(2, 3, 0, 1)));
    return max(v, _mm512_permute_ps(v, _MM_SHUFFLE(1, 0, 3, 2)));
  }
  // Lane u of group g = sum over group g of s_u: a 4x4 transpose inside each group plus adds,
  // 9 operations for four registers (an in-group reduction takes 4 per register).
  [[gnu::always_inline]] static F sum4_packed(F s0, F s1, F s2, F s3) {
    const F a = add(_mm512_unpacklo_ps(s0, s1), _mm512_unpackhi_ps(s0, s1));
    const F b = add(_mm512_unpacklo_ps(s2, s3), _mm512_unpackhi_ps(s2, s3));
    return add(_mm512_shuffle_ps(a, b, _MM_SHUFFLE(1, 0, 1, 0)),
               _mm512_shuffle_ps(a, b, _MM_SHUFFLE(3, 2, 3, 2)));
  }
  [[gnu::always_inline]] static float hmax(F v) { return _mm512_reduce_max_ps(v); }
  [[gnu::always_inline]] static float hsum(F v) { return _mm512_reduce_add_ps(v); }

  // Group g <-> the 4 floats at base + g * stride.
  [[gnu::always_inline]] static F gather_groups(const float* base, std::size_t stride) {
    F v = _mm512_castps128_ps512(_mm_loadu_ps(base));
    v = _mm512_insertf32x4(v, _mm_loadu_ps(base + stride), 1);
    v = _mm512_insertf32x4(v, _mm_loadu_ps(base + 2 * stride), 2);
    return _mm512_insertf32x4(v, _mm_loadu_ps(base + 3 * stride), 3);
  }
  [[gnu::always_inline]] static void scatter_groups(float* base, std::size_t stride, F v) {
    _mm_storeu_ps(base, _mm512_castps512_ps128(v));
    _mm_storeu_ps(base + stride, _mm512_extractf32x4_ps(v, 1));
    _mm_storeu_ps(base + 2 * stride, _mm512_extractf32x4_ps(v, 2));
    _mm_storeu_ps(base + 3 * stride, _mm512_extractf32x4_ps(v, 3));
  }
  // Lane `pos` of group g holds g; other lanes 0 (per-group Philox counter offsets).
  [[gnu::always_inline]] static I group_iota(int pos) {
    alignas(64) std::int32_t v[W] = {};
    for (int g = 0; g < G; ++g) v[4 * g + pos] = g;
    return _mm512_load_si512(v);
  }
};

}  // namespace
