// Shared helpers for the kernel tests: strided batches backed by std::vector, hostile input
// generators, and an independent long-double oracle with the tolerances every kernel test uses.
//
// The oracle never calls the kernels: it recomputes every operation from its definition in long
// double (64-bit mantissa), including the Gumbel noise (noise_uniform + -log(-log u) in long
// double), so the reference path is checked against it just like the SIMD paths.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gsflow/engine/kernels.hpp"
#include "gsflow/engine/philox.hpp"

namespace gsflow::engine::kt {

using ld = long double;

inline const float kNegInf = -std::numeric_limits<float>::infinity();
inline const ld kNegInfL = -std::numeric_limits<ld>::infinity();
// Unit roundoff of float (half an ulp of 1): the scale of every float rounding error below.
inline constexpr double kUnitRoundoff = 0x1p-24;
// Sentinel stored in row padding (columns k..stride-1); kernels must never write there.
inline constexpr float kPad = 1234.5f;

// ------------------------------------------------------------------------------------------------
// Execution paths

struct PathSpec {
  std::string name;  // gtest-safe name, e.g. "avx512_two_pass"
  KernelOptions options;
  Isa isa;  // the path these options must select
};

// gtest prints the parameter of a failing test with this (instead of a byte dump).
inline void PrintTo(const PathSpec& path, std::ostream* os) { *os << path.name; }

inline KernelOptions options_for(Isa isa, WideAlgorithm wide = WideAlgorithm::automatic,
                                 int threads = 1) {
  KernelOptions o;
  o.consistent = (isa == Isa::reference);
  o.isa = (isa == Isa::reference) ? Isa::avx512 : isa;  // consistent must win over isa
  o.threads = threads;
  o.wide = wide;
  return o;
}

// The three paths with the automatic wide algorithm.
inline std::vector<PathSpec> base_paths() {
  return {{"ref", options_for(Isa::reference), Isa::reference},
          {"avx2", options_for(Isa::avx2), Isa::avx2},
          {"avx512", options_for(Isa::avx512), Isa::avx512}};
}

// Every path, and for the SIMD paths each forced wide-row algorithm as well.
inline std::vector<PathSpec> all_paths() {
  std::vector<PathSpec> paths = base_paths();
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    const std::string n = isa == Isa::avx2 ? "avx2" : "avx512";
    paths.push_back({n + "_two_pass", options_for(isa, WideAlgorithm::two_pass), isa});
    paths.push_back({n + "_three_pass", options_for(isa, WideAlgorithm::three_pass), isa});
  }
  // The reference path with a forced wide algorithm must behave like the reference path.
  paths.push_back(
      {"ref_three_pass", options_for(Isa::reference, WideAlgorithm::three_pass), Isa::reference});
  return paths;
}

inline std::string path_param_name(const ::testing::TestParamInfo<PathSpec>& info) {
  return info.param.name;
}

// ------------------------------------------------------------------------------------------------
// Strided batches

// `rows` rows of `k` floats with row stride `stride`. The vector holds exactly
// (rows - 1) * stride + k floats, so a kernel that reads or writes past the last row's k-th element
// leaves the allocation (caught by AddressSanitizer builds); padding inside the batch holds kPad.
struct Batch {
  std::size_t rows = 0, k = 0, stride = 0;
  std::vector<float> buf;

