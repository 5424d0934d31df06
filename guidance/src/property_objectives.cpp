// Property objectives with exact gradients on one-hot input (see property_objectives.hpp).
#include "property_objectives.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "gsflow/engine/metrics/tata.hpp"
#include "gsflow/guidance/motif.hpp"
#include "gsflow/guidance/properties.hpp"

namespace gsflow::guidance::detail {

namespace {

constexpr const auto& kCharge = kChargeAtPh7;

double parse_target(const std::string& spec, const std::string& arg) {
  std::size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(arg, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != arg.size() || !std::isfinite(v))
    throw std::invalid_argument("--guide " + spec + ": '" + arg + "' is not a number (the target)");
  return v;
}

// score = sum_p w[letter_p] (divided by the length when `per_letter`), or -|that - target|.
class LinearObjective final : public Objective {
 public:
  LinearObjective(ObjectiveInfo info, std::vector<double> weights, bool per_letter,
                  std::optional<double> target)
      : info_(std::move(info)), w_(std::move(weights)), per_letter_(per_letter), target_(target) {
    info_.extensive = per_letter;
  }
  const ObjectiveInfo& info() const override { return info_; }

  void evaluate(const SequenceRows& s, std::span<double> scores,
                const engine::Rows* grad) const override {
    const std::size_t k = info_.k;
    for (std::size_t i = 0; i < s.n; ++i) {
      const std::size_t len = s.length_of(i);
      double sum = 0.0;
      for (std::size_t p = 0; p < len; ++p) {
        const float* row = s.x.data + (i * s.length + p) * s.x.stride;
        for (std::size_t c = 0; c < k; ++c) sum += w_[c] * row[c];
      }
      const double scale = per_letter_ ? 1.0 / static_cast<double>(std::max<std::size_t>(len, 1)) : 1.0;
      const double value = sum * scale;
      // The potential is length x score for per-letter scores (ObjectiveInfo::extensive), so its
      // gradient is the unscaled weight.
      const double grad_scale = per_letter_ ? 1.0 : scale;
      // d score / d value: 1, or -sign(value - target) (0 exactly at the target).
      double slope = 1.0;
      if (target_) {
        scores[i] = -std::abs(value - *target_);
        slope = value > *target_ ? -1.0 : value < *target_ ? 1.0 : 0.0;
      } else {
        scores[i] = value;
      }
      if (!grad) continue;
      for (std::size_t p = 0; p < s.length; ++p) {
        float* g = grad->data + (i * s.length + p) * grad->stride;
        for (std::size_t c = 0; c < k; ++c)
          g[c] = p < len ? static_cast<float>(slope * grad_scale * w_[c]) : 0.0f;
      }
    }
  }

 private:
  ObjectiveInfo info_;
  std::vector<double> w_;
  bool per_letter_;
  std::optional<double> target_;
};

// score = log2 sum_sites 2^(site log-odds) (bits), per site when `per_site`: a soft maximum over
// sites whose gradient weights each site by its share of the total odds.
class MotifObjective final : public Objective {
 public:
  MotifObjective(ObjectiveInfo info, Pwm pwm, bool per_site)
      : info_(std::move(info)), pwm_(std::move(pwm)), per_site_(per_site) {}
  const ObjectiveInfo& info() const override { return info_; }

  void evaluate(const SequenceRows& s, std::span<double> scores,
                const engine::Rows* grad) const override {
    const std::size_t w = pwm_.log_odds.size();
    std::vector<double> site;
    for (std::size_t i = 0; i < s.n; ++i) {
      const std::size_t len = s.length_of(i);
      if (len < w)
        throw std::invalid_argument("--guide " + info_.name + ": a sequence of " +
                                    std::to_string(len) + " letters is shorter than the motif (" +
                                    std::to_string(w) + ")");
      const std::size_t sites = len - w + 1;
      site.assign(sites, 0.0);
      double top = -1e300;
      for (std::size_t q = 0; q < sites; ++q) {
        for (std::size_t j = 0; j < w; ++j) {
          const float* row = s.x.data + (i * s.length + q + j) * s.x.stride;
          for (std::size_t c = 0; c < 4; ++c) site[q] += pwm_.log_odds[j][c] * row[c];
        }
        top = std::max(top, site[q]);
      }
      double total = 0.0;
      for (double& v : site) total += (v = std::exp2(v - top));
      scores[i] = top + std::log2(total) - (per_site_ ? std::log2(static_cast<double>(sites)) : 0.0);
      if (!grad) continue;
      for (std::size_t p = 0; p < s.length; ++p)
        std::fill_n(grad->data + (i * s.length + p) * grad->stride, 4, 0.0f);
      for (std::size_t q = 0; q < sites; ++q) {
        const double share = site[q] / total;  // d score / d site score
        for (std::size_t j = 0; j < w; ++j) {
          float* g = grad->data + (i * s.length + q + j) * grad->stride;
          for (std::size_t c = 0; c < 4; ++c) g[c] += static_cast<float>(share * pwm_.log_odds[j][c]);
        }
      }
    }
  }

