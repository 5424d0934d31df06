// Accuracy, hostile-input, layout, shape-error and determinism tests of the softmax-family kernels
// on every instruction-set path (reference, AVX2, AVX-512, and each forced wide-row algorithm).
//
// Every path, the reference included, is compared with an independent long-double oracle
// (kernel_test_util.hpp); the tolerances and their reasons are documented there (struct Tol).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsflow/engine/kernels.hpp"
#include "gsflow/engine/philox.hpp"
#include "kernel_test_util.hpp"

namespace gsflow::engine {
namespace {

using namespace kt;  // NOLINT(build/namespaces): test-local helpers

// ------------------------------------------------------------------------------------------------
// A uniform way to call every operation, for the determinism tests.

enum class Op {
  softmax,
  log_softmax,
  logsumexp,
  gumbel_softmax,
  scaled_gumbel_softmax,
  interpolant,
  flow_step
};
constexpr Op kAllOps[] = {Op::softmax,        Op::log_softmax,           Op::logsumexp,
                          Op::gumbel_softmax, Op::scaled_gumbel_softmax, Op::interpolant,
                          Op::flow_step};
constexpr Op kGumbelOps[] = {Op::gumbel_softmax, Op::scaled_gumbel_softmax, Op::interpolant};

const char* op_label(Op op) {
  switch (op) {
    case Op::softmax:
      return "softmax";
    case Op::log_softmax:
      return "log_softmax";
    case Op::logsumexp:
      return "logsumexp";
    case Op::gumbel_softmax:
      return "gumbel_softmax";
    case Op::scaled_gumbel_softmax:
      return "scaled_gumbel_softmax";
    case Op::interpolant:
      return "interpolant";
    case Op::flow_step:
      return "flow_step";
  }
  return "?";
}

struct Params {
  float tau = 0.7f;
  float beta = 2.0f;
  float scale_x = 0.8f;
  float scale_g = 0.6f;
  float delta = 0.19f;
  NoiseKey key{0x0123456789abcdefULL, 0xfedcba9876543210ULL, 17};
};

// Runs `op`; for logsumexp the output batch has k = 1 and stride 1 (one float per row).
void run_op(const Kernels& kern, Op op, ConstRows x, ConstRows p, Rows y, const Params& a) {
  switch (op) {
    case Op::softmax:
      kern.softmax(x, y);
      break;
    case Op::log_softmax:
      kern.log_softmax(x, y);
      break;
    case Op::logsumexp:
      kern.logsumexp(x, y.data);
      break;
    case Op::gumbel_softmax:
      kern.gumbel_softmax(x, y, a.tau, a.key);
      break;
    case Op::scaled_gumbel_softmax:
      kern.scaled_gumbel_softmax(x, y, a.scale_x, a.scale_g, a.key);
      break;
    case Op::interpolant:
      kern.interpolant(x, y, a.tau, a.beta, a.key);
      break;
    case Op::flow_step:
      kern.flow_step(x, p, y, a.delta);
      break;
  }
}

Batch make_op_output(Op op, std::size_t rows, std::size_t k, std::size_t stride) {
  return op == Op::logsumexp ? make_output(rows, 1, 1) : make_output(rows, k, stride);
}

// The oracle comparison of any op's output.
::testing::AssertionResult matches_oracle(Op op, const Batch& x, const Batch& p, const Batch& y,
                                          const Params& a) {
  const Tol tol = tolerance_for(x.k);
  switch (op) {
    case Op::softmax:
      return probs_match(y, plain_ref(x), tol);
    case Op::log_softmax:
      return log_probs_match(y, plain_ref(x), tol);
    case Op::logsumexp:
      return lse_match(y.buf, plain_ref(x), tol);
    case Op::gumbel_softmax:
      return probs_match(y, gumbel_ref(x, a.tau, a.key), tol);
    case Op::scaled_gumbel_softmax:
      return probs_match(y, scaled_gumbel_ref(x, a.scale_x, a.scale_g, a.key), tol);
    case Op::interpolant:
      return probs_match(y, interpolant_ref(x, a.tau, a.beta, a.key), tol);
    case Op::flow_step:
      return probs_match(y, flow_ref(x, p, a.delta), tol);
  }
  return ::testing::AssertionFailure() << "unknown op";
}

// Inputs for `op`: logits U[-5, 5], or for flow_step x with zeros and p on the simplex.
void fill_inputs(std::mt19937_64& rng, Op op, Batch& x, Batch& p) {
  if (op == Op::flow_step) {
    fill_flow_x(rng, FlowX::zeros, x);
    for (std::size_t r = 0; r < p.rows; ++r) fill_simplex_row(rng, p.row(r), p.k, 3);
  } else {
    fill_logits(rng, Fill::uniform5, x);
  }
}

// ------------------------------------------------------------------------------------------------
// Per-path fixture

class KernelPath : public ::testing::TestWithParam<PathSpec> {
 protected:
  void SetUp() override {
    if (!isa_supported(GetParam().isa))
      GTEST_SKIP() << isa_name(GetParam().isa) << " is not supported on this CPU";
  }
  Kernels make(int threads = 1) const {
    KernelOptions o = GetParam().options;
    o.threads = threads;
    Kernels kern(o);
    // A path silently lowered to another ISA would test the wrong code.
    EXPECT_EQ(kern.isa(), GetParam().isa) << "options did not select " << GetParam().name;
    return kern;
  }
  std::string where(const std::string& what) const { return GetParam().name + " " + what; }
};

// ---- softmax / log_softmax / logsumexp against the oracle, every hostile fill and layout ----

TEST_P(KernelPath, SoftmaxMatchesLongDoubleOracle) {
  const Kernels kern = make();
  std::mt19937_64 rng(1001);
  Checker chk;
  for (Fill f : kAllFills)
    for (const Shape& s : accuracy_shapes()) {
      Batch x(s.rows, s.k, s.stride_in);
      fill_logits(rng, f, x);
      const Batch x0 = x;
      Batch y = make_output(s.rows, s.k, s.stride_out);
      kern.softmax(x.in(), y.out());
      const std::string w = where(std::string("softmax ") + fill_name(f) + " " + shape_label(s));
      chk.check(probs_match(y, plain_ref(x), tolerance_for(s.k)), w);
      chk.check(bits_equal(x, x0), w + " (input must not change)");
    }
  chk.summary("softmax");
}

// exp near the bottom of the float range, where the paths build 2^n differently (the SIMD paths
// an integer add into a table entry's exponent, with a clamp, the reference in double): rows {0, x,
// x - 0.5, -inf} with x swept from -80 to -110 in steps of 1/128 at K = 4 (lanes layout) and K = 20
// (the same four values, then -inf). Where the true probability is a normal float it must be within
// 4e-6 + 8 ulp per unit of |x| (the argument's rounding); below FLT_MIN only [0, 2 FLT_MIN] is
// allowed (subnormal or flushed, never garbage from a wrapped exponent); -inf must give exactly 0.
TEST_P(KernelPath, SoftmaxNearFloatUnderflow) {
  const Kernels kern = make();
  for (std::size_t k : {std::size_t{4}, std::size_t{20}}) {
    const std::size_t rows = 30 * 128 + 1;
    Batch x(rows, k, k, kNegInf);
    for (std::size_t r = 0; r < rows; ++r) {
      const float v = -80.0f - static_cast<float>(r) / 128.0f;  // exact in float
      x.at(r, 0) = 0.0f;
      x.at(r, 1) = v;
      x.at(r, 2) = v - 0.5f;
    }
    Batch y = make_output(rows, k, k);
    kern.softmax(x.in(), y.out());
    std::size_t bad = 0;
    std::string first;
    for (std::size_t r = 0; r < rows; ++r) {
      const ld v = x.at(r, 1);
      const ld e1 = std::exp(v), e2 = std::exp(v - 0.5L), s = 1 + e1 + e2;
      const ld want[3] = {1 / s, e1 / s, e2 / s};
      for (std::size_t c = 0; c < k; ++c) {
        const float got = y.at(r, c);
        bool ok;
        if (c >= 3) {
          ok = got == 0.0f;
        } else if (want[c] >= FLT_MIN) {
          const ld tol = (4e-6L + 8 * kUnitRoundoff * (std::fabs(v) + 1)) * want[c];
          ok = std::fabs(ld{got} - want[c]) <= tol;
        } else {
          ok = got >= 0.0f && got <= 2 * FLT_MIN;
        }
        if (!ok && bad++ == 0)
          first = "K=" + std::to_string(k) + " x=" + std::to_string(static_cast<double>(v)) +
                  " col " + std::to_string(c) + ": got " + std::to_string(got);
      }
    }
    EXPECT_EQ(bad, 0u) << where("first failure: " + first);
  }
}

TEST_P(KernelPath, LogSoftmaxMatchesLongDoubleOracle) {
  const Kernels kern = make();
  std::mt19937_64 rng(1002);
  Checker chk;
  for (Fill f : kAllFills)
    for (const Shape& s : accuracy_shapes()) {
      Batch x(s.rows, s.k, s.stride_in);
      fill_logits(rng, f, x);
      const Batch x0 = x;
      Batch y = make_output(s.rows, s.k, s.stride_out);
      kern.log_softmax(x.in(), y.out());
      const std::string w =
          where(std::string("log_softmax ") + fill_name(f) + " " + shape_label(s));
      chk.check(log_probs_match(y, plain_ref(x), tolerance_for(s.k)), w);
      chk.check(bits_equal(x, x0), w + " (input must not change)");
    }
  chk.summary("log_softmax");
}

TEST_P(KernelPath, LogSumExpMatchesLongDoubleOracle) {
  const Kernels kern = make();
  std::mt19937_64 rng(1003);
  Checker chk;
  for (Fill f : kAllFills)
    for (const Shape& s : accuracy_shapes()) {
      Batch x(s.rows, s.k, s.stride_in);
      fill_logits(rng, f, x);
      // One extra float after the rows: logsumexp must write exactly x.rows floats.
      std::vector<float> out(s.rows + 1, std::numeric_limits<float>::quiet_NaN());
      out.back() = kPad;
      kern.logsumexp(x.in(), out.data());
      const std::string w = where(std::string("logsumexp ") + fill_name(f) + " " + shape_label(s));
      EXPECT_EQ(out.back(), kPad) << w << ": wrote past out[rows - 1]";
      out.pop_back();
      chk.check(lse_match(out, plain_ref(x), tolerance_for(s.k)), w);
    }
  chk.summary("logsumexp");
}

// ---- Gumbel operations: noise recomputed by the oracle from noise_uniform ----

// Noise keys with high bits set in seed and stream and several first_row values, including the
// largest allowed (first_row + rows = 2^32).
NoiseKey key_for_case(std::size_t i, std::size_t rows) {
  NoiseKey key;
  key.seed = 0x0123456789abcdefULL + 0x10000000fULL * i;
  key.stream = 0xfedcba9876543210ULL ^ (i * 0x9e3779b97f4a7c15ULL);
  switch (i % 3) {
    case 0:
      key.first_row = 0;
      break;
    case 1:
      key.first_row = 12345;
      break;
    default:
      key.first_row = (std::uint64_t{1} << 32) - rows;
      break;
  }
  return key;
}

std::string key_label(const NoiseKey& key) {
  std::ostringstream os;
  os << std::hex << "seed=0x" << key.seed << " stream=0x" << key.stream << std::dec
     << " first_row=" << key.first_row;
  return os.str();
}

TEST_P(KernelPath, GumbelSoftmaxMatchesLongDoubleOracle) {
  const Kernels kern = make();
  std::mt19937_64 rng(1004);
  // tau = 10 (tau_max), 1, 0.5 and 0.05 (near one-hot: exponent arguments up to 20x the logits).
  static constexpr float kTaus[] = {1.0f, 0.5f, 0.05f, 10.0f};
  Checker chk;
  std::size_t i = 0;
  for (Fill f : kAllFills)
    for (const Shape& s : accuracy_shapes()) {
      const float tau = kTaus[i % 4];
      const NoiseKey key = key_for_case(i++, s.rows);
      Batch x(s.rows, s.k, s.stride_in);
      fill_logits(rng, f, x);
      const Batch x0 = x;
      Batch y = make_output(s.rows, s.k, s.stride_out);
      kern.gumbel_softmax(x.in(), y.out(), tau, key);
      const std::string w =
          where(std::string("gumbel_softmax ") + fill_name(f) + " " + shape_label(s) +
                " tau=" + std::to_string(tau) + " " + key_label(key));
      chk.check(probs_match(y, gumbel_ref(x, tau, key), tolerance_for(s.k)), w);
      chk.check(bits_equal(x, x0), w + " (input must not change)");
    }
  chk.summary("gumbel_softmax");
}

TEST_P(KernelPath, ScaledGumbelSoftmaxMatchesLongDoubleOracle) {
  const Kernels kern = make();
  std::mt19937_64 rng(1005);
  // (scale_x, scale_g): plain Gumbel, small scales, pure noise (scale_x = 0; skipped for -inf
  // logits, where 0 * -inf is NaN by definition) and no noise (scale_g = 0).
  struct Scales {
    float sx, sg;
  };
  static constexpr Scales kScales[] = {{1.0f, 1.0f}, {0.1f, 0.05f}, {0.0f, 1.0f}, {2.5f, 0.0f}};
  Checker chk;
  std::size_t i = 0;
  for (Fill f : kAllFills)
    for (const Shape& s : accuracy_shapes()) {
      Scales sc = kScales[i % 4];
      if (sc.sx == 0.0f && fill_has_neg_inf(f)) sc = kScales[0];
      const NoiseKey key = key_for_case(i++, s.rows);
      Batch x(s.rows, s.k, s.stride_in);
      fill_logits(rng, f, x);
      Batch y = make_output(s.rows, s.k, s.stride_out);
      kern.scaled_gumbel_softmax(x.in(), y.out(), sc.sx, sc.sg, key);
      const std::string w = where(std::string("scaled_gumbel_softmax ") + fill_name(f) + " " +
                                  shape_label(s) + " scale_x=" + std::to_string(sc.sx) +
                                  " scale_g=" + std::to_string(sc.sg) + " " + key_label(key));
      chk.check(probs_match(y, scaled_gumbel_ref(x, sc.sx, sc.sg, key), tolerance_for(s.k)), w);
    }
  chk.summary("scaled_gumbel_softmax");
}

TEST_P(KernelPath, InterpolantMatchesLongDoubleOracle) {
  const Kernels kern = make();
  std::mt19937_64 rng(1006);
  // tau(t) of method.md section 1 at t = 0, 0.5, 1 (10, 2.23, 0.498) and a sharp 0.1; beta = 2
  // (default) and 0.5.
  static constexpr float kTaus[] = {10.0f, 2.231302f, 0.4978707f, 0.1f};
  static constexpr float kBetas[] = {2.0f, 0.5f, 2.0f};
  Checker chk;
  std::size_t i = 0;
  for (Fill f : kAllFills)
    for (const Shape& s : accuracy_shapes()) {
      const float tau = kTaus[i % 4], beta = kBetas[i % 3];
      const NoiseKey key = key_for_case(i++, s.rows);
      Batch x(s.rows, s.k, s.stride_in);
      fill_logits(rng, f, x);
      Batch y = make_output(s.rows, s.k, s.stride_out);
      kern.interpolant(x.in(), y.out(), tau, beta, key);
      const std::string w = where(std::string("interpolant ") + fill_name(f) + " " +
                                  shape_label(s) + " tau=" + std::to_string(tau) +
                                  " beta=" + std::to_string(beta) + " " + key_label(key));
      chk.check(probs_match(y, interpolant_ref(x, tau, beta, key), tolerance_for(s.k)), w);
    }
  chk.summary("interpolant");
}

// The interpolant on clean one-hot data x1 = e_k (the training-time use).
TEST_P(KernelPath, InterpolantOnOneHotRows) {
  const Kernels kern = make();
  std::mt19937_64 rng(1007);
  Checker chk;
  for (std::size_t k : {4, 20, 21, 160}) {
    Batch x1(33, k, k);
    for (std::size_t r = 0; r < x1.rows; ++r)
      x1.at(r, std::uniform_int_distribution<std::size_t>(0, k - 1)(rng)) = 1.0f;
    for (float tau : {10.0f, 0.4978707f}) {
      const NoiseKey key{99, 5, 1000};
      Batch y = make_output(x1.rows, k, k);
      kern.interpolant(x1.in(), y.out(), tau, 2.0f, key);
      chk.check(
          probs_match(y, interpolant_ref(x1, tau, 2.0f, key), tolerance_for(k)),
          where("interpolant one-hot k=" + std::to_string(k) + " tau=" + std::to_string(tau)));
    }
  }
  chk.summary("interpolant one-hot");
}

// ---- flow_step ----

TEST_P(KernelPath, FlowStepMatchesLongDoubleOracle) {
  const Kernels kern = make();
  std::mt19937_64 rng(1008);
  // delta: one step of the default schedule is ~0.01-0.19; 1.9 is the whole run; 20 is hostile.
  static constexpr float kDeltas[] = {0.01f, 0.19f, 1.9f, 20.0f};
  Checker chk;
  std::size_t i = 0;
  for (FlowX fx : kAllFlowX)
    for (const Shape& s : accuracy_shapes()) {
      const float delta = kDeltas[i % 4];
      const bool p_simplex = (i++ % 2) == 0;  // otherwise p in U[-3, 3] (e.g. guidance terms)
      Batch x(s.rows, s.k, s.stride_in), p(s.rows, s.k, s.stride_in + 2);
      fill_flow_x(rng, fx, x);
      for (std::size_t r = 0; r < s.rows; ++r) {
        if (p_simplex) {
          fill_simplex_row(rng, p.row(r), s.k, 3);
        } else {
          for (std::size_t c = 0; c < s.k; ++c)
            p.at(r, c) = static_cast<float>(std::uniform_real_distribution<double>(-3, 3)(rng));
        }
      }
      const Batch x0 = x, p0 = p;
      Batch y = make_output(s.rows, s.k, s.stride_out);
      kern.flow_step(x.in(), p.in(), y.out(), delta);
      const std::string w = where(std::string("flow_step x=") + flow_x_name(fx) +
                                  (p_simplex ? " p=simplex " : " p=U[-3,3] ") + shape_label(s) +
                                  " delta=" + std::to_string(delta));
      // Zero entries of x must stay exactly 0: the oracle marks them -inf, checked exactly.
      chk.check(probs_match(y, flow_ref(x, p, delta), tolerance_for(s.k)), w);
      chk.check(bits_equal(x, x0), w + " (x must not change)");
      chk.check(bits_equal(p, p0), w + " (p must not change)");
    }
  chk.summary("flow_step");
}

// ---- in place (y aliases x exactly) ----

TEST_P(KernelPath, InPlaceMatchesOracle) {
  const Kernels kern = make();
  std::mt19937_64 rng(1009);
  Checker chk;
  const Op ops[] = {Op::softmax,     Op::log_softmax,           Op::gumbel_softmax,
                    Op::interpolant, Op::scaled_gumbel_softmax, Op::flow_step};
  // Strided rows, and dense ones at K = 4 and 20, whose SIMD loops re-read x for log-softmax's
  // outputs after writing earlier rows of y.
  struct Case {
    std::size_t k, pad;
  };
  std::vector<Case> cases;
  for (std::size_t k : {1, 3, 4, 5, 16, 17, 20, 33, 65, 257, 1024, 50000}) cases.push_back({k, 3});
  cases.push_back({4, 0});
  cases.push_back({20, 0});
  for (Op op : ops)
    for (const Case& c : cases)
      for (Fill f : {Fill::uniform5, Fill::shift90, Fill::neg_inf, Fill::mixed}) {
        const std::size_t k = c.k, rows = k >= 1024 ? 3 : 41;
        if (f == Fill::mixed && k > 64) continue;  // kept and redone rows: the lanes layout
        Params a;
        Batch x(rows, k, k + c.pad), p(rows, k, k);
        if (op == Op::flow_step) {
          fill_flow_x(rng, FlowX::zeros, x);
          for (std::size_t r = 0; r < rows; ++r) fill_simplex_row(rng, p.row(r), k, 3);
        } else {
          fill_logits(rng, f, x);
        }
        const Batch x0 = x;  // the oracle reads the original input
        run_op(kern, op, x.in(), p.in(), x.out(), a);
        chk.check(matches_oracle(op, x0, p, x, a),
                  where(std::string("in-place ") + op_label(op) + " " + fill_name(f) +
                        " rows=" + std::to_string(rows) + " k=" + std::to_string(k) +
                        " stride=" + std::to_string(k + c.pad)));
        if (op == Op::flow_step) break;  // flow inputs do not depend on the fill
      }
  chk.summary("in place");
}

// ---- Many rows: several-rows-per-register layouts with a remainder, dense (the SIMD paths have
// K = 4 and K = 20 loops of their own for it) and strided ----

TEST_P(KernelPath, ManyRowsMatchOracle) {
  const Kernels kern = make();
  std::mt19937_64 rng(1010);
  Checker chk;
  for (Op op : kAllOps)
    for (std::size_t k : {1, 2, 3, 4, 5, 8, 16, 20})
      for (std::size_t rows : {63, 65, 1001})
        for (std::size_t pad : {0, 3}) {
          Params a;
          Batch x(rows, k, k + pad), p(rows, k, k + pad / 2);
          fill_inputs(rng, op, x, p);
          Batch y = make_op_output(op, rows, k, k + pad / 3);
          run_op(kern, op, x.in(), p.in(), y.out(), a);
          chk.check(matches_oracle(op, x, p, y, a),
                    where(std::string(op_label(op)) + " rows=" + std::to_string(rows) +
                          " k=" + std::to_string(k) + " pad=" + std::to_string(pad)));
        }
  chk.summary("many rows");
}

// ---- Shape errors ----

TEST_P(KernelPath, ShapeErrorsThrowInvalidArgument) {
  const Kernels kern = make();
  // Buffers large enough that a kernel that fails to throw still stays in bounds.
  std::vector<float> xb(8 * 32, 0.5f), yb(8 * 32, 0.0f), pb(8 * 32, 0.25f);
  const NoiseKey key{1, 2, 3};
  const ConstRows x{xb.data(), 4, 5, 8};
  const ConstRows p{pb.data(), 4, 5, 8};
  const Rows y{yb.data(), 4, 5, 8};
  std::vector<float> out(8);

  auto all_ops = [&](ConstRows xi, ConstRows pi, Rows yi) {
    // Calls every (x, y) operation with the given shapes; returns how many threw invalid_argument.
    int threw = 0;
    auto count = [&](auto&& f) {
      try {
        f();
      } catch (const std::invalid_argument&) {
        ++threw;
      }
    };
    count([&] { kern.softmax(xi, yi); });
    count([&] { kern.log_softmax(xi, yi); });
    count([&] { kern.gumbel_softmax(xi, yi, 1.0f, key); });
    count([&] { kern.scaled_gumbel_softmax(xi, yi, 1.0f, 1.0f, key); });
    count([&] { kern.interpolant(xi, yi, 1.0f, 2.0f, key); });
    count([&] { kern.flow_step(xi, pi, yi, 0.1f); });
    return threw;
  };
  // Control: valid shapes do not throw.
  EXPECT_EQ(all_ops(x, p, y), 0);
  EXPECT_NO_THROW(kern.logsumexp(x, out.data()));

  const int kOps = 6;
  EXPECT_EQ(all_ops(x, p, Rows{yb.data(), 3, 5, 8}), kOps) << "x.rows != y.rows";
  EXPECT_EQ(all_ops(x, p, Rows{yb.data(), 4, 6, 8}), kOps) << "x.k != y.k";
  EXPECT_EQ(all_ops(ConstRows{xb.data(), 4, 5, 4}, p, Rows{yb.data(), 4, 5, 8}), kOps)
      << "x.stride < x.k";
  EXPECT_EQ(all_ops(x, p, Rows{yb.data(), 4, 5, 4}), kOps) << "y.stride < y.k";
  EXPECT_EQ(all_ops(ConstRows{nullptr, 4, 5, 8}, p, y), kOps) << "x.data == nullptr";
  EXPECT_EQ(all_ops(x, p, Rows{nullptr, 4, 5, 8}), kOps) << "y.data == nullptr";

  EXPECT_THROW(kern.flow_step(x, ConstRows{pb.data(), 3, 5, 8}, y, 0.1f), std::invalid_argument)
      << "p.rows != x.rows";
  EXPECT_THROW(kern.flow_step(x, ConstRows{pb.data(), 4, 6, 8}, y, 0.1f), std::invalid_argument)
      << "p.k != x.k";
  EXPECT_THROW(kern.flow_step(x, ConstRows{pb.data(), 4, 5, 3}, y, 0.1f), std::invalid_argument)
      << "p.stride < p.k";
  EXPECT_THROW(kern.flow_step(x, ConstRows{nullptr, 4, 5, 8}, y, 0.1f), std::invalid_argument)
      << "p.data == nullptr";

  EXPECT_THROW(kern.logsumexp(ConstRows{xb.data(), 4, 5, 4}, out.data()), std::invalid_argument)
      << "logsumexp x.stride < x.k";
  EXPECT_THROW(kern.logsumexp(ConstRows{nullptr, 4, 5, 8}, out.data()), std::invalid_argument)
      << "logsumexp x.data == nullptr";

  // An empty batch is valid: null data with rows = 0 is not an error.
  EXPECT_EQ(
      all_ops(ConstRows{nullptr, 0, 5, 5}, ConstRows{nullptr, 0, 5, 5}, Rows{nullptr, 0, 5, 5}), 0);
}

// ---- Determinism ----

// threads = 1, 2 and 3 give bit-identical outputs for every op (1000 rows, so the split matters;
// also 1 and 2 rows, fewer than the threads).
TEST_P(KernelPath, ThreadCountDoesNotChangeBits) {
  const Kernels k1 = make(1), k2 = make(2), k3 = make(3);
  std::mt19937_64 rng(1011);
  Checker chk;
  struct Case {
    std::size_t rows, k;
  };
  for (Op op : kAllOps)
    for (Case c : {Case{1000, 4}, Case{1000, 20}, Case{1000, 33}, Case{1000, 1024}, Case{16, 50000},
                   Case{1, 20}, Case{2, 7}}) {  // fewer rows than threads too
      Params a;
      Batch x(c.rows, c.k, c.k + 1), p(c.rows, c.k, c.k);
      fill_inputs(rng, op, x, p);
      Batch y1 = make_op_output(op, c.rows, c.k, c.k), y2 = y1, y3 = y1;
      run_op(k1, op, x.in(), p.in(), y1.out(), a);
      run_op(k2, op, x.in(), p.in(), y2.out(), a);
      run_op(k3, op, x.in(), p.in(), y3.out(), a);
      const std::string w = where(std::string(op_label(op)) + " rows=" + std::to_string(c.rows) +
                                  " k=" + std::to_string(c.k));
      chk.check(bits_equal(y1, y2), w + " threads=1 vs threads=2");
      chk.check(bits_equal(y1, y3), w + " threads=1 vs threads=3");
      if (c.k <= 33) chk.check(matches_oracle(op, x, p, y1, a), w + " threads=1 vs oracle");
    }
  chk.summary("threads");
}

// A row's bits depend on its own values only. In the lanes layout (K = 4..64) a row keeps its
// unshifted sums or is redone with its maximum subtracted, whatever its neighbours need: every row
// of a batch mixing both kinds must equal the same row computed alone.
TEST_P(KernelPath, RowBitsDoNotDependOnNeighbours) {
  const Kernels kern = make(1);
  std::mt19937_64 rng(1013);
  Checker chk;
  for (Op op : kAllOps)
    for (std::size_t k : {4, 8, 20, 64, 33}) {
      const std::size_t rows = 301;
      Params a;
      Batch x(rows, k, k + 1), p(rows, k, k);
      fill_inputs(rng, op, x, p);
      if (op == Op::flow_step) {
        // Far from the simplex, so that z = log x + delta p leaves the bounds: x 1e-12 (sum of
        // exp below 2^-20) and 1e35 (above 2^100).
        for (std::size_t r = 0; r < rows; r += 3)
          for (std::size_t c = 0; c < k; ++c) x.at(r, c) *= r % 2 ? 1e-12f : 1e35f;
      } else {
        fill_logits(rng, Fill::mixed, x);
      }
      Batch whole = make_op_output(op, rows, k, k);
      run_op(kern, op, x.in(), p.in(), whole.out(), a);
      const std::size_t width = op == Op::logsumexp ? 1 : k;
      std::size_t bad = 0, first_bad = 0;
      for (std::size_t r = 0; r < rows; ++r) {
        Params b = a;
        b.key.first_row = a.key.first_row + r;
        Batch one = make_op_output(op, 1, k, k);
        run_op(kern, op, x.in_rows(r, 1), p.in_rows(r, 1), one.out(), b);
        if (std::memcmp(one.row(0), whole.row(r), width * sizeof(float)) != 0 && bad++ == 0)
          first_bad = r;
      }
      chk.check(bad == 0
                    ? ::testing::AssertionSuccess()
                    : ::testing::AssertionFailure() << bad << " rows differ, first " << first_bad,
                where(std::string(op_label(op)) + " k=" + std::to_string(k) + " whole vs alone"));
      chk.check(matches_oracle(op, x, p, whole, a),
                where(std::string(op_label(op)) + " k=" + std::to_string(k) + " vs oracle"));
    }
  chk.summary("neighbours");
}

// A NaN input makes its whole row NaN (every output, or the row's logsumexp), as the double
// reference does, and leaves the other rows finite. (Until 2026-12-05 the SIMD exp clamped NaN to
// its floor, so a NaN logit quietly got probability 0 there.)
TEST_P(KernelPath, NanInputMakesItsRowNan) {
  const Kernels kern = make(1);
  std::mt19937_64 rng(1015);
  Checker chk;
  for (Op op : kAllOps)
    for (std::size_t k : {4, 20, 33, 1000}) {
      const std::size_t rows = 37;
      Params a;
      Batch x(rows, k, k), p(rows, k, k);
      fill_inputs(rng, op, x, p);
      for (std::size_t r = 2; r < rows; r += 5) x.at(r, r % k) = std::nanf("");
      Batch y = make_op_output(op, rows, k, k);
      run_op(kern, op, x.in(), p.in(), y.out(), a);
      const std::size_t width = op == Op::logsumexp ? 1 : k;
      std::size_t bad = 0, first_bad = 0;
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < width; ++c)
          if (std::isnan(y.row(r)[c]) != (r % 5 == 2) && bad++ == 0) first_bad = r;
      chk.check(bad == 0 ? ::testing::AssertionSuccess()
                         : ::testing::AssertionFailure()
                               << bad << " outputs wrong, first in row " << first_bad,
                where(std::string(op_label(op)) + " k=" + std::to_string(k)));
    }
  chk.summary("nan");
}

// Splitting a batch into several calls with NoiseKey.first_row adjusted gives the same bits as one
// call: the noise depends on the global row only.
TEST_P(KernelPath, GumbelBatchSplitIsBitIdentical) {
  const Kernels kern = make(1), kern2 = make(2);
  std::mt19937_64 rng(1012);
  Checker chk;
  struct Case {
    std::size_t rows, k;
  };
  for (Op op : kGumbelOps)
    for (Case c : {Case{1000, 5}, Case{1000, 20}, Case{200, 1024}}) {
      Params a;
      a.key = NoiseKey{0xabcdef0123456789ULL, 0x0000000700000003ULL, 4000000000ULL};
      Batch x(c.rows, c.k, c.k + 3), p;
      fill_logits(rng, Fill::uniform5, x);
      Batch whole = make_output(c.rows, c.k, c.k + 1);
      run_op(kern, op, x.in(), p.in(), whole.out(), a);
      Batch parts = make_output(c.rows, c.k, c.k + 1);
      const std::size_t cuts[] = {0, 1, c.rows * 3 / 8 + 1, c.rows / 2 + 3, c.rows};
      for (std::size_t i = 0; i + 1 < std::size(cuts); ++i) {
        const std::size_t first = cuts[i], n = cuts[i + 1] - cuts[i];
        Params b = a;
        b.key.first_row = a.key.first_row + first;
        // Alternate thread counts between parts: neither may matter.
        run_op(i % 2 ? kern2 : kern, op, x.in_rows(first, n), p.in(), parts.out_rows(first, n), b);
      }
      chk.check(bits_equal(whole, parts),
                where(std::string(op_label(op)) + " rows=" + std::to_string(c.rows) +
                      " k=" + std::to_string(c.k) + " split into 4 calls"));
    }
  chk.summary("batch split");
}

// Same key twice: identical. Any change of seed, stream (low or high 32 bits) or first_row:
// different.
TEST_P(KernelPath, GumbelSeedsAndStreamsSelectTheNoise) {
  const Kernels kern = make();
  std::mt19937_64 rng(1013);
  const std::size_t rows = 200, k = 20;
  Batch x(rows, k, k), p;
  fill_logits(rng, Fill::uniform5, x);
  const NoiseKey base{0x1234567890abcdefULL, 0x00000002deadbeefULL, 100};
  for (Op op : kGumbelOps) {
    Params a;
    a.key = base;
    Batch y0 = make_output(rows, k, k), y1 = y0;
    run_op(kern, op, x.in(), p.in(), y0.out(), a);
    run_op(kern, op, x.in(), p.in(), y1.out(), a);
    EXPECT_TRUE(bits_equal(y0, y1)) << where(op_label(op)) << ": same key twice";

    struct Variant {
      const char* what;
      NoiseKey key;
    };
    const Variant variants[] = {
        {"seed + 1", {base.seed + 1, base.stream, base.first_row}},
        {"seed high word", {base.seed ^ (std::uint64_t{1} << 40), base.stream, base.first_row}},
        {"stream + 1", {base.seed, base.stream + 1, base.first_row}},
        {"stream high word", {base.seed, base.stream ^ (std::uint64_t{1} << 40), base.first_row}},
        {"first_row + 1", {base.seed, base.stream, base.first_row + 1}},
    };
    for (const Variant& v : variants) {
      Params b = a;
      b.key = v.key;
      Batch y2 = make_output(rows, k, k);
      run_op(kern, op, x.in(), p.in(), y2.out(), b);
      std::size_t same = 0;
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < k; ++c) same += (y0.at(r, c) == y2.at(r, c));
      // Independent noise makes equal floats rare; 1% allows chance coincidences.
      EXPECT_LT(same, rows * k / 100)
          << where(op_label(op)) << ": " << v.what << " left the output unchanged";
      EXPECT_TRUE(matches_oracle(op, x, p, y2, b)) << where(op_label(op)) << ": " << v.what;
    }
  }
}

