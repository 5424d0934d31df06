// Plain record types of the run store (std only): what a run, its model, its sequences, its
// trajectory frames and its per-step scores look like to callers of RunStore.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gsflow/engine/enum_names.hpp"

namespace gsflow::storage {

// Run status. A run is `running` while its process writes it; one whose process died is marked
// `interrupted` the next time the store is opened for writing. Stored by name (kRunStatusNames).
enum class RunStatus {
  running,
  completed,
  interrupted,  // Ctrl-C, cancel, killed process
  failed,       // an error stopped it (see error)
};
inline constexpr engine::EnumNames<RunStatus, 4> kRunStatusNames{
    "status",
    {{{RunStatus::running, "running"}, {RunStatus::completed, "completed"},
      {RunStatus::interrupted, "interrupted"}, {RunStatus::failed, "failed"}}}};
inline const char* status_name(RunStatus status) { return kRunStatusNames.name(status); }

struct ModelInfo {
  std::string name;      // e.g. "dna-promoter"
  std::string file;      // the checkpoint file it was loaded from
  std::string hash;      // FNV-1a 64 of the checkpoint bytes (hex): identifies the weights
  std::string method;    // gsfm, gssm or linear
  std::string alphabet;  // dna, protein or "" (generic K)
  std::size_t length = 0;
  std::size_t k = 0;
};

// A run that makes shard `index` of `count` of one request. Shards of one request share the group
// key (e.g. a hash of the request without the shard); `gsflow merge` joins them into one run
// named group_name, with the whole request's parameters and size.
struct ShardInfo {
  std::size_t index = 0, count = 1;  // count 1 = not sharded
  std::string group_key;             // required when count > 1
  std::string group_name;            // name of the merged run
  std::string group_params_json;     // parameters of the whole (unsharded) request
  std::size_t group_requested = 0;   // sequences of the whole request
};

// What the caller supplies to start a run.
struct NewRun {
  std::string name;         // unique in the store; "" = MODEL-seedSEED (numbered when taken)
  bool rename_if_taken = false;  // a taken name gets -2, -3, ... instead of an error
  std::string params_json;  // pipeline::run_params_json(): enough to rerun it
  std::uint64_t seed = 0;
  std::string method;
  ModelInfo model;
  std::vector<std::string> kernels;  // kernel names used (engine dispatch)
  std::string version;               // gsflow version
  std::size_t requested = 0;         // sequences this run is to make (its shard's share)
  ShardInfo shard;                   // which part of a larger request this run is
  std::vector<std::string> tags;
  std::string notes;
};

struct RunInfo {
  std::int64_t id = 0;
  std::string uid;  // random 128-bit hex: the run's identity across merged stores
  std::string name, params_json, method, version;
  RunStatus status = RunStatus::running;
  ShardInfo shard;
  std::uint64_t seed = 0;
  ModelInfo model;
  std::vector<std::string> kernels, tags;
  std::string notes, error;
  std::string created_at, finished_at;  // ISO 8601 UTC ("" while running)
  double seconds_total = 0.0, seconds_network = 0.0;
  std::size_t requested = 0, completed = 0;  // sequences
  std::size_t frames = 0;                    // stored trajectory frames (all sequences)
};

struct SequenceRecord {
  std::size_t index = 0;  // global index in the request (shards keep theirs)
  std::string text;       // letters
  std::map<std::string, double> scores;  // objective -> score
  std::optional<double> novelty;         // e.g. min distance to the training set, when known
};

// One sequence's state at one step, probabilities in [0, 1], rows of K summing to 1.
struct FrameRecord {
  std::size_t sequence = 0;  // global index
  int step = 0;              // steps done (0 = start)
  double t = 0.0;
  std::size_t length = 0, k = 0;
  std::vector<float> x;     // [length * k] state
  std::vector<float> xhat;  // [length * k] denoiser's prediction (empty at step 0)
};

struct StepScore {
  std::size_t first_sequence = 0;  // the batch it belongs to (global index of its first sequence)
  int step = 0;
  std::string objective;
  double mean = 0.0;  // mean score of the batch's current state
};

// What a batch commit holds: sequences done, their frames and the steps' scores.
struct Batch {
  std::vector<SequenceRecord> sequences;
  std::vector<FrameRecord> frames;
  std::vector<StepScore> step_scores;
};

struct RunFilter {
  // The {} initializers keep -Wmissing-field-initializers quiet for designated initializers
  // that name a subset, e.g. {.tag = "keep"}.
  std::string text{};     // substring of the name or notes ("" = any)
  std::string tag{};      // exact tag
  std::string model{};    // model name
  std::optional<RunStatus> status{};  // exact status
  std::string since{};    // created at or after (ISO 8601 prefix, e.g. 2026-12-01)
  std::size_t limit = 0;  // newest first; 0 = all
};

}  // namespace gsflow::storage
