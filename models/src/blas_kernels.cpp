// OpenBLAS picks its kernels once, when it is loaded, from the CPU's model number. Debian 12's
// OpenBLAS 0.3.21 does not know recent Intel models (family 6 model 207 on the development
// machine) and falls back to its generic Prescott (SSE3) kernels: float32 training of the peptide
// transformer ran 2.9x slower there, and float32 sampling 2.2x (docs/notes/2026-12-06-blas-kernels.md).
// The library reads OPENBLAS_CORETYPE only at load time, which is before main, so the choice is
// redone here through its exported dynamic-arch entry points, found at run time: a BLAS other than
// OpenBLAS, a CPU it recognised, or a core the user forced are left alone. bfloat16 inference runs
// on oneDNN and is unaffected (outputs identical either way).
#include "gsflow/models/blas_kernels.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <string_view>

namespace gsflow::models {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// OpenBLAS's x86 cores without AVX2 kernels (its names, lower case).
bool pre_avx2_core(const std::string& name) {
  static constexpr std::array<std::string_view, 21> cores = {
      "prescott", "katmai",     "coppermine",  "northwood", "banias",   "core2",    "penryn",
      "dunnington", "nehalem", "atom",        "nano",      "sandybridge", "athlon", "opteron",
      "opteron_sse3", "barcelona", "bobcat", "bulldozer", "piledriver", "steamroller", "excavator"};
  return std::find(cores.begin(), cores.end(), lower(name)) != cores.end();
}

// The OpenBLAS core for this CPU's features, or "" when it has no AVX2.
const char* core_for_features() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512cd"))
    return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
#endif
  return "";
}

std::string choose() {
  using CoreName = char* (*)();
  using Hook = void (*)();
  const auto corename = reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  if (corename == nullptr) return "not OpenBLAS";
  const std::string chosen = corename() ? corename() : "";
  const auto init = reinterpret_cast<Hook>(dlsym(RTLD_DEFAULT, "gotoblas_dynamic_init"));
  const auto quit = reinterpret_cast<Hook>(dlsym(RTLD_DEFAULT, "gotoblas_dynamic_quit"));
  const std::string target = core_for_features();
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr || init == nullptr || quit == nullptr ||
      target.empty() || !pre_avx2_core(chosen))
    return "OpenBLAS " + chosen;
  // The library's own choice reads the variable; unset after, so that a user's OPENBLAS_CORETYPE
  // stays told apart from ours (child processes make this choice again themselves).
  setenv("OPENBLAS_CORETYPE", target.c_str(), 0);
  quit();
  init();
  unsetenv("OPENBLAS_CORETYPE");
  const std::string now = corename() ? corename() : "";
  return "OpenBLAS " + now + " (by the CPU's features; the library chose " + chosen + ")";
}

}  // namespace

const std::string& choose_blas_kernels() {
  static std::once_flag once;
  static std::string kernels;
  std::call_once(once, [] { kernels = choose(); });
  return kernels;
}

}  // namespace gsflow::models
