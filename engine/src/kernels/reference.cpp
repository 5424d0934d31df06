// Scalar reference kernels: accumulate in double, one row at a time. They are the test oracle for
// the SIMD paths and the bit-reproducible fallback selected by `--consistent`.
#include <cassert>
#include <cmath>
#include <limits>

#include "gsflow/engine/philox.hpp"
#include "kernels/kernel_table.hpp"

namespace gsflow::engine::kernels {
namespace {

// z[c] for one row, computed in double by `Source`, then reduced and written by `Sink`.
template <class Source, class Sink>
void for_each_row(const RowArgs& a, Source source, Sink sink) {
  for (std::size_t r = 0; r < a.rows; ++r) {
    double m = -std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < a.k; ++c) m = std::max(m, source(r, c));
    double s = 0.0;
    for (std::size_t c = 0; c < a.k; ++c) s += std::exp(source(r, c) - m);
    sink(r, m, s, source);
  }
}

auto plain_source(const RowArgs& a) {
  return [&a](std::size_t r, std::size_t c) { return double{a.x[r * a.ldx + c]}; };
}

void softmax_sink_rows(const RowArgs& a, auto source) {
  for_each_row(a, source, [&a](std::size_t r, double m, double s, auto& src) {
    for (std::size_t c = 0; c < a.k; ++c)
      a.y[r * a.ldy + c] = static_cast<float>(std::exp(src(r, c) - m) / s);
  });
}

void softmax_ref(const RowArgs& a) { softmax_sink_rows(a, plain_source(a)); }

void log_softmax_ref(const RowArgs& a) {
  for_each_row(a, plain_source(a), [&a](std::size_t r, double m, double s, auto& src) {
    const double ls = std::log(s);
    for (std::size_t c = 0; c < a.k; ++c)
      a.y[r * a.ldy + c] = static_cast<float>((src(r, c) - m) - ls);
  });
}

void logsumexp_ref(const RowArgs& a) {
  for_each_row(a, plain_source(a), [&a](std::size_t r, double m, double s, auto&) {
    a.y[r] = static_cast<float>(m + std::log(s));
  });
}

void gumbel_softmax_ref(const RowArgs& a) {
  assert(a.first_row + a.rows <= (std::uint64_t{1} << 32));
  softmax_sink_rows(a, [&a](std::size_t r, std::size_t c) {
    const double u =
        noise_uniform(a.seed, a.stream, static_cast<std::uint32_t>(a.first_row + r), c);
    const double g = -std::log(-std::log(u));
    return double{a.a} * a.x[r * a.ldx + c] + double{a.b} * g;
  });
}

void flow_step_ref(const RowArgs& a) {
  // In place (y == x) is safe: the max and sum passes only read, and the output pass reads x[c]
  // before it writes y[c] at the same position.
  softmax_sink_rows(a, [&a](std::size_t r, std::size_t c) {
    return std::log(double{a.x[r * a.ldx + c]}) + double{a.a} * a.p[r * a.ldp + c];
  });
}

const char* reference_layout(std::size_t, WideAlgorithm) { return ""; }

}  // namespace

const KernelTable& reference_table() {
  static const KernelTable table{
      Isa::reference,
      {softmax_ref, log_softmax_ref, logsumexp_ref, gumbel_softmax_ref, flow_step_ref},
      reference_layout,
      1};  // the revision of this path's output bits (KernelTable::revision)
  return table;
}

}  // namespace gsflow::engine::kernels