 private:
  ObjectiveInfo info_;
  Pwm pwm_;
  bool per_site_;
};

// Number of TATAWAWR matches (the TATA box, data.md) in the argmax letters: no gradient.
class TataObjective final : public Objective {
 public:
  explicit TataObjective(ObjectiveInfo info) : info_(std::move(info)) {}
  const ObjectiveInfo& info() const override { return info_; }

  void evaluate(const SequenceRows& s, std::span<double> scores,
                const engine::Rows* grad) const override {
    if (grad) throw std::logic_error("tata has no gradient");
    std::vector<std::uint8_t> letters;
    for (std::size_t i = 0; i < s.n; ++i) {
      const std::size_t len = s.length_of(i);
      letters.resize(len);
      for (std::size_t p = 0; p < len; ++p) {
        const float* row = s.x.data + (i * s.length + p) * s.x.stride;
        letters[p] = static_cast<std::uint8_t>(std::max_element(row, row + 4) - row);
      }
      double count = 0.0;
      for (std::size_t q = 0; q + engine::kTataLength <= len; ++q)
        count += engine::tata_at(letters, q) ? 1.0 : 0.0;
      scores[i] = count;
    }
  }

 private:
  ObjectiveInfo info_;
};

void require(const std::string& spec, const std::string& alphabet, const std::string& wanted) {
  if (alphabet != wanted)
    throw std::invalid_argument("--guide " + spec + ": this objective is for " +
                                (wanted == "dna" ? "DNA" : "protein") + " models, not " +
                                (alphabet.empty() ? "this model" : alphabet));
}

}  // namespace

std::shared_ptr<const Objective> make_property_objective(const std::string& spec,
                                                         const std::string& name,
                                                         const std::string& arg,
                                                         const std::string& alphabet) {
  const auto target_of = [&]() -> std::optional<double> {
    if (arg.empty()) return std::nullopt;
    return parse_target(spec, arg);
  };
  if (name == "gc") {
    const auto target = target_of();
    require(spec, alphabet, "dna");
    if (target && (*target < 0.0 || *target > 1.0))
      throw std::invalid_argument("--guide " + spec + ": the GC target must be in 0..1");
    return std::make_shared<LinearObjective>(
        ObjectiveInfo{spec, "dna", 4, target ? "-|GC fraction - target|" : "GC fraction"},
        std::vector<double>{0, 1, 1, 0}, true, target);
  }
  if (name == "gravy") {
    require(spec, alphabet, "protein");
    const auto target = target_of();
    return std::make_shared<LinearObjective>(
        ObjectiveInfo{spec, "protein", 20,
                      target ? "-|GRAVY - target|" : "GRAVY (mean Kyte-Doolittle hydropathy)"},
        std::vector<double>(kKyteDoolittle.begin(), kKyteDoolittle.end()), true, target);
  }
  if (name == "charge" || name == "charge-norm") {
    require(spec, alphabet, "protein");
    const bool norm = name == "charge-norm";
    const auto target = target_of();
    std::string what = norm ? "net charge per residue at pH 7" : "net charge at pH 7";
    return std::make_shared<LinearObjective>(
        ObjectiveInfo{spec, "protein", 20, target ? "-|" + what + " - target|" : what},
        std::vector<double>(kCharge.begin(), kCharge.end()), norm, target);
  }
  if (name == "motif" || name == "motif-norm") {
    require(spec, alphabet, "dna");
    std::string file = arg, id;
    if (const auto hash = file.rfind('#'); hash != std::string::npos) {
      id = file.substr(hash + 1);
      file = file.substr(0, hash);
    }
    Pwm pwm = read_jaspar(file.empty() ? bundled_motif_file() : file, id);
    const bool norm = name == "motif-norm";
    std::string what = "log2 " + std::string(norm ? "mean" : "summed") + " odds ratio of " +
                       pwm.id + " " + pwm.name + (norm ? " per site" : " over all sites");
    return std::make_shared<MotifObjective>(ObjectiveInfo{spec, "dna", 4, what}, std::move(pwm),
                                            norm);
  }
  if (name == "tata") {
    require(spec, alphabet, "dna");
    if (!arg.empty())
      throw std::invalid_argument("--guide " + spec + ": tata takes no argument");
    ObjectiveInfo info{spec, "dna", 4, "number of TATAWAWR matches"};
    info.differentiable = false;
    return std::make_shared<TataObjective>(info);
  }
  return nullptr;
}

std::vector<std::string> property_objective_names(const std::string& alphabet) {
  if (alphabet == "dna") return {"gc", "motif", "motif-norm", "tata"};
  if (alphabet == "protein") return {"gravy", "charge", "charge-norm"};
  return {};
}

}  // namespace gsflow::guidance::detail
