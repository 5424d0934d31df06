// The SQLite run store: every generation run with its parameters, model, kernels, sequences,
// scores, trajectory frames, tags and notes, so that runs can be browsed, compared, exported,
// merged and rerun. One RunStore is one connection; use it from one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gsflow/storage/records.hpp"

namespace gsflow::storage {

// Any failure of the store: the message names the database file and what went wrong (locked,
// read-only, full disk, not a database, a newer schema, an unknown run).
class StorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Schema version written by this build (PRAGMA user_version); newer databases are refused.
inline constexpr int kSchemaVersion = 1;

struct StoreOptions {
  bool read_only = false;   // never write (no migration, no interrupted-run marking)
  bool create = true;       // create the file when missing (its folder must exist)
  int busy_timeout_ms = 10000;  // wait this long for another process's write lock
};

struct MergeReport {
  std::size_t runs_added = 0;      // runs copied as they were
  std::size_t shards_joined = 0;   // shard runs folded into their request's merged run
  std::size_t skipped = 0;         // already present (same uid): merging is idempotent
  std::size_t refreshed = 0;       // present but incomplete: brought up to the source's state
  std::vector<std::string> merged_runs;  // names of the runs the shards went into
};

class RunStore {
 public:
  // Opens (creating and migrating when allowed) the database at `file` (":memory:" works).
  // Foreign keys on, WAL journal, synchronous NORMAL. When writable, runs left `running` by a
  // process of this host that no longer exists are marked interrupted. Throws StorageError.
  explicit RunStore(const std::string& file, const StoreOptions& options = {});
  ~RunStore();
  RunStore(RunStore&&) noexcept;
  RunStore& operator=(RunStore&&) noexcept;

  const std::string& file() const;
  // Runs marked interrupted when this store was opened.
  std::size_t recovered_runs() const;

  // Starts a run (status running, owned by this process) and returns its id. A name already in
  // use throws StorageError.
  std::int64_t begin_run(const NewRun& run);
  // Commits one batch (sequences, their frames and step scores) in one transaction: either all of
  // it is stored or none. Throws StorageError (e.g. disk full), leaving earlier batches intact.
  void add_batch(std::int64_t run, const Batch& batch);
  // Sets the final status (completed, interrupted or failed), timings and error message.
  void finish_run(std::int64_t run, RunStatus status, double seconds_total,
                  double seconds_network, const std::string& error = "");

  // Newest first, with tags and counts; params_json and shard.group_params_json are left empty
  // (they can be long: read them with run()).
  std::vector<RunInfo> list_runs(const RunFilter& filter = {}) const;
  // The same, one run at a time without keeping them (long lists).
  void for_each_run(const RunFilter& filter,
                    const std::function<void(const RunInfo&)>& visit) const;
  // By exact name, or by numeric id when `key` is all digits. Throws StorageError when unknown.
  RunInfo find_run(const std::string& key) const;
  RunInfo run(std::int64_t id) const;
  std::vector<SequenceRecord> sequences(std::int64_t run) const;
  // Frames of one sequence (or of all when `sequence` is empty), by sequence then step.
  std::vector<FrameRecord> frames(std::int64_t run, std::optional<std::size_t> sequence = {}) const;
  std::vector<StepScore> step_scores(std::int64_t run) const;

  void delete_run(std::int64_t run);
  void add_tags(std::int64_t run, const std::vector<std::string>& tags);
  void remove_tags(std::int64_t run, const std::vector<std::string>& tags);
  void set_notes(std::int64_t run, const std::string& notes);
  // Sets the novelty of sequences (global index, value) of `run`, all or none. An index the run
  // does not have throws StorageError.
  void set_novelty(std::int64_t run, const std::vector<std::pair<std::size_t, double>>& novelty);

  // Copies every run of the store at `other` into this one. Runs that are shards of one request
  // (same group key) are joined into one run named by the group name, with the unsharded
  // request's parameters, completed when every sequence is present; other runs are copied with
  // a fresh name if theirs is taken. Runs already merged are skipped. One transaction per source.
  MergeReport merge_from(const std::string& other);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The default database: $GSFLOW_DB, else $XDG_DATA_HOME/gsflow/runs.sqlite, else
// ~/.local/share/gsflow/runs.sqlite.
std::string default_database_path();

// Throws std::invalid_argument "run name ...: why" unless `name` can name a run: "" (a name is made up),
// or at most 200 bytes with no blank and no control character, not starting with '-' (read as an
// option) or '=', '+', '@' (a formula in a spreadsheet opening the CSV). Run names become FASTA
// record ids and CSV fields as they are.
void check_run_name(const std::string& name);

}  // namespace gsflow::storage
