// The constraint potential and its guide (see constraint_guide.hpp).
#include "gsflow/guidance/constraint_guide.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gsflow/engine/dna_motif.hpp"

namespace gsflow::guidance {

namespace {

// The --avoid entries as IUPAC motifs on both strands (enzyme names resolved).
std::vector<engine::DnaMotif> avoided_motifs(const engine::Constraints& c) {
  std::vector<engine::DnaMotif> out;
  for (const auto& entry : c.avoid) {
    std::string site = entry;
    for (const auto& [name, motif] : engine::restriction_enzymes()) {
      const bool same = name.size() == entry.size() &&
                        std::equal(name.begin(), name.end(), entry.begin(), [](char a, char b) {
                          return std::tolower(static_cast<unsigned char>(a)) ==
                                 std::tolower(static_cast<unsigned char>(b));
                        });
      if (same) site = motif;
    }
    out.emplace_back(site);
    engine::DnaMotif rc = out.back().reverse_complement();
    if (rc.text() != out.back().text()) out.push_back(std::move(rc));
  }
  return out;
}

// Adds the expected number of matches of `motif` and its gradient.
double motif_term(const engine::DnaMotif& motif, engine::ConstRows p, std::size_t length,
                  engine::Rows grad) {
  const std::size_t m = motif.size();
  if (length < m) return 0.0;
  double total = 0.0;
  std::vector<double> s(m);
  for (std::size_t start = 0; start + m <= length; ++start) {
    for (std::size_t j = 0; j < m; ++j) {
      const float* row = p.data + (start + j) * p.stride;
      double v = 0.0;
      for (std::size_t c = 0; c < 4; ++c)
        if ((motif.mask(j) >> c) & 1u) v += row[c];
      s[j] = v;
    }
    double prod = 1.0;
    for (const double v : s) prod *= v;
    total += prod;
    for (std::size_t j = 0; j < m; ++j) {
      double others = 1.0;  // product without j (no division: s[j] may be 0)
      for (std::size_t i = 0; i < m; ++i)
        if (i != j) others *= s[i];
      if (others == 0.0) continue;
      float* g = grad.data + (start + j) * grad.stride;
      for (std::size_t c = 0; c < 4; ++c)
        if ((motif.mask(j) >> c) & 1u) g[c] += static_cast<float>(others);
    }
  }
  return total;
}

// Expected windows of `run` equal letters, and the gradient.
double run_term(std::size_t run, engine::ConstRows p, std::size_t length, std::size_t k,
                engine::Rows grad) {
  if (length < run) return 0.0;
  double total = 0.0;
  for (std::size_t start = 0; start + run <= length; ++start)
    for (std::size_t c = 0; c < k; ++c) {
      double prod = 1.0;
      for (std::size_t j = 0; j < run; ++j) prod *= p.data[(start + j) * p.stride + c];
      if (prod < 1e-12) continue;  // negligible: skip the gradient too
      total += prod;
      for (std::size_t j = 0; j < run; ++j) {
        const double v = p.data[(start + j) * p.stride + c];
        double others = 1.0;
        if (v > 1e-6) {
          others = prod / v;
        } else {
          for (std::size_t i = 0; i < run; ++i)
            if (i != j) others *= p.data[(start + i) * p.stride + c];
        }
        grad.data[(start + j) * grad.stride + c] += static_cast<float>(others);
      }
    }
  return total;
}

// (excess / w)^2 * w of one window [first, first + w) and its gradient on C and G (indices 1, 2).
double gc_window_term(const engine::Constraints& c, engine::ConstRows p, std::size_t first,
                      std::size_t w, engine::Rows grad) {
  double gc = 0.0;
  for (std::size_t i = first; i < first + w; ++i)
    gc += p.data[i * p.stride + 1] + p.data[i * p.stride + 2];
  const double lo = c.gc_min * static_cast<double>(w), hi = c.gc_max * static_cast<double>(w);
  const double excess = gc > hi ? gc - hi : gc < lo ? gc - lo : 0.0;
  if (excess == 0.0) return 0.0;
  const auto dw = static_cast<double>(w);
  const float slope = static_cast<float>(2.0 * excess / dw);
  for (std::size_t i = first; i < first + w; ++i) {
    grad.data[i * grad.stride + 1] += slope;
    grad.data[i * grad.stride + 2] += slope;
  }
  return excess * excess / dw;
}

// The potential with its motifs resolved once.
class Potential {
 public:
  explicit Potential(const engine::ConstraintSet& constraints)
      : c_(constraints.constraints()), motifs_(avoided_motifs(c_)) {}

