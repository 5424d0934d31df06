// Which BLAS kernels float32 matrix products run on (see blas_kernels.cpp).
#pragma once

#include <string>

namespace gsflow::models {

// Once per process, before any network runs: where the BLAS is OpenBLAS, the user set no
// OPENBLAS_CORETYPE and the library fell back to kernels older than AVX2 on a CPU that has AVX2
// (or AVX-512), switch it to the kernels of the CPU's features. Returns what the BLAS runs on.
const std::string& choose_blas_kernels();

}  // namespace gsflow::models
