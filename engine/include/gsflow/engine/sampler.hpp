// Samplers of Gumbel-Softmax flow matching (GSFM), score matching (GSSM) and the Linear flow
// matching baseline, driven by any denoiser, with progress, trajectory-frame and cancel hooks.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsflow/engine/enum_names.hpp"
#include "gsflow/engine/kernels.hpp"
#include "gsflow/engine/path.hpp"
#include "gsflow/engine/time_grid.hpp"

namespace gsflow::engine {

// The generative method: decides what the denoiser's output means and how the sampler moves.
enum class Method {
  gsfm,    // denoiser gives x_hat = P(clean letter | x_t); exact exponential (or Euler) flow
  gssm,    // denoiser gives q = 1/K + score/(K lam_c) (the score model); predictor-corrector
  linear,  // Linear FM: x_t = t x_1 + (1 - t) Dirichlet(1); velocity (x_hat - x) / (1 - t)
};
inline constexpr EnumNames<Method, 3> kMethodNames{
    "method", {{{Method::gsfm, "gsfm"}, {Method::gssm, "gssm"}, {Method::linear, "linear"}}}};
const char* method_name(Method method);
Method parse_method(const std::string& text, const std::string& field = "method");

enum class Integrator {
  exponential,  // x <- softmax(log x + dA x_hat): exact for frozen x_hat, never leaves the simplex
  euler,        // x <- x + h u, clamped at 0 and renormalised (for comparison)
  // The exponential step with x_hat extrapolated linearly in A from the last two predictions
  // (second order, one network call per step, like DPM-Solver++(2M)): x <- softmax(log x +
  // dA (x_hat_n + dA / (2 dA_prev) (x_hat_n - x_hat_{n-1}))). Still on the simplex.
  multistep,
};
inline constexpr EnumNames<Integrator, 3> kIntegratorNames{
    "integrator",
    {{{Integrator::exponential, "exponential"},
      {Integrator::euler, "euler"},
      {Integrator::multistep, "multistep"}}}};
const char* integrator_name(Integrator integrator);
Integrator parse_integrator(const std::string& text, const std::string& field = "integrator");

enum class Decode {
  xhat,  // argmax of the denoiser's last prediction (GSSM: of the recovered posterior)
  x,     // argmax of the final state
};
inline constexpr EnumNames<Decode, 2> kDecodeNames{
    "decode", {{{Decode::xhat, "xhat"}, {Decode::x, "x"}}}};
const char* decode_name(Decode decode);
Decode parse_decode(const std::string& text, const std::string& field = "decode");

struct SamplerOptions {
  Method method = Method::gsfm;                     // see Method
  // GSFM; GSSM's predictor is exponential or multistep (euler: exponential); Linear FM: Euler.
  Integrator integrator = Integrator::exponential;
  int steps = 100;                                  // integration steps (network calls per level)
  TimeGrid grid = TimeGrid::uniform;                // where the steps fall in time (time_grid.hpp)
  Decode decode = Decode::xhat;                     // how the final letters are read
  double temperature = 1.0;  // GSFM, Linear FM: x_hat^(1/T) renormalised (GSSM: ignored)
  double start_scale = 1.0;  // start x_0 = softmax(start_scale * S(0) g); 1 = the path's own
  double reinject = 0.0;     // Gumbel noise re-injected per step: log x += reinject * g
  int corrector_steps = 1;   // GSSM: Langevin corrector steps per level (0..64)
  double snr = 0.16;         // GSSM: signal-to-noise ratio that sets the Langevin step size
  std::size_t batch = 1024;  // sequences per denoiser call
  std::uint64_t seed = 0;    // all randomness is keyed by (seed, sequence, step)
  int frames_every = 0;      // emit a trajectory frame every n-th step (0 = none)
  // GSFM with a Guide: the guide's drift is taken this many times per step, each time from the
  // moved state, all sharing the step's one prediction (1 = once per step). 1..64.
  int guide_substeps = 1;
};

// A snapshot of one batch during sampling, for trajectory views. Row-major [sequences * L, K].
struct Frame {
  std::size_t first_sequence = 0;  // global index of the batch's first sequence
  std::size_t sequences = 0;
  int step = 0;  // steps completed (0 = start state)
  double t = 0.0;
  std::vector<float> x;     // the state
  std::vector<float> xhat;  // the denoiser's last output (empty at step 0)
};

// What a guidance hook sees at one step, after the denoiser's prediction and before the state
// moves. Rows are [sequences * length, K], sequence-major.
struct GuideStep {
  ConstRows x;     // the state x_n
  ConstRows xhat;  // the denoiser's prediction at t0 (GSSM: the recovered posterior)
  std::size_t first_sequence = 0;  // global index of the batch's first sequence
  std::size_t sequences = 0;
  std::size_t length = 0;  // L (the sampled, possibly padded, length)
  int step = 0;            // 0-based step index
  double t0 = 0.0, t1 = 0.0;
};

// Writes a log-space drift g ([sequences * length, K]): the step then also moves the state by
// log x += (t1 - t0) g, i.e. x <- x . exp((t1 - t0) g) renormalised per position (the exact flow
// of the replicator velocity x . (g - <x, g>) for frozen g, so the state stays on the simplex;
// a constant added to a row of g changes nothing). GSFM's exponential step folds it into the
// fused kernel; GSSM adds it to its logits; Euler and Linear FM apply it after their own update.
// A zero drift leaves every result bit for bit as without a guide.
using Guide = std::function<void(const GuideStep& step, Rows drift)>;

// What a value guide sees at one step (SVDD, Li et al. 2024): `candidates` clean sequences per
// sequence, drawn letter by letter from the prediction, as one-hot rows
// [sequences * candidates * length, K] (sequence-major, then candidate).
struct CandidateStep {
  ConstRows rows;
  std::size_t first_sequence = 0;  // global index of the batch's first sequence
  std::size_t sequences = 0;
  std::size_t candidates = 0;  // M per sequence
  std::size_t length = 0;      // L (the sampled, possibly padded, length)
  int step = 0;
  double t0 = 0.0, t1 = 0.0;
};

// Value-based guidance: at every step the sampler draws M candidate clean sequences x1 per
// sequence from the prediction, `value` scores them (higher is better), one is kept per sequence
// with probability proportional to exp(value / alpha) (alpha 0: the best), and the state moves to
// the path's sample at the step's end given the kept one: the model's own ancestral transition,
// p(x_t1 | x_t) = sum_x1 p(x1 | x_t) p(x_t1 | x1), reweighted. With alpha -> infinity it is the
// unguided ancestral sampler. Replaces the method's deterministic step (every method).
struct ValueGuide {
  std::function<void(const CandidateStep& step, std::span<double> values)> value;
  int candidates = 8;  // M, 1..64
  double alpha = 0.1;  // selection temperature, >= 0
};

struct SamplerHooks {
  std::function<void(std::size_t done, std::size_t total)> progress;  // in steps over all batches
  std::function<void(const Frame&)> frame;                            // see frames_every
  const std::atomic<bool>* cancel = nullptr;  // checked once per step; set -> stop, keep done part
  Guide guide;  // STGFlow guidance (guidance/stgflow.hpp); empty = unguided
  ValueGuide value_guide;  // SVDD guidance when value_guide.value is set (guidance/svdd.hpp)
};

// Thrown by sample() when a number stops being finite (NaN or infinity), at the step where it first
// appears, instead of decoding garbage (an all-A sequence): `stage` says where it appeared.
class NonFiniteError : public std::runtime_error {
 public:
  enum class Stage {
    prediction,  // the denoiser's output (after the temperature)
    guidance,    // the guide's drift
    state,       // the state after the step
  };
  NonFiniteError(Stage stage, int step, std::size_t first_sequence);
  Stage stage() const noexcept { return stage_; }
  int step() const noexcept { return step_; }

