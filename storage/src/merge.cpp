// Merging run stores (see RunStore::merge_from): whole runs are copied; shards of one request
// are joined into one run with the request's parameters.
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <algorithm>
#include <filesystem>

#include "gsflow/storage/run_store.hpp"
#include "store_impl.hpp"

namespace gsflow::storage {

namespace {

bool exists(SQLite::Database& db, const std::string& sql, const std::string& a,
            std::int64_t b = -1) {
  SQLite::Statement q(db, sql);
  q.bind(1, a);
  if (b >= 0) q.bind(2, b);
  return q.executeStep();
}

std::int64_t id_of(SQLite::Database& db, const std::string& sql, const std::string& key) {
  SQLite::Statement q(db, sql);
  q.bind(1, key);
  return q.executeStep() ? q.getColumn(0).getInt64() : 0;
}

// Copies the sequences, scores, frames, step scores and tags of source run `from` to run `to`.
// Rows already there (the same sequence from an overlapping shard) are kept.
void copy_children(SQLite::Database& db, std::int64_t from, std::int64_t to) {
  const char* statements[] = {
      "INSERT OR IGNORE INTO sequences (run_id, idx, text, novelty) "
      "SELECT ?2, idx, text, novelty FROM src.sequences WHERE run_id = ?1",
      "INSERT OR IGNORE INTO scores (run_id, idx, objective, value) "
      "SELECT ?2, idx, objective, value FROM src.scores WHERE run_id = ?1",
      "INSERT OR IGNORE INTO frames (run_id, idx, step, t, length, k, x, xhat) "
      "SELECT ?2, idx, step, t, length, k, x, xhat FROM src.frames WHERE run_id = ?1",
      "INSERT OR IGNORE INTO step_scores (run_id, batch_first, step, objective, mean) "
      "SELECT ?2, batch_first, step, objective, mean FROM src.step_scores WHERE run_id = ?1",
      "INSERT OR IGNORE INTO tags (run_id, tag) SELECT ?2, tag FROM src.tags WHERE run_id = ?1",
  };
  for (const char* sql : statements) {
    SQLite::Statement q(db, sql);
    q.bind(1, from);
    q.bind(2, to);
    q.exec();
  }
}

// Attaches `file` as schema src. A store in a folder this user cannot write (no -shm file can be
// made beside it) is attached as it is on disk, read-only, as RunStore reads it; errors name it.
void attach_source(SQLite::Database& db, const std::string& file) {
  try {
    SQLite::Statement attach(db, "ATTACH DATABASE ? AS src");
    attach.bind(1, file);
    attach.exec();
    db.execAndGet("SELECT count(*) FROM src.runs");
    return;
  } catch (const SQLite::Exception&) {
    try {
      db.exec("DETACH DATABASE src");
    } catch (const SQLite::Exception&) {
    }
  }
  try {
    SQLite::Statement attach(db, "ATTACH DATABASE ? AS src");
    attach.bind(1, immutable_uri(file));
    attach.exec();
  } catch (const SQLite::Exception& e) {
    throw StorageError(file + ": cannot read it to merge: " + e.what());
  }
}

}  // namespace

MergeReport RunStore::merge_from(const std::string& other) {
  std::error_code ec;
  if (impl_->file != ":memory:" && std::filesystem::equivalent(other, impl_->file, ec))
    throw StorageError(other + ": cannot merge a database into itself");
  // Opening it read-only checks that it is a run store of a schema this build reads.
  const RunStore source(other, StoreOptions{.read_only = true});
  auto runs = source.list_runs();
  std::reverse(runs.begin(), runs.end());  // oldest first: shard 0 names the merged run
  for (auto& r : runs) r = source.run(r.id);  // with the parameters a list leaves out
  MergeReport report;
  impl_->guard("merge", [&] {
    auto& db = impl_->db;
    attach_source(db, other);
    try {
      SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
      db.exec("INSERT OR IGNORE INTO models (hash, name, file, method, alphabet, length, k) "
              "SELECT hash, name, file, method, alphabet, length, k FROM src.models");
      for (const auto& r : runs) {
        const std::int64_t model_id =
            id_of(db, "SELECT id FROM models WHERE hash = ?", r.model.hash);
        if (r.shard.count <= 1) {
          // A run its process is still writing is copied as interrupted (nobody writes the
          // copy); merging again later brings the copy up to date.
          const bool still_running = r.status == RunStatus::running;
          const std::string running_note =
              "copied while still running; merge again when it has finished";
          const std::int64_t present = id_of(db, "SELECT id FROM runs WHERE uid = ?", r.uid);
          if (present != 0) {
            SQLite::Statement q(db, "SELECT status, completed FROM runs WHERE id = ?");
            q.bind(1, present);
            q.executeStep();
            const RunStatus status =
                kRunStatusNames.parse<StorageError>(q.getColumn(0).getString(), "runs.status");
            const auto completed = static_cast<std::size_t>(q.getColumn(1).getInt64());
            const RunStatus want = still_running ? RunStatus::interrupted : r.status;
            if (status == RunStatus::completed || (completed >= r.completed && status == want)) {
              ++report.skipped;
              continue;
            }
            copy_children(db, r.id, present);
            SQLite::Statement u(
                db,
                "UPDATE runs SET completed = (SELECT count(*) FROM sequences WHERE run_id = ?1), "
                "frames = (SELECT count(*) FROM frames WHERE run_id = ?1), status = ?2, "
                "error = ?3, finished_at = ?4, seconds_total = ?5, seconds_network = ?6 "
                "WHERE id = ?1");
            u.bind(1, present);
            u.bind(2, status_name(want));
            u.bind(3, still_running ? running_note : r.error);
            u.bind(4, r.finished_at);
            u.bind(5, r.seconds_total);
            u.bind(6, r.seconds_network);
            u.exec();
            ++report.refreshed;
            continue;
          }
          RunInfo copy = r;
          copy.name = unique_run_name(db, r.name);
          if (still_running) {
            copy.status = RunStatus::interrupted;
            copy.error = running_note;
          }
          const auto id = insert_run(db, copy, model_id, 0, "");
          copy_children(db, r.id, id);
          ++report.runs_added;
          continue;
        }
        // A shard: join it into its request's run (uid = the group key).
        std::int64_t target = id_of(db, "SELECT id FROM runs WHERE uid = ?", r.shard.group_key);
        if (target == 0) {
          RunInfo merged = r;
          merged.uid = r.shard.group_key;
          merged.name = unique_run_name(db, r.shard.group_name.empty() ? r.name
                                                                      : r.shard.group_name);
          merged.params_json = r.shard.group_params_json;
          merged.requested = r.shard.group_requested;
          merged.completed = merged.frames = 0;
          merged.seconds_total = merged.seconds_network = 0.0;
          merged.status = RunStatus::interrupted;
          merged.shard = ShardInfo{};
          merged.shard.group_key = r.shard.group_key;
          merged.shard.group_name = r.shard.group_name;
          merged.error = "";
          target = insert_run(db, merged, model_id, 0, "");
          report.merged_runs.push_back(merged.name);
        }
        if (exists(db, "SELECT 1 FROM run_sources WHERE uid = ? AND run_id = ?", r.uid, target)) {
          ++report.skipped;
          continue;
        }
        copy_children(db, r.id, target);
        SQLite::Statement src(db, "INSERT INTO run_sources (run_id, uid) VALUES (?, ?)");
        src.bind(1, target);
        src.bind(2, r.uid);
        src.exec();
        SQLite::Statement u(
            db,
            "UPDATE runs SET completed = (SELECT count(*) FROM sequences WHERE run_id = ?1), "
            "frames = (SELECT count(*) FROM frames WHERE run_id = ?1), "
            "seconds_total = seconds_total + ?2, seconds_network = seconds_network + ?3, "
            "finished_at = max(finished_at, ?4), notes = trim(notes || ' ' || ?5) "
            "WHERE id = ?1");
        u.bind(1, target);
        u.bind(2, r.seconds_total);
        u.bind(3, r.seconds_network);
        u.bind(4, r.finished_at);
        u.bind(5, "shard " + std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count) +
                      " from run " + r.name + " (" + status_name(r.status) + ").");
        u.exec();
        SQLite::Statement s(db, "UPDATE runs SET status = CASE WHEN completed = requested THEN "
                                "'completed' ELSE 'interrupted' END WHERE id = ?");
        s.bind(1, target);
        s.exec();
        ++report.shards_joined;
      }
      tx.commit();
    } catch (...) {
      db.exec("DETACH DATABASE src");
      throw;
    }
    db.exec("DETACH DATABASE src");
  });
  return report;
}

}  // namespace gsflow::storage
