// Internals shared by the run store's source files: the connection and error translation.
#pragma once

#include <SQLiteCpp/Database.h>

#include <map>
#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>

#include <string>

#include "gsflow/storage/run_store.hpp"

namespace gsflow::storage {

struct RunStore::Impl {
  std::string file;
  SQLite::Database db;
  std::size_t recovered = 0;
  // The uid of each run this store began: its writes address the run by (id, uid), so that a run
  // deleted meanwhile is noticed and a new run that reuses its id is never written to.
  std::map<std::int64_t, std::string> own_uids;
  Impl(const std::string& f, int flags, int busy_ms) : file(f), db(f, flags, busy_ms) {}

  // Runs `f`, turning SQLite errors into StorageError naming the file and `what` was being done.
  template <typename F>
  auto guard(const char* what, F&& f) const -> decltype(f()) {
    try {
      return f();
    } catch (const SQLite::Exception& e) {
      throw StorageError(describe(what, e));
    }
  }
  std::string describe(const char* what, const SQLite::Exception& e) const;
  // Binds the uid this store gave run `run` (NULL for a run it did not begin) to parameter i.
  void bind_own_uid(SQLite::Statement& q, int i, std::int64_t run) const {
    const auto it = own_uids.find(run);
    if (it == own_uids.end())
      q.bind(i);
    else
      q.bind(i, it->second);
  }
  StorageError run_gone(std::int64_t run) const {
    return StorageError(file + ": run " + std::to_string(run) +
                        " is gone (deleted while it was being written); nothing more is stored");
  }
};

// The SQLite URI that opens `file` read-only as it is on disk (immutable: no -shm file needed, so
// a store in a folder this user cannot write can be read).
std::string immutable_uri(const std::string& file);

// A name not yet used by a run: `base`, else base-2, base-3, ...
std::string unique_run_name(SQLite::Database& db, const std::string& base);
// Inserts the run row `r` (its id, tags and model ignored; created_at "" = now) and returns
// its id.
std::int64_t insert_run(SQLite::Database& db, const RunInfo& r, std::int64_t model_id,
                        std::int64_t owner_pid, const std::string& owner_host);
// Random 128-bit hex.
std::string new_uid();

}  // namespace gsflow::storage
