// The GSFM / GSSM / Linear FM samplers (see sampler.hpp and docs/method.md). Per step the work
// outside the denoiser is one fused kernel call for the exponential step; the optional knobs
// (temperature, re-injection, Euler, Langevin) are scalar loops over the batch.
#include "gsflow/engine/sampler.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gsflow/engine/philox.hpp"

namespace gsflow::engine {

const char* method_name(Method method) { return kMethodNames.name(method); }
Method parse_method(const std::string& text, const std::string& field) {
  return kMethodNames.parse(text, field);
}
const char* integrator_name(Integrator integrator) { return kIntegratorNames.name(integrator); }
Integrator parse_integrator(const std::string& text, const std::string& field) {
  return kIntegratorNames.parse(text, field);
}
const char* decode_name(Decode decode) { return kDecodeNames.name(decode); }
Decode parse_decode(const std::string& text, const std::string& field) {
  return kDecodeNames.parse(text, field);
}

namespace {

const char* stage_text(NonFiniteError::Stage stage) {
  switch (stage) {
    case NonFiniteError::Stage::prediction:
      return "the model's prediction";
    case NonFiniteError::Stage::guidance:
      return "the guidance drift";
    case NonFiniteError::Stage::state:
      break;
  }
  return "the state";
}

bool all_finite(const std::vector<float>& v) {
  for (const float x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

}  // namespace

NonFiniteError::NonFiniteError(Stage stage, int step, std::size_t first_sequence)
    : std::runtime_error(std::string(stage_text(stage)) + " is not finite (NaN or infinite) at step " +
                         std::to_string(step + 1) + " of the batch starting at sequence " +
                         std::to_string(first_sequence)),
      stage_(stage),
      step_(step) {}

namespace {

// Noise streams: (purpose << 32) | step, so no two uses of randomness share uniforms.
enum Purpose : std::uint64_t {
  kStart = 1,
  kReinject = 2,
  kLangevin = 3,
  kDirichlet = 4,
  kFixed = 5,       // the noisy samples of fixed letters, per step
  kCandidate = 6,   // value guidance: candidate clean letters (step * 64 + candidate)
  kSelect = 7,      // value guidance: which candidate is kept
  kTransition = 8,  // value guidance: the path's noise given the kept candidate
};
std::uint64_t stream_of(Purpose purpose, int step) {
  return (static_cast<std::uint64_t>(purpose) << 32) | static_cast<std::uint32_t>(step);
}

void check_options(const SampleRequest& request, const SamplerOptions& options,
                   const SamplerHooks& hooks) {
  const auto fail = [](const std::string& msg) { throw std::invalid_argument(msg); };
  if (request.length == 0) fail("length must be >= 1");
  if (request.k < 2) fail("k (alphabet size) must be >= 2");
  if (options.steps < 1) fail("steps must be >= 1");
  if (options.batch < 1) fail("batch must be >= 1");
  if (!(options.temperature > 0.0) || !std::isfinite(options.temperature))
    fail("temperature must be > 0");
  if (!(options.start_scale > 0.0) || !std::isfinite(options.start_scale))
    fail("start_scale must be > 0");
  if (!(options.reinject >= 0.0) || !std::isfinite(options.reinject)) fail("reinject must be >= 0");
  if (options.corrector_steps < 0 || options.corrector_steps > 64)
    fail("corrector_steps must be in 0..64");
  if (!(options.snr > 0.0)) fail("snr must be > 0");
  if (options.frames_every < 0) fail("frames_every must be >= 0");
  if (options.guide_substeps < 1 || options.guide_substeps > 64)
    fail("guide_substeps must be in 1..64");
  if ((request.first_sequence + request.sequences) * request.length >= (std::uint64_t{1} << 32))
    fail("sequences * length must stay below 2^32 (noise row index)");
  if (hooks.value_guide.value) {
    if (hooks.value_guide.candidates < 1 || hooks.value_guide.candidates > 64)
      fail("value guide: candidates must be in 1..64");
    if (!(hooks.value_guide.alpha >= 0.0) || !std::isfinite(hooks.value_guide.alpha))
      fail("value guide: alpha must be >= 0");
  }
  if (const Conditioning* c = request.conditioning) {
    if (!(c->start_time >= 0.0 && c->start_time < 1.0)) fail("start_time must be in [0, 1)");
    if (!c->allowed.empty() &&
        (c->allowed.size() != request.k ||
         std::none_of(c->allowed.begin(), c->allowed.end(), [](std::uint8_t a) { return a; })))
      fail("allowed letters: K flags with at least one letter allowed");
  }
}

// One batch of sequences moving from t = 0 to t = 1.
class BatchRun {
 public:
  BatchRun(const Denoiser& denoiser, const Path& path, const SampleRequest& request,
           const SamplerOptions& options, const Kernels& kernels)
      : denoiser_(denoiser),
        path_(path),
        opt_(options),
        kernels_(kernels),
        cond_(request.conditioning),
        l_(request.length),
        k_(request.k) {}

  // Returns false when cancelled before the batch finished.
  bool run(std::size_t first_sequence, std::size_t sequences, const SamplerHooks& hooks,
           std::size_t& done_steps, std::size_t total_steps) {
    first_ = first_sequence;
    n_ = sequences;
    guide_ = hooks.guide ? &hooks.guide : nullptr;
    value_ = hooks.value_guide.value ? &hooks.value_guide : nullptr;
    rows_ = n_ * l_;
    x_.assign(rows_ * k_, 0.0f);
    xhat_.assign(rows_ * k_, 0.0f);
    if (opt_.method == Method::gssm) q_.assign(rows_ * k_, 0.0f);
    gather_conditioning();
    const double begin = cond_ && !start_rows_.empty() ? cond_->start_time : 0.0;
    start(begin);
    hold_fixed(begin, 0);
    emit_frame(hooks, 0, begin, false);
    const int steps = opt_.steps;
    const std::vector<double> times =
        time_grid(opt_.grid, path_, k_, opt_.method == Method::linear, steps, begin);
    prev_xhat_.clear();
    for (int s = 0; s < steps; ++s) {
      if (hooks.cancel && hooks.cancel->load(std::memory_order_relaxed)) return false;
      const double t0 = times[static_cast<std::size_t>(s)];
      const double t1 = times[static_cast<std::size_t>(s) + 1];
      if (value_) {
        value_step(s, t0, t1);
      } else switch (opt_.method) {
        case Method::gsfm:
          gsfm_step(s, t0, t1);
          break;
        case Method::gssm:
          gssm_step(s, t0, t1);
          break;
        case Method::linear:
          linear_step(s, t0, t1);
          break;
      }
      if (opt_.reinject > 0.0 && opt_.method != Method::linear && !value_) reinject(s);
      hold_fixed(t1, s + 1);
      if (!all_finite(x_)) throw NonFiniteError(NonFiniteError::Stage::state, s, first_);
      ++done_steps;
      if (hooks.progress) hooks.progress(done_steps, total_steps);
      const bool last = s + 1 == steps;
      if (opt_.frames_every > 0 && ((s + 1) % opt_.frames_every == 0 || last))
        emit_frame(hooks, s + 1, t1, true);
    }
    return true;
  }

  // The most probable allowed letter of each row; a fixed position's own letter.
  void decode(std::vector<std::uint16_t>& letters) const {
    const std::vector<float>& src = opt_.decode == Decode::x ? x_ : xhat_;
    const bool masked = cond_ && !cond_->allowed.empty();
    for (std::size_t r = 0; r < rows_; ++r) {
      if (!fixed_rows_.empty() && fixed_rows_[r] >= 0) {
        letters.push_back(static_cast<std::uint16_t>(fixed_rows_[r]));
        continue;
      }
      const float* row = src.data() + r * k_;
      std::size_t best = k_;
      for (std::size_t c = 0; c < k_; ++c)
        if ((!masked || cond_->allowed[c]) && (best == k_ || row[c] > row[best])) best = c;
      letters.push_back(static_cast<std::uint16_t>(best));
    }
  }
  const std::vector<float>& state() const { return x_; }

 private:
  Rows rows_of(std::vector<float>& v) const { return {v.data(), rows_, k_, k_}; }
  ConstRows crows_of(const std::vector<float>& v) const { return {v.data(), rows_, k_, k_}; }
  std::uint64_t first_row() const { return first_ * l_; }
  float uniform(Purpose purpose, int step, std::size_t r, std::size_t c) const {
    return noise_uniform(opt_.seed, stream_of(purpose, step),
                         static_cast<std::uint32_t>(first_row() + r), c);
  }

  // The start state at time `begin`: noise at t = 0, or the path's sample of the start letters
  // (at t = 0 on the consistent path the two agree).
  void start(double begin) {
    path_sample(start_rows_, begin, opt_.start_scale, kStart, 0, x_);
  }

  // The path's sample at time t given `letters` (one per row; rows with -1, or all rows when
  // `letters` is empty, get the noise alone) into `out`: softmax(A(t) e + noise_mult S(t) g), or
  // for Linear FM t e + (1 - t) Dirichlet(1) (Dirichlet alone without a letter). Noise keyed by
  // (purpose, step) and the global row.
  void path_sample(const std::vector<std::int16_t>& letters, double t, double noise_mult,
                   Purpose purpose, int step, std::vector<float>& out) {
    out.resize(rows_ * k_);
    if (opt_.method == Method::linear) {
      // Dirichlet(1, ..., 1): normalised standard exponentials (kStart draws as kDirichlet).
      const Purpose noise = purpose == kStart ? kDirichlet : purpose;
      for (std::size_t r = 0; r < rows_; ++r) {
        float* row = out.data() + r * k_;
        double sum = 0.0;
        for (std::size_t c = 0; c < k_; ++c) {
          row[c] = -std::log(uniform(noise, step, r, c));
          sum += row[c];
        }
        const int letter = letters.empty() ? -1 : letters[r];
        const double keep = letter >= 0 ? 1.0 - t : 1.0;
        for (std::size_t c = 0; c < k_; ++c) row[c] = static_cast<float>(keep * row[c] / sum);
        if (letter >= 0) row[letter] += static_cast<float>(t);
      }
      return;
    }
    one_hot(letters, hot_);
    kernels_.scaled_gumbel_softmax(crows_of(hot_), rows_of(out), static_cast<float>(path_.signal(t)),
                                   static_cast<float>(noise_mult * path_.noise_scale(t)),
                                   {opt_.seed, stream_of(purpose, step), first_row()});
  }

  // Rows of one-hot letters (zero rows where letters[r] < 0 or letters is empty) into `out`.
  void one_hot(const std::vector<std::int16_t>& letters, std::vector<float>& out) const {
    out.assign(rows_ * k_, 0.0f);
    if (letters.empty()) return;
    for (std::size_t r = 0; r < rows_; ++r)
      if (letters[r] >= 0) out[r * k_ + static_cast<std::size_t>(letters[r])] = 1.0f;
  }

  // The batch's fixed and start letters per row (empty vectors when there are none).
  void gather_conditioning() {
    fixed_rows_.clear();
    start_rows_.clear();
    if (!cond_) return;
    const auto gather = [this](auto&& letters_of, std::vector<std::int16_t>& rows) {
      rows.assign(rows_, -1);
      bool any = false;
      for (std::size_t i = 0; i < n_; ++i) {
        const auto letters = letters_of(first_ + i);
        if (letters.size() > l_)
          throw std::invalid_argument("conditioning: sequence " + std::to_string(first_ + i) +
                                      " has " + std::to_string(letters.size()) +
                                      " letters, more than the length " + std::to_string(l_));
        for (std::size_t p = 0; p < letters.size(); ++p) {
          const int v = static_cast<int>(letters[p]);
          if (v >= static_cast<int>(k_))
            throw std::invalid_argument("conditioning: letter index " + std::to_string(v) +
                                        " is not below K = " + std::to_string(k_));
          rows[i * l_ + p] = static_cast<std::int16_t>(v);
          any = any || v >= 0;
        }
      }
      if (!any) rows.clear();
    };
    if (cond_->fixed) gather(cond_->fixed, fixed_rows_);
    if (cond_->start) gather(cond_->start, start_rows_);
  }

  // Puts every fixed position on its letter (FixedHold::clean) or on the path's own noisy sample
  // of it at time t (FixedHold::path, noise keyed by the step); GSSM's logits follow.
  void hold_fixed(double t, int step) {
    if (fixed_rows_.empty()) return;
    held_.resize(rows_ * k_);
    if (cond_->hold == FixedHold::clean)
      one_hot(fixed_rows_, held_);
    else
      path_sample(fixed_rows_, t, 1.0, kFixed, step, held_);
    for (std::size_t r = 0; r < rows_; ++r) {
      if (fixed_rows_[r] < 0) continue;
      std::copy_n(held_.data() + r * k_, k_, x_.data() + r * k_);
      if (opt_.method == Method::gssm && !y_.empty())
        for (std::size_t c = 0; c < k_; ++c)
          y_[r * k_ + c] = std::log(std::max(x_[r * k_ + c], 1e-37f));
    }
  }

  // The prediction under the conditioning: a fixed position's letter is certain; elsewhere the
  // letters that may not appear get probability 0 (uniform over the allowed ones if nothing is
  // left).
  void condition_prediction() {
    if (!cond_) return;
    const bool masked = !cond_->allowed.empty();
    if (fixed_rows_.empty() && !masked) return;
    for (std::size_t r = 0; r < rows_; ++r) {
      float* row = xhat_.data() + r * k_;
      if (!fixed_rows_.empty() && fixed_rows_[r] >= 0) {
        std::fill(row, row + k_, 0.0f);
        row[fixed_rows_[r]] = 1.0f;
        continue;
      }
      if (!masked) continue;
      double sum = 0.0;
      for (std::size_t c = 0; c < k_; ++c) {
        if (!cond_->allowed[c]) row[c] = 0.0f;
        sum += row[c];
      }
      for (std::size_t c = 0; c < k_; ++c)
        row[c] = sum > 0.0 ? static_cast<float>(row[c] / sum)
                           : static_cast<float>(cond_->allowed[c]);
      if (!(sum > 0.0)) {
        const float n = static_cast<float>(
            std::count(cond_->allowed.begin(), cond_->allowed.end(), std::uint8_t{1}));
        for (std::size_t c = 0; c < k_; ++c) row[c] /= n;
      }
    }
  }

  void predict(int step, double t) {
    denoiser_(crows_of(x_), n_, t, rows_of(xhat_));
    if (opt_.temperature != 1.0 && opt_.method != Method::gssm) {
      const double inv = 1.0 / opt_.temperature;
      for (std::size_t r = 0; r < rows_; ++r) {
        float* row = xhat_.data() + r * k_;
        double sum = 0.0;
        for (std::size_t c = 0; c < k_; ++c) sum += std::pow(row[c], inv);
        if (sum > 0.0 && std::isfinite(sum)) {
          for (std::size_t c = 0; c < k_; ++c)
            row[c] = static_cast<float>(std::pow(row[c], inv) / sum);
          continue;
        }
        // Every p^(1/T) under- or overflowed (a low temperature): the same distribution from
        // the logs, max-shifted. Rows that did not take this path keep their bits.
        const float top = *std::max_element(row, row + k_);
        if (!(top > 0.0f)) continue;  // not a distribution: the finiteness check reports it
        double total = 0.0;  // >= 1: the top letter contributes exp(0)
        for (std::size_t c = 0; c < k_; ++c) {
          row[c] = static_cast<float>(std::exp(std::log(row[c] / top) * inv));
          total += row[c];
        }
        for (std::size_t c = 0; c < k_; ++c) row[c] = static_cast<float>(row[c] / total);
      }
    }
    if (!all_finite(xhat_)) throw NonFiniteError(NonFiniteError::Stage::prediction, step, first_);
    condition_prediction();
  }

  // Asks the guide for its drift at this step; false when unguided.
  bool guide(int step, double t0, double t1) {
    if (!guide_) return false;
    drift_.assign(rows_ * k_, 0.0f);
    GuideStep g{crows_of(x_), crows_of(xhat_), first_, n_, l_, step, t0, t1};
    (*guide_)(g, rows_of(drift_));
    if (!all_finite(drift_)) throw NonFiniteError(NonFiniteError::Stage::guidance, step, first_);
    // A zero drift (e.g. gamma(t) = 0) takes the unguided path: bit-identical results.
    return std::any_of(drift_.begin(), drift_.end(), [](float v) { return v != 0.0f; });
  }

  // x <- x . exp(h drift) renormalised (the guide's move for the Euler-type updates).
  void apply_drift(double h) {
    logx_.resize(rows_ * k_);
    for (std::size_t i = 0; i < rows_ * k_; ++i)
      logx_[i] = std::log(std::max(x_[i], 1e-37f)) + static_cast<float>(h) * drift_[i];
    kernels_.softmax(crows_of(logx_), rows_of(x_));
  }

  void gsfm_step(int step, double t0, double t1) {
    predict(step, t0);
    const int subs = opt_.integrator == Integrator::euler ? 1 : opt_.guide_substeps;
    if (!guide_ || subs <= 1) {
      const bool guided = guide(step, t0, t1);
      flow(t0, t1, guided);
      return;
    }
    guided_substeps(step, t0, t1, subs);
  }

  // One network step in `subs` pieces, the guide's drift taken afresh at the start of each from
  // the moved state (guide step index step * subs + j): the prediction (multistep: its linear
  // extrapolation in A, integrated exactly over each piece) is shared by all of them.
  void guided_substeps(int step, double t0, double t1, int subs) {
    const double a0 = path_.signal(t0), delta = path_.step(t0, t1);
    const bool extrapolate = opt_.integrator == Integrator::multistep && !prev_xhat_.empty();
    for (int j = 0; j < subs; ++j) {
      const double s0 = t0 + (t1 - t0) * j / subs;
      const double s1 = j + 1 == subs ? t1 : t0 + (t1 - t0) * (j + 1) / subs;
      const bool guided = guide(step * subs + j, s0, s1);
      const double da = path_.step(s0, s1);
      // The integral of x_hat_n + (A - A_n) D over [A(s0), A(s1)] is da (x_hat_n + c D') with
      // c = (midpoint - A_n) / dA_prev and D' = x_hat_n - x_hat_{n-1}.
      const float c = extrapolate ? static_cast<float>(
                                        (0.5 * (path_.signal(s0) + path_.signal(s1)) - a0) /
                                        prev_delta_)
                                  : 0.0f;
      const auto& rows = pushed(extrapolate ? c : 0.0f, guided ? (s1 - s0) / da : 0.0);
      kernels_.flow_step(crows_of(x_), crows_of(rows), rows_of(x_), static_cast<float>(da));
      if (j + 1 < subs) hold_fixed(s1, step + 1);
    }
    if (opt_.integrator == Integrator::multistep) remember_prediction(delta);
  }

  // Moves x along the model velocity (dA/dt)(x_hat . x - <x_hat, x> x) with x_hat frozen, plus
  // the guide's drift when `guided`.
  void flow(double t0, double t1, bool guided) {
    if (opt_.integrator != Integrator::euler) {
      const double delta = path_.step(t0, t1);
      // The second-order term: x_hat's slope in A from the previous step, integrated exactly;
      // softmax(log x + delta x_hat + h g) = softmax(log x + delta (x_hat + (h / delta) g)).
      const bool extrapolate = opt_.integrator == Integrator::multistep && !prev_xhat_.empty();
      const auto& rows = pushed(extrapolate ? static_cast<float>(delta / (2.0 * prev_delta_)) : 0.0f,
                                guided ? (t1 - t0) / delta : 0.0);
      if (opt_.integrator == Integrator::multistep) remember_prediction(delta);
      kernels_.flow_step(crows_of(x_), crows_of(rows), rows_of(x_), static_cast<float>(delta));
      return;
    }
    const double h = (t1 - t0) * path_.signal_rate(t0);
    for (std::size_t r = 0; r < rows_; ++r) {
      float* x = x_.data() + r * k_;
      const float* p = xhat_.data() + r * k_;
      double dot = 0.0;
      for (std::size_t c = 0; c < k_; ++c) dot += static_cast<double>(p[c]) * x[c];
      double sum = 0.0;
      for (std::size_t c = 0; c < k_; ++c) {
        const double v = std::max(0.0, x[c] + h * (static_cast<double>(p[c]) * x[c] - dot * x[c]));
        x[c] = static_cast<float>(v);
        sum += v;
      }
      for (std::size_t c = 0; c < k_; ++c) x[c] = static_cast<float>(x[c] / sum);
    }
    if (guided) apply_drift(t1 - t0);
  }

  // What the exponential step integrates: x_hat, plus slope (x_hat - x_hat_{n-1}) (multistep;
  // 0 = none), plus ratio * drift (guided; 0 = none). x_hat itself when both are 0.
  const std::vector<float>& pushed(float slope, double ratio) {
    if (slope == 0.0f && ratio == 0.0) return xhat_;
    const float r = static_cast<float>(ratio);
    pushed_.resize(rows_ * k_);
    for (std::size_t i = 0; i < rows_ * k_; ++i) {
      float v = xhat_[i];
      if (slope != 0.0f) v += slope * (xhat_[i] - prev_xhat_[i]);
      if (ratio != 0.0) v += r * drift_[i];
      pushed_[i] = v;
    }
    return pushed_;
  }

  void remember_prediction(double delta) {
    prev_xhat_ = xhat_;
    prev_delta_ = delta;
  }

  void linear_step(int step, double t0, double t1) {
    predict(step, t0);
    const bool guided = guide(step, t0, t1);
    const double h = (t1 - t0) / (1.0 - t0);
    for (std::size_t i = 0; i < rows_ * k_; ++i)
      x_[i] = static_cast<float>(x_[i] + h * (static_cast<double>(xhat_[i]) - x_[i]));
    if (guided) apply_drift(t1 - t0);
  }

  // GSSM keeps its state as logits y (x = softmax(y)) so that no log is taken per step.
  // Predictor: the exact exponential step with x_hat recovered from the score model.
  // Corrector: Langevin steps on y at the new level (see docs/method.md).
  void gssm_step(int step, double t0, double t1) {
    if (step == 0) {
      y_.resize(rows_ * k_);
      for (std::size_t i = 0; i < rows_ * k_; ++i) y_[i] = std::log(std::max(x_[i], 1e-37f));
    }
    denoiser_(crows_of(x_), n_, t0, rows_of(q_));
    // Checked before score_to_posterior, whose clipping would turn NaN into a uniform posterior.
    if (!all_finite(q_)) throw NonFiniteError(NonFiniteError::Stage::prediction, step, first_);
    score_to_posterior(t0);
    condition_prediction();
    const float delta = static_cast<float>(path_.step(t0, t1));
    const bool guided = guide(step, t0, t1);
    const bool extrapolate = opt_.integrator == Integrator::multistep && !prev_xhat_.empty();
    const auto& rows = pushed(extrapolate ? static_cast<float>(delta / (2.0 * prev_delta_)) : 0.0f, 0.0);
    for (std::size_t i = 0; i < rows_ * k_; ++i) y_[i] += delta * rows[i];
    if (opt_.integrator == Integrator::multistep) remember_prediction(delta);
    if (guided) {
      const float h = static_cast<float>(t1 - t0);
      for (std::size_t i = 0; i < rows_ * k_; ++i) y_[i] += h * drift_[i];
    }
    kernels_.softmax(crows_of(y_), rows_of(x_));
    for (int c = 0; c < opt_.corrector_steps; ++c) langevin(step, c, t1);
  }

  // Inverts q = sum_j P_j softmax(a e_j - lam y) for P (concrete.hpp, posterior_from_score) in
  // float: with w = softmax(-lam y), d_i = 1 + (e^a - 1) w_i and M = sum_j (q_j / w_j) / (K + e^a -
  // 1), P_i = d_i (q_i / w_i - M) / (e^a - 1), clipped at 0 and renormalised.
  void score_to_posterior(double t) {
    const double a = path_.concrete_logit(t);
    if (!(a > 0.0)) {  // no information in the state yet (t = 0 on the consistent path)
      std::fill(xhat_.begin(), xhat_.end(), 1.0f / static_cast<float>(k_));
      return;
    }
    const float lam = static_cast<float>(path_.concrete_temperature(t));
    const float gain = static_cast<float>(std::expm1(a));
    w_.resize(rows_ * k_);
    for (std::size_t i = 0; i < rows_ * k_; ++i) w_[i] = -lam * y_[i];
    kernels_.softmax(crows_of(w_), rows_of(w_));
    const float inv_total = 1.0f / (static_cast<float>(k_) + gain);
    for (std::size_t r = 0; r < rows_; ++r) {
      const float* q = q_.data() + r * k_;
      float* w = w_.data() + r * k_;
      float* p = xhat_.data() + r * k_;
      float m = 0.0f;
      for (std::size_t c = 0; c < k_; ++c) {
        w[c] = std::max(w[c], 1e-30f);
        m += q[c] / w[c];
      }
      m *= inv_total;
      float sum = 0.0f;
      for (std::size_t c = 0; c < k_; ++c) {
        p[c] = std::max(0.0f, (1.0f + gain * w[c]) * (q[c] / w[c] - m));
        sum += p[c];
      }
      const float inv = sum > 0.0f ? 1.0f / sum : 0.0f;
      for (std::size_t c = 0; c < k_; ++c) p[c] = sum > 0.0f ? p[c] * inv : 1.0f / k_;
    }
  }

  // Standard normals for row r of this batch, k_ of them, tangent-projected (mean removed):
  // Box-Muller on the four uniforms of one Philox block (noise_uniform's layout).
  void tangent_normals(std::uint64_t stream, std::size_t r, float* out) const {
    const PhiloxKey key{static_cast<std::uint32_t>(opt_.seed),
                        static_cast<std::uint32_t>(opt_.seed >> 32)};
    const auto row = static_cast<std::uint32_t>(first_row() + r);
    float mean = 0.0f;
    for (std::size_t c = 0; c < k_; c += 4) {
      const PhiloxCounter ctr{static_cast<std::uint32_t>(c / 4), row,
                              static_cast<std::uint32_t>(stream),
                              static_cast<std::uint32_t>(stream >> 32)};
      const PhiloxCounter bits = philox4x32_10(ctr, key);
      float z[4];
      for (int h = 0; h < 4; h += 2) {
        const float radius = std::sqrt(-2.0f * std::log(uniform_from_bits(bits[h])));
        const float angle = 6.2831853f * uniform_from_bits(bits[h + 1]);
        z[h] = radius * std::cos(angle);
        z[h + 1] = radius * std::sin(angle);
      }
      for (std::size_t i = 0; i < 4 && c + i < k_; ++i) {
        out[c + i] = z[i];
        mean += z[i];
      }
    }
    mean /= static_cast<float>(k_);
    for (std::size_t c = 0; c < k_; ++c) out[c] -= mean;
  }

  // y <- y + eps s + sqrt(2 eps) xi on the tangent space, s = K lam (q - 1/K), with one eps per
  // sequence from the SNR rule of Song et al. (2021): eps = 2 (snr |xi| / |s|)^2.
  void langevin(int step, int corrector, double t) {
    denoiser_(crows_of(x_), n_, t, rows_of(q_));
    if (!all_finite(q_)) throw NonFiniteError(NonFiniteError::Stage::prediction, step, first_);
    const float lam = static_cast<float>(path_.concrete_temperature(t));
    const float kd = static_cast<float>(k_), scale = kd * lam, inv_k = 1.0f / kd;
    const std::uint64_t stream = stream_of(kLangevin, step * 64 + corrector);
    noise_.resize(rows_ * k_);
    const std::size_t span = l_ * k_;
    for (std::size_t seq = 0; seq < n_; ++seq) {
      float* q = q_.data() + seq * span;  // becomes the score s
      float* xi = noise_.data() + seq * span;
      double s2 = 0.0, n2 = 0.0;
      for (std::size_t p = 0; p < l_; ++p) tangent_normals(stream, seq * l_ + p, xi + p * k_);
      for (std::size_t i = 0; i < span; ++i) {
        q[i] = scale * (q[i] - inv_k);
        s2 += static_cast<double>(q[i]) * q[i];
        n2 += static_cast<double>(xi[i]) * xi[i];
      }
      const float eps = s2 > 0.0 ? static_cast<float>(2.0 * opt_.snr * opt_.snr * n2 / s2) : 0.0f;
      const float amp = std::sqrt(2.0f * eps);
      float* y = y_.data() + seq * span;
      for (std::size_t i = 0; i < span; ++i) y[i] += eps * q[i] + amp * xi[i];
    }
    kernels_.softmax(crows_of(y_), rows_of(x_));
  }

  // Value guidance (ValueGuide): candidates from the prediction, one kept per sequence by its
  // value, the state moved to the path's sample at t1 given it.
  void value_step(int step, double t0, double t1) {
    if (opt_.method == Method::gssm) {
      y_.resize(rows_ * k_);
      for (std::size_t i = 0; i < rows_ * k_; ++i) y_[i] = std::log(std::max(x_[i], 1e-37f));
      denoiser_(crows_of(x_), n_, t0, rows_of(q_));
      if (!all_finite(q_)) throw NonFiniteError(NonFiniteError::Stage::prediction, step, first_);
      score_to_posterior(t0);
      condition_prediction();
    } else {
      predict(step, t0);
    }
    const std::size_t m = static_cast<std::size_t>(value_->candidates);
    const std::size_t span = l_ * k_;
    candidates_.assign(n_ * m * span, 0.0f);
    picked_.resize(n_ * m * l_);
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t j = 0; j < m; ++j)
        for (std::size_t p = 0; p < l_; ++p) {
          const std::size_t r = i * l_ + p;
          const float* row = xhat_.data() + r * k_;
          const float u = uniform(kCandidate, step * 64 + static_cast<int>(j), r, 0);
          float acc = 0.0f;
          std::size_t c = 0;
          for (; c + 1 < k_; ++c) {  // inverse CDF; the last letter takes the rounding
            acc += row[c];
            if (u < acc && row[c] > 0.0f) break;
          }
          while (c > 0 && row[c] <= 0.0f) --c;  // never a letter of probability 0
          picked_[(i * m + j) * l_ + p] = static_cast<std::uint16_t>(c);
          candidates_[(i * m + j) * span + p * k_ + c] = 1.0f;
        }
    values_.assign(n_ * m, 0.0);
    const CandidateStep cs{{candidates_.data(), n_ * m * l_, k_, k_}, first_, n_, m, l_, step, t0, t1};
    value_->value(cs, values_);
    for (const double v : values_)
      if (!std::isfinite(v)) throw NonFiniteError(NonFiniteError::Stage::guidance, step, first_);
    chosen_.assign(rows_, -1);
    for (std::size_t i = 0; i < n_; ++i) {
      const double* v = values_.data() + i * m;
      const double top = *std::max_element(v, v + m);
      std::size_t keep = static_cast<std::size_t>(std::max_element(v, v + m) - v);
      if (value_->alpha > 0.0) {
        double total = 0.0;
        for (std::size_t j = 0; j < m; ++j) total += std::exp((v[j] - top) / value_->alpha);
        double target = uniform(kSelect, step, i * l_, 0) * total;
        for (std::size_t j = 0; j < m; ++j) {
          target -= std::exp((v[j] - top) / value_->alpha);
          if (target < 0.0) {
            keep = j;
            break;
          }
        }
      }
      for (std::size_t p = 0; p < l_; ++p)
        chosen_[i * l_ + p] = static_cast<std::int16_t>(picked_[(i * m + keep) * l_ + p]);
    }
    // The path's sample at t1 given the kept clean sequence.
    path_sample(chosen_, t1, 1.0, kTransition, step, x_);
    if (opt_.method == Method::gssm)
      for (std::size_t i = 0; i < rows_ * k_; ++i) y_[i] = std::log(std::max(x_[i], 1e-37f));
    // The kept sequence is the prediction that decodes at the end.
    if (step + 1 == opt_.steps) one_hot(chosen_, xhat_);
  }

  void reinject(int step) {
    logx_.resize(rows_ * k_);
    for (std::size_t i = 0; i < rows_ * k_; ++i) logx_[i] = std::log(std::max(x_[i], 1e-37f));
    kernels_.scaled_gumbel_softmax(crows_of(logx_), rows_of(x_), 1.0f,
                                   static_cast<float>(opt_.reinject),
                                   {opt_.seed, stream_of(kReinject, step), first_row()});
    if (opt_.method == Method::gssm)
      for (std::size_t i = 0; i < rows_ * k_; ++i) y_[i] = std::log(std::max(x_[i], 1e-37f));
  }

  void emit_frame(const SamplerHooks& hooks, int step, double t, bool with_xhat) const {
    if (!hooks.frame || opt_.frames_every <= 0) return;
    Frame f;
    f.first_sequence = first_;
    f.sequences = n_;
    f.step = step;
    f.t = t;
    f.x = x_;
    if (with_xhat) f.xhat = xhat_;
    hooks.frame(f);
  }

  const Denoiser& denoiser_;
  const Path& path_;
  const SamplerOptions& opt_;
  const Kernels& kernels_;
  const Conditioning* cond_;
  std::size_t l_, k_;
  std::size_t first_ = 0, n_ = 0, rows_ = 0;
  const Guide* guide_ = nullptr;
  const ValueGuide* value_ = nullptr;
  std::vector<float> candidates_;
  std::vector<std::uint16_t> picked_;
  std::vector<std::int16_t> chosen_;
  std::vector<double> values_;
  std::vector<float> prev_xhat_;  // multistep: the last step's prediction
  double prev_delta_ = 0.0;       // multistep: the last step's A(t1) - A(t0)
  std::vector<float> x_, xhat_, q_, hot_, logx_, y_, w_, noise_, drift_, pushed_, held_;
  std::vector<std::int16_t> fixed_rows_, start_rows_;  // per row: letter, or -1 (empty = none)
};

}  // namespace

SampleResult sample(const Denoiser& denoiser, const Path& path, const SampleRequest& request,
                    const SamplerOptions& options, const Kernels& kernels,
                    const SamplerHooks& hooks) {
  check_options(request, options, hooks);
  SampleResult result;
  const std::size_t batches = (request.sequences + options.batch - 1) / options.batch;
  const std::size_t total_steps = batches * static_cast<std::size_t>(options.steps);
  std::size_t done_steps = 0;
  BatchRun run(denoiser, path, request, options, kernels);
  result.letters.reserve(request.sequences * request.length);
  for (std::size_t b = 0; b < batches; ++b) {
    const std::size_t first = b * options.batch;
    const std::size_t n = std::min(options.batch, request.sequences - first);
    if (!run.run(request.first_sequence + first, n, hooks, done_steps, total_steps)) {
      result.cancelled = true;
      break;
    }
    run.decode(result.letters);
    result.final_x.insert(result.final_x.end(), run.state().begin(), run.state().end());
    result.completed += n;
  }
  return result;
}

}  // namespace gsflow::engine
