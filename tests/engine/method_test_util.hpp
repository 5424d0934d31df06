// Helpers shared by the tests of the method (path, Concrete formulas, sampler).
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "gsflow/engine/path.hpp"
#include "gsflow/engine/sampler.hpp"

namespace gsflow::engine::testing {

// True when `msg` contains `field` as a whole word (so the field "k" is not matched inside
// "batch").
inline bool names_field(const std::string& msg, const std::string& field) {
  const auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = msg.find(field); at != std::string::npos; at = msg.find(field, at + 1)) {
    const std::size_t end = at + field.size();
    if ((at == 0 || !ident(msg[at - 1])) && (end == msg.size() || !ident(msg[end]))) return true;
  }
  return false;
}

inline SamplerOptions options_for(Method method, int steps, std::size_t batch = 256,
                                  std::uint64_t seed = 1) {
  SamplerOptions o;
  o.method = method;
  o.steps = steps;
  o.batch = batch;
  o.seed = seed;
  return o;
}

inline Path make_path(Interpolant interpolant) {
  PathOptions o;
  o.interpolant = interpolant;
  return Path(o);
}

// Softmax in double: the independent reference the tests compare against.
inline std::vector<double> softmax(const std::vector<double>& z) {
  const double m = *std::max_element(z.begin(), z.end());
  std::vector<double> p(z.size());
  double s = 0;
  for (std::size_t i = 0; i < z.size(); ++i) s += p[i] = std::exp(z[i] - m);
  for (double& v : p) v /= s;
  return p;
}

}  // namespace gsflow::engine::testing
