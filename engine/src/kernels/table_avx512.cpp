// The AVX-512 kernel set: the shared templates instantiated for 16-lane registers.
#include "kernels/simd_avx512.hpp"
#include "kernels/simd_softmax.hpp"

namespace gsflow::engine::kernels {

const KernelTable* avx512_table() {
  // The revision of this path's output bits (KernelTable::revision).
  static const KernelTable table = make_table<Avx512>(Isa::avx512, 1);
  return &table;
}

}  // namespace gsflow::engine::kernels
