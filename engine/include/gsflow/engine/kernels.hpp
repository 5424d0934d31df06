// Row-wise softmax-family kernels over float32 batches [rows, K], dispatched once per process to
// the fastest instruction set (AVX-512, AVX2+FMA) or forced to the double-accumulating reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace gsflow::engine {

// Instruction-set paths. `reference` is scalar, accumulates in double, and is the test oracle.
enum class Isa { reference, avx2, avx512 };

const char* isa_name(Isa isa);
// Best path this CPU and OS support (cpuid + XSAVE state), ignoring any override.
Isa detect_best_isa();
// Paths usable on this machine, reference first.
bool isa_supported(Isa isa);

// A read-only row-major batch: `rows` rows of `k` floats, row r starting at data + r * stride.
struct ConstRows {
  const float* data = nullptr;
  std::size_t rows = 0;
  std::size_t k = 0;
  std::size_t stride = 0;  // in floats, >= k
};

// A writable row-major batch with the same layout rules.
struct Rows {
  float* data = nullptr;
  std::size_t rows = 0;
  std::size_t k = 0;
  std::size_t stride = 0;  // in floats, >= k
  operator ConstRows() const { return {data, rows, k, stride}; }
};

// Identifies the Gumbel noise of one call. Element (r, c) of the batch gets the uniform
// philox4x32_10(counter = {c / 4, first_row + r, stream_lo, stream_hi}, key = seed)[c % 4] (see
// philox.hpp), so noise depends only on (seed, stream, global row, column): never on thread count,
// batch split or ISA path.
struct NoiseKey {
  std::uint64_t seed = 0;       // user seed
  std::uint64_t stream = 0;     // independent stream, e.g. (purpose, step)
  std::uint64_t first_row = 0;  // global index of row 0 of this batch; first_row + rows <= 2^32
};

// Algorithm for rows too wide for the several-rows-per-register layout.
enum class WideAlgorithm {
  automatic,   // the one that measured faster (docs/benchmarks.md)
  two_pass,    // online max+normaliser in one read, then the output pass
  three_pass,  // max pass, normaliser pass, output pass
};

struct KernelOptions {
  bool consistent = false;  // force the reference kernels: bit-reproducible on any CPU
  Isa isa = Isa::avx512;    // highest path allowed; lowered to what the CPU supports
  int threads = 1;          // worker threads for row-parallel work (>= 1)
  WideAlgorithm wide = WideAlgorithm::automatic;
};

// The operations the kernels provide (used for naming and benchmarking).
enum class KernelOp { softmax, log_softmax, logsumexp, gumbel_softmax, flow_step };
const char* op_name(KernelOp op);

// The revision a kernel name ends in ("softmax_f32_avx512_k4_r1" -> 1); none for names recorded
// before revisions were (e.g. "softmax_f32_ref", "softmax_f32_avx2_rows_3pass").
std::optional<int> kernel_name_revision(std::string_view name);

// Dispatching front end. Thread-safe for concurrent const calls. Shapes are checked and a mismatch
// throws std::invalid_argument naming the argument; every row must hold at least one finite value
// (a row of all -inf gives NaN, as in the reference). Inputs and outputs may alias exactly
// (in place) but must not partially overlap.
class Kernels {
 public:
  explicit Kernels(const KernelOptions& options = {});
  ~Kernels();
  Kernels(Kernels&&) noexcept;
  Kernels& operator=(Kernels&&) noexcept;

  Isa isa() const;
  int threads() const;
  // Name of the kernel variant that runs `op` for rows of width k, e.g. "softmax_f32_avx512_k4_r1":
  // op, path, layout and the revision of the path's output bits (raised whenever they change).
  // Stored with every run, so that two runs with equal names were computed with equal bits.
  std::string kernel_name(KernelOp op, std::size_t k) const;

  // y = softmax(x) per row.
  void softmax(ConstRows x, Rows y) const;
  // y = log_softmax(x) = x - logsumexp(x) per row.
  void log_softmax(ConstRows x, Rows y) const;
  // out[r] = log sum_c exp(x[r, c]); `out` holds x.rows floats.
  void logsumexp(ConstRows x, float* out) const;
  // Gumbel-softmax sample: y = softmax((logits + g) / tau), g = -log(-log U), U in (0, 1).
  void gumbel_softmax(ConstRows logits, Rows y, float tau, const NoiseKey& noise) const;
  // General form both Gumbel operations use: y = softmax(scale_x * x + scale_g * g).
  void scaled_gumbel_softmax(ConstRows x, Rows y, float scale_x, float scale_g,
                             const NoiseKey& noise) const;
  // Gumbel-softmax interpolant of method.md section 1: y = softmax((x1 + g / beta) / tau).
  void interpolant(ConstRows x1, Rows y, float tau, float beta, const NoiseKey& noise) const;
  // Exact exponential flow step of method.md section 2: y = softmax(log x + delta * p).
  // x must be non-negative (zeros stay zero); y may be x.
  void flow_step(ConstRows x, ConstRows p, Rows y, float delta) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gsflow::engine
