// Stored runs as the command line shows them: the --db option, opening the store, a run as JSON,
// and the FASTA header of a stored sequence. Torch-free: the quick commands (runs, export, merge)
// are built from these without the model layer.
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

// FASTA header of a stored or generated sequence: "RUN_sIDX model=.. method=.. seed=.. steps=..
// length=.. OBJECTIVE=score ...".
std::string fasta_header(const std::string& run, const std::string& model,
                         const std::string& method, std::uint64_t seed, int steps,
                         const storage::SequenceRecord& sequence);

}  // namespace gsflow::app
