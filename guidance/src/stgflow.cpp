// STGFlow guidance (see stgflow.hpp and docs/method.md "Guidance").
#include "gsflow/guidance/stgflow.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "gsflow/engine/philox.hpp"

namespace gsflow::guidance {

void substitution_scan(const Objective& objective, engine::ConstRows one_hot, std::size_t length,
                       engine::Rows delta) {
  const std::size_t k = one_hot.k;
  // Variant 0 is the sequence itself; then one per (position, other letter).
  const std::size_t variants = 1 + length * (k - 1);
  std::vector<float> rows(variants * length * k, 0.0f);
  std::vector<std::uint8_t> letter(length);
  for (std::size_t p = 0; p < length; ++p) {
    const float* r = one_hot.data + p * one_hot.stride;
    letter[p] = static_cast<std::uint8_t>(std::max_element(r, r + k) - r);
  }
  std::size_t v = 0;
  const auto put = [&](std::size_t pos, std::size_t c) {
    float* base = rows.data() + v * length * k;
    for (std::size_t p = 0; p < length; ++p) base[p * k + letter[p]] = 1.0f;
    if (pos < length) {
      base[pos * k + letter[pos]] = 0.0f;
      base[pos * k + c] = 1.0f;
    }
    ++v;
  };
  put(length, 0);
  for (std::size_t p = 0; p < length; ++p)
    for (std::size_t c = 0; c < k; ++c)
      if (c != letter[p]) put(p, c);
  std::vector<double> scores(variants);
  const std::vector<std::uint16_t> lengths(variants, static_cast<std::uint16_t>(length));
  objective.evaluate({{rows.data(), variants * length, k, k}, variants, length, lengths}, scores,
                     nullptr);
  const auto& info = objective.info();
  const double base = potential(info, scores[0], length);
  v = 1;
  for (std::size_t p = 0; p < length; ++p) {
    float* d = delta.data + p * delta.stride;
    for (std::size_t c = 0; c < k; ++c)
      d[c] = c == letter[p] ? 0.0f : static_cast<float>(potential(info, scores[v++], length) - base);
  }
}

namespace {

// Noise stream of the guide's draws; distinct from the sampler's (purpose << 32 | step) streams.
constexpr std::uint64_t kGuideStream = 0x47554944ULL << 32;  // "GUID"

class Stgflow {
 public:
  Stgflow(std::vector<std::shared_ptr<const Objective>> objectives, GuidanceOptions options,
          std::uint64_t seed, std::function<std::size_t(std::size_t)> length_of,
          StepScoreSink sink, GuidanceStats* stats)
      : objectives_(std::move(objectives)),
        opt_(std::move(options)),
        seed_(seed),
        length_of_(std::move(length_of)),
        sink_(std::move(sink)),
        stats_(stats) {
    check_guidance(opt_);
    if (objectives_.size() != opt_.terms.size())
      throw std::invalid_argument("guidance: one objective per term is needed");
  }

  void operator()(const engine::GuideStep& step, engine::Rows drift) {
    const auto t_start = std::chrono::steady_clock::now();
    const double gamma = gamma_at(opt_, step.t0);
    if (gamma == 0.0) return;  // the drift stays zero: the sampler takes the unguided path
    const std::size_t n = step.sequences, l = step.length, k = step.x.k;
    const std::size_t m_count = static_cast<std::size_t>(opt_.samples), total = m_count * n;
    // The M draws of every sequence: draw m of sequence i is sequence m * n + i of the batch.
    lengths_.resize(total);
    for (std::size_t i = 0; i < n; ++i) {
      const auto len = static_cast<std::uint16_t>(std::min(length_of_(step.first_sequence + i), l));
      for (std::size_t m = 0; m < m_count; ++m) lengths_[m * n + i] = len;
    }
    // Draws from the state or the prediction (GuideFrom, and ObjectiveInfo::on_prediction): each
    // set drawn at most once per step, with the same noise.
    bool drawn_state = false, drawn_xhat = false;
    const auto draws_for = [&](bool xhat) -> const std::vector<float>& {
      std::vector<float>& hard = xhat ? hard_xhat_ : hard_;
      bool& drawn = xhat ? drawn_xhat : drawn_state;
      if (!drawn) draw(step, xhat ? step.xhat : step.x, hard);
      drawn = true;
      return hard;
    };
    scores_.resize(total);
    grad_.resize(total * l * k);
    engine::Rows grad{grad_.data(), total * l, k, k};
    for (std::size_t j = 0; j < objectives_.size(); ++j) {
      const Objective& objective = *objectives_[j];
      const std::vector<float>& hard =
          draws_for(opt_.from == GuideFrom::prediction || objective.info().on_prediction);
      const SequenceRows draws{{hard.data(), total * l, k, k}, total, l, lengths_};
      if (objective.info().differentiable) {
        objective.evaluate(draws, scores_, &grad);
        require_finite(objective, scores_, &grad);
        if (stats_) stats_->objective_calls += total;
      } else {
        objective.evaluate(draws, scores_, nullptr);
        require_finite(objective, scores_);
        for (std::size_t s = 0; s < total; ++s) {
          const std::size_t len = lengths_[s];
          substitution_scan(objective, {hard.data() + s * l * k, len, k, k}, len,
                            {grad_.data() + s * l * k, len, k, k});
          std::fill(grad_.begin() + static_cast<std::ptrdiff_t>((s * l + len) * k),
                    grad_.begin() + static_cast<std::ptrdiff_t>((s + 1) * l * k), 0.0f);
        }
        if (stats_) stats_->objective_calls += total * (1 + (l * (k - 1)));
      }
      // drift += gamma * weight * mean over the M draws of the gradient.
      const float scale = static_cast<float>(gamma * opt_.terms[j].weight / m_count);
      for (std::size_t m = 0; m < m_count; ++m)
        for (std::size_t i = 0; i < n; ++i) {
          const float* g = grad_.data() + (m * n + i) * l * k;
          for (std::size_t p = 0; p < lengths_[i]; ++p) {
            float* d = drift.data + (i * l + p) * drift.stride;
            for (std::size_t c = 0; c < k; ++c) d[c] += scale * g[p * k + c];
          }
        }
      if (sink_) {
        double sum = 0.0;
        for (double s : scores_) sum += s;
        sink_({step.first_sequence, step.step, opt_.terms[j].objective, sum / total});
      }
    }
    if (stats_)
      stats_->seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  }