 private:
  Stage stage_;
  int step_;
};

// Fills `out` ([sequences * L rows, K]) from the state `x` of `sequences` sequences at time t.
// For GSFM and Linear FM `out` is P(clean letter | x); for GSSM it is the score model's q.
using Denoiser = std::function<void(ConstRows x, std::size_t sequences, double t, Rows out)>;

struct SampleResult {
  std::vector<std::uint16_t> letters;  // [completed, L] letter indices
  std::size_t completed = 0;           // sequences finished (all requested unless cancelled)
  bool cancelled = false;
  std::vector<float> final_x;  // [completed * L, K] final states
};

// How the state of a fixed position is held (docs/method.md, "Designing around fixed letters").
enum class FixedHold {
  clean,  // the letter itself (one-hot) at every step: the network sees all its evidence at once
  path,   // the path's own noisy sample of the letter at each step's time (as in training)
};
inline constexpr EnumNames<FixedHold, 2> kFixedHoldNames{
    "fixed_hold", {{{FixedHold::clean, "clean"}, {FixedHold::path, "path"}}}};

// What a design holds the sampler to (docs/method.md, "Designing around fixed letters").
struct Conditioning {
  // Global sequence i's fixed letters (at most L entries; -1 = designable, as in
  // design/fixed_letters.hpp): at every step the state of a fixed position is held (see
  // FixedHold), its prediction is the letter, and it decodes to the letter. Empty = none.
  std::function<std::span<const std::int16_t>(std::size_t sequence)> fixed;
  FixedHold hold = FixedHold::path;
  // Global sequence i's start letters (at most L): sampling starts from the path's sample of them
  // at start_time and integrates from there to t = 1 in `steps` steps. Empty = from noise at t = 0.
  std::function<std::span<const std::uint8_t>(std::size_t sequence)> start;
  double start_time = 0.0;  // in [0, 1): 0 forgets the start (the consistent path's A(0) = 0)
  // K flags, 1 = the letter may appear (empty = all): the prediction of a designable position
  // gives the others probability 0, and decoding never picks them.
  std::vector<std::uint8_t> allowed;
};

struct SampleRequest {
  std::size_t sequences = 0;       // how many to draw
  std::size_t length = 0;          // L
  std::size_t k = 0;               // alphabet size K
  std::size_t first_sequence = 0;  // global index of the first one (for sharding / resuming)
  const Conditioning* conditioning = nullptr;  // fixed letters, start, allowed letters; or none
};

// Draws request.sequences sequences in batches of options.batch; sequence i's randomness depends
// only on (seed, first_sequence + i), so batch size and thread count never change the result.
// Throws std::invalid_argument for impossible options (naming the field), NonFiniteError when the
// numbers break down (batches finished before it have been handed to no one: the caller keeps
// what its hooks received).
SampleResult sample(const Denoiser& denoiser, const Path& path, const SampleRequest& request,
                    const SamplerOptions& options, const Kernels& kernels,
                    const SamplerHooks& hooks = {});

}  // namespace gsflow::engine
