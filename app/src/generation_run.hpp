// One generation run from parameters to stored results: the shared core of `gsflow generate`
// and `gsflow rerun`. Sequences are committed to the run store batch by batch as they finish,
// with their trajectory frames, so an interrupted run keeps everything completed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gsflow/guidance/generate.hpp"
#include "gsflow/guidance/run_params.hpp"
#include "gsflow/storage/records.hpp"

namespace gsflow::app {

class InterruptGuard;

struct RunOptions {
  guidance::RunParams params;         // what to generate (method: "" = the model's, see below)
  bool method_given = false;          // params.sampler.method was asked for (else the model's)
  std::string db;                     // run store file; "" = do not store
  std::string name, notes;            // run name ("" = from model and seed), notes
  bool rename_if_taken = false;       // number a taken name instead of refusing it
  std::vector<std::string> tags;
  std::string out;                    // FASTA file to write as well ("-" = stdout, "" = none)
  std::size_t width = 60;             // FASTA line width
  bool progress = true;               // progress on stderr
  std::string expect_model_hash;      // rerun: the model must still be this file
};

struct RunOutcome {
  std::int64_t run_id = 0;            // 0 when not stored
  std::string run_name, status, model_name, model_file, model_hash;
  std::vector<std::string> kernels;
  std::vector<storage::SequenceRecord> sequences;  // what was generated, request order
  std::size_t frames = 0;                          // trajectory frames stored
  double seconds = 0.0, network_seconds = 0.0;
  double guidance_seconds = 0.0;    // time inside STGFlow guidance
  std::uint64_t objective_calls = 0;  // sequences scored by guidance objectives
};

// Runs options.params (loading and checking the model, generating, storing, writing FASTA) and
// returns what happened. An interrupt finishes the current batch and returns status
// "interrupted". Throws (std::invalid_argument, ModelError, StorageError, ...) for bad input;
// a run already started in the store is then marked failed with the message.
RunOutcome execute_run(RunOptions options, const InterruptGuard& interrupt);

}  // namespace gsflow::app
