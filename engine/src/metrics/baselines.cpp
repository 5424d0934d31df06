// The PWM baseline and subsampling (see metrics/baselines.hpp).
#include "gsflow/engine/metrics/baselines.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "gsflow/engine/dna_motif.hpp"
#include "metrics/checks.hpp"

namespace gsflow::engine {

using namespace metrics_detail;

// ---- baselines ---------------------------------------------------------------------------------

PwmModel PwmModel::fit(const SequenceSet& training, std::size_t K, double pseudocount) {
  validate(training, K, "training");
  if (!(pseudocount >= 0.0)) throw std::invalid_argument("PwmModel::fit: pseudocount must be >= 0");
  PwmModel m;
  m.k_ = K;
  for (const Sequence& s : training) m.max_length_ = std::max(m.max_length_, s.size());
  m.probs_.assign(m.max_length_ * K, pseudocount);
  m.length_probs_.assign(m.max_length_ + 1, 0.0);
  std::vector<double> covered(m.max_length_, pseudocount * static_cast<double>(K));
  for (const Sequence& s : training) {
    for (std::size_t p = 0; p < s.size(); ++p) {
      m.probs_[p * K + s[p]] += 1.0;
      covered[p] += 1.0;
    }
    m.length_probs_[s.size()] += 1.0;
  }
  for (std::size_t p = 0; p < m.max_length_; ++p)
    for (std::size_t c = 0; c < K; ++c) m.probs_[p * K + c] /= covered[p];
  for (double& v : m.length_probs_) v /= static_cast<double>(training.size());
  return m;
}

SequenceSet PwmModel::sample(std::size_t n, std::uint64_t seed) const {
  const std::uint32_t rows = check_rows(n);
  std::vector<double> length_cdf(length_probs_.size());
  std::partial_sum(length_probs_.begin(), length_probs_.end(), length_cdf.begin());
  std::vector<double> cdf(probs_.size());
  for (std::size_t p = 0; p < max_length_; ++p)
    std::partial_sum(probs_.begin() + p * k_, probs_.begin() + (p + 1) * k_, cdf.begin() + p * k_);
  SequenceSet out(n);
  for (std::uint32_t i = 0; i < rows; ++i) {
    const std::size_t length =
        draw(length_cdf.data(), length_cdf.size(), noise_uniform(seed, 1, i, 0));
    out[i].resize(length);
    for (std::size_t p = 0; p < length; ++p)
      out[i][p] =
          static_cast<std::uint8_t>(draw(cdf.data() + p * k_, k_, noise_uniform(seed, 0, i, p)));
  }
  return out;
}

SequenceSet PwmModel::sample(std::size_t n, std::size_t length, std::uint64_t seed) const {
  if (length == 0 || length > max_length_)
    throw std::invalid_argument("PwmModel::sample: length " + std::to_string(length) +
                                " is not in 1.." + std::to_string(max_length_));
  const std::uint32_t rows = check_rows(n);
  std::vector<double> cdf(length * k_);
  for (std::size_t p = 0; p < length; ++p)
    std::partial_sum(probs_.begin() + p * k_, probs_.begin() + (p + 1) * k_, cdf.begin() + p * k_);
  SequenceSet out(n, Sequence(length));
  for (std::uint32_t i = 0; i < rows; ++i)
    for (std::size_t p = 0; p < length; ++p)
      out[i][p] =
          static_cast<std::uint8_t>(draw(cdf.data() + p * k_, k_, noise_uniform(seed, 0, i, p)));
  return out;
}

SequenceSet sample_subset(const SequenceSet& set, std::size_t n, std::uint64_t seed) {
  if (set.empty()) throw std::invalid_argument("sample_subset: set is empty");
  check_rows(set.size());
  const std::size_t m = std::min(n, set.size());
  std::vector<std::size_t> index(set.size());
  std::iota(index.begin(), index.end(), std::size_t{0});
  for (std::size_t i = 0; i < m; ++i) {  // partial Fisher-Yates
    const std::size_t j = i + scale(raw_bits(seed, kSubsetStream, i)[0], set.size() - i);
    std::swap(index[i], index[j]);
  }
  SequenceSet out;
  out.reserve(m);
  for (std::size_t i = 0; i < m; ++i) out.push_back(set[index[i]]);
  return out;
}

}  // namespace gsflow::engine
