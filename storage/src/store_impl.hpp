// Internals shared by the run store's source files: the connection and error translation.
#pragma once

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>

#include <string>

#include "gsflow/storage/run_store.hpp"

namespace gsflow::storage {

struct RunStore::Impl {
  std::string file;
  SQLite::Database db;
  std::size_t recovered = 0;
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
};

// A name not yet used by a run: `base`, else base-2, base-3, ...
std::string unique_run_name(SQLite::Database& db, const std::string& base);
// Inserts the run row `r` (its id, tags and model ignored; created_at "" = now) and returns
// its id.
std::int64_t insert_run(SQLite::Database& db, const RunInfo& r, std::int64_t model_id,
                        std::int64_t owner_pid, const std::string& owner_host);
// Random 128-bit hex.
std::string new_uid();

}  // namespace gsflow::storage