  Batch() = default;
  Batch(std::size_t rows_, std::size_t k_, std::size_t stride_, float value = 0.0f)
      : rows(rows_),
        k(k_),
        stride(stride_),
        buf(rows_ == 0 ? 0 : (rows_ - 1) * stride_ + k_, kPad) {
    for (std::size_t r = 0; r < rows; ++r) std::fill(row(r), row(r) + k, value);
  }
  float* row(std::size_t r) { return buf.data() + r * stride; }
  const float* row(std::size_t r) const { return buf.data() + r * stride; }
  float& at(std::size_t r, std::size_t c) { return buf[r * stride + c]; }
  float at(std::size_t r, std::size_t c) const { return buf[r * stride + c]; }
  ConstRows in() const { return {buf.data(), rows, k, stride}; }
  Rows out() { return {buf.data(), rows, k, stride}; }
  // Rows [first, first + n) as a sub-batch view.
  ConstRows in_rows(std::size_t first, std::size_t n) const {
    return {buf.data() + first * stride, n, k, stride};
  }
  Rows out_rows(std::size_t first, std::size_t n) {
    return {buf.data() + first * stride, n, k, stride};
  }
  // True when every padding float still holds kPad (bitwise).
  bool padding_intact() const {
    for (std::size_t r = 0; r + 1 < rows; ++r)
      for (std::size_t c = k; c < stride; ++c)
        if (std::memcmp(&buf[r * stride + c], &kPad, sizeof(float)) != 0) return false;
    return true;
  }
};

// An output batch whose data region is NaN (so an element the kernel never writes fails every
// comparison) and whose padding holds kPad.
inline Batch make_output(std::size_t rows, std::size_t k, std::size_t stride) {
  return Batch(rows, k, stride, std::numeric_limits<float>::quiet_NaN());
}

// Bitwise comparison of the data regions of two batches of the same shape.
inline ::testing::AssertionResult bits_equal(const Batch& a, const Batch& b) {
  if (a.rows != b.rows || a.k != b.k)
    return ::testing::AssertionFailure()
           << "shape mismatch " << a.rows << "x" << a.k << " vs " << b.rows << "x" << b.k;
  std::size_t diff = 0, fr = 0, fc = 0;
  for (std::size_t r = 0; r < a.rows; ++r)
    for (std::size_t c = 0; c < a.k; ++c) {
      const float x = a.at(r, c), y = b.at(r, c);
      if (std::memcmp(&x, &y, sizeof(float)) != 0) {
        if (diff++ == 0) fr = r, fc = c;
      }
    }
  if (diff == 0) return ::testing::AssertionSuccess();
  char msg[256];
  std::snprintf(msg, sizeof msg,
                "%zu of %zu floats differ bitwise; first at row %zu col %zu: %.9g vs %.9g", diff,
                a.rows * a.k, fr, fc, a.at(fr, fc), b.at(fr, fc));
  return ::testing::AssertionFailure() << msg;
}

inline ::testing::AssertionResult bits_equal(const std::vector<float>& a,
                                             const std::vector<float>& b) {
  if (a.size() != b.size()) return ::testing::AssertionFailure() << "size mismatch";
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0)
      return ::testing::AssertionFailure()
             << "first difference at " << i << ": " << a[i] << " vs " << b[i];
  return ::testing::AssertionSuccess();
}

// ------------------------------------------------------------------------------------------------
// Inputs

enum class Fill {
  uniform5,    // U[-5, 5]
  shift90,     // U[90, 100]: exp overflows float without max subtraction
  spread50,    // U[-50, 50]: exp(x - max) spans far below the float range
  huge,        // U[-1e4, 1e4]: nearly every exp(x - max) underflows to 0
  neg_inf,     // U[-5, 5] with ~30% -inf entries (at least one finite per row)
  one_finite,  // all -inf except one entry in U[-100, 100]
  all_equal,   // every entry of a row equal to one value in U[-1000, 1000]
  // Each row one of the above or a row whose sum of exp(x) lies near a bound of the SIMD lanes
  // layout's unshifted sums (2^-20, 2^32, 2^100): rows that keep the unshifted result next to
  // rows redone with their maximum subtracted.
  mixed,
};
inline constexpr Fill kAllFills[] = {Fill::uniform5,  Fill::shift90, Fill::spread50,
                                     Fill::huge,      Fill::neg_inf, Fill::one_finite,
                                     Fill::all_equal, Fill::mixed};

