// The avx2 probe of simd_math_probe.hpp (compiled with GSFLOW_AVX2_FLAGS).
#include "kernels/simd_avx2.hpp"
#include "simd_math_probe.hpp"
#include "simd_math_probe_impl.hpp"

namespace gsflow::engine::test {

void exp_avx2(const float* x, float* y, std::size_t n) { probe_exp<Avx2>(x, y, n); }
void log_avx2(const float* x, float* y, std::size_t n, bool any_input) {
  probe_log<Avx2>(x, y, n, any_input);
}

}  // namespace gsflow::engine::test
