// The shared core of `gsflow generate` and `gsflow rerun` (see generation_run.hpp).
#include "generation_run.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>

#include "global_options.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/guidance/properties.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/storage/run_store.hpp"
#include "gsflow/version.hpp"
#include "interrupt.hpp"
#include "progress.hpp"
#include "run_records.hpp"
#include "sequence_sets.hpp"

namespace gsflow::app {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> kernel_names(const engine::Kernels& kernels, std::size_t k) {
  std::vector<std::string> names;
  for (const auto op : {engine::KernelOp::softmax, engine::KernelOp::log_softmax,
                        engine::KernelOp::logsumexp, engine::KernelOp::gumbel_softmax,
                        engine::KernelOp::flow_step})
    names.push_back(kernels.kernel_name(op, k));
  return names;
}

// Splits a sampler frame (one batch, rows at the sampled length) into per-sequence records at
// each sequence's own length.
void split_frame(const engine::Frame& frame, std::size_t k, const std::vector<std::size_t>& lengths,
                 std::size_t first_of_request, std::vector<storage::FrameRecord>& out) {
  if (frame.sequences == 0) return;
  const std::size_t rows = frame.x.size() / k / frame.sequences;  // sampled (padded) length
  for (std::size_t j = 0; j < frame.sequences; ++j) {
    storage::FrameRecord f;
    f.sequence = frame.first_sequence + j;
    f.step = frame.step;
    f.t = frame.t;
    f.k = k;
    f.length = lengths[f.sequence - first_of_request];
    const auto begin = static_cast<std::ptrdiff_t>(j * rows * k);
    const auto end = begin + static_cast<std::ptrdiff_t>(f.length * k);
    f.x.assign(frame.x.begin() + begin, frame.x.begin() + end);
    if (!frame.xhat.empty()) f.xhat.assign(frame.xhat.begin() + begin, frame.xhat.begin() + end);
    out.push_back(std::move(f));
  }
}

}  // namespace

