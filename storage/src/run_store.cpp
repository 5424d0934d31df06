// The SQLite run store (see run_store.hpp): opening, writing runs batch by batch, reading back.
#include "gsflow/storage/run_store.hpp"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <sstream>

#include "gsflow/storage/frame_codec.hpp"
#include "schema.hpp"
#include "store_impl.hpp"

namespace gsflow::storage {

namespace fs = std::filesystem;

namespace {

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

bool process_alive(std::int64_t pid) {
  if (pid <= 0) return false;
  return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// The columns read_run() reads; `full` false leaves out the parameter JSON (lists of many runs).
std::string run_columns(bool full) {
  return std::string(
             "r.id, r.uid, r.name, r.status, ") +
         (full ? "r.params" : "''") +
         ", r.method, r.version, r.seed, r.kernels, r.notes, r.error, r.created_at, "
         "r.finished_at, r.seconds_total, r.seconds_network, r.requested, r.completed, r.frames, "
         "r.shard_index, r.shard_count, r.group_key, r.group_name, " +
         (full ? "r.group_params" : "''") +
         ", r.group_requested, m.name, m.file, m.hash, m.method, m.alphabet, m.length, m.k, "
         "(SELECT group_concat(tag) FROM (SELECT tag FROM tags WHERE run_id = r.id ORDER BY "
         "tag))";
}

RunInfo read_run(SQLite::Statement& q) {
  RunInfo r;
  int c = 0;
  const auto text = [&] { return q.getColumn(c++).getString(); };
  const auto integer = [&] { return q.getColumn(c++).getInt64(); };
  const auto real = [&] { return q.getColumn(c++).getDouble(); };
  r.id = integer();
  r.uid = text();
  r.name = text();
  r.status = kRunStatusNames.parse<StorageError>(text(), "runs.status");
  r.params_json = text();
  r.method = text();
  r.version = text();
  r.seed = static_cast<std::uint64_t>(integer());
  r.kernels = split(text());
  r.notes = text();
  r.error = text();
  r.created_at = text();
  r.finished_at = text();
  r.seconds_total = real();
  r.seconds_network = real();
  r.requested = static_cast<std::size_t>(integer());
  r.completed = static_cast<std::size_t>(integer());
  r.frames = static_cast<std::size_t>(integer());
  r.shard.index = static_cast<std::size_t>(integer());
  r.shard.count = static_cast<std::size_t>(integer());
  r.shard.group_key = text();
  r.shard.group_name = text();
  r.shard.group_params_json = text();
  r.shard.group_requested = static_cast<std::size_t>(integer());
  r.model.name = text();
  r.model.file = text();
  r.model.hash = text();
  r.model.method = text();
  r.model.alphabet = text();
  r.model.length = static_cast<std::size_t>(integer());
  r.model.k = static_cast<std::size_t>(integer());
  r.tags = split(text());
  return r;
}

}  // namespace

std::string RunStore::Impl::describe(const char* what, const SQLite::Exception& e) const {
  std::string why = e.what();
  switch (e.getErrorCode()) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      why += " (another process holds the write lock longer than the timeout)";
      break;
    case SQLITE_READONLY:
      why += " (the file or its folder is not writable)";
      break;
    case SQLITE_FULL:
      why += " (the disk or the file size limit is full; nothing of this step was stored)";
      break;
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      why += " (not a gsflow run database, or a damaged one)";
      break;
    default:
      break;
  }
  return file + ": " + what + ": " + why;
}

std::string unique_run_name(SQLite::Database& db, const std::string& base) {
  SQLite::Statement q(db, "SELECT 1 FROM runs WHERE name = ?");
  for (int i = 1;; ++i) {
    const std::string name = i == 1 ? base : base + "-" + std::to_string(i);
    q.reset();
    q.bind(1, name);
    if (!q.executeStep()) return name;
  }
}

std::int64_t insert_run(SQLite::Database& db, const RunInfo& r, std::int64_t model_id,
                        std::int64_t owner_pid, const std::string& owner_host) {
  SQLite::Statement q(
      db,
      "INSERT INTO runs (uid, name, status, params, seed, method, model_id, kernels, version, "
      "requested, completed, frames, shard_index, shard_count, group_key, group_name, "
      "group_params, group_requested, notes, error, created_at, finished_at, seconds_total, "
      "seconds_network, owner_pid, owner_host) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?, ?, ?, ?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), ?, ?, ?, ?, ?)");
  int c = 1;
  q.bind(c++, r.uid);
  q.bind(c++, r.name);
  q.bind(c++, status_name(r.status));
  q.bind(c++, r.params_json);
  q.bind(c++, static_cast<std::int64_t>(r.seed));
  q.bind(c++, r.method);
  q.bind(c++, model_id);
  q.bind(c++, join(r.kernels));
  q.bind(c++, r.version);
  q.bind(c++, static_cast<std::int64_t>(r.requested));
  q.bind(c++, static_cast<std::int64_t>(r.completed));
  q.bind(c++, static_cast<std::int64_t>(r.frames));
  q.bind(c++, static_cast<std::int64_t>(r.shard.index));
  q.bind(c++, static_cast<std::int64_t>(r.shard.count));
  q.bind(c++, r.shard.group_key);
  q.bind(c++, r.shard.group_name);
  q.bind(c++, r.shard.group_params_json);
  q.bind(c++, static_cast<std::int64_t>(r.shard.group_requested));
  q.bind(c++, r.notes);
  q.bind(c++, r.error);
  if (r.created_at.empty())
    q.bind(c++);
  else
    q.bind(c++, r.created_at);
  q.bind(c++, r.finished_at);
  q.bind(c++, r.seconds_total);
  q.bind(c++, r.seconds_network);
  q.bind(c++, owner_pid);
  q.bind(c++, owner_host);
  q.exec();
  return db.getLastInsertRowid();
}

std::string new_uid() {
  std::random_device rd;
  std::string out;
  for (int i = 0; i < 4; ++i) {
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", rd());
    out += buf;
  }
  return out;
}

std::string default_database_path() {
  if (const char* db = std::getenv("GSFLOW_DB"); db && *db) return db;
  fs::path base;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = fs::path(home) / ".local" / "share";
  else
    base = ".";
  return (base / "gsflow" / "runs.sqlite").string();
}

std::string immutable_uri(const std::string& file) {
  std::string uri = "file:";
  for (const char c : fs::absolute(file).string()) {
    if (c == '?' || c == '#' || c == '%') {  // URI syntax: percent-encode
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
      uri += hex;
    } else {
      uri += c;
    }
  }
  return uri + "?immutable=1";
}

void check_run_name(const std::string& name) {
  if (name.empty()) return;
  const auto bad = [&name](const std::string& why) {
    std::string shown;
    for (const char c : name) shown.push_back(static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? '?' : c);
    throw std::invalid_argument("run name '" + shown + "': " + why);
  };
  if (name.size() > 200) bad("longer than 200 bytes");
  for (const char c : name) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7F) bad("it has a control character (newline, tab, ...)");
    if (c == ' ') bad("it has a blank (FASTA ids end at the first blank)");
  }
  if (std::string_view("-=+@").find(name[0]) != std::string_view::npos) {
    std::string why = "it starts with ' ' (an option on the command line, a formula in a spreadsheet)";
    why[16] = name[0];
    bad(why);
  }
}