  double operator()(engine::ConstRows p, std::size_t length, engine::Rows grad) const {
    const std::size_t k = p.k;
    for (std::size_t r = 0; r < length; ++r)
      std::fill(grad.data + r * grad.stride, grad.data + r * grad.stride + k, 0.0f);
    double v = 0.0;
    for (const auto& motif : motifs_) v += motif_term(motif, p, length, grad);
    if (c_.max_run > 0) v += run_term(c_.max_run + 1, p, length, k, grad);
    if ((c_.gc_min > 0.0 || c_.gc_max < 1.0) && k == 4) {
      v += gc_window_term(c_, p, 0, length, grad);
      if (c_.gc_window > 0 && c_.gc_window < length)
        for (std::size_t first = 0; first + c_.gc_window <= length; ++first)
          v += gc_window_term(c_, p, first, c_.gc_window, grad);
    }
    return v;
  }

 private:
  engine::Constraints c_;
  std::vector<engine::DnaMotif> motifs_;
};

}  // namespace

double constraint_potential(const engine::ConstraintSet& constraints, engine::ConstRows p,
                            std::size_t length, engine::Rows grad) {
  return Potential(constraints)(p, length, grad);
}

engine::Guide make_constraint_guide(const engine::ConstraintSet& constraints, double strength,
                                    std::function<std::size_t(std::size_t)> length_of) {
  if (!(strength > 0.0) || !constraints.active()) return {};
  auto scratch = std::make_shared<std::vector<float>>();
  auto potential = std::make_shared<const Potential>(constraints);
  return [potential, strength, length_of = std::move(length_of), scratch](
             const engine::GuideStep& step, engine::Rows drift) {
    const std::size_t k = drift.k, l = step.length;
    scratch->resize(l * k);
    for (std::size_t i = 0; i < step.sequences; ++i) {
      const std::size_t len = std::min(l, length_of(step.first_sequence + i));
      const engine::ConstRows p{step.xhat.data + i * l * step.xhat.stride, l, k,
                                step.xhat.stride};
      const engine::Rows grad{scratch->data(), l, k, k};
      if ((*potential)(p, len, grad) == 0.0) continue;
      for (std::size_t r = 0; r < len; ++r) {
        float* d = drift.data + (i * l + r) * drift.stride;
        const float* g = scratch->data() + r * k;
        for (std::size_t c = 0; c < k; ++c) d[c] -= static_cast<float>(strength) * g[c];
      }
    }
  };
}

std::function<void(const engine::CandidateStep&, std::span<double>)> penalise_violations(
    std::function<void(const engine::CandidateStep&, std::span<double>)> value,
    const engine::ConstraintSet& constraints, double strength,
    std::function<std::size_t(std::size_t)> length_of) {
  if (!(strength > 0.0) || !constraints.active()) return value;
  auto potential = std::make_shared<const Potential>(constraints);
  auto scratch = std::make_shared<std::vector<float>>();
  return [value = std::move(value), potential, strength, scratch,
          length_of = std::move(length_of)](const engine::CandidateStep& step,
                                            std::span<double> values) {
    value(step, values);
    const std::size_t l = step.length, k = step.rows.k;
    scratch->resize(l * k);
    for (std::size_t c = 0; c < step.sequences * step.candidates; ++c) {
      const std::size_t len = std::min(l, length_of(step.first_sequence + c / step.candidates));
      const engine::ConstRows p{step.rows.data + c * l * step.rows.stride, l, k, step.rows.stride};
      values[c] -= strength * (*potential)(p, len, {scratch->data(), l, k, k});
    }
  };
}

}  // namespace gsflow::guidance
