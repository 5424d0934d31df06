// AVX2+FMA register traits for the shared kernel templates: 8 float lanes = 2 groups of 4.
// Included only by table_avx2.cpp (compiled with AVX2 flags); everything has internal linkage.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace {

struct Avx2 {
  using F = __m256;
  using I = __m256i;
  using M = __m256;  // comparison result as an all-ones / all-zeros lane mask
  static constexpr int W = 8;
  static constexpr int G = 2;

  [[gnu::always_inline]] static F zero() { return _mm256_setzero_ps(); }
  [[gnu::always_inline]] static F set1(float v) { return _mm256_set1_ps(v); }
  [[gnu::always_inline]] static I set1_i(std::int32_t v) { return _mm256_set1_epi32(v); }
  [[gnu::always_inline]] static F load(const float* p) { return _mm256_loadu_ps(p); }
  [[gnu::always_inline]] static void store(float* p, F v) { _mm256_storeu_ps(p, v); }
  [[gnu::always_inline]] static I first_n(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  [[gnu::always_inline]] static F load_n(const float* p, int n, float fill) {
    const I m = first_n(n);
    return _mm256_blendv_ps(set1(fill), _mm256_maskload_ps(p, m), _mm256_castsi256_ps(m));
  }
  [[gnu::always_inline]] static void store_n(float* p, F v, int n) {
    _mm256_maskstore_ps(p, first_n(n), v);
  }
  [[gnu::always_inline]] static F fill_tail(F v, int n, float fill) {
    return _mm256_blendv_ps(set1(fill), v, _mm256_castsi256_ps(first_n(n)));
  }
  [[gnu::always_inline]] static I load_i(const std::uint32_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }

  [[gnu::always_inline]] static F add(F a, F b) { return _mm256_add_ps(a, b); }
  [[gnu::always_inline]] static F sub(F a, F b) { return _mm256_sub_ps(a, b); }
  [[gnu::always_inline]] static F mul(F a, F b) { return _mm256_mul_ps(a, b); }
  [[gnu::always_inline]] static F div(F a, F b) { return _mm256_div_ps(a, b); }
  [[gnu::always_inline]] static F max(F a, F b) { return _mm256_max_ps(a, b); }
  [[gnu::always_inline]] static F min(F a, F b) { return _mm256_min_ps(a, b); }
  [[gnu::always_inline]] static F fmadd(F a, F b, F c) { return _mm256_fmadd_ps(a, b, c); }
  [[gnu::always_inline]] static F fnmadd(F a, F b, F c) { return _mm256_fnmadd_ps(a, b, c); }
  [[gnu::always_inline]] static unsigned in_range_bits(F v, float lo, float hi) {
    const F in = _mm256_and_ps(_mm256_cmp_ps(v, set1(lo), _CMP_GE_OQ),
                               _mm256_cmp_ps(v, set1(hi), _CMP_LE_OQ));
    return static_cast<unsigned>(_mm256_movemask_ps(in));
  }
  [[gnu::always_inline]] static M lt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  // a < b, or either is NaN (not a >= b).
  [[gnu::always_inline]] static M nge(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_NGE_UQ); }
  [[gnu::always_inline]] static M eq(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
  [[gnu::always_inline]] static F select(M m, F a, F b) { return _mm256_blendv_ps(b, a, m); }

  [[gnu::always_inline]] static I cvt_i(F a) { return _mm256_cvtps_epi32(a); }
  [[gnu::always_inline]] static F cvt_f(I a) { return _mm256_cvtepi32_ps(a); }
  [[gnu::always_inline]] static F cast_f(I a) { return _mm256_castsi256_ps(a); }
  [[gnu::always_inline]] static I cast_i(F a) { return _mm256_castps_si256(a); }
  [[gnu::always_inline]] static I add_i(I a, I b) { return _mm256_add_epi32(a, b); }
  [[gnu::always_inline]] static I sub_i(I a, I b) { return _mm256_sub_epi32(a, b); }
  [[gnu::always_inline]] static I max_i(I a, I b) { return _mm256_max_epi32(a, b); }
  [[gnu::always_inline]] static I and_i(I a, I b) { return _mm256_and_si256(a, b); }
  [[gnu::always_inline]] static I or_i(I a, I b) { return _mm256_or_si256(a, b); }
  [[gnu::always_inline]] static I xor_i(I a, I b) { return _mm256_xor_si256(a, b); }
  template <int n>
  [[gnu::always_inline]] static I srli(I a) {
    return _mm256_srli_epi32(a, n);
  }
  template <int n>
  [[gnu::always_inline]] static I srai(I a) {
    return _mm256_srai_epi32(a, n);
  }
  template <int n>
  [[gnu::always_inline]] static I slli(I a) {
    return _mm256_slli_epi32(a, n);
  }
  [[gnu::always_inline]] static I mul_epu32(I a, I b) { return _mm256_mul_epu32(a, b); }
  [[gnu::always_inline]] static I reverse_groups(I a) {
    return _mm256_shuffle_epi32(a, _MM_SHUFFLE(0, 1, 2, 3));
  }
  [[gnu::always_inline]] static I odd_down(I a) { return _mm256_srli_epi64(a, 32); }
  [[gnu::always_inline]] static I set_groups(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                             std::uint32_t d) {
    return _mm256_setr_epi32(static_cast<int>(a), static_cast<int>(b), static_cast<int>(c),
                             static_cast<int>(d), static_cast<int>(a), static_cast<int>(b),
                             static_cast<int>(c), static_cast<int>(d));
  }

  // Lane u of each group broadcast to the whole group.
  template <int u>
  [[gnu::always_inline]] static F broadcast_lane(F v) {
    return _mm256_permute_ps(v, _MM_SHUFFLE(u, u, u, u));
  }
  // Lane i of the result = lane idx[i] of v, across the whole register.
  [[gnu::always_inline]] static F permute(F v, I idx) { return _mm256_permutevar8x32_ps(v, idx); }
  [[gnu::always_inline]] static F max4(F v) {
    v = max(v, _mm256_permute_ps(v, _MM_SHUFFLE(2, 3, 0, 1)));
    return max(v, _mm256_permute_ps(v, _MM_SHUFFLE(1, 0, 3, 2)));
  }
  // Lane u of group g = sum over group g of s_u: a 4x4 transpose inside each group plus adds,
  // 9 operations for four registers (an in-group reduction takes 4 per register).
  [[gnu::always_inline]] static F sum4_packed(F s0, F s1, F s2, F s3) {
    const F a = add(_mm256_unpacklo_ps(s0, s1), _mm256_unpackhi_ps(s0, s1));
    const F b = add(_mm256_unpacklo_ps(s2, s3), _mm256_unpackhi_ps(s2, s3));
    return add(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(1, 0, 1, 0)),
               _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 2, 3, 2)));
  }
  [[gnu::always_inline]] static float hmax(F v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    return _mm_cvtss_f32(_mm_max_ss(m, _mm_movehdup_ps(m)));
  }
  [[gnu::always_inline]] static float hsum(F v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
  }

  [[gnu::always_inline]] static F gather_groups(const float* base, std::size_t stride) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(base)),
                                _mm_loadu_ps(base + stride), 1);
  }
  [[gnu::always_inline]] static void scatter_groups(float* base, std::size_t stride, F v) {
    _mm_storeu_ps(base, _mm256_castps256_ps128(v));
    _mm_storeu_ps(base + stride, _mm256_extractf128_ps(v, 1));
  }
  [[gnu::always_inline]] static I group_iota(int pos) {
    alignas(32) std::int32_t v[W] = {};
    v[4 + pos] = 1;
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(v));
  }
};

}  // namespace
