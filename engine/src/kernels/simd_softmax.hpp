// The softmax-family kernels written once over register traits V. Every op is a Source (what z is:
// x, a*x + b*gumbel, log x + delta*p) followed by max / sum-of-exp and a Sink (softmax,
// log-softmax, logsumexp). Two layouts:
//  - lanes: K = 4C <= 64. Each 4-lane group holds one row (V::G rows per register, C registers per
//    row block), so max and sum need two in-group shuffles, never a horizontal reduction. Rows
//    are first summed without subtracting their maximum and keep that result where it is safe
//    (lane_sums); the others are redone shifted.
//  - wide: any other K. One row at a time along the row with a masked tail; pass 1 writes z into y
//    so that an expensive source (Gumbel noise, log) is evaluated once. Then either the online
//    normaliser (two-pass) or max, sum and scale passes (three-pass).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstring>
#include <limits>
#include <utility>

#include "kernels/kernel_table.hpp"
#include "kernels/simd_math.hpp"

namespace {

using gsflow::engine::WideAlgorithm;
using gsflow::engine::kernels::KernelTable;
using gsflow::engine::kernels::RowArgs;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr int kMaxLaneK = 64;

// V::G consecutive rows of the lanes layout.
struct LaneBlock {
  const float* x;
  std::size_t ldx;
  const float* p;
  std::size_t ldp;
  float* y;  // per-element sinks: row g at y + g * ldy; logsumexp: y[g]
  std::size_t ldy;
  std::uint32_t row0;  // global row index of the first row (noise counter)
};

// One row of the wide layout.
struct WideRow {
  const float* x;
  const float* p;
  float* y;
  std::uint32_t row;
};

// Chunk j (columns 4j..4j+3) of each row of a block; one plain load when rows are 4 floats apart.
template <class V, int C>
GSFLOW_SIMD_INLINE typename V::F load_chunk(const float* base, std::size_t ld, int j) {
  if (C == 1 && ld == 4) return V::load(base);
  return V::gather_groups(base + 4 * j, ld);
}

// ---- Sources: z for chunk j of a lane block, or for columns c..c+W-1 of a wide row.
template <class V>
struct PlainSource {
  using F = typename V::F;
  static constexpr bool expensive = false;  // cheaper to re-read than to store and reload
  static constexpr bool reads_p = false;    // whether z uses the second input p
  const RowArgs& a;
  // z for all C chunks of U blocks: d[u * C + j] is chunk j of block u.
  template <int C, int U>
  GSFLOW_SIMD_INLINE void lanes(const LaneBlock* b, F* d) const {
    for (int u = 0; u < U; ++u)
      for (int j = 0; j < C; ++j) d[u * C + j] = load_chunk<V, C>(b[u].x, b[u].ldx, j);
  }
  GSFLOW_SIMD_INLINE F wide(const WideRow& w, std::size_t c) const { return V::load(w.x + c); }
  GSFLOW_SIMD_INLINE F wide_tail(const WideRow& w, std::size_t c, int n) const {
    return V::load_n(w.x + c, n, 0.0f);
  }
};

template <class V>
struct GumbelSource {
  using F = typename V::F;
  using I = typename V::I;
  static constexpr bool expensive = true;
  static constexpr bool reads_p = false;
  const RowArgs& a;
  I key = V::set_groups(static_cast<std::uint32_t>(a.seed), 0,
                        static_cast<std::uint32_t>(a.seed >> 32), 0);
  std::uint32_t s_lo = static_cast<std::uint32_t>(a.stream);
  std::uint32_t s_hi = static_cast<std::uint32_t>(a.stream >> 32);
  I row_iota = V::group_iota(1);  // lane-layout groups are consecutive rows
  I col_iota = V::group_iota(0);  // wide-layout groups are consecutive 4-column blocks

