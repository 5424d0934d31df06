// Numbered migrations of the run store. Migration i brings user_version from i - 1 to i; add new
// ones at the end, never edit a released one.
#include "schema.hpp"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <array>

#include "gsflow/storage/run_store.hpp"

namespace gsflow::storage {

namespace {
constexpr std::array<const char*, kSchemaVersion> kMigrations = {
    // 1: runs, models, sequences, scores, trajectory frames, per-step scores, tags.
    R"sql(
CREATE TABLE models (
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,          -- FNV-1a 64 of the checkpoint bytes
  name TEXT NOT NULL, file TEXT NOT NULL, method TEXT NOT NULL, alphabet TEXT NOT NULL,
  length INTEGER NOT NULL, k INTEGER NOT NULL);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,           -- identity across merged stores
  name TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'interrupted', 'failed')),
  params TEXT NOT NULL,               -- run parameters as JSON
  seed INTEGER NOT NULL,              -- uint64 bits
  method TEXT NOT NULL,
  model_id INTEGER NOT NULL REFERENCES models(id),
  kernels TEXT NOT NULL,              -- comma-separated kernel names
  version TEXT NOT NULL,
  requested INTEGER NOT NULL, completed INTEGER NOT NULL DEFAULT 0,
  frames INTEGER NOT NULL DEFAULT 0,
  shard_index INTEGER NOT NULL DEFAULT 0, shard_count INTEGER NOT NULL DEFAULT 1,
  group_key TEXT NOT NULL DEFAULT '', group_name TEXT NOT NULL DEFAULT '',
  group_params TEXT NOT NULL DEFAULT '', group_requested INTEGER NOT NULL DEFAULT 0,
  notes TEXT NOT NULL DEFAULT '', error TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL, finished_at TEXT NOT NULL DEFAULT '',
  seconds_total REAL NOT NULL DEFAULT 0, seconds_network REAL NOT NULL DEFAULT 0,
  owner_pid INTEGER NOT NULL DEFAULT 0, owner_host TEXT NOT NULL DEFAULT '');
CREATE INDEX runs_created ON runs(created_at, id);
CREATE INDEX runs_status ON runs(status);
CREATE TABLE run_sources (            -- shard runs joined into a merged run
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  uid TEXT NOT NULL,
  PRIMARY KEY (run_id, uid)) WITHOUT ROWID;
CREATE TABLE tags (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  PRIMARY KEY (run_id, tag)) WITHOUT ROWID;
CREATE INDEX tags_tag ON tags(tag);
CREATE TABLE sequences (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,               -- global index in the request
  text TEXT NOT NULL,
  novelty REAL,
  PRIMARY KEY (run_id, idx)) WITHOUT ROWID;
CREATE TABLE scores (
  run_id INTEGER NOT NULL, idx INTEGER NOT NULL,
  objective TEXT NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (run_id, idx, objective),
  FOREIGN KEY (run_id, idx) REFERENCES sequences(run_id, idx) ON DELETE CASCADE) WITHOUT ROWID;
CREATE TABLE frames (                 -- 8-bit quantised probabilities (storage/frame_codec)
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL, step INTEGER NOT NULL, t REAL NOT NULL,
  length INTEGER NOT NULL, k INTEGER NOT NULL,
  x BLOB NOT NULL, xhat BLOB,
  PRIMARY KEY (run_id, idx, step));
CREATE TABLE step_scores (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  batch_first INTEGER NOT NULL, step INTEGER NOT NULL, objective TEXT NOT NULL,
  mean REAL NOT NULL,
  PRIMARY KEY (run_id, batch_first, step, objective)) WITHOUT ROWID;
)sql",
};
}  // namespace

void migrate(SQLite::Database& db, const std::string& file, bool read_only) {
  const int version = db.execAndGet("PRAGMA user_version").getInt();
  if (version > kSchemaVersion)
    throw StorageError(file + ": written by a newer gsflow (schema " + std::to_string(version) +
                       ", this build knows up to " + std::to_string(kSchemaVersion) +
                       "); upgrade gsflow to open it");
  if (version == kSchemaVersion) return;
  if (read_only)
    throw StorageError(file + ": schema " + std::to_string(version) + " needs an upgrade to " +
                       std::to_string(kSchemaVersion) + ", which a read-only open cannot do");
  for (int v = version; v < kSchemaVersion; ++v) {
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    // Another process may have migrated while we waited for the lock.
    if (db.execAndGet("PRAGMA user_version").getInt() > v) continue;
    db.exec(kMigrations[static_cast<std::size_t>(v)]);
    db.exec("PRAGMA user_version = " + std::to_string(v + 1));
    tx.commit();
  }
}

}  // namespace gsflow::storage
