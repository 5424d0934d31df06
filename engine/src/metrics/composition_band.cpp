// Composition bands (see composition_band.hpp).
#include "gsflow/engine/metrics/composition_band.hpp"

#include "gsflow/engine/metrics/quantile.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gsflow::engine {

namespace {
bool all_pairs(const std::string& letters) { return letters.size() <= 4; }

void check(ConstRows rows, std::size_t length, const std::string& letters) {
  if (length < 2) throw std::invalid_argument("composition features: a sequence of length < 2");
  if (rows.k != letters.size())
    throw std::invalid_argument("composition features: rows of " + std::to_string(rows.k) +
                                " letters for an alphabet of " + std::to_string(letters.size()));
}
}  // namespace

std::vector<std::string> composition_feature_names(const std::string& letters) {
  std::vector<std::string> names;
  for (const char c : letters) names.emplace_back(1, c);
  if (all_pairs(letters)) {
    for (const char a : letters)
      for (const char b : letters) names.push_back(std::string{a, b});
  } else {
    names.emplace_back("same_pair");
  }
  return names;
}

std::vector<double> composition_features(ConstRows rows, std::size_t length,
                                         const std::string& letters) {
  check(rows, length, letters);
  const std::size_t k = letters.size();
  std::vector<double> f(composition_feature_names(letters).size(), 0.0);
  for (std::size_t i = 0; i < length; ++i) {
    const float* x = rows.data + i * rows.stride;
    for (std::size_t c = 0; c < k; ++c) f[c] += x[c];
    if (i + 1 == length) continue;
    const float* y = x + rows.stride;
    if (all_pairs(letters)) {
      for (std::size_t a = 0; a < k; ++a)
        for (std::size_t b = 0; b < k; ++b) f[k + a * k + b] += double{x[a]} * y[b];
    } else {
      for (std::size_t c = 0; c < k; ++c) f[k] += double{x[c]} * y[c];
    }
  }
  for (std::size_t c = 0; c < k; ++c) f[c] /= static_cast<double>(length);
  for (std::size_t j = k; j < f.size(); ++j) f[j] /= static_cast<double>(length - 1);
  return f;
}

std::vector<double> CompositionBand::features(ConstRows rows, std::size_t length) const {
  auto f = composition_features(rows, length, letters);
  const std::size_t k = letters.size();
  for (const auto& lin : linear) {
    double v = 0.0;
    for (std::size_t c = 0; c < k; ++c) v += lin.weights[c] * f[c];
    f.push_back(v);
  }
  return f;
}

CompositionBand CompositionBand::fit(const SequenceSet& reference, const std::string& letters,
                                     double quantile, std::vector<LinearFeature> linear) {
  if (!(quantile > 0.0 && quantile < 0.5))
    throw std::invalid_argument("composition band: the quantile must be in (0, 0.5)");
  const std::size_t k = letters.size();
  CompositionBand band;
  band.letters = letters;
  band.names = composition_feature_names(letters);
  for (const auto& lin : linear) {
    if (lin.weights.size() != k)
      throw std::invalid_argument("composition band: feature " + lin.name + " needs " +
                                  std::to_string(k) + " weights");
    band.names.push_back(lin.name);
  }
  band.linear = std::move(linear);
  band.quantile = quantile;
  std::vector<std::vector<double>> columns(band.names.size());
  std::vector<float> one_hot;
  for (const auto& seq : reference) {
    if (seq.size() < 2) continue;
    one_hot.assign(seq.size() * k, 0.0f);
    for (std::size_t i = 0; i < seq.size(); ++i) {
      if (seq[i] >= k) throw std::invalid_argument("composition band: letter index out of range");
      one_hot[i * k + seq[i]] = 1.0f;
    }
    const auto f = band.features({one_hot.data(), seq.size(), k, k}, seq.size());
    for (std::size_t j = 0; j < f.size(); ++j) columns[j].push_back(f[j]);
  }
  band.reference_size = columns[0].size();
  if (band.reference_size < 10)
    throw std::invalid_argument("composition band: " + std::to_string(band.reference_size) +
                                " reference sequences; at least 10 are needed");
  for (auto& column : columns) {
    double mean = 0.0;
    for (const double v : column) mean += v;
    mean /= static_cast<double>(column.size());
    double var = 0.0;
    for (const double v : column) var += (v - mean) * (v - mean);
    band.low.push_back(engine::quantile(column, quantile));
    band.high.push_back(engine::quantile(column, 1.0 - quantile));
    // A feature that never varies (a letter the class lacks) still gets a finite scale.
    band.scale.push_back(std::max(std::sqrt(var / static_cast<double>(column.size())), 1e-3));
  }
  return band;
}

