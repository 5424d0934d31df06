// Outputs of 8 MiB and more are written with non-temporal stores (after peeling rows up to
// register alignment). The store instruction must not change a single bit: a large call must equal
// the same rows computed in small calls, which never stream, for every op, ISA and alignment.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gsflow/engine/kernels.hpp"

namespace gsflow::engine {
namespace {

enum class Op { softmax, log_softmax, gumbel, flow };

// Runs `op` on rows [r0, r0 + n) of the batch, writing into y (same row layout as x).
void run(const Kernels& kern, Op op, const float* x, const float* p, float* y, std::size_t r0,
         std::size_t n, std::size_t k) {
  const ConstRows xr{x + r0 * k, n, k, k};
  const Rows yr{y + r0 * k, n, k, k};
  switch (op) {
    case Op::softmax:
      return kern.softmax(xr, yr);
    case Op::log_softmax:
      return kern.log_softmax(xr, yr);
    case Op::gumbel:
      return kern.gumbel_softmax(xr, yr, 0.7f, {.seed = 3, .stream = 9, .first_row = r0});
    case Op::flow:
      return kern.flow_step({p + r0 * k, n, k, k}, xr, yr, 0.3f);
  }
}

TEST(KernelStreaming, LargeOutputsAreBitIdenticalToSmallCalls) {
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    ASSERT_TRUE(isa_supported(isa)) << isa_name(isa);
    const Kernels kern(KernelOptions{.isa = isa});
    for (std::size_t k : {4, 20}) {
      // 8.4 MiB of output plus an odd row count; offsets of 0, 1 and 4 floats move the output
      // start off 64-byte alignment (peel 1-3 rows), off 16-byte alignment (no streaming) and
      // onto another 16-byte phase.
      const std::size_t rows = (std::size_t{9} << 20) / (k * sizeof(float)) / 4 * 4 + 3;
      std::mt19937 rng(11);
      std::uniform_real_distribution<float> logit(-8.0f, 8.0f);
      std::vector<float> x(rows * k), p(rows * k);
      for (auto& v : x) v = logit(rng);
      for (std::size_t r = 0; r < rows; ++r) {  // p rows on the simplex, for the flow step's x
        float s = 0;
        for (std::size_t c = 0; c < k; ++c) s += (p[r * k + c] = std::exp(logit(rng) / 4));
        for (std::size_t c = 0; c < k; ++c) p[r * k + c] /= s;
      }
      for (std::size_t offset : {0, 1, 4}) {
        for (Op op : {Op::softmax, Op::log_softmax, Op::gumbel, Op::flow}) {
          std::vector<float> big(rows * k + 16), small(rows * k + 16);
          float* yb = big.data() + offset;
          float* ys = small.data() + offset;
          // The flow step's state is p (a distribution) and its direction is x.
          const float* in = op == Op::flow ? p.data() : x.data();
          const float* dir = op == Op::flow ? x.data() : nullptr;
          run(kern, op, in, dir, yb, 0, rows, k);
          constexpr std::size_t kChunk = 1000;  // 16-80 KB per call: never streamed
          for (std::size_t r0 = 0; r0 < rows; r0 += kChunk)
            run(kern, op, in, dir, ys, r0, std::min(kChunk, rows - r0), k);
          ASSERT_EQ(0, std::memcmp(yb, ys, rows * k * sizeof(float)))
              << isa_name(isa) << " k=" << k << " offset=" << offset
              << " op=" << static_cast<int>(op);
        }
      }
    }
  }
}

}  // namespace
}  // namespace gsflow::engine