inline const char* fill_name(Fill f) {
  switch (f) {
    case Fill::uniform5:
      return "uniform[-5,5]";
    case Fill::shift90:
      return "uniform[90,100]";
    case Fill::spread50:
      return "uniform[-50,50]";
    case Fill::huge:
      return "uniform[-1e4,1e4]";
    case Fill::neg_inf:
      return "uniform[-5,5]+30%-inf";
    case Fill::one_finite:
      return "one-finite(rest -inf)";
    case Fill::all_equal:
      return "all-equal";
    case Fill::mixed:
      return "mixed-rows";
  }
  return "?";
}

inline bool fill_has_neg_inf(Fill f) {
  return f == Fill::neg_inf || f == Fill::one_finite || f == Fill::mixed;
}

inline void fill_logits(std::mt19937_64& rng, Fill f, Batch& x) {
  auto uni = [&](double a, double b) {
    return static_cast<float>(std::uniform_real_distribution<double>(a, b)(rng));
  };
  for (std::size_t r = 0; r < x.rows; ++r) {
    float* row = x.row(r);
    const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, x.k - 1)(rng);
    Fill fr = f;
    if (f == Fill::mixed) {
      const int choice = std::uniform_int_distribution<int>(0, 9)(rng);
      if (choice >= 7) {
        // U[-1, 1] around a level c with K exp(c) within a factor e^2 of a bound.
        const double bound = std::log(choice == 7 ? 0x1p-20 : choice == 8 ? 0x1p32 : 0x1p100);
        const double c = bound - std::log(static_cast<double>(x.k)) + uni(-2, 2);
        for (std::size_t col = 0; col < x.k; ++col) row[col] = static_cast<float>(c) + uni(-1, 1);
        continue;
      }
      fr = kAllFills[choice];
    }
    switch (fr) {
      case Fill::uniform5:
        for (std::size_t c = 0; c < x.k; ++c) row[c] = uni(-5, 5);
        break;
      case Fill::shift90:
        for (std::size_t c = 0; c < x.k; ++c) row[c] = uni(90, 100);
        break;
      case Fill::spread50:
        for (std::size_t c = 0; c < x.k; ++c) row[c] = uni(-50, 50);
        break;
      case Fill::huge:
        for (std::size_t c = 0; c < x.k; ++c) row[c] = uni(-1e4, 1e4);
        break;
      case Fill::neg_inf: {
        bool any = false;
        for (std::size_t c = 0; c < x.k; ++c) {
          const bool masked = std::uniform_real_distribution<double>(0, 1)(rng) < 0.3;
          row[c] = masked ? kNegInf : uni(-5, 5);
          any = any || !masked;
        }
        if (!any) row[pick] = uni(-5, 5);
        break;
      }
      case Fill::one_finite:
        for (std::size_t c = 0; c < x.k; ++c) row[c] = kNegInf;
        row[pick] = uni(-100, 100);
        break;
      case Fill::all_equal: {
        const float v = uni(-1000, 1000);
        for (std::size_t c = 0; c < x.k; ++c) row[c] = v;
        break;
      }
      case Fill::mixed:
        break;
    }
  }
}

// Inputs of flow_step: x >= 0 (zeros must stay exactly zero).
enum class FlowX {
  simplex,       // softmax of U[-3, 3]
  zeros,         // simplex with ~30% exact zeros (at least one positive entry per row)
  unnormalised,  // U[0, 5] with ~20% zeros: flow_step renormalises, so the sum need not be 1
  tiny,          // simplex with entries 1e-20, 1e-30 and 1e-42 (subnormal) and zeros mixed in
  one_positive,  // all zero except one entry in (0.1, 1]
};
inline constexpr FlowX kAllFlowX[] = {FlowX::simplex, FlowX::zeros, FlowX::unnormalised,
                                      FlowX::tiny, FlowX::one_positive};

