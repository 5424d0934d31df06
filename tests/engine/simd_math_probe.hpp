// Element-wise access to the SIMD exp and log of engine/src/kernels/simd_math.hpp, for the accuracy
// tests (test_simd_math.cpp). Each ISA's probe is compiled in its own translation unit with that
// ISA's flags (simd_math_probe_avx2.cpp, simd_math_probe_avx512.cpp); the test itself is portable
// and calls a probe only where isa_supported() says the CPU runs it.
#pragma once

#include <cstddef>

namespace gsflow::engine::test {

// y[i] = vexp(x[i]) for x[i] <= 0 (the kernels only exponentiate z - max).
using ExpProbe = void (*)(const float* x, float* y, std::size_t n);
// y[i] = vlog(x[i]): any_input = the form that accepts 0, subnormals and negatives (kAnyInput),
// otherwise the faster one for normal positive x used on Gumbel noise.
using LogProbe = void (*)(const float* x, float* y, std::size_t n, bool any_input);

void exp_avx2(const float* x, float* y, std::size_t n);
void log_avx2(const float* x, float* y, std::size_t n, bool any_input);
void exp_avx512(const float* x, float* y, std::size_t n);
void log_avx512(const float* x, float* y, std::size_t n, bool any_input);

}  // namespace gsflow::engine::test