// ---- Names ----

TEST_P(KernelPath, KernelNameNamesPathAndOp) {
  const Kernels kern = make();
  const std::string isa_token = GetParam().isa == Isa::reference ? "ref"
                                : GetParam().isa == Isa::avx2    ? "avx2"
                                                                 : "avx512";
  for (KernelOp op : {KernelOp::softmax, KernelOp::log_softmax, KernelOp::logsumexp,
                      KernelOp::gumbel_softmax, KernelOp::flow_step})
    for (std::size_t k : {1, 4, 5, 16, 20, 64, 1024, 50000}) {
      const std::string name = kern.kernel_name(op, k);
      SCOPED_TRACE(
          where(std::string(op_name(op)) + " k=" + std::to_string(k) + " -> \"" + name + "\""));
      EXPECT_FALSE(name.empty());
      EXPECT_NE(name.find(isa_token), std::string::npos) << "name lacks " << isa_token;
      if (GetParam().isa == Isa::avx2) {
        EXPECT_EQ(name.find("avx512"), std::string::npos);
      }
      EXPECT_NE(name.find(op_name(op)), std::string::npos) << "name lacks the op name";
      EXPECT_EQ(kernel_name_revision(name),
                kernel_name_revision(kern.kernel_name(KernelOp::softmax, 4)))
          << "one path, one revision";
      EXPECT_TRUE(kernel_name_revision(name)) << "name lacks the revision";
    }
}