inline const char* flow_x_name(FlowX f) {
  switch (f) {
    case FlowX::simplex:
      return "simplex";
    case FlowX::zeros:
      return "simplex+30%zeros";
    case FlowX::unnormalised:
      return "unnormalised[0,5]+zeros";
    case FlowX::tiny:
      return "simplex+tiny/subnormal+zeros";
    case FlowX::one_positive:
      return "one-positive(rest 0)";
  }
  return "?";
}

inline void fill_simplex_row(std::mt19937_64& rng, float* row, std::size_t k, double spread) {
  std::vector<double> e(k);
  double s = 0;
  for (auto& v : e)
    s += (v = std::exp(std::uniform_real_distribution<double>(-spread, spread)(rng)));
  for (std::size_t c = 0; c < k; ++c) row[c] = static_cast<float>(e[c] / s);
}

inline void fill_flow_x(std::mt19937_64& rng, FlowX f, Batch& x) {
  std::uniform_real_distribution<double> u01(0, 1);
  for (std::size_t r = 0; r < x.rows; ++r) {
    float* row = x.row(r);
    const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, x.k - 1)(rng);
    switch (f) {
      case FlowX::simplex:
        fill_simplex_row(rng, row, x.k, 3);
        break;
      case FlowX::zeros:
        fill_simplex_row(rng, row, x.k, 3);
        for (std::size_t c = 0; c < x.k; ++c)
          if (c != pick && u01(rng) < 0.3) row[c] = 0.0f;
        break;
      case FlowX::unnormalised:
        for (std::size_t c = 0; c < x.k; ++c)
          row[c] = (c != pick && u01(rng) < 0.2) ? 0.0f : static_cast<float>(5 * u01(rng) + 1e-3);
        break;
      case FlowX::tiny: {
        static constexpr float kTiny[] = {1e-20f, 1e-30f, 1e-42f, 0.0f};
        fill_simplex_row(rng, row, x.k, 3);
        for (std::size_t c = 0; c < x.k; ++c)
          if (c != pick && u01(rng) < 0.4)
            row[c] = kTiny[std::uniform_int_distribution<int>(0, 3)(rng)];
        break;
      }
      case FlowX::one_positive:
        for (std::size_t c = 0; c < x.k; ++c) row[c] = 0.0f;
        row[pick] = static_cast<float>(0.1 + 0.9 * u01(rng));
        break;
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Independent long-double oracle

// One row of an operation written as softmax(z): z are the exact exponent arguments (-inf for
// masked entries) and a[i] is the magnitude of the terms float code must round to form z[i] (see
// Tol).
struct RowRef {
  std::vector<ld> z;
  std::vector<ld> a;
};
using Ref = std::vector<RowRef>;

inline ld max_finite(const std::vector<ld>& z) {
  ld m = kNegInfL;
  for (ld v : z) m = std::max(m, v);
  return m;
}

inline std::vector<ld> softmax_ld(const std::vector<ld>& z) {
  const ld m = max_finite(z);
  std::vector<ld> p(z.size());
  ld s = 0;
  for (std::size_t i = 0; i < z.size(); ++i)
    s += (p[i] = (z[i] == kNegInfL) ? 0.0L : std::exp(z[i] - m));
  for (ld& v : p) v /= s;
  return p;
}

inline ld logsumexp_ld(const std::vector<ld>& z) {
  const ld m = max_finite(z);
  ld s = 0;
  for (ld v : z) s += (v == kNegInfL) ? 0.0L : std::exp(v - m);
  return m + std::log(s);
}

// Gumbel noise of element (r, c) of a call with `key`, from its documented definition.
inline ld gumbel_ld(const NoiseKey& key, std::size_t r, std::size_t c) {
  const ld u =
      noise_uniform(key.seed, key.stream, static_cast<std::uint32_t>(key.first_row + r), c);
  return -std::log(-std::log(u));
}

// softmax / log_softmax / logsumexp: z = x. a = |x - max|: float code rounds x - max (exact when x
// is near max, by Sterbenz) and exp's range reduction scales its error with the argument, so
// entries far below the max (e.g. exp(-57) with U[-50, 50] logits) are only determined to ~u |x -
// max|.
inline Ref plain_ref(const Batch& x) {
  Ref ref(x.rows);
  for (std::size_t r = 0; r < x.rows; ++r) {
    ref[r].z.resize(x.k);
    ref[r].a.assign(x.k, 0.0L);
    for (std::size_t c = 0; c < x.k; ++c) ref[r].z[c] = x.at(r, c);
    const ld m = max_finite(ref[r].z);
    for (std::size_t c = 0; c < x.k; ++c)
      if (ref[r].z[c] != kNegInfL) ref[r].a[c] = m - ref[r].z[c];
  }
  return ref;
}

// softmax(sx * x + sg * g). a = |sx x| + |sg| (|g| + 1): float code rounds sx*x, sg*g and their
// sum (errors ~u times those magnitudes), and computes g = -log(-log u) with an absolute error of a
// few u (the +1).
inline Ref scaled_gumbel_ref(const Batch& x, ld sx, ld sg, const NoiseKey& key) {
  Ref ref(x.rows);
  for (std::size_t r = 0; r < x.rows; ++r) {
    ref[r].z.resize(x.k);
    ref[r].a.resize(x.k);
    for (std::size_t c = 0; c < x.k; ++c) {
      const ld xv = x.at(r, c);
      if (xv == kNegInfL) {
        ref[r].z[c] = kNegInfL;
        ref[r].a[c] = 0;
        continue;
      }
      const ld g = gumbel_ld(key, r, c);
      ref[r].z[c] = sx * xv + sg * g;
      ref[r].a[c] = std::fabs(sx * xv) + std::fabs(sg) * (std::fabs(g) + 1);
    }
  }
  return ref;
}

// gumbel_softmax: softmax((x + g) / tau).
inline Ref gumbel_ref(const Batch& x, float tau, const NoiseKey& key) {
  return scaled_gumbel_ref(x, 1.0L / tau, 1.0L / tau, key);
}

// interpolant: softmax((x1 + g / beta) / tau).
inline Ref interpolant_ref(const Batch& x1, float tau, float beta, const NoiseKey& key) {
  return scaled_gumbel_ref(x1, 1.0L / tau, 1.0L / (ld{beta} * tau), key);
}

// flow_step: softmax(log x + delta p); x = 0 gives -inf (stays exactly 0).
// a = |log x| + |delta p| + 1: rounding of log x, of delta*p and of the sum, plus the absolute
// error of a float log near x = 1.
inline Ref flow_ref(const Batch& x, const Batch& p, float delta) {
  Ref ref(x.rows);
  for (std::size_t r = 0; r < x.rows; ++r) {
    ref[r].z.resize(x.k);
    ref[r].a.resize(x.k);
    for (std::size_t c = 0; c < x.k; ++c) {
      const ld xv = x.at(r, c);
      if (xv == 0) {
        ref[r].z[c] = kNegInfL;
        ref[r].a[c] = 0;
        continue;
      }
      const ld lx = std::log(xv), dp = ld{delta} * p.at(r, c);
      ref[r].z[c] = lx + dp;
      ref[r].a[c] = std::fabs(lx) + std::fabs(dp) + 1;
    }
  }
  return ref;
}

// ------------------------------------------------------------------------------------------------
// Tolerances
//
// Probabilities: |y - ref| <= prob_abs + rel * |ref| with, per element i of a row,
//     rel = prob_rel + arg_ulps * u * (a_i + sum_j ref_j a_j),   u = 2^-24.
//   prob_rel: 4e-6 for K < 1024. Float code rounds exp (a few ulp for a vectorised polynomial), the
//     row sum (typical error ~sqrt(K/lanes) u, worst case (K-1) u = 3.8e-6 at K = 65) and the final
//     scaling (1 ulp): a few 1e-7 in practice, 4e-6 leaves an order of magnitude.
//     2e-5 for K >= 1024: the float row sum then has >= 64 terms per SIMD lane (3125 at K = 50000,
//     16 lanes), plus the rescaling of the online (two-pass) normaliser. Measured with a float
//     emulation (uniform logits, exp(x - max) summed in float, 200 rows): 8 lanes reach 1.9e-6 and
//     16 lanes 7e-7 at K = 50000, but one sequential accumulator reaches 5e-5 and fails on purpose:
//     kernels must sum in SIMD lanes (or in double, as the reference path does).
//   The arg_ulps term is the conditioning of softmax, not slack: an error e_i in the exponent
//   argument z_i changes y_i by a factor exp(e_i - sum_j y_j e_j). Float code that forms z and
//   z - max makes e_i ~ u * a_i with a handful of roundings, a_i being the magnitude of what it
//   rounds: |x - max| for plain softmax, |scale_x x| + |scale_g| (|g| + 1) for the Gumbel ops,
//   |log x| + |delta p| + 1 for flow_step (see the oracle builders). arg_ulps = 8 allows 8 such
//   roundings (a few ulp of log/exp included). E.g. interpolant with tau = 0.1 and x1 near 100 has
//   |z| ~ 1000, so y is only determined to ~5e-4 relative in float.
//   prob_abs = 1e-30: only underflow may cost absolute accuracy (exp(x - max) below the float
//   normal range, or flushed to zero, is < 1.2e-38 and the normaliser is >= 1). Entries with ref
//   exactly 0 (-inf logits, zero x in flow_step) must be exactly 0.
// Row sums: |sum_i y_i - 1| <= 1e-6 for K <= 128, 4e-6 for 128 < K < 1024, 2e-5 for K >= 1024.
//   Argument errors cancel in the normalisation, so only the float row sum and the final scaling
//   remain; a single sequential float accumulator measured 1.1e-6 at K = 256 and 2.2e-6 at K = 511.
// Log outputs (log_softmax, logsumexp): |y - ref| <= log_abs * max(1, |ref|) + 2 u |lse|,
//   log_abs = 2e-5 for K < 1024 (log of a sum with relative error <= prob_rel), 4e-5 for
//   K >= 1024 (the looser sum). The 2 u |lse| term allows x - lse with lse rounded to float (the
//   definition in kernels.hpp): it matters only for the U[-1e4, 1e4] fill, where lse ~ 1e4 has a
//   float ulp of 1e-3. -inf inputs must give exactly -inf in log_softmax.
struct Tol {
  double prob_rel;
  double prob_abs;
  double sum;
  double log_abs;
  double arg_ulps;
};

inline Tol tolerance_for(std::size_t k) {
  if (k <= 128) return Tol{4e-6, 1e-30, 1e-6, 2e-5, 8};
  if (k < 1024) return Tol{4e-6, 1e-30, 4e-6, 2e-5, 8};
  return Tol{2e-5, 1e-30, 2e-5, 4e-5, 8};
}

inline std::string shape_string(const Batch& b) {
  std::ostringstream os;
  os << "rows=" << b.rows << " k=" << b.k << " stride=" << b.stride;
  return os.str();
}

// Compares a probability output against the oracle (and checks its padding).
inline ::testing::AssertionResult probs_match(const Batch& y, const Ref& ref, const Tol& tol) {
  std::size_t bad = 0, checked = 0;
  double worst_ratio = 0, worst_sum = 0;
  std::size_t wr = 0, wc = 0, wsr = 0;
  float wgot = 0;
  ld wwant = 0;
  double wtol = 0;
  for (std::size_t r = 0; r < y.rows; ++r) {
    const std::vector<ld> p = softmax_ld(ref[r].z);
    ld abar = 0;
    for (std::size_t c = 0; c < y.k; ++c) abar += p[c] * ref[r].a[c];
    ld sum = 0;
    for (std::size_t c = 0; c < y.k; ++c) {
      const float got = y.at(r, c);
      sum += got;
      ++checked;
      double t, ratio;
      if (ref[r].z[c] == kNegInfL) {  // must be exactly zero
        t = 0;
        ratio = (got == 0.0f) ? 0.0 : std::numeric_limits<double>::infinity();
      } else {
        const double rel =
            tol.prob_rel + tol.arg_ulps * kUnitRoundoff * static_cast<double>(ref[r].a[c] + abar);
        t = tol.prob_abs + rel * static_cast<double>(p[c]);
        const double err = static_cast<double>(std::fabs(ld{got} - p[c]));
        ratio = std::isfinite(got) ? err / t : std::numeric_limits<double>::infinity();
      }
      if (!(ratio <= 1.0)) ++bad;
      if (!(ratio <= worst_ratio)) {  // also catches NaN
        worst_ratio = std::isnan(ratio) ? std::numeric_limits<double>::infinity() : ratio;
        wr = r, wc = c, wgot = got, wwant = p[c], wtol = t;
      }
    }
    const double se = static_cast<double>(std::fabs(sum - 1));
    if (!(se <= worst_sum)) {
      worst_sum = std::isnan(se) ? std::numeric_limits<double>::infinity() : se;
      wsr = r;
    }
  }
  const bool pad_ok = y.padding_intact();
  if (bad == 0 && worst_sum <= tol.sum && pad_ok) return ::testing::AssertionSuccess();
  char msg[512];
  std::snprintf(
      msg, sizeof msg,
      "%s: %zu of %zu probabilities out of tolerance; worst at row %zu col %zu: got %.9g "
      "want %.12Lg |err|=%.3g tol=%.3g (ratio %.3g); worst |row sum - 1| = %.3g at row %zu "
      "(tol %.3g); padding %s",
      shape_string(y).c_str(), bad, checked, wr, wc, wgot, wwant,
      static_cast<double>(std::fabs(ld{wgot} - wwant)), wtol, worst_ratio, worst_sum, wsr, tol.sum,
      pad_ok ? "intact" : "OVERWRITTEN");
  return ::testing::AssertionFailure() << msg;
}

// Compares one log value against the oracle; accumulates into the running worst.
struct LogWorst {
  std::size_t bad = 0, checked = 0, r = 0, c = 0;
  double ratio = 0, tol = 0;
  float got = 0;
  ld want = 0;
  void add(std::size_t row, std::size_t col, float g, ld w, double log_abs, ld lse) {
    ++checked;
    double t = 0, q;
    if (w == kNegInfL) {
      q = (g == kNegInf) ? 0.0 : std::numeric_limits<double>::infinity();
    } else {
      t = log_abs * std::max<double>(1.0, static_cast<double>(std::fabs(w))) +
          2 * kUnitRoundoff * static_cast<double>(std::fabs(lse));
      q = std::isfinite(g) ? static_cast<double>(std::fabs(ld{g} - w)) / t
                           : std::numeric_limits<double>::infinity();
    }
    if (!(q <= 1.0)) ++bad;
    if (!(q <= ratio)) {
      ratio = std::isnan(q) ? std::numeric_limits<double>::infinity() : q;
      r = row, c = col, got = g, want = w, tol = t;
    }
  }
  ::testing::AssertionResult result(const std::string& what) const {
    if (bad == 0) return ::testing::AssertionSuccess();
    char msg[512];
    std::snprintf(msg, sizeof msg,
                  "%s: %zu of %zu values out of tolerance; worst at row %zu col %zu: got %.9g want "
                  "%.12Lg |err|=%.3g tol=%.3g (ratio %.3g)",
                  what.c_str(), bad, checked, r, c, got, want,
                  static_cast<double>(std::fabs(ld{got} - want)), tol, ratio);
    return ::testing::AssertionFailure() << msg;
  }
};

inline ::testing::AssertionResult log_probs_match(const Batch& y, const Ref& ref, const Tol& tol) {
  LogWorst w;
  for (std::size_t r = 0; r < y.rows; ++r) {
    const ld lse = logsumexp_ld(ref[r].z);
    for (std::size_t c = 0; c < y.k; ++c)
      w.add(r, c, y.at(r, c), ref[r].z[c] == kNegInfL ? kNegInfL : ref[r].z[c] - lse, tol.log_abs,
            lse);
  }
  auto res = w.result(shape_string(y));
  if (res && !y.padding_intact())
    return ::testing::AssertionFailure() << shape_string(y) << ": padding overwritten";
  return res;
}

inline ::testing::AssertionResult lse_match(const std::vector<float>& out, const Ref& ref,
                                            const Tol& tol) {
  LogWorst w;
  for (std::size_t r = 0; r < ref.size(); ++r) {
    const ld lse = logsumexp_ld(ref[r].z);
    w.add(r, 0, out[r], lse, tol.log_abs, lse);
  }
  return w.result("logsumexp over " + std::to_string(ref.size()) + " rows");
}

// ------------------------------------------------------------------------------------------------
// Shapes

struct Shape {
  std::size_t rows, k, stride_in, stride_out;
};

inline std::string shape_label(const Shape& s) {
  std::ostringstream os;
  os << "rows=" << s.rows << " k=" << s.k << " stride_in=" << s.stride_in
     << " stride_out=" << s.stride_out;
  return os.str();
}

// K just below/at/above the 4/8/16-float vector widths and their multiples, and wide rows.
inline constexpr std::size_t kWidths[] = {
    1,  2,  3,  4,   5,   7,   8,   9,   15,  16,  17,  19,  20,   21,   31,   32,   33,
    63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 4099, 50000};

// Two layouts per K: dense (stride = k) and strided with different input and output strides
// (k + 3 in, k + 1 out); row counts cycle through 1, 3, 5, 17, 33 (not multiples of 4 or 16),
// capped for wide rows to keep the long-double oracle fast.
inline std::vector<Shape> accuracy_shapes() {
  static constexpr std::size_t kRowCycle[] = {1, 3, 5, 17, 33};
  std::vector<Shape> shapes;
  std::size_t i = 0;
  for (std::size_t k : kWidths) {
    std::size_t r1 = kRowCycle[i % 5], r2 = kRowCycle[(i + 2) % 5];
    const std::size_t cap = k >= 4096 ? 3 : (k >= 512 ? 5 : 33);
    r1 = std::min(r1, cap);
    r2 = std::min(r2, cap);
    shapes.push_back({r1, k, k, k});
    shapes.push_back({r2, k, k + 3, k + 1});
    ++i;
  }
  return shapes;
}

// ------------------------------------------------------------------------------------------------
// Failure reporting: a broken kernel fails hundreds of cases; report the first few in full and then
// only count, so the log stays readable.
class Checker {
 public:
  explicit Checker(int max_reported = 8) : max_reported_(max_reported) {}
  void check(const ::testing::AssertionResult& r, const std::string& where) {
    ++total_;
    if (r) return;
    if (++failures_ <= max_reported_) ADD_FAILURE() << where << "\n  " << r.message();
  }
  // Call once at the end of the test.
  void summary(const std::string& what) const {
    if (failures_ > max_reported_)
      ADD_FAILURE() << what << ": " << failures_ << " of " << total_
                    << " cases failed (only the first " << max_reported_ << " shown)";
  }
  int failures() const { return failures_; }

 private:
  int max_reported_;
  int failures_ = 0;
  int total_ = 0;
};

}  // namespace gsflow::engine::kt
