// Time grids of the sampler (see time_grid.hpp).
#include "gsflow/engine/time_grid.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "gsflow/engine/concrete.hpp"
#include "gsflow/engine/philox.hpp"

namespace gsflow::engine {

namespace {

constexpr int kSamples = 1000;  // Monte Carlo draws per time (standard error of H ~ 0.01 nats)
constexpr int kPoints = 101;     // times of the tabulated I(t)
constexpr std::uint64_t kSeed = 0x9e3779b97f4a7c15ull;

// Mean entropy of P(clean letter | x_t) under a uniform prior, clean letter 0 (all are alike).
double posterior_entropy(const Path& path, std::size_t k, bool linear, double t) {
  std::vector<double> y(k), posterior(k), flat(k, 0.0);
  double total = 0.0;
  for (int s = 0; s < kSamples; ++s) {
    for (std::size_t c = 0; c < k; ++c) {
      const float u = noise_uniform(kSeed, 0, static_cast<std::uint32_t>(s), c);
      const double unit = std::max(static_cast<double>(u), 1e-12);
      y[c] = linear ? -std::log(unit) : -std::log(-std::log(unit));  // exponential / Gumbel
    }
    if (linear) {
      // x = t e_0 + (1 - t) Dirichlet(1): the letters j with x_j >= t are equally likely.
      double sum = 0.0;
      for (const double e : y) sum += e;
      std::size_t possible = 0;
      for (std::size_t c = 0; c < k; ++c) {
        const double x = (1.0 - t) * y[c] / sum + (c == 0 ? t : 0.0);
        possible += x >= t ? 1 : 0;
      }
      total += std::log(static_cast<double>(std::max<std::size_t>(possible, 1)));
      continue;
    }
    const double a = path.concrete_logit(t);
    if (!(a > 0.0)) {
      total += std::log(static_cast<double>(k));
      continue;
    }
    // log x_t = log softmax(A e_0 + S g): clean_posterior only needs it up to a constant.
    const double signal = path.signal(t), noise = path.noise_scale(t);
    for (std::size_t c = 0; c < k; ++c) y[c] = noise * y[c] + (c == 0 ? signal : 0.0);
    clean_posterior(y.data(), flat.data(), k, a, path.concrete_temperature(t), posterior.data());
    double h = 0.0;
    for (const double p : posterior)
      if (p > 0.0) h -= p * std::log(p);
    total += h;
  }
  return total / kSamples;
}

}  // namespace

std::vector<double> path_information(const Path& path, std::size_t k, bool linear, int points) {
  if (k < 2 || points < 2) throw std::invalid_argument("path_information: k >= 2, points >= 2");
  std::vector<double> h(static_cast<std::size_t>(points));
  for (int i = 0; i < points; ++i)
    h[static_cast<std::size_t>(i)] = posterior_entropy(path, k, linear, static_cast<double>(i) / (points - 1));
  const double top = h.front(), fall = h.front() - h.back();
  std::vector<double> info(h.size());
  double running = 0.0;  // monotone: Monte Carlo noise must not make I(t) fall back
  for (std::size_t i = 0; i < h.size(); ++i) {
    running = std::max(running, fall > 0.0 ? (top - h[i]) / fall : static_cast<double>(i) / (points - 1));
    info[i] = std::min(running, 1.0);
  }
  info.back() = 1.0;
  return info;
}

std::vector<double> time_grid(TimeGrid grid, const Path& path, std::size_t k, bool linear,
                              int steps, double begin) {
  if (steps < 1) throw std::invalid_argument("time grid: steps must be >= 1");
  if (!(begin >= 0.0 && begin < 1.0)) throw std::invalid_argument("time grid: begin in [0, 1)");
  std::vector<double> t(static_cast<std::size_t>(steps) + 1);
  for (int i = 0; i <= steps; ++i)
    t[static_cast<std::size_t>(i)] = begin + (1.0 - begin) * i / steps;
  t.back() = 1.0;
  if (grid == TimeGrid::uniform) return t;

  // I(t) depends only on the path, K and the method: tabulated once per process.
  static std::mutex mutex;
  static std::map<std::tuple<int, double, double, double, double, std::size_t, bool>,
                  std::vector<double>>
      cache;
  const PathOptions& o = path.options();
  std::vector<double> info;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    auto& slot = cache[{static_cast<int>(o.interpolant), o.tau_max, o.lambda, o.beta,
                        o.signal_max, k, linear}];
    if (slot.empty()) slot = path_information(path, k, linear, kPoints);
    info = slot;
  }
  // F(t) = (1 - w) I(t) + w t on the table (linear between points), strictly increasing.
  const auto f_at = [&](double time) {
    const double pos = time * (kPoints - 1);
    const auto i = std::min(static_cast<std::size_t>(pos), static_cast<std::size_t>(kPoints - 2));
    const double frac = pos - static_cast<double>(i);
    const double inf = info[i] + frac * (info[i + 1] - info[i]);
    return (1.0 - kInformationGridFloor) * inf + kInformationGridFloor * time;
  };
  const double f0 = f_at(begin);
  for (int s = 1; s < steps; ++s) {
    const double target = f0 + (1.0 - f0) * s / steps;
    double lo = begin, hi = 1.0;  // F is increasing: bisection
    for (int it = 0; it < 60; ++it) {
      const double mid = 0.5 * (lo + hi);
      (f_at(mid) < target ? lo : hi) = mid;
    }
    t[static_cast<std::size_t>(s)] = 0.5 * (lo + hi);
  }
  return t;
}

}  // namespace gsflow::engine
