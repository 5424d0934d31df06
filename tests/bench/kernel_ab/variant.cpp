// One build of the engine as a shared object for scripts/kernel-ab: the runner loads two of them
// (two revisions) into one process and calls each through gsflow_ab_call().
#include <cstddef>
#include <cstring>

#include "gsflow/engine/kernels.hpp"

using namespace gsflow::engine;

// op: 0 softmax, 1 log_softmax, 2 logsumexp, 3 gumbel_softmax, 4 flow_step (x is p, p is x).
// avx512: the highest path allowed (false: AVX2). y holds n floats.
extern "C" [[gnu::visibility("default")]] void gsflow_ab_call(int op, std::size_t k, std::size_t n,
                                                              const float* x, const float* p,
                                                              float* y, bool avx512) {
  static const Kernels avx2([] {
    KernelOptions o;
    o.isa = Isa::avx2;
    return o;
  }());
  static const Kernels best;
  const Kernels& kern = avx512 ? best : avx2;
  const std::size_t rows = n / k;
  const ConstRows cx{x, rows, k, k}, cp{p, rows, k, k};
  const Rows ry{y, rows, k, k};
  switch (op) {
    case 0:
      kern.softmax(cx, ry);
      break;
    case 1:
      kern.log_softmax(cx, ry);
      break;
    case 2:
      kern.logsumexp(cx, y);
      break;
    case 3:
      kern.gumbel_softmax(cx, ry, 1.0f, NoiseKey{1, 2, 0});
      break;
    case 4:
      kern.flow_step(cp, cx, ry, 0.01f);
      break;
    default:
      break;
  }
}