  GSFLOW_SIMD_INLINE F mix(F x, I ctr) const {
    return V::fmadd(V::set1(a.a), x, V::mul(V::set1(a.b), vgumbel<V>(vphilox<V>(ctr, key))));
  }
  // All U * C registers go through each stage together (see simd_math.hpp): the Philox -> log ->
  // log chain is long, and side by side the chains overlap (Gumbel-softmax K = 4: 0.39 -> 0.64
  // elements/ns on AVX-512).
  template <int C, int U>
  GSFLOW_SIMD_INLINE void lanes(const LaneBlock* b, F* d) const {
    I bits[U * C];
    for (int u = 0; u < U; ++u)
      for (int j = 0; j < C; ++j)
        bits[u * C + j] =
            V::add_i(V::set_groups(static_cast<std::uint32_t>(j), b[u].row0, s_lo, s_hi), row_iota);
    vphilox_n<V, U * C>(bits, key);
    vgumbel_n<V, U * C>(bits, d);
    for (int u = 0; u < U; ++u)
      for (int j = 0; j < C; ++j)
        d[u * C + j] = V::fmadd(V::set1(a.a), load_chunk<V, C>(b[u].x, b[u].ldx, j),
                                V::mul(V::set1(a.b), d[u * C + j]));
  }
  GSFLOW_SIMD_INLINE I wide_ctr(const WideRow& w, std::size_t c) const {
    return V::add_i(V::set_groups(static_cast<std::uint32_t>(c / 4), w.row, s_lo, s_hi), col_iota);
  }
  GSFLOW_SIMD_INLINE F wide(const WideRow& w, std::size_t c) const {
    return mix(V::load(w.x + c), wide_ctr(w, c));
  }
  GSFLOW_SIMD_INLINE F wide_tail(const WideRow& w, std::size_t c, int n) const {
    return mix(V::load_n(w.x + c, n, 0.0f), wide_ctr(w, c));
  }
};

template <class V>
struct FlowSource {
  using F = typename V::F;
  static constexpr bool expensive = true;
  static constexpr bool reads_p = true;
  const RowArgs& a;
  template <int C, int U>
  GSFLOW_SIMD_INLINE void lanes(const LaneBlock* b, F* d) const {
    for (int u = 0; u < U; ++u)
      for (int j = 0; j < C; ++j) d[u * C + j] = load_chunk<V, C>(b[u].x, b[u].ldx, j);
    vlog_n<V, true, U * C>(d);
    for (int u = 0; u < U; ++u)
      for (int j = 0; j < C; ++j)
        d[u * C + j] = V::fmadd(V::set1(a.a), load_chunk<V, C>(b[u].p, b[u].ldp, j), d[u * C + j]);
  }
  GSFLOW_SIMD_INLINE F wide(const WideRow& w, std::size_t c) const {
    return V::fmadd(V::set1(a.a), V::load(w.p + c), vlog<V>(V::load(w.x + c)));
  }
  GSFLOW_SIMD_INLINE F wide_tail(const WideRow& w, std::size_t c, int n) const {
    return V::fmadd(V::set1(a.a), V::load_n(w.p + c, n, 0.0f),
                    vlog<V>(V::load_n(w.x + c, n, 1.0f)));
  }
};

// ---- Sinks: from the normaliser s compute a factor once, then each output from d = z - m and
// e = exp(d). Softmax and log-softmax write every element; logsumexp writes m + log s per row.
// The lanes layout uses m = 0 for a row whose unshifted sum s lies in [kUnshiftedMin,
// kUnshiftedMax] (lane_sums). The lower bound 2^-20 keeps what underflow loses (exps below
// FLT_MIN, ~1.2e-38, are off by up to 1.05 * 2^-127) under 2^20 FLT_MIN ~ 1e-32 in any output
// probability and negligible in s; the upper bound keeps every exp and 1 / s normal floats. log s
// of a row sum: a normal float, or NaN where the row holds a NaN (the fast log would give a finite
// value for it); s - s adds 0 to the first and NaN to the second. Softmax's 1 / s needs no such
// help.
template <class V>
GSFLOW_SIMD_INLINE typename V::F log_or_nan(typename V::F s) {
  return V::add(vlog<V, false>(s), V::sub(s, s));
}

template <class V>
struct SoftmaxSink {
  using F = typename V::F;
  static constexpr bool per_element = true;
  static constexpr bool needs_exp = true;
  static constexpr float kUnshiftedMin = 0x1p-20f, kUnshiftedMax = 0x1p100f;
  GSFLOW_SIMD_INLINE static F factor(F s) { return V::div(V::set1(1.0f), s); }
  GSFLOW_SIMD_INLINE static F element(F, F e, F inv_s) { return V::mul(e, inv_s); }
};

template <class V>
struct LogSoftmaxSink {
  using F = typename V::F;
  static constexpr bool per_element = true;
  static constexpr bool needs_exp = false;
  // z - log s for an unshifted row: |log s| <= 22.2 keeps its rounding within 1e-6.
  static constexpr float kUnshiftedMin = 0x1p-20f, kUnshiftedMax = 0x1p32f;
  GSFLOW_SIMD_INLINE static F factor(F s) { return log_or_nan<V>(s); }
  // (z - m) - log s rather than z - (m + log s): exact d keeps the error at the size of log s.
  GSFLOW_SIMD_INLINE static F element(F d, F, F log_s) { return V::sub(d, log_s); }
};

template <class V>
struct LogSumExpSink {
  using F = typename V::F;
  static constexpr bool per_element = false;
  static constexpr bool needs_exp = false;
  static constexpr float kUnshiftedMin = 0x1p-20f, kUnshiftedMax = 0x1p100f;
  GSFLOW_SIMD_INLINE static F factor(F s) { return log_or_nan<V>(s); }
  GSFLOW_SIMD_INLINE static F element(F d, F, F) { return d; }
};

// ---- Lanes layout. U independent blocks are processed together so that their dependency chains
// (Philox rounds, log and exp polynomials) interleave; each lane sees the same instruction
// sequence whatever U is, so results do not depend on how rows are grouped.
//
// A group of U blocks goes through two halves: lane_sums (source, max, exp, the packed sums) and
// lane_outputs (the sink's factor, then every output). Where lane_pipelined() allows, lanes()
// runs the sums of group i before the outputs of group i - 1, so the factor's serial chain (a log
// for log-softmax, ~25 dependent operations) has its input ready and overlaps the next group's
// exps instead of waiting for them.
template <class V, int C, int U>
struct LaneSums {
  static constexpr int P = (U + 3) / 4;  // packed sum registers, four blocks each
  typename V::F d[U][C], e[U][C], m[U], packed[P];
  std::uint64_t in_bounds;  // bit 16 q + i: lane i of packed[q] within the sink's bounds
  bool ok;                  // all of them
};

// exp(t.e) in place, then the per-row sums of four blocks packed into each t.packed register (lane
// u of group g = row g of block u).
template <class V, int C, int U>
GSFLOW_SIMD_INLINE void lane_exp_sums(LaneSums<V, C, U>& t) {
  using F = typename V::F;
  F s[U];
  // At most 8 exps in lockstep (the largest divisor of U * C up to 8): wider blocks (U * C = 16)
  // spill their temporaries.
  constexpr int kChunk = [] {
    for (int c = 8; c > 1; --c)
      if ((U * C) % c == 0) return c;
    return 1;
  }();
  for (int i = 0; i < U * C; i += kChunk) vexp_n<V, kChunk>(&t.e[0][0] + i);
  // At K = 4 the sum is e itself (0 + e is the same: exp never gives -0). For C > 1 the sum starts
  // from zero: starting from e measured slower out of cache (docs/notes/2026-12-kernel-tuning.md,
  // "Measurements formerly in code comments").
  for (int u = 0; u < U; ++u) s[u] = C == 1 ? t.e[u][0] : V::zero();
  for (int j = C == 1 ? 1 : 0; j < C; ++j)
    for (int u = 0; u < U; ++u) s[u] = V::add(s[u], t.e[u][j]);
  // Four blocks' per-group sums reduce together into one register (lane u of each group from
  // block u), so that one log or division serves all of them. Missing blocks repeat block 0: every
  // row is summed in the same order whatever U is, so results do not depend on the grouping.
  for (int q = 0; q < t.P; ++q) {
    const int n = U - 4 * q;
    t.packed[q] = V::sum4_packed(s[4 * q], s[4 * q + (n > 1 ? 1 : 0)], s[4 * q + (n > 2 ? 2 : 0)],
                                 s[4 * q + (n > 3 ? 3 : 0)]);
  }
}

// Where the rows are summed unshifted first: everywhere but Gumbel-softmax and the flow step at
// K = 4 on AVX-512, where unshifted sums measured slower out of cache
// (docs/notes/2026-12-kernel-tuning.md, "Unshifted sums" and "Spills out of cache").
template <class V, class Src, class Snk>
constexpr bool lane_unshifted(int c) {
  return !(V::W == 16 && c == 1 && Snk::needs_exp && Src::expensive);
}

// Source, exp and packed sums of U blocks. Where lane_unshifted(), without the row maxima: every
// row is summed unshifted (m = 0, e = exp(z)), and t.ok says whether all rows' sums lie in the
// sink's bounds [Snk::kUnshiftedMin, Snk::kUnshiftedMax], where no exp overflowed and none that
// underflowed matters (see the sinks); otherwise lane_blocks() redoes the blocks. Elsewhere each
// row is shifted by its maximum and t.ok is always true.
template <class V, int C, int U, class Src, class Snk>
requires(U == 1 || U == 2 || U % 4 == 0) GSFLOW_SIMD_INLINE
    void lane_sums(const Src& src, const LaneBlock* b, LaneSums<V, C, U>& t) {
  src.template lanes<C, U>(b, &t.d[0][0]);
  if constexpr (!lane_unshifted<V, Src, Snk>(C)) {
    for (int u = 0; u < U; ++u) {
      t.m[u] = t.d[u][0];
      for (int j = 1; j < C; ++j) t.m[u] = V::max(t.m[u], t.d[u][j]);
      t.m[u] = V::max4(t.m[u]);
    }
    for (int u = 0; u < U; ++u)
      for (int j = 0; j < C; ++j) t.e[u][j] = t.d[u][j] = V::sub(t.d[u][j], t.m[u]);
    lane_exp_sums<V, C, U>(t);
    t.in_bounds = ~std::uint64_t{0};
    t.ok = true;
    return;
  }
  for (int u = 0; u < U; ++u) {
    t.m[u] = V::zero();
    for (int j = 0; j < C; ++j) t.e[u][j] = vexp_ceiling<V>(t.d[u][j]);
  }
  lane_exp_sums<V, C, U>(t);
  constexpr unsigned kAll = (1u << V::W) - 1;
  unsigned all = kAll;
  t.in_bounds = 0;
  for (int q = 0; q < t.P; ++q) {
    const unsigned bits = V::in_range_bits(t.packed[q], Snk::kUnshiftedMin, Snk::kUnshiftedMax);
    all &= bits;
    t.in_bounds |= std::uint64_t{bits} << (16 * q);
  }
  t.ok = all == kAll;
}

template <class V, int C, int U, class Snk>
GSFLOW_SIMD_INLINE void lane_outputs(const LaneBlock* b, const LaneSums<V, C, U>& t) {
  using F = typename V::F;
  F f[U], factors[t.P];
  for (int q = 0; q < t.P; ++q) factors[q] = Snk::factor(t.packed[q]);
  [&]<int... u>(std::integer_sequence<int, u...>) {
    ((f[u] = V::template broadcast_lane<u % 4>(factors[u / 4])), ...);
  }
  (std::make_integer_sequence<int, U>{});
  for (int u = 0; u < U; ++u) {
    if constexpr (Snk::per_element) {
      for (int j = 0; j < C; ++j) {
        const F out = Snk::element(t.d[u][j], t.e[u][j], f[u]);
        if (C == 1 && b[u].ldy == 4)
          V::store(b[u].y, out);
        else
          V::scatter_groups(b[u].y + 4 * j, b[u].ldy, out);
      }
    } else {
      alignas(64) float out[V::W];
      V::store(out, V::add(t.m[u], f[u]));
      for (int g = 0; g < V::G; ++g) b[u].y[g] = out[4 * g];
    }
  }
}

// Where the hot loop writes log-softmax outputs from x re-read as the rows lie in memory
// (lane_outputs_reread): a plain source on a dense batch, summed unshifted, so each output is
// x - log s.
template <class V, class Src, class Snk, bool kDense>
constexpr bool lane_reread(int c) {
  return kDense && c > 1 && Snk::per_element && !Snk::needs_exp && !Src::expensive &&
         lane_unshifted<V, Src, Snk>(c);
}

// Permute indices from a packed factor register to block u's rows as they lie in memory: lane i of
// whole register r of the block (floats W r + i of its G rows of K = 4C) belongs to row
// (W r + i) / K, whose factor is lane u % 4 of group row.
template <class V, int C>
constexpr auto kRowFactorIndex = [] {
  std::array<std::array<std::array<std::uint32_t, V::W>, C>, 4> idx{};
  for (int u = 0; u < 4; ++u)
    for (int r = 0; r < C; ++r)
      for (int i = 0; i < V::W; ++i)
        idx[u][r][i] = static_cast<std::uint32_t>(4 * ((V::W * r + i) / (4 * C)) + u);
  return idx;
}();

// lane_outputs for lane_reread(): each block's G rows are C whole registers in memory, read again
// and written with one load, permute, subtract and store each, instead of keeping z = x in
// registers until the outputs (two groups' worth, pipelined) and storing it 16 bytes at a time.
// With m = 0 the outputs are the same bits as lane_outputs'. Faster than keeping z at K = 20 on
// both paths; slower at K = 4, where z is one plain load anyway: hence c > 1 in lane_reread()
// (docs/notes/2026-12-kernel-tuning.md, "Log-softmax outputs re-read").
template <class V, int C, int U, class Snk>
GSFLOW_SIMD_INLINE void lane_outputs_reread(const LaneBlock* b, const LaneSums<V, C, U>& t) {
  typename V::F factors[t.P];
  for (int q = 0; q < t.P; ++q) factors[q] = Snk::factor(t.packed[q]);
  for (int u = 0; u < U; ++u)
    for (int r = 0; r < C; ++r) {
      const auto idx = V::load_i(kRowFactorIndex<V, C>[u % 4][r].data());
      const auto x = V::load(b[u].x + V::W * r);
      V::store(b[u].y + V::W * r, Snk::element(x, x, V::permute(factors[u / 4], idx)));
    }
}

// U blocks outside the hot loop: unshifted where every row allows it, otherwise again with each
// out-of-bounds row (large or very negative logits, -inf rows, NaN) shifted by its maximum and the
// others as before (m = 0: the same bits). Each row's result thus depends on its own values only,
// never on its neighbours or the grouping.
template <class V, int C, int U, class Src, class Snk>
GSFLOW_SIMD_INLINE void lane_blocks(const Src& src, const LaneBlock* b) {
  LaneSums<V, C, U> t;
  lane_sums<V, C, U, Src, Snk>(src, b, t);
  if (!t.ok) {
    for (int u = 0; u < U; ++u) {
      typename V::F m = t.d[u][0];
      for (int j = 1; j < C; ++j) m = V::max(m, t.d[u][j]);
      alignas(64) float lanes[V::W];
      V::store(lanes, V::max4(m));
      for (int g = 0; g < V::G; ++g)
        if (t.in_bounds >> (16 * (u / 4) + 4 * g + u % 4) & 1)
          for (int i = 0; i < 4; ++i) lanes[4 * g + i] = 0.0f;
      t.m[u] = V::load(lanes);
    }
    for (int u = 0; u < U; ++u)
      for (int j = 0; j < C; ++j) t.e[u][j] = t.d[u][j] = V::sub(t.d[u][j], t.m[u]);
    lane_exp_sums<V, C, U>(t);
  }
  lane_outputs<V, C, U, Snk>(b, t);
}

// Blocks of the lanes layout processed together: enough independent chains to cover latency, few
// enough registers not to spill. Expensive sources (Philox and two logs, or a log), softmax and
// logsumexp (one output per row) keep up to 12 registers in flight, log-softmax (z - m and its exp
// both live until the outputs: keeps_z) 8; log-softmax whose outputs re-read x (lane_reread) does
// not keep z: 12; 16 registers spill. Plain sources at K = 4 take 4 blocks on AVX-512 (eight
// spilled, which costs much out of cache). AVX2 (16 registers): two blocks of plain sources up to
// K = 32; at K = 4 four. Measurements: docs/notes/2026-12-kernel-tuning.md ("Eight blocks at
// K = 4 for every op", "Spills out of cache", "Table exp").
template <class V>
constexpr int lane_unroll(bool expensive, bool sink_needs_exp, bool keeps_z, int c) {
  if (!expensive && c == 1) return 4;
  if (V::W == 8 && !expensive) return c <= 8 ? 2 : 1;
  const int budget = expensive || sink_needs_exp || !keeps_z ? 12 : 8;
  for (int u = 8; u > 1; u /= 2)
    if (u * c <= budget) return u;
  return 1;
}

// Whether lanes() overlaps one group's sums with the previous group's outputs, which holds two
// groups' registers: faster wherever both fit (regs = U * C <= 12) on AVX-512; on AVX2 only for
// a log factor (docs/notes/2026-12-kernel-tuning.md, "AVX2 at K = 4").
template <class V>
constexpr bool lane_pipelined(int regs, bool log_factor) {
  return regs <= 12 && (V::W == 16 || log_factor);
}

// Software prefetch in the lanes loop: each group asks for every line kPrefetchAhead bytes past its
// own in x (and p) and, with intent to write, in y, where these are contiguous (rows exactly K
// floats apart) and x holds at least kPrefetchMinBytes; below that the batch is in cache, and the
// prefetches would only cost instructions. Per-element sinks only (logsumexp lost with it). The
// distance, 4 KiB, and one prefetch per line were chosen by measurement
// (docs/notes/2026-12-kernel-tuning.md, "Software prefetch out of cache").
constexpr std::size_t kPrefetchAhead = 4096;
constexpr std::size_t kPrefetchMinBytes = std::size_t{1} << 20;

// Widths with a dense instantiation of lanes(): K = 4 and K = 20, the DNA and protein alphabets.
constexpr bool lane_dense_width(int c) { return c == 1 || c == 5; }

// kDense (lane_dense_width): rows of x, p and y exactly K floats apart, the usual contiguous batch.
// The strides are then constants, so block pointers take no multiplies and, at K = 4, a block is
// one plain load or store without a run-time branch. Each width costs 70-90 KB of code per path
// (docs/notes/2026-12-kernel-tuning.md, "Dense batches at K = 4 and 20").
template <class V, int C, class Src, class Snk, bool kDense = false>
void lanes(const RowArgs& a, const Src& src) {
  constexpr int G = V::G;
  constexpr std::size_t K = 4 * C;
  const std::size_t full = a.rows / G * G;
  const std::size_t ldx = kDense ? K : a.ldx, ldp = kDense ? K : a.ldp;
  const std::size_t ldy = !Snk::per_element ? 1 : kDense ? K : a.ldy;
  auto block = [&](std::size_t r0) {
    return LaneBlock{a.x + r0 * ldx,
                     ldx,
                     a.p ? a.p + r0 * ldp : nullptr,
                     ldp,
                     a.y + r0 * ldy,
                     ldy,
                     static_cast<std::uint32_t>(a.first_row + r0)};
  };
  constexpr bool kReread = lane_reread<V, Src, Snk, kDense>(C);
  constexpr bool kKeepsZ = Snk::per_element && !kReread;
  constexpr int U = lane_unroll<V>(Src::expensive, Snk::needs_exp, kKeepsZ, C);
  constexpr std::size_t kGroup = U * G;  // rows per group of U blocks
  const std::size_t groups_end = full / kGroup * kGroup;
  std::size_t r0 = 0;
  const bool prefetch = Snk::per_element && a.rows * K * sizeof(float) >= kPrefetchMinBytes &&
                        ldx == K && (!Src::reads_p || ldp == K) && ldy == K;
  // The group of rows from r.
  auto prefetch_group = [&](std::size_t r) GSFLOW_SIMD_LAMBDA_INLINE {
    if (!prefetch) return;
    constexpr std::size_t kBytes = kGroup * K * sizeof(float);
    const auto ahead = [&](const float* base) {
      return reinterpret_cast<const char*>(base + r * K) + kPrefetchAhead;
    };
    for (std::size_t o = 0; o < kBytes; o += 64) {
      __builtin_prefetch(ahead(a.x) + o, 0);
      if constexpr (Src::reads_p) __builtin_prefetch(ahead(a.p) + o, 0);
      __builtin_prefetch(ahead(a.y) + o, 1);
    }
  };
  // Groups run in chunks of up to 64. A group with a row that needs its maximum subtracted
  // (lane_sums) writes nothing in the loop and is redone after the chunk. Everything here is
  // inlined, at the cost of code size: each way of calling part of it out of line measured slower
  // (docs/notes/2026-12-kernel-tuning.md, "Measurements formerly in code comments").
  while (r0 < groups_end) {
    const std::size_t begin = r0, end = std::min(groups_end, begin + 64 * kGroup);
    std::uint64_t redo = 0;
    int group = 0;
    auto outputs = [&](const LaneBlock* b, const LaneSums<V, C, U>& t) GSFLOW_SIMD_LAMBDA_INLINE {
      if (!t.ok) [[unlikely]]
        redo |= std::uint64_t{1} << group;
      else if constexpr (kReread)
        lane_outputs_reread<V, C, U, Snk>(b, t);
      else
        lane_outputs<V, C, U, Snk>(b, t);
      ++group;
    };
    if constexpr (lane_pipelined<V>(U * C, !Snk::needs_exp)) {
      // Two named slots (not an array indexed at run time, which would live in memory).
      LaneBlock b0[U], b1[U];
      LaneSums<V, C, U> t0, t1;
      // The three calls of sums below are inlined for one-register blocks (K = 4) and for plain
      // sources, where GCC had called them out of line, writing t to memory and reading it back;
      // for the expensive sources GCC keeps deciding (docs/notes/2026-12-kernel-tuning.md,
      // "Inlining the pipelined K = 4 loop" and "Spills out of cache").
      auto sums_body = [&](LaneBlock* b, LaneSums<V, C, U>& t) GSFLOW_SIMD_LAMBDA_INLINE {
        prefetch_group(r0);
        for (int u = 0; u < U; ++u) b[u] = block(r0 + u * G);
        lane_sums<V, C, U, Src, Snk>(src, b, t);
        r0 += kGroup;
      };
      auto sums_call = [&](LaneBlock* b, LaneSums<V, C, U>& t) { sums_body(b, t); };
      auto sums = [&](LaneBlock* b, LaneSums<V, C, U>& t) GSFLOW_SIMD_LAMBDA_INLINE {
        if constexpr (C == 1 || !Src::expensive)
          sums_body(b, t);
        else
          sums_call(b, t);
      };
      sums(b0, t0);
      while (true) {
        if (r0 == end) {
          outputs(b0, t0);
          break;
        }
        sums(b1, t1);
        outputs(b0, t0);
        if (r0 == end) {
          outputs(b1, t1);
          break;
        }
        sums(b0, t0);
        outputs(b1, t1);
      }
    } else {
      for (; r0 < end; r0 += kGroup) {
        LaneBlock b[U];
        LaneSums<V, C, U> t;
        prefetch_group(r0);
        for (int u = 0; u < U; ++u) b[u] = block(r0 + u * G);
        lane_sums<V, C, U, Src, Snk>(src, b, t);
        outputs(b, t);
      }
    }
    for (; redo != 0; redo &= redo - 1) {
      const std::size_t g0 = begin + static_cast<std::size_t>(std::countr_zero(redo)) * kGroup;
      LaneBlock b[U];
      for (int u = 0; u < U; ++u) b[u] = block(g0 + u * G);
      lane_blocks<V, C, U, Src, Snk>(src, b);
    }
  }
  for (; r0 < full; r0 += G) {
    const LaneBlock b = block(r0);
    lane_blocks<V, C, 1, Src, Snk>(src, &b);
  }
  if (full == a.rows) return;
  // Remaining rows go through the same code on a padded copy, so every row gets the same bits
  // whichever block (or thread) it falls in. Padding is 1.0: finite, positive, log-safe.
  alignas(64) float tx[G * K], tp[G * K], ty[G * K];
  const std::size_t valid = a.rows - full;
  for (std::size_t i = 0; i < G * K; ++i) tx[i] = tp[i] = 1.0f;
  for (std::size_t g = 0; g < valid; ++g) {
    std::memcpy(tx + g * K, a.x + (full + g) * a.ldx, K * sizeof(float));
    if (a.p) std::memcpy(tp + g * K, a.p + (full + g) * a.ldp, K * sizeof(float));
  }
  const LaneBlock b{
      tx, K, tp, K, ty, Snk::per_element ? K : 1, static_cast<std::uint32_t>(a.first_row + full)};
  lane_blocks<V, C, 1, Src, Snk>(src, &b);
  for (std::size_t g = 0; g < valid; ++g) {
    if constexpr (Snk::per_element)
      std::memcpy(a.y + (full + g) * a.ldy, ty + g * K, K * sizeof(float));
    else
      a.y[full + g] = ty[g];
  }
}

// ---- Wide layout.
template <class V, class Src, class Snk>
void wide_rows(const RowArgs& a, const Src& src) {
  using F = typename V::F;
  constexpr std::size_t W = V::W;
  const std::size_t kv = a.k / W * W;
  const int tail = static_cast<int>(a.k - kv);
  const bool two_pass = gsflow::engine::kernels::resolve_wide(a.wide) == WideAlgorithm::two_pass;
  // Per-element sinks keep z in y after the first pass; logsumexp has no row to keep it in.
  constexpr bool keep_z = Snk::per_element;
  for (std::size_t r = 0; r < a.rows; ++r) {
    const WideRow w{a.x + r * a.ldx, a.p ? a.p + r * a.ldp : nullptr,
                    Snk::per_element ? a.y + r * a.ldy : a.y + r,
                    static_cast<std::uint32_t>(a.first_row + r)};
    // z at columns c.. (first pass: from the source, stored to y when kept; later passes: from y).
    auto z_first = [&](std::size_t c) {
      const F z = src.wide(w, c);
      if constexpr (keep_z) V::store(w.y + c, z);
      return z;
    };
    auto z_first_tail = [&] {
      const F z = V::fill_tail(src.wide_tail(w, kv, tail), tail, kNegInf);
      if constexpr (keep_z) V::store_n(w.y + kv, z, tail);
      return z;
    };
    auto z_again = [&](std::size_t c) {
      if constexpr (keep_z)
        return V::load(w.y + c);
      else
        return src.wide(w, c);
    };
    auto z_again_tail = [&] {
      if constexpr (keep_z)
        return V::load_n(w.y + kv, tail, kNegInf);
      else
        return V::fill_tail(src.wide_tail(w, kv, tail), tail, kNegInf);
    };
    float row_max, row_sum;
    bool y_holds_exp = false;  // three-pass softmax leaves exp(z - m) in y for the scale pass
    if (two_pass) {
      // Online normaliser (Milakov & Gimelshein 2018): one read gives max and sum together. Two
      // accumulator pairs hide the exp latency. -FLT_MAX (not -inf) as the start keeps
      // exp(m_old - m_new) finite when a lane has seen only -inf.
      F m[2] = {V::set1(-FLT_MAX), V::set1(-FLT_MAX)}, s[2] = {V::zero(), V::zero()};
      auto step = [&](int i, F z) {
        const F mn = V::max(m[i], z);
        s[i] = V::fmadd(s[i], vexp<V>(V::sub(m[i], mn)), vexp<V>(V::sub(z, mn)));
        m[i] = mn;
      };
      std::size_t c = 0;
      for (; c + 2 * W <= kv; c += 2 * W) {
        step(0, z_first(c));
        step(1, z_first(c + W));
      }
      if (c < kv) step(0, z_first(c));
      if (tail) step(1, z_first_tail());
      row_max = V::hmax(V::max(m[0], m[1]));
      const F mv = V::set1(row_max);
      row_sum = V::hsum(
          V::add(V::mul(s[0], vexp<V>(V::sub(m[0], mv))), V::mul(s[1], vexp<V>(V::sub(m[1], mv)))));
    } else {
      F m[2] = {V::set1(kNegInf), V::set1(kNegInf)};
      std::size_t c = 0;
      for (; c + 2 * W <= kv; c += 2 * W) {
        m[0] = V::max(m[0], z_first(c));
        m[1] = V::max(m[1], z_first(c + W));
      }
      if (c < kv) m[0] = V::max(m[0], z_first(c));
      if (tail) m[1] = V::max(m[1], z_first_tail());
      row_max = V::hmax(V::max(m[0], m[1]));
      const F mv = V::set1(row_max);
      // Sum pass; softmax also stores e = exp(z - m) so that the last pass is a scale, not an exp.
      y_holds_exp = keep_z && Snk::needs_exp;
      F s[2] = {V::zero(), V::zero()};
      auto sum_at = [&](int i, std::size_t c) {
        const F e = vexp<V>(V::sub(z_again(c), mv));
        if (y_holds_exp) V::store(w.y + c, e);
        s[i] = V::add(s[i], e);
      };
      for (c = 0; c + 2 * W <= kv; c += 2 * W) {
        sum_at(0, c);
        sum_at(1, c + W);
      }
      if (c < kv) sum_at(0, c);
      if (tail) {
        const F e = vexp<V>(V::sub(z_again_tail(), mv));
        if (y_holds_exp) V::store_n(w.y + kv, e, tail);
        s[1] = V::add(s[1], e);
      }
      row_sum = V::hsum(V::add(s[0], s[1]));
    }
    const F mv = V::set1(row_max);
    const F f = Snk::factor(V::set1(row_sum));
    if constexpr (Snk::per_element) {
      auto out = [&](F z_or_e) {
        if (y_holds_exp) return V::mul(z_or_e, f);
        const F d = V::sub(z_or_e, mv);
        return Snk::element(d, Snk::needs_exp ? vexp<V>(d) : d, f);
      };
      for (std::size_t c = 0; c < kv; c += W) V::store(w.y + c, out(z_again(c)));
      if (tail) V::store_n(w.y + kv, out(z_again_tail()), tail);
    } else {
      alignas(64) float res[V::W];
      V::store(res, V::add(mv, f));
      *w.y = res[0];
    }
  }
}

// ---- Dispatch on K inside one ISA.
template <class V, int C, class S, class K>
void lanes_or_next(const RowArgs& a, const S& src) {
  if constexpr (C > kMaxLaneK / 4) {
    (void)a, (void)src;
  } else if (a.k == 4 * C) {
    if constexpr (lane_dense_width(C))
      if (a.ldx == 4 * C && (!a.p || a.ldp == 4 * C) && (!K::per_element || a.ldy == 4 * C))
        return lanes<V, C, S, K, true>(a, src);
    lanes<V, C, S, K>(a, src);
  } else {
    lanes_or_next<V, C + 1, S, K>(a, src);
  }
}

template <class V, template <class> class Src, template <class> class Snk>
void run_op(const RowArgs& a) {
  assert(a.k >= 1 && a.ldx >= a.k && a.first_row + a.rows <= (std::uint64_t{1} << 32));
  const Src<V> src{a};
  if (a.k % 4 == 0 && a.k <= kMaxLaneK) return lanes_or_next<V, 1, Src<V>, Snk<V>>(a, src);
  wide_rows<V, Src<V>, Snk<V>>(a, src);
}

const char* simd_layout(std::size_t k, WideAlgorithm w) {
  if (k == 4) return "k4";
  if (k == 20) return "k20";
  if (k % 4 == 0 && k <= kMaxLaneK) return "lanes";
  return gsflow::engine::kernels::resolve_wide(w) == WideAlgorithm::two_pass ? "rows_2pass"
                                                                             : "rows_3pass";
}

template <class V>
KernelTable make_table(gsflow::engine::Isa isa, int revision) {
  return KernelTable{isa,
                     {run_op<V, PlainSource, SoftmaxSink>, run_op<V, PlainSource, LogSoftmaxSink>,
                      run_op<V, PlainSource, LogSumExpSink>, run_op<V, GumbelSource, SoftmaxSink>,
                      run_op<V, FlowSource, SoftmaxSink>},
                     simd_layout,
                     revision};
}

}  // namespace