 private:
  // One letter per real position of each of the M * n draws, from the rows of `src`, as one-hot
  // rows in `hard` ([M * n * l, K]).
  void draw(const engine::GuideStep& step, engine::ConstRows src, std::vector<float>& hard) const {
    const std::size_t n = step.sequences, l = step.length, k = step.x.k;
    const std::size_t m_count = static_cast<std::size_t>(opt_.samples);
    hard.assign(m_count * n * l * k, 0.0f);
    const engine::PhiloxKey key{static_cast<std::uint32_t>(seed_),
                                static_cast<std::uint32_t>(seed_ >> 32)};
    for (std::size_t m = 0; m < m_count; ++m) {
      const std::uint64_t stream =
          kGuideStream | (static_cast<std::uint64_t>(step.step) * 64 + m);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t p = 0; p < lengths_[i]; ++p) {
          const float* row = src.data + (i * l + p) * src.stride;
          const auto global_row = static_cast<std::uint32_t>((step.first_sequence + i) * l + p);
          // Gumbel-max, argmax_c log x_c - log(-log u_c) = argmax_c x_c / (-log u_c): a draw
          // from the row, with the uniforms of noise_uniform (one Philox block per 4 letters).
          std::size_t best = 0;
          float best_value = -1.0f;
          for (std::size_t c0 = 0; c0 < k; c0 += 4) {
            const engine::PhiloxCounter bits = engine::philox4x32_10(
                {static_cast<std::uint32_t>(c0 / 4), global_row, static_cast<std::uint32_t>(stream),
                 static_cast<std::uint32_t>(stream >> 32)},
                key);
            for (std::size_t c = c0; c < std::min(c0 + 4, k); ++c) {
              const float v = row[c] / -std::log(engine::uniform_from_bits(bits[c - c0]));
              if (v > best_value) best_value = v, best = c;
            }
          }
          hard[((m * n + i) * l + p) * k + best] = 1.0f;
        }
    }
  }

  std::vector<std::shared_ptr<const Objective>> objectives_;
  GuidanceOptions opt_;
  std::uint64_t seed_;
  std::function<std::size_t(std::size_t)> length_of_;
  StepScoreSink sink_;
  GuidanceStats* stats_;
  std::vector<std::uint16_t> lengths_;
  std::vector<float> hard_, hard_xhat_, grad_;
  std::vector<double> scores_;
};

}  // namespace

engine::Guide make_guide(std::vector<std::shared_ptr<const Objective>> objectives,
                         const GuidanceOptions& options, std::uint64_t seed,
                         std::function<std::size_t(std::size_t)> length_of, StepScoreSink sink,
                         GuidanceStats* stats) {
  auto guide = std::make_shared<Stgflow>(std::move(objectives), options, seed,
                                         std::move(length_of), std::move(sink), stats);
  return [guide](const engine::GuideStep& step, engine::Rows drift) { (*guide)(step, drift); };
}

}  // namespace gsflow::guidance
