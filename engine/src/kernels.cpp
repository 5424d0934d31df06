// Kernels front end: CPU-feature dispatch chosen once, shape checks, and row-parallel splitting.
#include "gsflow/engine/kernels.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "gsflow/engine/thread_pool.hpp"
#include "kernels/kernel_table.hpp"

namespace gsflow::engine {

namespace {

using kernels::KernelTable;
using kernels::RowArgs;

const KernelTable* table_for(Isa isa) {
  switch (isa) {
    case Isa::avx512:
      return kernels::avx512_table();
    case Isa::avx2:
      return kernels::avx2_table();
    case Isa::reference:
      return &kernels::reference_table();
  }
  return &kernels::reference_table();
}

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("kernels: " + what); }

void check_rows(const char* name, const float* data, std::size_t rows, std::size_t k,
                std::size_t stride) {
  if (rows == 0) return;
  if (data == nullptr) bad(std::string(name) + ": null data for " + std::to_string(rows) + " rows");
  if (k == 0) bad(std::string(name) + ": k must be >= 1");
  if (stride < k)
    bad(std::string(name) + ": stride " + std::to_string(stride) + " < k " + std::to_string(k));
}

void check_same_shape(const char* a, ConstRows x, const char* b, ConstRows y) {
  if (x.rows != y.rows || x.k != y.k)
    bad(std::string(b) + " is " + std::to_string(y.rows) + "x" + std::to_string(y.k) + " but " + a +
        " is " + std::to_string(x.rows) + "x" + std::to_string(x.k));
}

// Output may alias an input exactly (in place) but must not partially overlap it.
void check_alias(const char* in_name, ConstRows in, Rows out) {
  if (in.rows == 0 || in.data == out.data) return;
  const float* in_end = in.data + (in.rows - 1) * in.stride + in.k;
  const float* out_end = out.data + (out.rows - 1) * out.stride + out.k;
  if (in.data < out_end && out.data < in_end)
    bad(std::string("output partially overlaps ") + in_name +
        " (only exact in-place aliasing is allowed)");
}

void check_finite_positive(const char* name, float v) {
  if (!(std::isfinite(v) && v > 0.0f))
    bad(std::string(name) + " must be finite and > 0, got " + std::to_string(v));
}

// Checks of every op with an input x and a same-shaped output y; returns the shared kernel args.
RowArgs row_to_row(ConstRows x, Rows y) {
  check_rows("x", x.data, x.rows, x.k, x.stride);
  check_rows("y", y.data, y.rows, y.k, y.stride);
  check_same_shape("x", x, "y", y);
  check_alias("x", x, y);
  return RowArgs{
      .x = x.data, .ldx = x.stride, .y = y.data, .ldy = y.stride, .rows = x.rows, .k = x.k};
}

void check_noise(const NoiseKey& noise, std::size_t rows) {
  if (noise.first_row + rows > (std::uint64_t{1} << 32))
    bad("noise rows first_row + rows must be <= 2^32 (row counter is 32-bit)");
}

}  // namespace

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::reference:
      return "ref";
    case Isa::avx2:
      return "avx2";
    case Isa::avx512:
      return "avx512";
  }
  return "?";
}

const char* op_name(KernelOp op) {
  switch (op) {
    case KernelOp::softmax:
      return "softmax";
    case KernelOp::log_softmax:
      return "log_softmax";
    case KernelOp::logsumexp:
      return "logsumexp";
    case KernelOp::gumbel_softmax:
      return "gumbel_softmax";
    case KernelOp::flow_step:
      return "flow_step";
  }
  return "?";
}

bool isa_supported(Isa isa) {
  // __builtin_cpu_supports also checks that the OS saves the wide registers (XCR0).
  switch (isa) {
    case Isa::reference:
      return true;
    case Isa::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("fma");
  }
  return false;
}

Isa detect_best_isa() {
  static const Isa best = isa_supported(Isa::avx512) ? Isa::avx512
                          : isa_supported(Isa::avx2) ? Isa::avx2
                                                     : Isa::reference;
  return best;
}

struct Kernels::Impl {
  const KernelTable* table;
  WideAlgorithm wide;
  std::unique_ptr<ThreadPool> pool;

