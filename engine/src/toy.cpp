// The toy benchmark's task, exact denoisers and KL metric (see toy.hpp).
#include "gsflow/engine/toy.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gsflow/engine/concrete.hpp"
#include "gsflow/engine/philox.hpp"

namespace gsflow::engine {

ToyTask make_toy_task(std::size_t length, std::size_t k, std::uint64_t seed) {
  if (length == 0 || k < 2) throw std::invalid_argument("toy task needs L >= 1 and K >= 2");
  ToyTask task{length, k, std::vector<double>(length * k)};
  for (std::size_t p = 0; p < length; ++p) {
    double sum = 0.0;
    for (std::size_t c = 0; c < k; ++c) {
      const double e = std::exp(static_cast<double>(noise_uniform(seed, 0, p, c)));
      task.probs[p * k + c] = e;
      sum += e;
    }
    for (std::size_t c = 0; c < k; ++c) task.probs[p * k + c] /= sum;
  }
  return task;
}

std::vector<std::uint16_t> sample_toy_data(const ToyTask& task, std::size_t count,
                                           std::uint64_t seed) {
  const std::size_t l = task.length, k = task.k;
  std::vector<double> cdf(l * k);
  for (std::size_t p = 0; p < l; ++p) {
    double acc = 0.0;
    for (std::size_t c = 0; c < k; ++c) cdf[p * k + c] = acc += task.probs[p * k + c];
  }
  std::vector<std::uint16_t> letters(count * l);
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t p = 0; p < l; ++p) {
      const double u =
          noise_uniform(seed, 1, static_cast<std::uint32_t>(i), p) * cdf[p * k + k - 1];
      const double* row = cdf.data() + p * k;
      const auto it = std::upper_bound(row, row + k, u);
      letters[i * l + p] = static_cast<std::uint16_t>(std::min<std::size_t>(it - row, k - 1));
    }
  return letters;
}

double toy_kl(const ToyTask& task, const std::vector<std::uint16_t>& letters) {
  const std::size_t l = task.length, k = task.k;
  if (letters.empty() || letters.size() % l != 0)
    throw std::invalid_argument("toy_kl: letters must be a non-empty multiple of L");
  const std::size_t n = letters.size() / l;
  std::vector<double> counts(l * k, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t p = 0; p < l; ++p) counts[p * k + letters[i * l + p]] += 1.0;
  double kl = 0.0;
  for (std::size_t j = 0; j < l * k; ++j) {
    if (counts[j] == 0.0) continue;
    const double f = counts[j] / static_cast<double>(n);
    kl += f * std::log(f / task.probs[j]);
  }
  return kl / static_cast<double>(l);
}

double toy_uniform_kl(const ToyTask& task) {
  double kl = 0.0;
  const double u = 1.0 / static_cast<double>(task.k);
  for (double p : task.probs) kl += u * std::log(u / p);
  return kl / static_cast<double>(task.length);
}

Denoiser toy_exact_denoiser(const ToyTask& task, const Path& path, Method method) {
  return [&task, &path, method](ConstRows x, std::size_t sequences, double t, Rows out) {
    const std::size_t l = task.length, k = task.k;
    if (x.rows != sequences * l || x.k != k) throw std::invalid_argument("toy denoiser: bad shape");
    std::vector<double> y(k), log_prior(k), res(k);
    const double a = path.concrete_logit(t), lam = path.concrete_temperature(t);
    for (std::size_t r = 0; r < x.rows; ++r) {
      const float* xr = x.data + r * x.stride;
      const double* prior = task.probs.data() + (r % l) * k;
      if (method == Method::linear) {
        // x = t e_j + (1 - t) Dirichlet(1): the density is flat where x_j >= t, zero elsewhere.
        double sum = 0.0;
        for (std::size_t c = 0; c < k; ++c) sum += res[c] = xr[c] >= t ? prior[c] : 0.0;
        for (std::size_t c = 0; c < k; ++c) res[c] = sum > 0.0 ? res[c] / sum : prior[c];
      } else {
        for (std::size_t c = 0; c < k; ++c) {
          y[c] = std::log(std::max(static_cast<double>(xr[c]), 1e-300));
          log_prior[c] = std::log(prior[c]);
        }
        if (method == Method::gsfm) {
          clean_posterior(y.data(), log_prior.data(), k, a, lam, res.data());
        } else {
          marginal_score(y.data(), log_prior.data(), k, a, lam, res.data());
          const double kd = static_cast<double>(k);
          for (std::size_t c = 0; c < k; ++c) res[c] = 1.0 / kd + res[c] / (kd * lam);
        }
      }
      float* o = out.data + r * out.stride;
      for (std::size_t c = 0; c < k; ++c) o[c] = static_cast<float>(res[c]);
    }
  };
}

}  // namespace gsflow::engine
