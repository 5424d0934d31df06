// Concrete / ExpConcrete densities, scores and posteriors in double precision (see concrete.hpp).
#include "gsflow/engine/concrete.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gsflow::engine {
namespace {

double logsumexp(const double* v, std::size_t k) {
  const double m = *std::max_element(v, v + k);
  if (!std::isfinite(m)) return m;
  double s = 0.0;
  for (std::size_t i = 0; i < k; ++i) s += std::exp(v[i] - m);
  return m + std::log(s);
}

double log_normaliser(std::size_t k, double temperature) {
  return std::lgamma(static_cast<double>(k)) + static_cast<double>(k - 1) * std::log(temperature);
}

// log(e^p + e^q) without overflow.
double logaddexp(double p, double q) {
  const double m = std::max(p, q);
  if (m == -INFINITY) return m;
  return m + std::log(std::exp(p - m) + std::exp(q - m));
}

}  // namespace

double exp_concrete_log_density(const double* y, const double* logits, std::size_t k,
                                double temperature) {
  std::vector<double> v(k);
  double linear = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    v[i] = logits[i] - temperature * y[i];
    linear += v[i];
  }
  return log_normaliser(k, temperature) + linear - static_cast<double>(k) * logsumexp(v.data(), k);
}

double concrete_log_density(const double* x, const double* logits, std::size_t k,
                            double temperature) {
  // Change of variables y = log x on the first k-1 coordinates adds -sum_i log x_i.
  std::vector<double> y(k);
  double jacobian = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    y[i] = std::log(x[i]);
    jacobian -= y[i];
  }
  return exp_concrete_log_density(y.data(), logits, k, temperature) + jacobian;
}

void exp_concrete_score(const double* y, const double* logits, std::size_t k, double temperature,
                        double* score) {
  std::vector<double> v(k);
  for (std::size_t i = 0; i < k; ++i) v[i] = logits[i] - temperature * y[i];
  const double lse = logsumexp(v.data(), k);
  const double kl = static_cast<double>(k) * temperature;
  for (std::size_t i = 0; i < k; ++i) score[i] = -temperature + kl * std::exp(v[i] - lse);
}

void clean_posterior(const double* y, const double* log_prior, std::size_t k, double a,
                     double temperature, double* posterior) {
  // p(x | e_j) is proportional to e^a / (sum_i x_i^-lam + (e^a - 1) x_j^-lam)^k with u = -lam y.
  std::vector<double> u(k);
  for (std::size_t i = 0; i < k; ++i) u[i] = -temperature * y[i];
  const double lse = logsumexp(u.data(), k);
  const double log_gain = a > 0.0 ? std::log(std::expm1(a)) : -INFINITY;
  for (std::size_t j = 0; j < k; ++j)
    posterior[j] = log_prior[j] - static_cast<double>(k) * logaddexp(lse, log_gain + u[j]);
  const double norm = logsumexp(posterior, k);
  for (std::size_t j = 0; j < k; ++j) posterior[j] = std::exp(posterior[j] - norm);
}

void marginal_score(const double* y, const double* log_prior, std::size_t k, double a,
                    double temperature, double* score) {
  // sum_j P_j softmax(a e_j - lam y) in O(k): with w = softmax(-lam y) and
  // r_j = 1 / (1 + (e^a - 1) w_j), component i is w_i (sum_j P_j r_j + (e^a - 1) P_i r_i).
  std::vector<double> post(k), w(k);
  clean_posterior(y, log_prior, k, a, temperature, post.data());
  for (std::size_t i = 0; i < k; ++i) w[i] = -temperature * y[i];
  const double lse = logsumexp(w.data(), k);
  const double gain = std::expm1(a);
  double mix = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    w[i] = std::exp(w[i] - lse);
    mix += post[i] / (1.0 + gain * w[i]);
  }
  const double kl = static_cast<double>(k) * temperature;
  for (std::size_t i = 0; i < k; ++i) {
    const double q = w[i] * (mix + gain * post[i] / (1.0 + gain * w[i]));
    score[i] = -temperature + kl * q;
  }
}

void posterior_from_score(const double* y, const double* q, std::size_t k, double a,
                          double temperature, double* posterior) {
  // With u_i = -lam y_i, D_j = sum_i e^{u_i} + (e^a - 1) e^{u_j} and P = posterior:
  //   q_i = e^{u_i} (c + (e^a - 1) P_i / D_i),  c = sum_j P_j / D_j.
  // sum_i P_i = 1 fixes c; everything is scaled by e^{-max u} to stay finite.
  std::vector<double> u(k), d(k);
  double m = -INFINITY;
  for (std::size_t i = 0; i < k; ++i) {
    u[i] = -temperature * y[i];
    m = std::max(m, u[i]);
  }
  const double gain = std::expm1(a);
  double s = 0.0;
  for (std::size_t i = 0; i < k; ++i) s += std::exp(u[i] - m);
  double d_sum = 0.0, w_sum = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    d[i] = s + gain * std::exp(u[i] - m);
    d_sum += d[i];
    w_sum += q[i] * std::exp(m - u[i]);
  }
  const double c = s * w_sum / d_sum;
  double total = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    posterior[i] = std::max(0.0, (q[i] * std::exp(m - u[i]) - c) * d[i] / gain);
    total += posterior[i];
  }
  if (!(total > 0.0) || !std::isfinite(total)) {
    std::fill(posterior, posterior + k, 1.0 / static_cast<double>(k));
    return;
  }
  for (std::size_t i = 0; i < k; ++i) posterior[i] /= total;
}

}  // namespace gsflow::engine
