// The stored generation run shared by the command line and gsflow-studio (see stored_run.hpp).
#include "gsflow/pipeline/stored_run.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/guidance/properties.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/model.hpp"
#include "gsflow/pipeline/typicality_file.hpp"
#include "gsflow/storage/run_store.hpp"

namespace gsflow::pipeline {

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

std::string alphabet_text(const std::string& name) {
  return name == "dna" || name == "protein" ? name : std::string();
}

storage::NewRun new_run(const StoredRunOptions& options, const StoredRunOutcome& outcome,
                        const models::ModelSpec& spec, std::size_t requested) {
  const auto& params = options.params;
  storage::NewRun run;
  run.name = options.name;
  run.rename_if_taken = options.rename_if_taken;
  run.params_json = run_params_json(params);
  run.seed = params.sampler.seed;
  run.method = engine::method_name(spec.method);
  run.model = {outcome.model_name, fs::absolute(outcome.model_file).string(), outcome.model_hash,
               engine::method_name(spec.method), spec.alphabet, spec.length, spec.k};
  run.kernels = outcome.kernels;
  run.version = GSFLOW_VERSION;
  run.requested = requested;
  run.tags = options.tags;
  run.notes = options.notes;
  if (params.shards > 1) {
    RunParams whole = params;
    whole.shard = 0;
    whole.shards = 1;
    run.shard.index = params.shard;
    run.shard.count = params.shards;
    run.shard.group_params_json = run_params_json(whole);
    run.shard.group_key =
        models::content_hash(run.shard.group_params_json + outcome.model_hash + options.name);
    run.shard.group_name =
        options.name.empty()
            ? outcome.model_name + "-seed" + std::to_string(params.sampler.seed) + "-" +
                  std::to_string(params.n) + "x"
            : options.name;
    run.shard.group_requested = params.n;
    run.name = run.shard.group_name + "-shard" + std::to_string(params.shard) + "of" +
               std::to_string(params.shards);
  }
  return run;
}

}  // namespace

