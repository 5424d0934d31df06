// Stored runs as the command line shows them: the --db option, opening the store, a run as JSON.
// Torch-free: the quick commands (runs, export, merge) are built from these without the model
// layer.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "gsflow/storage/run_store.hpp"

namespace gsflow::app {

// Adds --db (default: storage::default_database_path()) to `cmd`, writing into `db`.
void add_db_option(CLI::App& cmd, std::string& db);
// Opens `db` for writing when possible (so runs of dead processes get marked interrupted), else
// read-only when `write` is false. Throws StorageError naming the file.
storage::RunStore open_store(const std::string& db, bool write);
// A run's record as JSON (runs list/show --json, export --json).
nlohmann::json run_json(const storage::RunInfo& run);
// One stored sequence as JSON (export --json, generate --json --no-store): {"id": RUN_sIDX,
// "index", "sequence", "scores": {objective: score}, ["novelty"]}.
nlohmann::json sequence_json(const std::string& run, const storage::SequenceRecord& sequence);

}  // namespace gsflow::app
