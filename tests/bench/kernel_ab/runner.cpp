// Paired A/B timing of engine kernels from two builds in one process (scripts/kernel-ab).
//
//   gsflow-kernel-ab ROUNDS LIB_A LIB_B CASE...     CASE = op:k:size:isa, e.g. softmax:4:ooc:avx512
//
// The host's speed drifts by tens of percent within minutes, so separate processes or runs compare
// badly. Here each round times one call of A and one of B back to back (order alternating), and the
// ratio B/A of that round is paired: drift slower than a round cancels. Prints, per case, the
// median elements/ns of each build and the median and quartiles of the per-round ratios.
#include <dlfcn.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "statistics.hpp"  // app/src

namespace {

using gsflow::app::quantile;

using CallFn = void (*)(int, std::size_t, std::size_t, const float*, const float*, float*, bool);

const char* const kOps[] = {"softmax", "log_softmax", "logsumexp", "gumbel_softmax", "flow_step"};

struct Case {
  int op = -1;
  std::size_t k = 0;
  bool out_of_cache = false;
  bool avx512 = true;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "gsflow-kernel-ab: %s\nusage: gsflow-kernel-ab ROUNDS LIB_A LIB_B "
               "OP:K:in|ooc:avx2|avx512...\n"
               "ops: softmax log_softmax logsumexp gumbel_softmax flow_step\n",
               why.c_str());
  std::exit(2);
}

Case parse_case(const std::string& s) {
  Case c;
  char op[32], size[8], isa[8];
  unsigned long k = 0;
  if (std::sscanf(s.c_str(), "%31[^:]:%lu:%7[^:]:%7s", op, &k, size, isa) != 4 || k == 0)
    usage("bad case '" + s + "'");
  for (int i = 0; i < 5; ++i)
    if (std::strcmp(op, kOps[i]) == 0) c.op = i;
  if (c.op < 0) usage("unknown op in '" + s + "'");
  if (std::strcmp(size, "in") != 0 && std::strcmp(size, "ooc") != 0)
    usage("size must be in or ooc in '" + s + "'");
  if (std::strcmp(isa, "avx2") != 0 && std::strcmp(isa, "avx512") != 0)
    usage("isa must be avx2 or avx512 in '" + s + "'");
  c.k = k;
  c.out_of_cache = std::strcmp(size, "ooc") == 0;
  c.avx512 = std::strcmp(isa, "avx512") == 0;
  return c;
}

CallFn load(const char* path) {
  void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) usage(std::string("cannot load ") + path + ": " + dlerror());
  auto fn = reinterpret_cast<CallFn>(dlsym(h, "gsflow_ab_call"));
  if (!fn) usage(std::string(path) + ": no gsflow_ab_call");
  return fn;
}

// 64-byte aligned plus 16 bytes, as a std::vector's large buffers are (malloc's header).
float* buffer(std::size_t n) {
  return static_cast<float*>(std::aligned_alloc(64, (n + 16) * sizeof(float))) + 4;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) usage("too few arguments");
  const int rounds = std::atoi(argv[1]);
  if (rounds < 2) usage("ROUNDS must be at least 2");
  const CallFn fn[2] = {load(argv[2]), load(argv[3])};
  for (int a = 4; a < argc; ++a) {
    const Case c = parse_case(argv[a]);
    // The sizes of `gsflow bench kernels`: 16 MiB each way, or 128 KiB (L2) repeated 64 times.
    std::size_t n = c.out_of_cache ? std::size_t{1} << 22 : std::size_t{1} << 15;
    n -= n % c.k;
    const int reps = c.out_of_cache ? 1 : 64;
    float *x = buffer(n), *p = buffer(n), *y = buffer(n);
    for (std::size_t i = 0; i < n; ++i)  // logits in [-5, 5], p a uniform distribution per row
      x[i] = static_cast<float>((i * 2654435761u) % 10007) * (10.0f / 10007) - 5.0f;
    for (std::size_t i = 0; i < n; ++i) p[i] = 1.0f / static_cast<float>(c.k);
    std::memset(y, 0, n * sizeof(float));
    std::vector<double> rate[2], ratio;
    for (int v = 0; v < 2; ++v) fn[v](c.op, c.k, n, x, p, y, c.avx512);  // warm-up
    for (int r = 0; r < rounds; ++r) {
      double now[2];
      for (int j = 0; j < 2; ++j) {
        const int v = r % 2 ? 1 - j : j;
        const auto t0 = std::chrono::steady_clock::now();
        for (int q = 0; q < reps; ++q) fn[v](c.op, c.k, n, x, p, y, c.avx512);
        const std::chrono::duration<double, std::nano> dt = std::chrono::steady_clock::now() - t0;
        now[v] = static_cast<double>(n) * reps / dt.count();
        rate[v].push_back(now[v]);
      }
      ratio.push_back(now[1] / now[0]);
    }
    std::printf(
        "%-15s K=%-5zu %-3s %-6s  A %6.3f  B %6.3f elem/ns  B/A %.3f (quartiles %.3f-%.3f)\n",
        kOps[c.op], c.k, c.out_of_cache ? "ooc" : "in", c.avx512 ? "avx512" : "avx2",
        quantile(rate[0], 0.5), quantile(rate[1], 0.5), quantile(ratio, 0.5), quantile(ratio, 0.25),
        quantile(ratio, 0.75));
    std::fflush(stdout);
    std::free(x - 4);
    std::free(p - 4);
    std::free(y - 4);
  }
}