StoredRunOutcome run_and_store(StoredRunOptions options, const StoredRunHooks& hooks) {
  auto& params = options.params;
  StoredRunOutcome outcome;
  storage::check_run_name(options.name);  // before any work: a bad name must not cost a run
  // Model: by name (with the method's variant) or file.
  const std::string method_text =
      options.method_given ? engine::method_name(params.sampler.method) : "";
  outcome.model_file = models::resolve_model(params.model, method_text);
  outcome.model_hash = models::model_hash(outcome.model_file);
  if (!options.expect_model_hash.empty() && outcome.model_hash != options.expect_model_hash)
    throw std::invalid_argument(
        "model " + outcome.model_file + ": hash " + outcome.model_hash +
        ", but the run was made with hash " + options.expect_model_hash +
        " (the file changed, or it is another model); the run cannot be reproduced with it. If "
        "the original file is kept elsewhere, give it with `gsflow rerun RUN --model FILE`");
  const auto model = models::Model::load(outcome.model_file);
  const auto& spec = model.spec();
  if (options.method_given && params.sampler.method != spec.method)
    throw std::invalid_argument("method " + std::string(engine::method_name(params.sampler.method)) +
                                ": " + outcome.model_file + " is a " +
                                engine::method_name(spec.method) + " model");
  params.sampler.method = spec.method;
  params.precision = models::resolve_precision(params.precision);  // recorded
  params.sampler.steps = resolved_steps(params);  // recorded: 0 (auto) is today's default only
  outcome.steps = params.sampler.steps;
  outcome.method = engine::method_name(spec.method);
  const engine::Alphabet& alphabet = engine::alphabet_by_name(spec.alphabet);
  outcome.alphabet = alphabet_text(spec.alphabet);
  outcome.model_name = fs::path(outcome.model_file).stem().string();
  auto request = to_request(params);
  // Objectives are built once: they guide (when gamma > 0) and score every finished sequence.
  request.objectives = guidance_objectives(model, request);
  const auto lengths = sequence_lengths(model, request);  // checks the length
  check_design(model, request);  // refused before the run is registered: nothing stored
  const engine::Kernels kernels(
      engine::KernelOptions{.consistent = params.consistent, .threads = params.threads});
  outcome.kernels = kernel_names(kernels, spec.k);

  // The store: the run is registered before any work, so a crash leaves a trace.
  std::unique_ptr<storage::RunStore> store;
  if (!options.db.empty()) {
    const fs::path folder = fs::path(options.db).parent_path();  // "" for a bare file name
    if (options.db == storage::default_database_path() && !folder.empty())
      fs::create_directories(folder);
    store = std::make_unique<storage::RunStore>(options.db);
    if (store->recovered_runs() && hooks.notice)
      hooks.notice(std::to_string(store->recovered_runs()) +
                   " run(s) whose process had died are now marked interrupted in " + options.db);
    outcome.run_id = store->begin_run(new_run(options, outcome, spec, request.n));
    outcome.run_name = store->run(outcome.run_id).name;
  } else {
    outcome.run_name = options.name.empty() ? outcome.model_name : options.name;
  }
  if (hooks.started) hooks.started(outcome);

  // Frames arrive per batch before that batch's sequences; they are stored together.
  std::vector<storage::FrameRecord> pending;
  std::vector<storage::StepScore> pending_scores;
  engine::SamplerHooks sampler_hooks;
  sampler_hooks.progress = hooks.progress;
  sampler_hooks.cancel = hooks.cancel;
  if ((store || hooks.frame) && params.sampler.frames_every > 0)
    sampler_hooks.frame = [&](const engine::Frame& frame) {
      const std::size_t before = pending.size();
      split_frame(frame, spec.k, lengths, request.first, pending);
      if (hooks.frame)
        for (std::size_t i = before; i < pending.size(); ++i) hooks.frame(pending[i]);
    };
  // Guided outputs say how far each is from the training data's statistics (typicality.hpp):
  // "atypical" counts the statistics outside the range the model's profile records.
  std::optional<engine::TypicalityProfile> profile;
  if (params.guidance.active()) {
    profile = profile_for(outcome.model_file);
    if (!profile && hooks.notice)
      hooks.notice("no typicality profile beside " + outcome.model_file +
                   " (gsflow profile writes one): guided outputs carry no 'atypical' count");
  }
  const auto on_batch = [&](std::size_t first, std::span<const std::vector<std::uint8_t>> batch,
                            std::span<const DesignNote> notes) {
    storage::Batch b;
    for (std::size_t j = 0; j < batch.size(); ++j) {
      storage::SequenceRecord s;
      s.index = first + j;
      s.text = alphabet.decode(batch[j]);
      s.scores = guidance::property_scores(spec.alphabet, batch[j]);
      if (j < notes.size()) add_design_scores(notes[j], s.scores);
      if (profile) s.scores["atypical"] = static_cast<double>(profile->atypical(batch[j]).size());
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
    if (hooks.batch) hooks.batch(b);
    for (auto& s : b.sequences) outcome.sequences.push_back(std::move(s));
    return !(hooks.stop && hooks.stop());
  };

  GenerateResult result;
  try {
    result = generate(model, request, kernels, sampler_hooks, on_batch,
                      [&](const guidance::GuideStepScore& s) {
                        pending_scores.push_back({s.first_sequence, s.step, s.objective, s.mean});
                      });
  } catch (const std::exception& e) {
    if (store) {
      try {
        store->finish_run(outcome.run_id, storage::RunStatus::failed, 0.0, 0.0, e.what());
      } catch (const std::exception&) {  // e.g. the disk is still full: the next open marks it
      }
    }
    throw;
  }
  outcome.seconds = result.total_seconds;
  outcome.network_seconds = result.network_seconds;
  outcome.guidance_seconds = result.guidance.seconds;
  outcome.objective_calls = result.guidance.objective_calls;
  outcome.status = result.cancelled ? storage::RunStatus::interrupted : storage::RunStatus::completed;
  if (store)
    store->finish_run(outcome.run_id, outcome.status, result.total_seconds,
                      result.network_seconds,
                      result.cancelled ? "interrupted after " + std::to_string(result.completed) +
                                             " sequences"
                                       : "");
  return outcome;
}

}  // namespace gsflow::pipeline