  // Splits rows over the pool in blocks of 16 (whole lane blocks on every ISA); each row's result
  // does not depend on the split, so 1 and N threads give identical bits.
  void run(KernelOp op, RowArgs a, bool row_outputs) const {
    if (a.rows == 0) return;
    a.wide = wide;
    const auto kernel = table->op[static_cast<int>(op)];
    const int threads = pool ? pool->threads() : 1;
    constexpr std::size_t kMinElementsPerTask = 16384;  // below this, waking a worker costs more
    const std::size_t by_size = a.rows * a.k / kMinElementsPerTask;
    const int tasks =
        static_cast<int>(std::min<std::size_t>(threads, std::max<std::size_t>(1, by_size)));
    if (tasks <= 1) return kernel(a);
    const std::size_t per = (a.rows + tasks - 1) / tasks;
    const std::size_t block = (per + 15) / 16 * 16;
    pool->run(tasks, [&](int t) {
      const std::size_t r0 = block * static_cast<std::size_t>(t);
      if (r0 >= a.rows) return;
      RowArgs part = a;
      part.rows = std::min(block, a.rows - r0);
      part.x = a.x + r0 * a.ldx;
      if (a.p) part.p = a.p + r0 * a.ldp;
      part.y = a.y + (row_outputs ? r0 : r0 * a.ldy);
      part.first_row = a.first_row + r0;
      kernel(part);
    });
  }
};

Kernels::Kernels(const KernelOptions& options) : impl_(std::make_unique<Impl>()) {
  if (options.threads < 1) bad("threads must be >= 1, got " + std::to_string(options.threads));
  Isa isa = options.consistent ? Isa::reference : options.isa;
  while (isa != Isa::reference && !isa_supported(isa))
    isa = isa == Isa::avx512 ? Isa::avx2 : Isa::reference;
  impl_->table = table_for(isa);
  impl_->wide = options.wide;
  if (options.threads > 1) impl_->pool = std::make_unique<ThreadPool>(options.threads);
}

Kernels::~Kernels() = default;
Kernels::Kernels(Kernels&&) noexcept = default;
Kernels& Kernels::operator=(Kernels&&) noexcept = default;

Isa Kernels::isa() const { return impl_->table->isa; }
int Kernels::threads() const { return impl_->pool ? impl_->pool->threads() : 1; }

std::optional<int> kernel_name_revision(std::string_view name) {
  const std::size_t at = name.rfind("_r");
  if (at == std::string_view::npos || at + 2 == name.size()) return std::nullopt;
  int revision = 0;
  for (const char c : name.substr(at + 2)) {
    if (c < '0' || c > '9') return std::nullopt;
    revision = 10 * revision + (c - '0');
  }
  return revision;
}

std::string Kernels::kernel_name(KernelOp op, std::size_t k) const {
  const std::string layout = impl_->table->layout(k, impl_->wide);
  return std::string(op_name(op)) + "_f32_" + isa_name(isa()) +
         (layout.empty() ? "" : "_" + layout) + "_r" + std::to_string(impl_->table->revision);
}

void Kernels::softmax(ConstRows x, Rows y) const {
  impl_->run(KernelOp::softmax, row_to_row(x, y), false);
}

void Kernels::log_softmax(ConstRows x, Rows y) const {
  impl_->run(KernelOp::log_softmax, row_to_row(x, y), false);
}

void Kernels::logsumexp(ConstRows x, float* out) const {
  check_rows("x", x.data, x.rows, x.k, x.stride);
  if (x.rows > 0 && out == nullptr) bad("out: null pointer");
  impl_->run(KernelOp::logsumexp,
             RowArgs{.x = x.data, .ldx = x.stride, .y = out, .ldy = 1, .rows = x.rows, .k = x.k},
             true);
}

void Kernels::scaled_gumbel_softmax(ConstRows x, Rows y, float scale_x, float scale_g,
                                    const NoiseKey& noise) const {
  RowArgs args = row_to_row(x, y);
  check_noise(noise, x.rows);
  if (!std::isfinite(scale_x) || !std::isfinite(scale_g)) bad("scale_x and scale_g must be finite");
  args.a = scale_x;
  args.b = scale_g;
  args.seed = noise.seed;
  args.stream = noise.stream;
  args.first_row = noise.first_row;
  impl_->run(KernelOp::gumbel_softmax, args, false);
}

void Kernels::gumbel_softmax(ConstRows logits, Rows y, float tau, const NoiseKey& noise) const {
  check_finite_positive("tau", tau);
  scaled_gumbel_softmax(logits, y, 1.0f / tau, 1.0f / tau, noise);
}

void Kernels::interpolant(ConstRows x1, Rows y, float tau, float beta,
                          const NoiseKey& noise) const {
  check_finite_positive("tau", tau);
  check_finite_positive("beta", beta);
  scaled_gumbel_softmax(x1, y, 1.0f / tau, 1.0f / (beta * tau), noise);
}

void Kernels::flow_step(ConstRows x, ConstRows p, Rows y, float delta) const {
  RowArgs args = row_to_row(x, y);
  check_rows("p", p.data, p.rows, p.k, p.stride);
  check_same_shape("x", x, "p", p);
  check_alias("p", p, y);
  if (!std::isfinite(delta)) bad("delta must be finite");
  args.p = p.data;
  args.ldp = p.stride;
  args.a = delta;
  impl_->run(KernelOp::flow_step, args, false);
}

}  // namespace gsflow::engine
