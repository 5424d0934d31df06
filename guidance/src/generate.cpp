// The headless generation pipeline (see generate.hpp).
#include "gsflow/guidance/generate.hpp"

#include <chrono>
#include <map>
#include <stdexcept>
#include <string>

#include "gsflow/engine/philox.hpp"

namespace gsflow::guidance {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}
// Stream of the length draws; distinct from the sampler's (purpose << 32 | step) streams.
constexpr std::uint64_t kLengthStream = 0x4C454E47ULL << 32;
}  // namespace

std::vector<std::size_t> sequence_lengths(const models::Model& model,
                                          const GenerateRequest& request) {
  const auto& spec = model.spec();
  const bool any_length = spec.network.type == models::NetworkType::transformer;
  if (request.length != 0) {
    if (any_length ? request.length > spec.length : request.length != spec.length)
      throw std::invalid_argument(
          "length: " + std::to_string(request.length) + " is not possible for this model (" +
          (any_length ? "at most " : "exactly ") + std::to_string(spec.length) + ")");
    return std::vector<std::size_t>(request.n, request.length);
  }
  const auto& counts = model.record().length_counts;
  if (!any_length || counts.empty()) return std::vector<std::size_t>(request.n, spec.length);
  std::size_t total = 0;
  for (const auto& [len, c] : counts) total += c;
  std::vector<std::size_t> lengths(request.n);
  for (std::size_t i = 0; i < request.n; ++i) {
    const double u = engine::noise_uniform(request.sampler.seed, kLengthStream,
                                           static_cast<std::uint32_t>(i), 0);
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

GenerateResult generate(const models::Model& model, const GenerateRequest& request,
                        const engine::Kernels& kernels, const engine::SamplerHooks& hooks) {
  const auto t0 = Clock::now();
  const auto& spec = model.spec();
  engine::SamplerOptions options = request.sampler;
  if (options.method != spec.method)
    throw std::invalid_argument(std::string("method: the model was trained for ") +
                                engine::method_name(spec.method) + ", not " +
                                engine::method_name(options.method));
  const auto lengths = sequence_lengths(model, request);
  std::map<std::size_t, std::vector<std::size_t>> groups;  // length -> request indices
  for (std::size_t i = 0; i < lengths.size(); ++i) groups[lengths[i]].push_back(i);

  GenerateResult result;
  std::vector<std::vector<std::uint8_t>> out(request.n);
  std::vector<bool> done(request.n, false);
  const engine::Path path(spec.path);
  const engine::Denoiser network = model.denoiser(kernels, request.threads);
  const engine::Denoiser timed = [&](engine::ConstRows x, std::size_t n, double t, engine::Rows o) {
    const auto c0 = Clock::now();
    network(x, n, t, o);
    result.network_seconds += since(c0);
  };
  // Progress over all groups, in sampler steps.
  // The sampler counts progress in batch-steps: batches of the group times steps.
  const auto group_steps = [&](std::size_t sequences) {
    const std::size_t batch = std::max<std::size_t>(1, options.batch);
    return (sequences + batch - 1) / batch * static_cast<std::size_t>(options.steps);
  };
  std::size_t steps_before = 0, steps_total = 0;
  for (const auto& [len, idx] : groups) steps_total += group_steps(idx.size());
  for (const auto& [len, idx] : groups) {
    engine::SamplerOptions group_options = options;
    // Each length has its own seed so that the j-th sequence of length L is keyed by (seed, L, j).
    group_options.seed = options.seed ^ (static_cast<std::uint64_t>(len) * 0x9E3779B97F4A7C15ULL);
    // Lengths that are not drawn (fixed by the model or the request) keep the plain seed.
    if (request.length != 0 || spec.network.type != models::NetworkType::transformer ||
        model.record().length_counts.empty())
      group_options.seed = options.seed;
    engine::SamplerHooks group_hooks = hooks;
    if (hooks.progress)
      group_hooks.progress = [&, before = steps_before](std::size_t d, std::size_t) {
        hooks.progress(before + d, steps_total);
      };
    const engine::SampleRequest req{idx.size(), len, spec.k, 0};
    const auto r = engine::sample(timed, path, req, group_options, kernels, group_hooks);
    for (std::size_t j = 0; j < r.completed; ++j) {
      auto& seq = out[idx[j]];
      seq.resize(len);
      for (std::size_t p = 0; p < len; ++p)
        seq[p] = static_cast<std::uint8_t>(r.letters[j * len + p]);
      done[idx[j]] = true;
    }
    steps_before += group_steps(idx.size());
    if (r.cancelled) {
      result.cancelled = true;
      break;
    }
  }
  for (std::size_t i = 0; i < request.n; ++i)
    if (done[i]) result.sequences.push_back(std::move(out[i]));
  result.completed = result.sequences.size();
  result.total_seconds = since(t0);
  return result;
}

}  // namespace gsflow::guidance
