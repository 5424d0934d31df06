// Internal kernel ABI: every operation has the same raw signature over a block of rows, so the
// dispatcher can split any op across threads by adjusting pointers and the noise row offset.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gsflow/engine/kernels.hpp"

namespace gsflow::engine::kernels {

// Arguments of one call on a block of rows. Unused members are ignored by an op. Nothing is
// allocated or thrown inside a kernel; preconditions are asserted.
struct RowArgs {
  const float* x = nullptr;  // input rows (logits, x1, or the current state x)
  std::size_t ldx = 0;
  const float* p = nullptr;  // second input rows (flow_step: the denoiser's probabilities)
  std::size_t ldp = 0;
  float* y = nullptr;  // output rows (logsumexp: one float per row)
  std::size_t ldy = 0;
  std::size_t rows = 0;
  std::size_t k = 0;
  float a = 1.0f;  // gumbel: scale of x; flow_step: delta
  float b = 1.0f;  // gumbel: scale of the noise
  std::uint64_t seed = 0;
  std::uint64_t stream = 0;
  std::uint64_t first_row = 0;  // global row index of row 0 (noise counter)
  WideAlgorithm wide = WideAlgorithm::automatic;
};

using RowKernel = void (*)(const RowArgs&);

inline constexpr int kOpCount = 5;

struct KernelTable {
  Isa isa;
  RowKernel op[kOpCount];  // indexed by KernelOp
  // Layout suffix naming the variant that handles width k ("k4", "lanes", "rows_3pass", ...;
  // empty for the reference, which has one layout).
  const char* (*layout)(std::size_t k, WideAlgorithm wide);
  // Revision of the path's output bits, part of every kernel name ("_r1"), so that a stored run
  // names the bits that made it: raise it with any change that alters a single output bit of the
  // path (tests/engine/test_kernel_revision.cpp pins a hash of each path's outputs per revision
  // and fails until both move together). simd_math.hpp and simd_softmax.hpp serve both vector
  // paths: a change there moves both. Revision 1 is the first recorded (2026-12-05: the table exp,
  // NaN rows); earlier builds recorded names without one.
  int revision;
};

const KernelTable& reference_table();
// nullptr when the binary was built without that path.
const KernelTable* avx2_table();
const KernelTable* avx512_table();

// The large-K algorithm used when the caller asks for `automatic`: three-pass measured 1.1-1.3x
// faster than two-pass at K = 50,000 out of cache on AVX-512 and 1.6-1.7x on AVX2
// (docs/benchmarks.md, "Large K"; earlier series in docs/notes/2026-12-kernel-tuning.md): its
// passes after the first re-read a row that is still in L2, and it needs one exp per element
// where the online normaliser needs three.
inline WideAlgorithm resolve_wide(WideAlgorithm w) {
  return w == WideAlgorithm::automatic ? WideAlgorithm::three_pass : w;
}

}  // namespace gsflow::engine::kernels
