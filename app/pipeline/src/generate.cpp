// The headless generation pipeline (see generate.hpp).
#include "gsflow/pipeline/generate.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "gsflow/engine/philox.hpp"
#include "gsflow/guidance/constraint_guide.hpp"
#include "gsflow/guidance/svdd.hpp"
#include "gsflow/pipeline/edit_selection.hpp"

namespace gsflow::pipeline {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}
// Stream of the length draws; distinct from the sampler's (purpose << 32 | step) streams.
constexpr std::uint64_t kLengthStream = 0x4C454E47ULL << 32;

// Lengths are drawn (a variable-length model, no length given, a training histogram stored):
// such requests always take the padded path, even when the first few draws agree, so that
// sequence i does not depend on n.
bool lengths_drawn(const models::Model& model, const GenerateRequest& request) {
  return request.length == 0 && model.spec().variable_length() &&
         !model.record().length_counts.empty();
}
}  // namespace

std::vector<std::size_t> sequence_lengths(const models::Model& model,
                                          const GenerateRequest& request) {
  const auto& spec = model.spec();
  const bool any_length = spec.variable_length();
  // The design's own letters and options are checked first: a wrong letter in a template or start
  // sequence is named as such, not as a length.
  if (request.design.active()) Design(request.design, engine::alphabet_by_name(spec.alphabet));
  if (request.design.active() && design_length(request.design, request.first) != 0) {
    std::vector<std::size_t> lengths(request.n);
    for (std::size_t i = 0; i < request.n; ++i) {
      const std::size_t len = design_length(request.design, request.first + i);
      if (request.length != 0 && len != request.length)
        throw std::invalid_argument("length: " + std::to_string(request.length) +
                                    " disagrees with the template or start sequence (" +
                                    std::to_string(len) + " letters)");
      if (any_length ? len > spec.length : len != spec.length)
        throw std::invalid_argument(
            std::string(request.design.templates.empty() ? "--start" : "--template") + ": " +
            std::to_string(len) + " letters is not possible for this model (" +
            (any_length ? "at most " : "exactly ") + std::to_string(spec.length) + ")");
      lengths[i] = len;
    }
    return lengths;
  }
  if (request.length != 0) {
    if (any_length ? request.length > spec.length : request.length != spec.length)
      throw std::invalid_argument(
          "length: " + std::to_string(request.length) + " is not possible for this model (" +
          (any_length ? "at most " : "exactly ") + std::to_string(spec.length) + ")");
    return std::vector<std::size_t>(request.n, request.length);
  }
  if (!lengths_drawn(model, request)) return std::vector<std::size_t>(request.n, spec.length);
  const auto& counts = model.record().length_counts;
  std::size_t total = 0;
  for (const auto& [len, c] : counts) total += c;
  std::vector<std::size_t> lengths(request.n);
  for (std::size_t i = 0; i < request.n; ++i) {
    const double u = engine::noise_uniform(request.sampler.seed, kLengthStream,
                                           static_cast<std::uint32_t>(request.first + i), 0);
    auto target = static_cast<std::size_t>(u * static_cast<double>(total));
    std::size_t chosen = counts.rbegin()->first;
    for (const auto& [len, c] : counts) {
      if (target < c) {
        chosen = len;
        break;
      }
      target -= c;
    }
    lengths[i] = std::min(chosen, spec.length);
  }
  return lengths;
}

std::vector<std::shared_ptr<const guidance::Objective>> guidance_objectives(const models::Model& model,
                                                                  const GenerateRequest& request) {
  const auto& spec = model.spec();
  const auto& terms = request.guidance.terms;
  std::vector<std::shared_ptr<const guidance::Objective>> objectives = request.objectives;
  if (objectives.empty())
    for (const auto& term : terms)
      objectives.push_back(guidance::make_objective(term.objective, spec.alphabet, request.threads));
  if (objectives.size() != terms.size())
    throw std::invalid_argument("guidance: " + std::to_string(objectives.size()) +
                                " objectives given for " + std::to_string(terms.size()) + " terms");
  for (std::size_t j = 0; j < terms.size(); ++j)
    if (!objectives[j] || objectives[j]->info().k != spec.k ||
        objectives[j]->info().alphabet != spec.alphabet)
      throw std::invalid_argument("--guide " + terms[j].objective + ": scores " +
                                  (objectives[j] ? objectives[j]->info().alphabet : "?") +
                                  " sequences, the model makes " + spec.alphabet);
  return objectives;
}