INSTANTIATE_TEST_SUITE_P(Paths, KernelPath, ::testing::ValuesIn(all_paths()), path_param_name);

// ------------------------------------------------------------------------------------------------
// Path-independent checks

TEST(KernelsBasics, RevisionOfAKernelName) {
  EXPECT_EQ(kernel_name_revision("softmax_f32_avx512_k4_r1"), 1);
  EXPECT_EQ(kernel_name_revision("flow_step_f32_avx2_rows_3pass_r12"), 12);
  // Names recorded before revisions: "_ref" and "_rows_..." are not revisions.
  EXPECT_EQ(kernel_name_revision("softmax_f32_ref"), std::nullopt);
  EXPECT_EQ(kernel_name_revision("softmax_f32_avx2_rows_3pass"), std::nullopt);
  EXPECT_EQ(kernel_name_revision("softmax_f32_avx2_k4"), std::nullopt);
  EXPECT_EQ(kernel_name_revision("softmax_f32_avx2_k4_r"), std::nullopt);
}

TEST(KernelsBasics, IsaNamesAndSupport) {
  EXPECT_STREQ(isa_name(Isa::avx2), "avx2");
  EXPECT_STREQ(isa_name(Isa::avx512), "avx512");
  EXPECT_NE(std::string(isa_name(Isa::reference)).find("ref"), std::string::npos);
  EXPECT_TRUE(isa_supported(Isa::reference));
  EXPECT_TRUE(isa_supported(detect_best_isa()));
  if (detect_best_isa() == Isa::avx512) {
    EXPECT_TRUE(isa_supported(Isa::avx2));
  }
  // Default options allow AVX-512, lowered to the best the CPU supports.
  EXPECT_EQ(Kernels().isa(), detect_best_isa());
  EXPECT_GE(Kernels().threads(), 1);
  std::printf("detect_best_isa() = %s; supported: avx2=%d avx512=%d\n", isa_name(detect_best_isa()),
              isa_supported(Isa::avx2), isa_supported(Isa::avx512));
}