RunStore::RunStore(const std::string& file, const StoreOptions& options) {
  const bool memory = file == ":memory:" || file.empty();
  if (!memory) {
    const fs::path path(file);
    const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
      throw StorageError(file + ": the folder " + folder.string() + " does not exist");
    const bool exists = fs::exists(path, ec);
    if (!exists && (options.read_only || !options.create))
      throw StorageError(file + ": no such run database");
    if (exists && fs::is_directory(path, ec))
      throw StorageError(file + ": is a folder, not a run database");
    if (!options.read_only && (access(folder.c_str(), W_OK) != 0 ||
                               (exists && access(path.c_str(), W_OK) != 0)))
      throw StorageError(file + ": read-only (" +
                         (exists && access(path.c_str(), W_OK) != 0 ? "the file" : "its folder") +
                         " is not writable); nothing was changed");
  }
  // OPEN_URI: merge_from() attaches a store in a read-only folder by a file: URI (immutable).
  const int flags = options.read_only ? SQLite::OPEN_READONLY
                                      : SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_URI;
  try {
    impl_ = std::make_unique<Impl>(memory ? ":memory:" : file, flags, options.busy_timeout_ms);
    if (options.read_only) impl_->db.execAndGet("PRAGMA user_version");
  } catch (const SQLite::Exception& e) {
    // A WAL database in a folder this user cannot write (no -shm file to create): read the file
    // as it is on disk.
    if (!(options.read_only && (e.getErrorCode() == SQLITE_READONLY ||
                                e.getErrorCode() == SQLITE_CANTOPEN)))
      throw StorageError(file + ": cannot open: " + e.what());
    try {
      impl_ = std::make_unique<Impl>(immutable_uri(file),
                                     SQLite::OPEN_READONLY | SQLite::OPEN_URI,
                                     options.busy_timeout_ms);
      impl_->file = file;
    } catch (const SQLite::Exception& e2) {
      throw StorageError(file + ": cannot open: " + e2.what());
    }
  }
  impl_->guard("open", [&] {
    auto& db = impl_->db;
    // The first read fails here for a file that is not a database.
    const int version = db.execAndGet("PRAGMA user_version").getInt();
    if (version == 0 &&
        db.execAndGet("SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'")
                .getInt() > 0)
      throw StorageError(file + ": an SQLite database, but not a gsflow run store (it has other "
                                "tables); refusing to change it");
    db.exec("PRAGMA foreign_keys = ON");
    if (!options.read_only) {
      if (!memory) db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");  // WAL + NORMAL: a crash never corrupts
    }
    migrate(db, impl_->file, options.read_only);
    if (options.read_only) return;
    // Runs whose writer died (SIGKILL, power loss) on this host: mark them interrupted.
    SQLite::Statement q(db, "SELECT id, owner_pid FROM runs WHERE status = 'running' AND "
                            "owner_host = ?");
    q.bind(1, host_name());
    std::vector<std::int64_t> dead;
    while (q.executeStep())
      if (!process_alive(q.getColumn(1).getInt64())) dead.push_back(q.getColumn(0).getInt64());
    for (const auto id : dead) {
      SQLite::Statement u(db,
                          "UPDATE runs SET status = 'interrupted', error = 'the process ended "
                          "before the run finished', finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', "
                          "'now') WHERE id = ? AND status = 'running'");
      u.bind(1, id);
      impl_->recovered += static_cast<std::size_t>(u.exec());
    }
  });
}

