// One generation run from parameters to the run store: the pipeline `gsflow generate`, `gsflow
// rerun` and gsflow-studio share, so a run made in either is the same record. Sequences are
// committed batch by batch with their trajectory frames and step scores, so a cancelled or
// crashed run keeps everything completed.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gsflow/pipeline/run_params.hpp"
#include "gsflow/storage/records.hpp"

namespace gsflow::pipeline {

struct StoredRunOptions {
  RunParams params;             // what to generate; params.consistent forces reference kernels
  bool method_given = false;    // params.sampler.method was asked for (else the model's)
  std::string db;               // run store file; "" = do not store
  std::string name, notes;      // run name ("" = MODEL-seedSEED), notes
  bool rename_if_taken = false;  // number a taken name instead of refusing it
  std::vector<std::string> tags;
  std::string expect_model_hash;  // rerun: the model must still be this file ("" = any)
};

struct StoredRunOutcome {
  std::int64_t run_id = 0;  // 0 when not stored
  std::string run_name, model_name, model_file, model_hash, alphabet;
  storage::RunStatus status = storage::RunStatus::running;
  std::string method;  // the model's: gsfm, gssm or linear
  int steps = 0;       // the sampler's steps, resolved (resolved_steps: auto made concrete)
  std::vector<std::string> kernels;
  std::vector<storage::SequenceRecord> sequences;  // what was generated, request order
  std::size_t frames = 0;                          // trajectory frames made
  double seconds = 0.0, network_seconds = 0.0;
  double guidance_seconds = 0.0;      // time inside STGFlow guidance
  std::uint64_t objective_calls = 0;  // sequences scored by guidance objectives
};

// Observers of a run. All are called on the thread that called run_and_store().
struct StoredRunHooks {
  std::function<void(std::size_t done, std::size_t total)> progress;  // sampler steps
  // The model is loaded and the run begun in the store: the outcome so far (run id and name, model,
  // alphabet, kernels; no sequences yet).
  std::function<void(const StoredRunOutcome&)> started;
  // Every trajectory frame of one sequence (params.sampler.frames_every > 0), as it is made.
  std::function<void(const storage::FrameRecord&)> frame;
  // Each finished batch (sequences with scores, frames, step scores) after it is stored.
  std::function<void(const storage::Batch&)> batch;
  // Set from any thread: stop now, abandoning the batch in progress (completed ones are kept).
  const std::atomic<bool>* cancel = nullptr;
  // Asked after each batch: true = stop after it (a graceful stop).
  std::function<bool()> stop;
  // Notices for the user (e.g. runs of dead processes marked interrupted when the store opened).
  std::function<void(const std::string&)> notice;
};

// Loads and checks the model, registers the run in the store before any work, generates,
// stores each batch, and finishes the run as completed or, after a cancel or stop, interrupted.
// Throws (std::invalid_argument,
// models::ModelError, storage::StorageError, ...) for bad input; a run already begun in the store
// is then marked failed with the message.
StoredRunOutcome run_and_store(StoredRunOptions options, const StoredRunHooks& hooks = {});

}  // namespace gsflow::pipeline
