// The avx512 probe of simd_math_probe.hpp (compiled with GSFLOW_AVX512_FLAGS).
#include "kernels/simd_avx512.hpp"
#include "simd_math_probe.hpp"
#include "simd_math_probe_impl.hpp"

namespace gsflow::engine::test {

void exp_avx512(const float* x, float* y, std::size_t n) { probe_exp<Avx512>(x, y, n); }
void log_avx512(const float* x, float* y, std::size_t n, bool any_input) {
  probe_log<Avx512>(x, y, n, any_input);
}

}  // namespace gsflow::engine::test