RunStore::~RunStore() = default;
RunStore::RunStore(RunStore&&) noexcept = default;
RunStore& RunStore::operator=(RunStore&&) noexcept = default;

const std::string& RunStore::file() const { return impl_->file; }
std::size_t RunStore::recovered_runs() const { return impl_->recovered; }

std::int64_t RunStore::begin_run(const NewRun& run) {
  if (run.shard.count > 1 && run.shard.group_key.empty())
    throw StorageError(impl_->file + ": a shard run needs a group key");
  return impl_->guard("start a run", [&] {
    auto& db = impl_->db;
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement m(db,
                        "INSERT INTO models (hash, name, file, method, alphabet, length, k) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING");
    m.bind(1, run.model.hash);
    m.bind(2, run.model.name);
    m.bind(3, run.model.file);
    m.bind(4, run.model.method);
    m.bind(5, run.model.alphabet);
    m.bind(6, static_cast<std::int64_t>(run.model.length));
    m.bind(7, static_cast<std::int64_t>(run.model.k));
    m.exec();
    SQLite::Statement id(db, "SELECT id FROM models WHERE hash = ?");
    id.bind(1, run.model.hash);
    id.executeStep();
    const auto model_id = id.getColumn(0).getInt64();

    check_run_name(run.name);
    std::string name = run.name;
    if (name.empty()) {
      // "seed" spelled out: the record ids RUN_sIDX then cannot read as seed and index twice.
      name = unique_run_name(db, run.model.name + "-seed" + std::to_string(run.seed));
    } else if (run.rename_if_taken) {
      name = unique_run_name(db, name);
    } else {
      SQLite::Statement taken(db, "SELECT 1 FROM runs WHERE name = ?");
      taken.bind(1, name);
      if (taken.executeStep())
        throw StorageError(impl_->file + ": a run named '" + name +
                           "' exists already (choose another --name or delete it)");
    }
    RunInfo r;
    r.uid = new_uid();
    r.name = name;
    r.status = RunStatus::running;
    r.params_json = run.params_json;
    r.seed = run.seed;
    r.method = run.method;
    r.kernels = run.kernels;
    r.version = run.version;
    r.requested = run.requested;
    r.shard = run.shard;
    r.notes = run.notes;
    const auto run_id = insert_run(db, r, model_id, getpid(), host_name());
    impl_->own_uids[run_id] = r.uid;
    SQLite::Statement t(db, "INSERT OR IGNORE INTO tags (run_id, tag) VALUES (?, ?)");
    for (const auto& tag : run.tags) {
      t.reset();
      t.bind(1, run_id);
      t.bind(2, tag);
      t.exec();
    }
    tx.commit();
    return run_id;
  });
}

