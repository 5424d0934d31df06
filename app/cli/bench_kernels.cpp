// `gsflow bench kernels`: times softmax, log-softmax, Gumbel-softmax and the flow step on every ISA
// path, LibTorch 1.13's softmax on the same buffers, and a memcpy of the same bytes, all in this
// process, and prints elements/ns with ratios to memcpy and LibTorch (medians of repeated calls).
#include "bench_kernels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <vector>

#include "global_options.hpp"
#include "gsflow/engine/kernels.hpp"
#include "gsflow/models/torch_baseline.hpp"
#include "statistics.hpp"

namespace gsflow::app {

namespace {

using engine::Isa;
using engine::KernelOp;
using engine::KernelOptions;
using engine::Kernels;
using engine::WideAlgorithm;

struct BenchOptions {
  bool json = false;          // one JSON object on stdout instead of the table
  bool quick = false;         // fewer repetitions (smoke test)
  int threads = 1;            // kernel and LibTorch threads
  double min_seconds = 0.25;  // per measurement
};

double seconds_of(const std::function<void()>& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Calls step(i) for i = 0, 1, ... at least 5 times and for at least min_seconds, at most 1000
// times.
void repeat_for(double min_seconds, const std::function<void(std::size_t)>& step) {
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < 1000; ++i) {
    if (i >= 5 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
                      min_seconds)
      break;
    step(i);
  }
}

// Median seconds per call of fn, after one warm-up call.
double median_seconds(const std::function<void()>& fn, double min_seconds) {
  fn();
  std::vector<double> times;
  repeat_for(min_seconds, [&](std::size_t) { times.push_back(seconds_of(fn)); });
  return median(std::move(times));
}

// Elements per ns of fn and its speed relative to each baseline, from rounds that call fn and every
// baseline once, fn first in even rounds and last in odd ones, after one warm-up call each: the
// median of fn's rates and, per baseline, the median of the per-round ratios. The host's speed
// drifts by tens of percent within a minute, and adjacent calls see the same state, so a ratio
// does not depend on when each side was measured.
struct PairedRate {
  double rate;
  std::vector<double> ratios;  // baseline seconds / fn seconds, one per baseline
};
PairedRate paired_rate(const std::function<void()>& fn,
                       const std::vector<std::function<void()>>& baselines, std::size_t n,
                       double min_seconds) {
  fn();
  for (const auto& b : baselines) b();
  std::vector<double> rates;
  std::vector<std::vector<double>> ratios(baselines.size());
  repeat_for(min_seconds, [&](std::size_t i) {
    double fn_s = 0;
    if (i % 2 == 0) fn_s = seconds_of(fn);
    std::vector<double> base_s;
    for (const auto& b : baselines) base_s.push_back(seconds_of(b));
    if (i % 2 == 1) fn_s = seconds_of(fn);
    rates.push_back(static_cast<double>(n) / (fn_s * 1e9));
    for (std::size_t j = 0; j < baselines.size(); ++j) ratios[j].push_back(base_s[j] / fn_s);
  });
  PairedRate out{median(std::move(rates)), {}};
  for (auto& r : ratios) out.ratios.push_back(median(std::move(r)));
  return out;
}

struct Result {
  std::string op;
  std::size_t k, n;
  int threads;
  std::string isa;
  std::string kernel;
  double elem_per_ns;
  std::optional<double> vs_memcpy, vs_libtorch;
  std::optional<double> vs_avx512;  // AVX2 rows: speed relative to the AVX-512 path, paired
};

struct Buffers {
  std::vector<float> x, p, y;
  Buffers(std::size_t n, std::size_t k) : x(n), p(n), y(n) {
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> logit(-5.0f, 5.0f);
    for (auto& v : x) v = logit(rng);
    // p and the flow-step state must be distributions: make rows of softmax-like positive values.
    std::uniform_real_distribution<float> pos(0.01f, 1.0f);
    for (auto& v : p) v = pos(rng);
    for (std::size_t r = 0; r < n / k; ++r) {
      float s = 0;
      for (std::size_t c = 0; c < k; ++c) s += p[r * k + c];
      for (std::size_t c = 0; c < k; ++c) p[r * k + c] /= s;
    }
    std::fill(y.begin(), y.end(), 0.0f);  // touch every page before timing
  }
};

// Every path this CPU supports, fastest first; only the reference under --consistent.
std::vector<Isa> isas_here() {
  if (global_options().consistent) return {Isa::reference};
  std::vector<Isa> out;
  for (Isa isa : {Isa::avx512, Isa::avx2, Isa::reference})
    if (engine::isa_supported(isa)) out.push_back(isa);
  return out;
}

void run(const BenchOptions& opt) {
  models::torch_set_threads(opt.threads);
  const double min_s = opt.quick ? 0.02 : opt.min_seconds;
  std::vector<Result> results;
  const std::size_t sizes[] = {std::size_t{1} << 22,
                               std::size_t{1} << 15};  // out of cache, in cache
  const std::size_t ks[] = {4, 20, 64, 1024};

  auto add = [&](Result r) {
    if (!opt.json)
      std::cerr << fmt::format("  {:<15} k={:<6} n={:<8} {:<7} {:>7.3f} elem/ns{}{}{}\n", r.op, r.k,
                               r.n, r.isa, r.elem_per_ns,
                               r.vs_memcpy ? fmt::format("  {:5.2f}x memcpy", *r.vs_memcpy) : "",
                               r.vs_libtorch ? fmt::format("  {:6.2f}x libtorch", *r.vs_libtorch)
                               : r.vs_avx512 ? std::string(18, ' ')
                                             : "",
                               r.vs_avx512 ? fmt::format("  {:4.2f}x avx512", *r.vs_avx512) : "");
    results.push_back(std::move(r));
  };

  // One measurement case: memcpy and LibTorch baselines, then our kernels on every ISA path.
  // `large_k` measures softmax only, once per wide-row algorithm (two-pass vs three-pass).
  auto bench_case = [&](std::size_t k, std::size_t n_target, bool large_k) {
    const std::size_t rows = n_target / k, n = rows * k;
    Buffers b(n, k);
    const engine::ConstRows x{b.x.data(), rows, k, k};
    const engine::ConstRows p{b.p.data(), rows, k, k};
    const engine::Rows y{b.y.data(), rows, k, k};
    auto rate = [&](const std::function<void()>& fn) {
      return n / (median_seconds(fn, min_s) * 1e9);
    };
    const std::function<void()> copy = [&] {
      std::memcpy(b.y.data(), b.x.data(), n * sizeof(float));
    };
    const double memcpy_rate = rate(copy);
    add({"memcpy", k, n, 1, "-", "memcpy", memcpy_rate, 1.0, std::nullopt, std::nullopt});
    auto baseline = [&](const char* op, const char* name, const std::function<void()>& fn) {
      const double r = rate(fn);
      add({op, k, n, opt.threads, "libtorch", name, r, r / memcpy_rate, 1.0, std::nullopt});
      return r;
    };
    const double torch_softmax = baseline("softmax", "at::_softmax_out", [&] {
      models::torch_softmax(b.x.data(), b.y.data(), rows, k);
    });
    std::optional<double> torch_log, torch_gumbel;
    if (!large_k) {
      torch_log = baseline("log_softmax", "at::_log_softmax_out",
                           [&] { models::torch_log_softmax(b.x.data(), b.y.data(), rows, k); });
      torch_gumbel = baseline("gumbel_softmax", "rand+log+softmax", [&] {
        models::torch_gumbel_softmax(b.x.data(), b.y.data(), rows, k, 1.0f);
      });
    }
    const auto walgos = large_k ? std::vector{WideAlgorithm::two_pass, WideAlgorithm::three_pass}
                                : std::vector{WideAlgorithm::automatic};
    // The double reference is ~50x slower: timed on the in-cache size only, unless it is the only
    // path (--consistent).
    const bool ref_only = global_options().consistent;
    const bool have_avx512 = engine::isa_supported(Isa::avx512) && !ref_only;
    for (WideAlgorithm w : walgos) {
      std::optional<Kernels> avx512;
      if (have_avx512)
        avx512.emplace(KernelOptions{.isa = Isa::avx512, .threads = opt.threads, .wide = w});
      for (Isa isa : isas_here()) {
        if (isa == Isa::reference && !ref_only && (large_k || n_target > (std::size_t{1} << 15)))
          continue;
        const Kernels kern(KernelOptions{.isa = isa, .threads = opt.threads, .wide = w});
        // Each call is paired with a memcpy (vs_memcpy) and, on the AVX2 path, with the same call
        // on the AVX-512 path (vs_avx512); LibTorch, up to 100x slower, is timed once per case.
        const bool vs_avx512 = have_avx512 && isa == Isa::avx2;
        auto ours = [&](KernelOp op, const std::function<void(const Kernels&)>& call,
                        std::optional<double> torch) {
          std::vector<std::function<void()>> baselines{copy};
          if (vs_avx512) baselines.push_back([&] { call(*avx512); });
          const auto [r, ratios] = paired_rate([&] { call(kern); }, baselines, n, min_s);
          add({engine::op_name(op), k, n, opt.threads, engine::isa_name(isa),
               kern.kernel_name(op, k), r, ratios[0],
               torch ? std::optional<double>(r / *torch) : std::nullopt,
               vs_avx512 ? std::optional<double>(ratios[1]) : std::nullopt});
        };
        ours(
            KernelOp::softmax, [&](const Kernels& kn) { kn.softmax(x, y); }, torch_softmax);
        if (large_k) continue;
        ours(
            KernelOp::log_softmax, [&](const Kernels& kn) { kn.log_softmax(x, y); }, torch_log);
        ours(
            KernelOp::gumbel_softmax,
            [&](const Kernels& kn) { kn.gumbel_softmax(x, y, 1.0f, {.seed = 1}); }, torch_gumbel);
        ours(
            KernelOp::flow_step, [&](const Kernels& kn) { kn.flow_step(p, x, y, 0.05f); },
            std::nullopt);
      }
    }
  };

  for (std::size_t n_target : sizes)
    for (std::size_t k : ks) bench_case(k, n_target, false);
  bench_case(50000, std::size_t{1} << 22, true);  // large K, out of cache

  if (opt.json) {
    nlohmann::json out;
    out["torch_version"] = models::torch_version();
    out["best_isa"] = engine::isa_name(engine::detect_best_isa());
    auto& arr = out["results"] = nlohmann::json::array();
    for (const auto& r : results) {
      nlohmann::json j{{"op", r.op},
                       {"k", r.k},
                       {"n", r.n},
                       {"threads", r.threads},
                       {"isa", r.isa},
                       {"kernel", r.kernel},
                       {"elem_per_ns", r.elem_per_ns}};
      j["vs_memcpy"] = r.vs_memcpy ? nlohmann::json(*r.vs_memcpy) : nlohmann::json(nullptr);
      j["vs_libtorch"] = r.vs_libtorch ? nlohmann::json(*r.vs_libtorch) : nlohmann::json(nullptr);
      if (r.vs_avx512) j["vs_avx512"] = *r.vs_avx512;
      arr.push_back(std::move(j));
    }
    std::cout << out.dump(1) << "\n";
  }
}

}  // namespace

void add_bench_kernels(CLI::App& bench) {
  auto opt = std::make_shared<BenchOptions>();
  auto* cmd = bench.add_subcommand(
      "kernels", "Softmax-family kernels vs memcpy and LibTorch (medians, same run)");
  cmd->add_flag("--json", opt->json, "Print one JSON object on stdout");
  cmd->add_flag("--quick", opt->quick, "Few repetitions: a smoke test, not a measurement");
  cmd->add_option("--threads", opt->threads, "Threads for our kernels and LibTorch")
      ->check(CLI::Range(1, 256));
  cmd->callback([opt] {
    if (!opt->json) {
      std::string paths;
      for (Isa isa : isas_here())
        paths += std::string(paths.empty() ? "" : ", ") + engine::isa_name(isa);
      std::cerr << fmt::format(
          "gsflow bench kernels: paths {}, LibTorch {}, {} thread(s); medians\n", paths,
          models::torch_version(), opt->threads);
    }
    run(*opt);
  });
}

}  // namespace gsflow::app
