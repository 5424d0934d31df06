// The AVX2+FMA kernel set: the shared templates instantiated for 8-lane registers.
#include "kernels/simd_avx2.hpp"
#include "kernels/simd_softmax.hpp"

namespace gsflow::engine::kernels {

const KernelTable* avx2_table() {
  // Revision 1: the kernels of 2026-12-05 (the table exp, NaN rows); earlier builds recorded no
  // revision. simd_math.hpp and simd_softmax.hpp are shared: a change there moves both paths.
  static const KernelTable table = make_table<Avx2>(Isa::avx2, 1);
  return &table;
}

}  // namespace gsflow::engine::kernels
