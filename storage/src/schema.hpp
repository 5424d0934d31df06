// Schema of the run store and its numbered migrations (PRAGMA user_version).
#pragma once

#include <SQLiteCpp/Database.h>

#include <string>

namespace gsflow::storage {

// Brings `db` to kSchemaVersion in one transaction per migration; refuses (StorageError naming
// `file`) a database written by a newer gsflow. With read_only it only checks the version.
void migrate(SQLite::Database& db, const std::string& file, bool read_only);

}  // namespace gsflow::storage
