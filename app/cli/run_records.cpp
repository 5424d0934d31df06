// Stored runs as the command line shows them (see run_records.hpp).
#include "run_records.hpp"

#include "gsflow/storage/run_export.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>

namespace gsflow::app {

void add_db_option(CLI::App& cmd, std::string& db) {
  cmd.add_option("--db", db,
                 "Run store (default: $GSFLOW_DB, else $XDG_DATA_HOME/gsflow/runs.sqlite or "
                 "~/.local/share/gsflow/runs.sqlite)");
}

storage::RunStore open_store(const std::string& db, bool write) {
  const std::string file = db.empty() ? storage::default_database_path() : db;
  // Reading needs no write access: a store whose file or folder this user cannot write (a shared
  // or archived store) is opened read-only.
  const auto folder = std::filesystem::path(file).has_parent_path()
                          ? std::filesystem::path(file).parent_path()
                          : std::filesystem::path(".");
  if (!write && access(file.c_str(), F_OK) == 0 &&
      (access(file.c_str(), W_OK) != 0 || access(folder.c_str(), W_OK) != 0))
    return storage::RunStore(file, {.read_only = true});
  return storage::RunStore(file, {.create = false});
}

nlohmann::json run_json(const storage::RunInfo& r) {
  nlohmann::json j = {{"id", r.id},
            {"uid", r.uid},
            {"name", r.name},
            {"status", storage::status_name(r.status)},
            {"model", r.model.name},
            {"model_file", r.model.file},
            {"model_hash", r.model.hash},
            {"method", r.method},
            {"seed", r.seed},
            {"requested", r.requested},
            {"completed", r.completed},
            {"frames", r.frames},
            {"created_at", r.created_at},
            {"finished_at", r.finished_at},
            {"seconds", r.seconds_total},
            {"network_seconds", r.seconds_network},
            {"kernels", r.kernels},
            {"version", r.version},
            {"tags", r.tags},
            {"notes", r.notes},
            {"error", r.error}};
  if (r.shard.count > 1) j["shard"] = fmt::format("{}/{}", r.shard.index, r.shard.count);
  return j;
}

nlohmann::json sequence_json(const std::string& run, const storage::SequenceRecord& s) {
  nlohmann::json e = {{"id", storage::sequence_id(run, s)},
                      {"index", s.index},
                      {"sequence", s.text},
                      {"scores", s.scores}};
  if (s.novelty) e["novelty"] = *s.novelty;
  return e;
}

}  // namespace gsflow::app