RunOutcome execute_run(RunOptions options, const InterruptGuard& interrupt) {
  auto& params = options.params;
  RunOutcome outcome;
  // Model: by name (with the method's variant) or file; a rerun falls back to the recorded file.
  const std::string method_text =
      options.method_given ? engine::method_name(params.sampler.method) : "";
  outcome.model_file = models::resolve_model(params.model, method_text);
  outcome.model_hash = models::model_hash(outcome.model_file);
  if (!options.expect_model_hash.empty() && outcome.model_hash != options.expect_model_hash)
    throw std::invalid_argument(fmt::format(
        "model {}: the file changed since the run was made (hash {} then, {} now); the run "
        "cannot be reproduced with it",
        outcome.model_file, options.expect_model_hash, outcome.model_hash));
  const auto model = models::Model::load(outcome.model_file);
  const auto& spec = model.spec();
  if (options.method_given && params.sampler.method != spec.method)
    throw std::invalid_argument(fmt::format("--method {}: {} is a {} model",
                                            engine::method_name(params.sampler.method),
                                            outcome.model_file, engine::method_name(spec.method)));
  params.sampler.method = spec.method;
  params.consistent = global_options().consistent;
  const engine::Alphabet& alphabet = alphabet_named(spec.alphabet, outcome.model_file + ": alphabet");
  outcome.model_name = fs::path(outcome.model_file).stem().string();
  auto request = guidance::to_request(params);
  // Objectives are built once: they guide (when gamma > 0) and score every finished sequence.
  request.objectives = guidance::guidance_objectives(model, request);
  const auto lengths = guidance::sequence_lengths(model, request);  // checks --length
  const engine::Kernels kernels(kernel_options(params.threads));
  outcome.kernels = kernel_names(kernels, spec.k);

  // The store: the run is registered before any work, so a crash leaves a trace.
  std::unique_ptr<storage::RunStore> store;
  if (!options.db.empty()) {
    if (options.db == storage::default_database_path())
      fs::create_directories(fs::path(options.db).parent_path());
    store = std::make_unique<storage::RunStore>(options.db);
    if (store->recovered_runs())
      std::cerr << fmt::format("gsflow: {} run(s) whose process had died are now marked "
                               "interrupted in {}\n",
                               store->recovered_runs(), options.db);
    storage::NewRun run;
    run.name = options.name;
    run.rename_if_taken = options.rename_if_taken;
    run.params_json = guidance::run_params_json(params);
    run.seed = params.sampler.seed;
    run.method = engine::method_name(spec.method);
    run.model = {outcome.model_name, fs::absolute(outcome.model_file).string(), outcome.model_hash,
                 engine::method_name(spec.method), spec.alphabet, spec.length, spec.k};
    run.kernels = outcome.kernels;
    run.version = kVersion;
    run.requested = request.n;
    run.tags = options.tags;
    run.notes = options.notes;
    if (params.shards > 1) {
      guidance::RunParams whole = params;
      whole.shard = 0;
      whole.shards = 1;
      run.shard.index = params.shard;
      run.shard.count = params.shards;
      run.shard.group_params_json = guidance::run_params_json(whole);
      run.shard.group_key = models::content_hash(run.shard.group_params_json + outcome.model_hash +
                                                 options.name);
      run.shard.group_name = options.name.empty()
                                 ? fmt::format("{}-s{}-{}x", outcome.model_name,
                                               params.sampler.seed, params.n)
                                 : options.name;
      run.shard.group_requested = params.n;
      run.name = fmt::format("{}-shard{}of{}", run.shard.group_name, params.shard, params.shards);
    }
    outcome.run_id = store->begin_run(run);
    outcome.run_name = store->run(outcome.run_id).name;
  } else {
    outcome.run_name = options.name.empty() ? outcome.model_name : options.name;
  }

  // Frames arrive per batch before that batch's sequences; they are stored together.
  std::vector<storage::FrameRecord> pending;
  std::vector<storage::StepScore> pending_scores;
  engine::SamplerHooks hooks;
  Progress progress(fmt::format("generate {}", outcome.run_name), options.progress);
  hooks.progress = [&](std::size_t done, std::size_t total) { progress.update(done, total); };
  hooks.cancel = interrupt.cancel_now();
  if (store && params.sampler.frames_every > 0)
    hooks.frame = [&](const engine::Frame& frame) {
      split_frame(frame, spec.k, lengths, request.first, pending);
    };
  const auto on_batch = [&](std::size_t first, std::span<const std::vector<std::uint8_t>> batch) {
    storage::Batch b;
    for (std::size_t j = 0; j < batch.size(); ++j) {
      storage::SequenceRecord s;
      s.index = first + j;
      s.text = alphabet.decode(batch[j]);
      s.scores = guidance::property_scores(spec.alphabet, batch[j]);
      b.sequences.push_back(s);
    }
    const engine::SequenceSet letters(batch.begin(), batch.end());
    for (std::size_t t = 0; t < request.objectives.size(); ++t) {
      const auto scores = guidance::score_sequences(*request.objectives[t], letters);
      for (std::size_t j = 0; j < batch.size(); ++j)
        b.sequences[j].scores[params.guidance.terms[t].objective] = scores[j];
    }
    b.step_scores = std::move(pending_scores);
    pending_scores.clear();
    b.frames = std::move(pending);
    pending.clear();
    if (store) store->add_batch(outcome.run_id, b);
    outcome.frames += b.frames.size();
    for (auto& s : b.sequences) outcome.sequences.push_back(std::move(s));
    return !interrupt.stop_requested();
  };

  guidance::GenerateResult result;
  try {
    result = guidance::generate(model, request, kernels, hooks, on_batch,
                                [&](const guidance::GuideStepScore& s) {
                                  pending_scores.push_back({s.first_sequence, s.step, s.objective,
                                                            s.mean});
                                });
  } catch (const std::exception& e) {
    progress.finish();
    if (store) {
      try {
        store->finish_run(outcome.run_id, storage::kFailed, 0.0, 0.0, e.what());
      } catch (const std::exception&) {  // e.g. the disk is still full: the next open marks it
      }
    }
    throw;
  }
  progress.finish();
  outcome.seconds = result.total_seconds;
  outcome.network_seconds = result.network_seconds;
  outcome.guidance_seconds = result.guidance.seconds;
  outcome.objective_calls = result.guidance.objective_calls;
  outcome.status = result.cancelled ? storage::kInterrupted : storage::kCompleted;
  if (store)
    store->finish_run(outcome.run_id, outcome.status, result.total_seconds,
                      result.network_seconds,
                      result.cancelled ? "interrupted by a signal after " +
                                             std::to_string(result.completed) + " sequences"
                                       : "");

  if (!options.out.empty()) {
    std::ofstream file;
    if (options.out != "-") {
      file.open(options.out);
      if (!file) throw std::runtime_error(options.out + ": cannot create the output file");
    }
    std::ostream& out = options.out == "-" ? std::cout : file;
    engine::FastaWriter writer(out, {options.width});
    for (const auto& s : outcome.sequences)
      writer.write(fasta_header(outcome.run_name, outcome.model_name,
                                engine::method_name(spec.method), params.sampler.seed,
                                params.sampler.steps, s),
                   s.text);
    out.flush();
    if (!out)
      throw std::runtime_error((options.out == "-" ? "stdout" : options.out) + ": write failed");
  }
  return outcome;
}

}  // namespace gsflow::app
