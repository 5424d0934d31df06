// The headless generation pipeline (see generate.hpp).
#include "gsflow/guidance/generate.hpp"

#include <chrono>
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
  // Drawn lengths (a transformer model, no --length) always take the padded path, even when the
  // first few draws agree, so that sequence i does not depend on n.
  const bool one_length = request.length != 0 ||
                          spec.network.type != models::NetworkType::transformer ||
                          model.record().length_counts.empty();

  GenerateResult result;
  std::vector<std::vector<std::uint8_t>> out(request.n);
  std::vector<bool> done(request.n, false);
  const engine::Path path(spec.path);
  const auto timed = [&](const engine::Denoiser& network) -> engine::Denoiser {
    return [&result, network](engine::ConstRows x, std::size_t n, double t, engine::Rows o) {
      const auto c0 = Clock::now();
      network(x, n, t, o);
      result.network_seconds += since(c0);
    };
  };
  // Mixed lengths (transformer): chunks of options.batch sequences padded to the model's length,
  // padding masked; the noise of sequence i is keyed by (seed, i) at that fixed length, so a
  // larger n extends a smaller one. One length: plain batches at that length.
  const std::size_t len = one_length && !lengths.empty() ? lengths.front() : spec.length;
  const std::size_t chunk =
      one_length ? std::max<std::size_t>(request.n, 1) : std::max<std::size_t>(1, options.batch);
  const std::size_t batch = std::max<std::size_t>(1, options.batch);
  const auto chunk_steps = [&](std::size_t sequences) {
    return (sequences + batch - 1) / batch * static_cast<std::size_t>(options.steps);
  };
  std::size_t steps_total = 0;
  for (std::size_t first = 0; first < request.n; first += chunk)
    steps_total += chunk_steps(std::min(chunk, request.n - first));
  std::size_t steps_before = 0;
  std::vector<std::uint16_t> chunk_lengths;
  for (std::size_t first = 0; first < request.n; first += chunk) {
    const std::size_t count = std::min(chunk, request.n - first);
    engine::SamplerHooks chunk_hooks = hooks;
    if (hooks.progress)
      chunk_hooks.progress = [&, before = steps_before](std::size_t d, std::size_t) {
        hooks.progress(before + d, steps_total);
      };
    engine::Denoiser network;
    if (one_length) {
      network = timed(model.denoiser(kernels, request.threads));
    } else {
      chunk_lengths.assign(lengths.begin() + static_cast<std::ptrdiff_t>(first),
                           lengths.begin() + static_cast<std::ptrdiff_t>(first + count));
      network = timed(model.denoiser(kernels, request.threads, chunk_lengths));
    }
    const engine::SampleRequest req{count, len, spec.k, first};
    const auto r = engine::sample(network, path, req, options, kernels, chunk_hooks);
    for (std::size_t j = 0; j < r.completed; ++j) {
      auto& seq = out[first + j];
      seq.resize(lengths[first + j]);
      for (std::size_t p = 0; p < seq.size(); ++p)
        seq[p] = static_cast<std::uint8_t>(r.letters[j * len + p]);
      done[first + j] = true;
    }
    steps_before += chunk_steps(count);
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