void RunStore::add_batch(std::int64_t run, const Batch& batch) {
  // Encode outside the transaction: the write lock is held only for the inserts.
  std::vector<std::pair<std::string, std::string>> blobs;
  blobs.reserve(batch.frames.size());
  for (const auto& f : batch.frames) {
    if (f.x.size() != f.length * f.k || (!f.xhat.empty() && f.xhat.size() != f.x.size()))
      throw StorageError(impl_->file + ": frame of sequence " + std::to_string(f.sequence) +
                         " has the wrong size");
    blobs.emplace_back(encode_probabilities(f.x),
                       f.xhat.empty() ? std::string() : encode_probabilities(f.xhat));
  }
  impl_->guard("store a batch", [&] {
    auto& db = impl_->db;
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement s(db, "INSERT INTO sequences (run_id, idx, text, novelty) VALUES (?,?,?,?)");
    SQLite::Statement sc(db,
                         "INSERT INTO scores (run_id, idx, objective, value) VALUES (?,?,?,?)");
    for (const auto& seq : batch.sequences) {
      s.reset();
      s.bind(1, run);
      s.bind(2, static_cast<std::int64_t>(seq.index));
      s.bind(3, seq.text);
      if (seq.novelty)
        s.bind(4, *seq.novelty);
      else
        s.bind(4);
      s.exec();
      for (const auto& [objective, value] : seq.scores) {
        sc.reset();
        sc.bind(1, run);
        sc.bind(2, static_cast<std::int64_t>(seq.index));
        sc.bind(3, objective);
        sc.bind(4, value);
        sc.exec();
      }
    }
    SQLite::Statement f(db, "INSERT INTO frames (run_id, idx, step, t, length, k, x, xhat) "
                            "VALUES (?,?,?,?,?,?,?,?)");
    for (std::size_t i = 0; i < batch.frames.size(); ++i) {
      const auto& fr = batch.frames[i];
      f.reset();
      f.bind(1, run);
      f.bind(2, static_cast<std::int64_t>(fr.sequence));
      f.bind(3, fr.step);
      f.bind(4, fr.t);
      f.bind(5, static_cast<std::int64_t>(fr.length));
      f.bind(6, static_cast<std::int64_t>(fr.k));
      f.bindNoCopy(7, blobs[i].first.data(), static_cast<int>(blobs[i].first.size()));
      if (blobs[i].second.empty())
        f.bind(8);
      else
        f.bindNoCopy(8, blobs[i].second.data(), static_cast<int>(blobs[i].second.size()));
      f.exec();
    }
    SQLite::Statement ss(db, "INSERT INTO step_scores (run_id, batch_first, step, objective, "
                             "mean) VALUES (?,?,?,?,?)");
    for (const auto& sc2 : batch.step_scores) {
      ss.reset();
      ss.bind(1, run);
      ss.bind(2, static_cast<std::int64_t>(sc2.first_sequence));
      ss.bind(3, sc2.step);
      ss.bind(4, sc2.objective);
      ss.bind(5, sc2.mean);
      ss.exec();
    }
    SQLite::Statement u(db, "UPDATE runs SET completed = completed + ?, frames = frames + ? "
                            "WHERE id = ? AND uid = coalesce(?, uid)");
    u.bind(1, static_cast<std::int64_t>(batch.sequences.size()));
    u.bind(2, static_cast<std::int64_t>(batch.frames.size()));
    u.bind(3, run);
    impl_->bind_own_uid(u, 4, run);
    if (u.exec() != 1) throw impl_->run_gone(run);
    tx.commit();
  });
}

