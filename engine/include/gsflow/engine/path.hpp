// The probability path of Gumbel-Softmax flow and score matching (method.md sections 1-3): the
// schedule tau(t), the interpolant x_t = softmax(A(t) x_1 + S(t) g), and the Linear FM baseline
// path.
#pragma once

#include "gsflow/engine/enum_names.hpp"

#include <string>

namespace gsflow::engine {

// Which interpolant a model is trained and sampled with.
enum class Interpolant {
  // The paper's reading: x_t = softmax((x_1 + g / beta) / tau(t)), tau(t) = tau_max exp(-lambda t):
  // A = 1 / tau, S = 1 / (beta tau). The noise-free flow ignores the growing noise (method.md 1b).
  paper,
  // Noise fixed in logit space, signal growing: x_t = softmax(A(t) x_1 + g),
  // A(t) = signal_max (e^{lambda t} - 1) / (e^lambda - 1), S = 1. Its noise-free flow is exact.
  consistent,
};

inline constexpr EnumNames<Interpolant, 2> kInterpolantNames{
    "interpolant", {{{Interpolant::paper, "paper"}, {Interpolant::consistent, "consistent"}}}};
const char* interpolant_name(Interpolant interpolant);
// Parses "paper" / "consistent"; throws std::invalid_argument naming `field` otherwise.
Interpolant parse_interpolant(const std::string& text, const std::string& field = "interpolant");

struct PathOptions {
  Interpolant interpolant = Interpolant::consistent;  // see above
  double tau_max = 10.0;                              // tau(0) of the paper's schedule
  double lambda = 3.0;                                // decay rate of tau(t) (both interpolants)
  double beta = 2.0;                                  // noise divisor of the paper's interpolant
  double signal_max = 0.0;  // consistent: A(1); 0 means e^lambda - 1 (the 1/tau of method.md 1b)
};

// x_t = softmax(A(t) e_k + S(t) g) for clean letter k, g i.i.d. Gumbel(0, 1). In Concrete terms
// (Maddison et al.) x_t ~ Concrete(logits a(t) e_k, temperature 1 / S(t)) with a = A / S.
class Path {
 public:
  explicit Path(const PathOptions& options = {});  // throws std::invalid_argument on bad values

  const PathOptions& options() const { return options_; }
  double tau(double t) const;          // tau_max exp(-lambda t)
  double signal(double t) const;       // A(t): logit gap given to the clean letter
  double signal_rate(double t) const;  // dA/dt: the model velocity's scale (lambda/tau for paper)
  double noise_scale(double t) const;  // S(t): multiplier of the Gumbel noise in logit space
  double concrete_logit(double t) const { return signal(t) / noise_scale(t); }  // a(t)
  double concrete_temperature(double t) const { return 1.0 / noise_scale(t); }  // lambda_c(t)
  // Log-space step of the exact exponential integrator from t0 to t1: A(t1) - A(t0).
  double step(double t0, double t1) const { return signal(t1) - signal(t0); }

 private:
  PathOptions options_;
};

}  // namespace gsflow::engine
