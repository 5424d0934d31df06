// The AVX-512 kernel set: the shared templates instantiated for 16-lane registers.
#include "kernels/simd_avx512.hpp"
#include "kernels/simd_softmax.hpp"

namespace gsflow::engine::kernels {

const KernelTable* avx512_table() {
  // Revision 1: the kernels of 2026-12-05 (the table exp, NaN rows); earlier builds recorded no
  // revision. simd_math.hpp and simd_softmax.hpp are shared: a change there moves both paths.
  static const KernelTable table = make_table<Avx512>(Isa::avx512, 1);
  return &table;
}

}  // namespace gsflow::engine::kernels
