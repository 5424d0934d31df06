// Schedule and interpolant coefficients of the Gumbel-softmax path (see path.hpp).
#include "gsflow/engine/path.hpp"

#include <cmath>
#include <stdexcept>

namespace gsflow::engine {

const char* interpolant_name(Interpolant interpolant) { return kInterpolantNames.name(interpolant); }
Interpolant parse_interpolant(const std::string& text, const std::string& field) {
  return kInterpolantNames.parse(text, field);
}

Path::Path(const PathOptions& options) : options_(options) {
  const auto positive = [](double v, const char* name) {
    if (!(v > 0.0) || !std::isfinite(v))
      throw std::invalid_argument(std::string(name) + " must be a positive number");
  };
  positive(options_.tau_max, "tau_max");
  positive(options_.lambda, "lambda");
  positive(options_.beta, "beta");
  if (!(options_.signal_max >= 0.0) || !std::isfinite(options_.signal_max))
    throw std::invalid_argument("signal_max must be >= 0 (0 = e^lambda - 1)");
  if (options_.signal_max == 0.0) options_.signal_max = std::expm1(options_.lambda);
}

double Path::tau(double t) const { return options_.tau_max * std::exp(-options_.lambda * t); }

double Path::signal(double t) const {
  if (options_.interpolant == Interpolant::paper) return 1.0 / tau(t);
  return options_.signal_max * std::expm1(options_.lambda * t) / std::expm1(options_.lambda);
}

double Path::signal_rate(double t) const {
  if (options_.interpolant == Interpolant::paper) return options_.lambda / tau(t);
  return options_.signal_max * options_.lambda * std::exp(options_.lambda * t) /
         std::expm1(options_.lambda);
}

double Path::noise_scale(double t) const {
  if (options_.interpolant == Interpolant::paper) return 1.0 / (options_.beta * tau(t));
  return 1.0;
}

}  // namespace gsflow::engine