void RunStore::finish_run(std::int64_t run, RunStatus status, double seconds_total,
                          double seconds_network, const std::string& error) {
  impl_->guard("finish a run", [&] {
    SQLite::Statement q(impl_->db,
                        "UPDATE runs SET status = ?, seconds_total = ?, seconds_network = ?, "
                        "error = ?, finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                        "WHERE id = ? AND uid = coalesce(?, uid)");
    q.bind(1, status_name(status));
    q.bind(2, seconds_total);
    q.bind(3, seconds_network);
    q.bind(4, error);
    q.bind(5, run);
    impl_->bind_own_uid(q, 6, run);
    if (q.exec() != 1) throw impl_->run_gone(run);
  });
}

void RunStore::for_each_run(const RunFilter& filter,
                            const std::function<void(const RunInfo&)>& visit) const {
  impl_->guard("list runs", [&] {
    std::string sql = "SELECT " + run_columns(false) +
                      " FROM runs r JOIN models m ON m.id = r.model_id WHERE 1";
    std::vector<std::string> args;
    if (!filter.text.empty()) {
      sql += " AND (instr(r.name, ?) > 0 OR instr(r.notes, ?) > 0)";
      args.push_back(filter.text);
      args.push_back(filter.text);
    }
    if (!filter.tag.empty()) {
      sql += " AND EXISTS (SELECT 1 FROM tags t WHERE t.run_id = r.id AND t.tag = ?)";
      args.push_back(filter.tag);
    }
    if (!filter.model.empty()) {
      sql += " AND m.name = ?";
      args.push_back(filter.model);
    }
    if (filter.status) {
      sql += " AND r.status = ?";
      args.push_back(status_name(*filter.status));
    }
    if (!filter.since.empty()) {
      sql += " AND r.created_at >= ?";
      args.push_back(filter.since);
    }
    sql += " ORDER BY r.created_at DESC, r.id DESC";
    if (filter.limit)  // SQLite reads LIMIT as a signed 64-bit integer
      sql += " LIMIT " + std::to_string(std::min<std::uint64_t>(filter.limit, INT64_MAX));
    SQLite::Statement q(impl_->db, sql);
    for (std::size_t i = 0; i < args.size(); ++i) q.bind(static_cast<int>(i + 1), args[i]);
    while (q.executeStep()) visit(read_run(q));
  });
}

std::vector<RunInfo> RunStore::list_runs(const RunFilter& filter) const {
  std::vector<RunInfo> out;
  for_each_run(filter, [&](const RunInfo& r) { out.push_back(r); });
  return out;
}

RunInfo RunStore::run(std::int64_t id) const {
  return impl_->guard("read a run", [&] {
    SQLite::Statement q(impl_->db, "SELECT " + run_columns(true) +
                                       " FROM runs r JOIN models m ON m.id = r.model_id "
                                       "WHERE r.id = ?");
    q.bind(1, id);
    if (!q.executeStep())
      throw StorageError(impl_->file + ": no run with id " + std::to_string(id));
    return read_run(q);
  });
}

RunInfo RunStore::find_run(const std::string& key) const {
  const std::int64_t id = impl_->guard("find a run", [&]() -> std::int64_t {
    SQLite::Statement q(impl_->db, "SELECT id FROM runs WHERE name = ?");
    q.bind(1, key);
    if (q.executeStep()) return q.getColumn(0).getInt64();
    if (!key.empty() && key.size() < 18 &&
        key.find_first_not_of("0123456789") == std::string::npos) {
      SQLite::Statement byid(impl_->db, "SELECT id FROM runs WHERE id = ?");
      byid.bind(1, static_cast<std::int64_t>(std::stoll(key)));
      if (byid.executeStep()) return byid.getColumn(0).getInt64();
    }
    return 0;
  });
  if (id == 0)
    throw StorageError(impl_->file + ": no run named '" + key + "' (see `gsflow runs list`)");
  return run(id);
}

std::vector<SequenceRecord> RunStore::sequences(std::int64_t run) const {
  return impl_->guard("read sequences", [&] {
    std::vector<SequenceRecord> out;
    SQLite::Statement q(impl_->db,
                        "SELECT idx, text, novelty FROM sequences WHERE run_id = ? ORDER BY idx");
    q.bind(1, run);
    while (q.executeStep()) {
      SequenceRecord s;
      s.index = static_cast<std::size_t>(q.getColumn(0).getInt64());
      s.text = q.getColumn(1).getString();
      if (!q.getColumn(2).isNull()) s.novelty = q.getColumn(2).getDouble();
      out.push_back(std::move(s));
    }
    SQLite::Statement sc(impl_->db, "SELECT idx, objective, value FROM scores WHERE run_id = ? "
                                    "ORDER BY idx");
    sc.bind(1, run);
    std::size_t pos = 0;
    while (sc.executeStep()) {
      const auto idx = static_cast<std::size_t>(sc.getColumn(0).getInt64());
      while (pos < out.size() && out[pos].index < idx) ++pos;
      if (pos < out.size() && out[pos].index == idx)
        out[pos].scores[sc.getColumn(1).getString()] = sc.getColumn(2).getDouble();
    }
    return out;
  });
}

std::vector<FrameRecord> RunStore::frames(std::int64_t run,
                                          std::optional<std::size_t> sequence) const {
  return impl_->guard("read trajectory frames", [&] {
    std::string sql = "SELECT idx, step, t, length, k, x, xhat FROM frames WHERE run_id = ?";
    if (sequence) sql += " AND idx = ?";
    sql += " ORDER BY idx, step";
    SQLite::Statement q(impl_->db, sql);
    q.bind(1, run);
    if (sequence) q.bind(2, static_cast<std::int64_t>(*sequence));
    std::vector<FrameRecord> out;
    while (q.executeStep()) {
      FrameRecord f;
      f.sequence = static_cast<std::size_t>(q.getColumn(0).getInt64());
      f.step = q.getColumn(1).getInt();
      f.t = q.getColumn(2).getDouble();
      f.length = static_cast<std::size_t>(q.getColumn(3).getInt64());
      f.k = static_cast<std::size_t>(q.getColumn(4).getInt64());
      const auto blob = [&](int c) {
        const auto col = q.getColumn(c);
        return std::string_view(static_cast<const char*>(col.getBlob()),
                                static_cast<std::size_t>(col.getBytes()));
      };
      try {
        f.x = decode_probabilities(blob(5), f.length * f.k, f.k);
        if (!q.getColumn(6).isNull()) f.xhat = decode_probabilities(blob(6), f.length * f.k, f.k);
      } catch (const std::runtime_error& e) {
        throw StorageError(impl_->file + ": run " + std::to_string(run) + ", sequence " +
                           std::to_string(f.sequence) + ", step " + std::to_string(f.step) +
                           ": " + e.what());
      }
      out.push_back(std::move(f));
    }
    return out;
  });
}

std::vector<StepScore> RunStore::step_scores(std::int64_t run) const {
  return impl_->guard("read step scores", [&] {
    SQLite::Statement q(impl_->db, "SELECT batch_first, step, objective, mean FROM step_scores "
                                   "WHERE run_id = ? ORDER BY batch_first, step, objective");
    q.bind(1, run);
    std::vector<StepScore> out;
    while (q.executeStep())
      out.push_back({static_cast<std::size_t>(q.getColumn(0).getInt64()), q.getColumn(1).getInt(),
                     q.getColumn(2).getString(), q.getColumn(3).getDouble()});
    return out;
  });
}

void RunStore::delete_run(std::int64_t run) {
  impl_->guard("delete a run", [&] {
    SQLite::Transaction tx(impl_->db, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement w(impl_->db, "SELECT name, owner_pid, owner_host FROM runs WHERE id = ? AND "
                                   "status = 'running'");
    w.bind(1, run);
    if (w.executeStep()) {
      const std::int64_t pid = w.getColumn(1).getInt64();
      const std::string host = w.getColumn(2).getString();
      const bool here = host == host_name();
      if (!here || process_alive(pid))
        throw StorageError(impl_->file + ": run '" + w.getColumn(0).getString() +
                           "' is still being written by process " + std::to_string(pid) +
                           (here ? "" : " on " + host) +
                           "; stop it first (Ctrl-C keeps its finished batches), then delete it");
    }
    SQLite::Statement q(impl_->db, "DELETE FROM runs WHERE id = ?");
    q.bind(1, run);
    if (q.exec() != 1)
      throw StorageError(impl_->file + ": no run with id " + std::to_string(run));
    tx.commit();
  });
}

namespace {
// Runs `sql` (parameters: run id, tag) once per tag, in one transaction.
void for_each_tag(SQLite::Database& db, const char* sql, std::int64_t run,
                  const std::vector<std::string>& tags) {
  SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
  SQLite::Statement q(db, sql);
  for (const auto& tag : tags) {
    q.reset();
    q.bind(1, run);
    q.bind(2, tag);
    q.exec();
  }
  tx.commit();
}
}  // namespace

void RunStore::add_tags(std::int64_t run, const std::vector<std::string>& tags) {
  impl_->guard("tag a run", [&] {
    for_each_tag(impl_->db, "INSERT OR IGNORE INTO tags (run_id, tag) VALUES (?, ?)", run, tags);
  });
}

void RunStore::remove_tags(std::int64_t run, const std::vector<std::string>& tags) {
  impl_->guard("untag a run", [&] {
    for_each_tag(impl_->db, "DELETE FROM tags WHERE run_id = ? AND tag = ?", run, tags);
  });
}

void RunStore::set_notes(std::int64_t run, const std::string& notes) {
  impl_->guard("set notes", [&] {
    SQLite::Statement q(impl_->db, "UPDATE runs SET notes = ? WHERE id = ?");
    q.bind(1, notes);
    q.bind(2, run);
    q.exec();
  });
}

void RunStore::set_novelty(std::int64_t run,
                           const std::vector<std::pair<std::size_t, double>>& novelty) {
  impl_->guard("set novelty", [&] {
    SQLite::Transaction tx(impl_->db, SQLite::TransactionBehavior::IMMEDIATE);
    SQLite::Statement q(impl_->db, "UPDATE sequences SET novelty = ? WHERE run_id = ? AND idx = ?");
    for (const auto& [index, value] : novelty) {
      q.reset();
      q.bind(1, value);
      q.bind(2, run);
      q.bind(3, static_cast<std::int64_t>(index));
      if (q.exec() != 1)
        throw StorageError(impl_->file + ": run " + std::to_string(run) + " has no sequence " +
                           std::to_string(index));
    }
    tx.commit();
  });
}

}  // namespace gsflow::storage
