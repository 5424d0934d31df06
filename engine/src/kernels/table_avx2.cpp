// The AVX2+FMA kernel set: the shared templates instantiated for 8-lane registers.
#include "kernels/simd_avx2.hpp"
#include "kernels/simd_softmax.hpp"

namespace gsflow::engine::kernels {

const KernelTable* avx2_table() {
  // The revision of this path's output bits (KernelTable::revision).
  static const KernelTable table = make_table<Avx2>(Isa::avx2, 1);
  return &table;
}

}  // namespace gsflow::engine::kernels