TEST(KernelsBasics, OpNamesAreDistinct) {
  const KernelOp ops[] = {KernelOp::softmax, KernelOp::log_softmax, KernelOp::logsumexp,
                          KernelOp::gumbel_softmax, KernelOp::flow_step};
  for (KernelOp a : ops) {
    EXPECT_GT(std::string(op_name(a)).size(), 0u);
    for (KernelOp b : ops)
      if (a != b) {
        EXPECT_STRNE(op_name(a), op_name(b));
      }
  }
}

// Dense batches with at least 1 MiB of x take software prefetches in the lanes loop of the SIMD
// paths (kPrefetchMinBytes in engine/src/kernels/simd_softmax.hpp), smaller ones do not. A
// prefetch is a hint only: the whole batch must give the bits of the same rows computed in pieces
// below the threshold (the pieces' path is the one the oracle tests check).
TEST(KernelsPrefetch, LargeBatchMatchesPieces) {
  std::mt19937_64 rng(1014);
  Checker chk;
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    if (!isa_supported(isa)) continue;  // the CPU lacks it; so does every run of gsflow there
    KernelOptions o;
    o.isa = isa;
    o.threads = 1;
    const Kernels kern(o);
    for (Op op : kAllOps)
      for (std::size_t k : {4, 12, 20}) {
        const std::size_t rows = (std::size_t{1} << 20) / (k * sizeof(float)) + 3, piece = 4096;
        Params a;
        Batch x(rows, k, k), p(rows, k, k);
        fill_inputs(rng, op, x, p);
        Batch whole = make_op_output(op, rows, k, k), parts = whole;
        run_op(kern, op, x.in(), p.in(), whole.out(), a);
        for (std::size_t first = 0; first < rows; first += piece) {
          const std::size_t n = std::min(piece, rows - first);
          Params b = a;
          b.key.first_row = a.key.first_row + first;
          run_op(kern, op, x.in_rows(first, n), p.in_rows(first, n), parts.out_rows(first, n), b);
        }
        const std::string what = std::string(op_label(op)) + " k=" + std::to_string(k);
        chk.check(bits_equal(whole, parts), std::string(isa_name(isa)) + " " + what);
      }
  }
  chk.summary("prefetch");
}