void check_design(const models::Model& model, const GenerateRequest& request) {
  if (!request.design.active()) return;
  const auto lengths = sequence_lengths(model, request);
  Design(request.design, engine::alphabet_by_name(model.spec().alphabet))
      .prepare(request.first, lengths);
}

namespace {
// What to change when the numbers broke down, from where they did.
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string non_finite_cause(const engine::NonFiniteError& e, const GenerateRequest& request) {
  const auto& s = request.sampler;
  const auto& g = request.guidance;
  const std::string gamma = number(g.gamma);
  switch (e.stage()) {
    case engine::NonFiniteError::Stage::prediction:
      if (s.temperature != 1.0)
        return "the temperature " + number(s.temperature) + " is too extreme";
      return "the model's network gives NaN (is the checkpoint damaged?)";
    case engine::NonFiniteError::Stage::guidance:
      return "gamma " + gamma + " is too strong for these objectives (lower --gamma)";
    case engine::NonFiniteError::Stage::state:
      break;
  }
  if (g.active()) return "gamma " + gamma + " is too strong (lower --gamma)";
  return "the sampler settings (temperature, start_scale, reinject) are too extreme";
}
}  // namespace

GenerateResult generate(const models::Model& model, const GenerateRequest& request,
                        const engine::Kernels& kernels, const engine::SamplerHooks& hooks,
                        const BatchSink& on_batch, const guidance::StepScoreSink& on_step_score) {
  const auto t0 = Clock::now();
  const auto& spec = model.spec();
  engine::SamplerOptions options = request.sampler;
  if (options.method != spec.method)
    throw std::invalid_argument(std::string("method: the model was trained for ") +
                                engine::method_name(spec.method) + ", not " +
                                engine::method_name(options.method));
  const auto lengths = sequence_lengths(model, request);
  const bool padded = lengths_drawn(model, request) ||
                      std::adjacent_find(lengths.begin(), lengths.end(),
                                         std::not_equal_to<>()) != lengths.end();
  std::unique_ptr<Design> design;
  if (request.design.active()) {
    design = std::make_unique<Design>(request.design, engine::alphabet_by_name(spec.alphabet));
    design->prepare(request.first, lengths);
  }

  GenerateResult result;
  result.sequences.reserve(request.n);
  const engine::Path path(spec.path);
  const auto timed = [&](const engine::Denoiser& network) -> engine::Denoiser {
    return [&result, network](engine::ConstRows x, std::size_t n, double t, engine::Rows o) {
      const auto c0 = Clock::now();
      network(x, n, t, o);
      result.network_seconds += since(c0);
    };
  };
  // One sampler run per batch, so that each batch can be handed on (stored) as soon as it is
  // done; the noise of sequence i is keyed by (seed, i), so the batch split changes nothing.
  const std::size_t len = padded || lengths.empty() ? spec.length : lengths.front();
  const std::size_t batch = std::max<std::size_t>(1, options.batch);
  const std::size_t batches = (request.n + batch - 1) / batch;
  const std::size_t steps_total = batches * static_cast<std::size_t>(options.steps);
  engine::Guide guide;
  engine::ValueGuide value_guide;
  const auto length_of = [&lengths, first = request.first](std::size_t i) {
    return lengths[i - first];
  };
  std::vector<std::shared_ptr<const guidance::Objective>> objectives;
  if (request.guidance.active()) {
    objectives = guidance_objectives(model, request);
    if (request.guidance.method == guidance::GuidanceMethod::svdd)
      value_guide = guidance::make_value_guide(objectives, request.guidance, length_of,
                                               on_step_score, &result.guidance);
    else
      guide = guidance::make_guide(objectives, request.guidance, options.seed, length_of,
                                   on_step_score, &result.guidance);
  }
  // Guided edits of a start sequence under a budget: the objectives pick which proposed edits
  // to keep (edit_selection.hpp); the repair then only checks the constraints.
  const bool select = design && request.guidance.active() && !request.design.starts.empty() &&
                      request.design.max_edits != engine::kNoEditBudget;
  if (design && value_guide.value) {
    // SVDD keeps whole candidates: their violations count against their value.
    value_guide.value = guidance::penalise_violations(std::move(value_guide.value),
                                                      design->constraint_set(),
                                                      request.design.constraint_strength,
                                                      length_of);
  } else if (design) {
    engine::Guide steer = guidance::make_constraint_guide(
        design->constraint_set(), request.design.constraint_strength, length_of);
    if (steer && guide)  // both add to the drift: one after the other
      guide = [a = std::move(guide), b = std::move(steer)](const engine::GuideStep& s,
                                                            engine::Rows d) {
        a(s, d);
        b(s, d);
      };
    else if (steer)
      guide = std::move(steer);
  }
  const models::Precision precision = models::resolve_precision(request.precision);
  const engine::Denoiser fixed =
      padded ? engine::Denoiser{} : timed(model.denoiser(kernels, request.threads, precision));
  std::vector<std::uint16_t> batch_lengths;
  for (std::size_t b = 0; b < batches; ++b) {
    const std::size_t begin = b * batch, count = std::min(batch, request.n - begin);
    engine::SamplerHooks batch_hooks = hooks;
    if (guide) batch_hooks.guide = guide;
    if (value_guide.value) batch_hooks.value_guide = value_guide;
    if (hooks.progress)
      batch_hooks.progress = [&, before = b * static_cast<std::size_t>(options.steps)](
                                 std::size_t d, std::size_t) { hooks.progress(before + d, steps_total); };
    engine::Denoiser network = fixed;
    if (padded) {
      batch_lengths.assign(lengths.begin() + static_cast<std::ptrdiff_t>(begin),
                           lengths.begin() + static_cast<std::ptrdiff_t>(begin + count));
      network = timed(model.denoiser(kernels, request.threads, batch_lengths, precision));
    }
    const engine::SampleRequest req{count, len, spec.k, request.first + begin,
                                    design ? &design->conditioning() : nullptr};
    engine::SampleResult r;
    try {
      r = engine::sample(network, path, req, options, kernels, batch_hooks);
    } catch (const engine::NonFiniteError& e) {
      throw std::invalid_argument("generation stopped: " + std::string(e.what()) + ": " +
                                  non_finite_cause(e, request) +
                                  (b > 0 ? " (the finished batches are kept)" : ""));
    }
    if (r.cancelled) {  // a partial batch is dropped: results are always whole batches
      result.cancelled = true;
      break;
    }
    for (std::size_t j = 0; j < count; ++j) {
      std::vector<std::uint8_t> seq(lengths[begin + j]);
      for (std::size_t p = 0; p < seq.size(); ++p)
        seq[p] = static_cast<std::uint8_t>(r.letters[j * len + p]);
      if (select) {
        const std::size_t i = request.first + begin + j;
        const auto* fixed = design->fixed_of(i);
        auto picked = select_edits(*design->start_of(i), seq,
                                   fixed ? std::span<const std::int16_t>(*fixed)
                                         : std::span<const std::int16_t>(),
                                   request.design.max_edits, objectives, request.guidance.terms);
        seq = std::move(picked.letters);
        result.guidance.objective_calls += picked.objective_calls;
      }
      if (design) {
        const engine::ConstRows preference{r.final_x.data() + j * len * spec.k, seq.size(), spec.k,
                                           spec.k};
        result.notes.push_back(design->finish(request.first + begin + j, seq, preference));
      }
      result.sequences.push_back(std::move(seq));
    }
    const std::span<const DesignNote> notes =
        design ? std::span<const DesignNote>(result.notes).subspan(begin, count)
               : std::span<const DesignNote>();
    if (on_batch &&
        !on_batch(request.first + begin,
                  std::span<const std::vector<std::uint8_t>>(result.sequences).subspan(begin, count),
                  notes) &&
        b + 1 < batches) {
      result.cancelled = true;
      break;
    }
  }
  result.completed = result.sequences.size();
  result.total_seconds = since(t0);
  return result;
}

}  // namespace gsflow::pipeline