double CompositionBand::score(ConstRows rows, std::size_t length, Rows* grad) const {
  const auto f = features(rows, length);
  const std::size_t k = letters.size();
  // d score / d feature.
  std::vector<double> d(f.size(), 0.0);
  double s = 0.0;
  for (std::size_t j = 0; j < f.size(); ++j) {
    const double out = f[j] > high[j] ? f[j] - high[j] : f[j] < low[j] ? f[j] - low[j] : 0.0;
    // Huber: quadratic up to one standard deviation outside, linear beyond, so that the pull on
    // a far-out design stays bounded (docs/method.md §10).
    const double z = out / scale[j];
    const double a = std::abs(z);
    s -= a <= 1.0 ? z * z : 2.0 * a - 1.0;
    d[j] = -2.0 * (a <= 1.0 ? z : (z > 0 ? 1.0 : -1.0)) / scale[j];
  }
  if (grad == nullptr) return s;
  // A linear feature is a sum of letter fractions: its derivative joins theirs.
  const std::size_t first_linear = f.size() - linear.size();
  for (std::size_t j = 0; j < linear.size(); ++j)
    for (std::size_t c = 0; c < k; ++c) d[c] += d[first_linear + j] * linear[j].weights[c];
  const double inv_l = 1.0 / static_cast<double>(length);
  const double inv_pairs = 1.0 / static_cast<double>(length - 1);
  for (std::size_t i = 0; i < length; ++i) {
    float* g = grad->data + i * grad->stride;
    const float* x = rows.data + i * rows.stride;
    const float* prev = i > 0 ? x - rows.stride : nullptr;
    const float* next = i + 1 < length ? x + rows.stride : nullptr;
    for (std::size_t c = 0; c < k; ++c) {
      double v = d[c] * inv_l;
      if (all_pairs(letters)) {
        // f_ab gets x_i[a] x_{i+1}[b]: position i as the first letter, and as the second.
        for (std::size_t b = 0; next && b < k; ++b) v += d[k + c * k + b] * next[b] * inv_pairs;
        for (std::size_t a = 0; prev && a < k; ++a) v += d[k + a * k + c] * prev[a] * inv_pairs;
      } else {
        if (next) v += d[k] * next[c] * inv_pairs;
        if (prev) v += d[k] * prev[c] * inv_pairs;
      }
      g[c] = static_cast<float>(v);
    }
  }
  return s;
}

std::vector<std::string> CompositionBand::outside(ConstRows rows, std::size_t length) const {
  const auto f = features(rows, length);
  std::vector<std::string> out;
  char buf[96];
  for (std::size_t j = 0; j < f.size(); ++j) {
    if (f[j] > high[j])
      std::snprintf(buf, sizeof buf, "%s %.3g > %.3g", names[j].c_str(), f[j], high[j]);
    else if (f[j] < low[j])
      std::snprintf(buf, sizeof buf, "%s %.3g < %.3g", names[j].c_str(), f[j], low[j]);
    else
      continue;
    out.emplace_back(buf);
  }
  return out;
}

}  // namespace gsflow::engine