// consistent = true forces the reference path whatever isa and threads say, bit for bit.
TEST(KernelsBasics, ConsistentModeIgnoresIsaAndThreads) {
  KernelOptions plain;
  plain.consistent = true;
  const Kernels ref(plain);
  EXPECT_EQ(ref.isa(), Isa::reference);
  std::mt19937_64 rng(1014);
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    KernelOptions o;
    o.consistent = true;
    o.isa = isa;
    o.threads = 2;
    const Kernels other(o);
    EXPECT_EQ(other.isa(), Isa::reference);
    EXPECT_NE(other.kernel_name(KernelOp::softmax, 20).find("ref"), std::string::npos);
    for (Op op : kAllOps) {
      Params a;
      Batch x(500, 21, 21), p(500, 21, 21);
      fill_inputs(rng, op, x, p);
      Batch y0 = make_op_output(op, 500, 21, 21), y1 = y0;
      run_op(ref, op, x.in(), p.in(), y0.out(), a);
      run_op(other, op, x.in(), p.in(), y1.out(), a);
      EXPECT_TRUE(bits_equal(y0, y1)) << op_label(op) << " consistent isa=" << isa_name(isa);
    }
  }
}

TEST(KernelsBasics, MovedKernelsStillWork) {
  Kernels a;
  const Isa isa = a.isa();
  Kernels b(std::move(a));
  EXPECT_EQ(b.isa(), isa);
  Kernels c;
  c = std::move(b);
  std::mt19937_64 rng(1015);
  Batch x(5, 7, 7);
  fill_logits(rng, Fill::uniform5, x);
  Batch y = make_output(5, 7, 7);
  c.softmax(x.in(), y.out());
  EXPECT_TRUE(probs_match(y, plain_ref(x), tolerance_for(7)));
}

}  // namespace
}  // namespace gsflow::engine
