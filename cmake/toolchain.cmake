# Compiler launcher, linker and warning settings shared by every target.
find_program(GSFLOW_CCACHE ccache)
if(GSFLOW_CCACHE)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${GSFLOW_CCACHE}")
  message(STATUS "gsflow: using ccache (${GSFLOW_CCACHE})")
endif()

# gold links LibTorch executables in ~0.2 s instead of ~2 s with bfd (build-notes.md).
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=gold" GSFLOW_HAS_GOLD)
if(GSFLOW_HAS_GOLD)
  add_link_options("-fuse-ld=gold")
endif()

add_compile_options(-Wall -Wextra)

# Flags for the per-ISA kernel translation units (engine/src/kernels). Only those files get them;
# the rest of the code stays portable x86-64 and dispatch picks a kernel set at run time.
set(GSFLOW_AVX2_FLAGS -mavx2 -mfma -mf16c)
# -Wno-(maybe-)uninitialized: GCC 12 warns inside its own avx512fintrin.h (_mm512_undefined_*).
set(GSFLOW_AVX512_FLAGS -mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx2 -mfma -Wno-uninitialized -Wno-maybe-uninitialized)
