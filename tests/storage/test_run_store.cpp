// The SQLite run store on real files and :memory:: schema and migrations, runs written batch by
// batch and read back, frames, tags, filters, deletion, merging of shards, and refusal of
// newer, foreign and corrupt databases.
#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gsflow/storage/run_store.hpp"

namespace gsflow::storage {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() / ("gsflow-store-" + std::to_string(getpid()) + "-" +
                                         std::to_string(counter_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

NewRun new_run(const std::string& name = "", std::size_t requested = 4) {
  NewRun r;
  r.name = name;
  r.params_json = R"({"n":4})";
  r.seed = 0xFFFFFFFFFFFFFFF0ull;  // survives the int64 column
  r.method = "gsfm";
  r.model = {"dna-promoter", "/m/dna-promoter.ckpt", "abc123", "gsfm", "dna", 8, 4};
  r.kernels = {"softmax_f32_avx2_k4", "flow_step_f32_avx2_k4"};
  r.version = "0.1.0";
  r.requested = requested;
  r.tags = {"b", "a"};
  return r;
}

Batch batch_of(std::size_t first, std::size_t count, bool with_frames = true) {
  Batch b;
  for (std::size_t i = first; i < first + count; ++i) {
    SequenceRecord s;
    s.index = i;
    s.text = std::string("ACGTACGT").substr(i % 4, 4);
    s.scores = {{"gc", 0.25 * static_cast<double>(i)}, {"len", 4.0}};
    if (i % 2) s.novelty = 0.5;
    b.sequences.push_back(s);
    if (!with_frames) continue;
    for (int step : {0, 10}) {
      FrameRecord f;
      f.sequence = i;
      f.step = step;
      f.t = step / 10.0;
      f.length = 4;
      f.k = 4;
      f.x.assign(16, 0.25f);
      if (step) {
        f.x = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        f.xhat = f.x;
      }
      b.frames.push_back(f);
    }
  }
  b.step_scores.push_back({first, 10, "gc", 0.4});
  return b;
}

TEST(RunStore, NewDatabaseHasTheSchemaForeignKeysAndWal) {
  TempDir dir;
  const auto file = dir.file("runs.sqlite");
  { RunStore store(file); }
  SQLite::Database db(file);
  EXPECT_EQ(db.execAndGet("PRAGMA user_version").getInt(), kSchemaVersion);
  EXPECT_EQ(db.execAndGet("PRAGMA journal_mode").getString(), "wal");
  for (const char* table : {"runs", "models", "sequences", "scores", "frames", "step_scores",
                            "tags", "run_sources"})
    EXPECT_EQ(db.execAndGet(std::string("SELECT count(*) FROM sqlite_schema WHERE name = '") +
                            table + "'")
                  .getInt(),
              1)
        << table;
}

TEST(RunStore, RunWrittenInBatchesReadsBack) {
  RunStore store(":memory:");
  const auto id = store.begin_run(new_run("first"));
  auto info = store.run(id);
  EXPECT_EQ(info.status, RunStatus::running);
  EXPECT_EQ(info.name, "first");
  EXPECT_EQ(info.seed, 0xFFFFFFFFFFFFFFF0ull);
  EXPECT_EQ(info.kernels, (std::vector<std::string>{"softmax_f32_avx2_k4", "flow_step_f32_avx2_k4"}));
  EXPECT_EQ(info.tags, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(info.model.hash, "abc123");
  EXPECT_EQ(info.uid.size(), 32u);

  store.add_batch(id, batch_of(0, 2));
  store.add_batch(id, batch_of(2, 2));
  store.finish_run(id, RunStatus::completed, 1.5, 1.0);
  info = store.find_run("first");
  EXPECT_EQ(info.status, RunStatus::completed);
  EXPECT_EQ(info.completed, 4u);
  EXPECT_EQ(info.frames, 8u);
  EXPECT_DOUBLE_EQ(info.seconds_total, 1.5);
  EXPECT_FALSE(info.finished_at.empty());
  EXPECT_EQ(store.find_run(std::to_string(id)).name, "first");  // by id too

  const auto seqs = store.sequences(id);
  ASSERT_EQ(seqs.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(seqs[i].index, i);
    EXPECT_EQ(seqs[i].text, std::string("ACGTACGT").substr(i % 4, 4));
    EXPECT_DOUBLE_EQ(seqs[i].scores.at("gc"), 0.25 * static_cast<double>(i));
    EXPECT_EQ(seqs[i].novelty.has_value(), i % 2 == 1);
  }
  const auto frames = store.frames(id, 3);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].step, 0);
  EXPECT_TRUE(frames[0].xhat.empty());
  EXPECT_FLOAT_EQ(frames[0].x[5], 0.25f);
  EXPECT_EQ(frames[1].step, 10);
  EXPECT_FLOAT_EQ(frames[1].x[5], 1.0f);
  EXPECT_FLOAT_EQ(frames[1].xhat[4], 0.0f);
  EXPECT_EQ(store.frames(id).size(), 8u);
  const auto scores = store.step_scores(id);
  ASSERT_EQ(scores.size(), 2u);
  EXPECT_EQ(scores[1].first_sequence, 2u);
}

TEST(RunStore, AFailedBatchStoresNothingOfItAndKeepsEarlierBatches) {
  RunStore store(":memory:");
  const auto id = store.begin_run(new_run("r"));
  store.add_batch(id, batch_of(0, 2));
  auto bad = batch_of(2, 2);
  bad.sequences.push_back(bad.sequences.front());  // duplicate index: the insert fails late
  EXPECT_THROW(store.add_batch(id, bad), StorageError);
  EXPECT_EQ(store.sequences(id).size(), 2u);
  EXPECT_EQ(store.run(id).completed, 2u);
  EXPECT_EQ(store.frames(id).size(), 4u);
}

TEST(RunStore, NoveltyIsSetAllOrNone) {
  RunStore store(":memory:");
  const auto id = store.begin_run(new_run("r"));
  store.add_batch(id, batch_of(0, 4));
  store.set_novelty(id, {{0, 0.5}, {2, 1.0}});
  auto seqs = store.sequences(id);
  EXPECT_DOUBLE_EQ(*seqs[0].novelty, 0.5);
  EXPECT_DOUBLE_EQ(*seqs[2].novelty, 1.0);
  EXPECT_DOUBLE_EQ(*seqs[3].novelty, 0.5);  // untouched (as batch_of stored it)
  // An index the run lacks: nothing of the call is kept.
  EXPECT_THROW(store.set_novelty(id, {{3, 0.25}, {9, 0.5}}), StorageError);
  seqs = store.sequences(id);
  EXPECT_DOUBLE_EQ(*seqs[3].novelty, 0.5);
}

TEST(RunStore, NamesAreUniqueAndDefaultNamesCountUp) {
  RunStore store(":memory:");
  store.begin_run(new_run("x"));
  try {
    store.begin_run(new_run("x"));
    FAIL() << "a taken name was accepted";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("'x' exists already"), std::string::npos) << e.what();
  }
  const auto a = store.begin_run(new_run());
  const auto b = store.begin_run(new_run());
  EXPECT_EQ(store.run(a).name, "dna-promoter-seed18446744073709551600");
  EXPECT_EQ(store.run(b).name, "dna-promoter-seed18446744073709551600-2");
}

TEST(RunStore, ListFiltersTagsDeleteAndNotes) {
  RunStore store(":memory:");
  const auto a = store.begin_run(new_run("alpha"));
  auto other = new_run("beta");
  other.model.name = "peptide";
  other.model.hash = "ffff";
  other.tags = {};
  const auto b = store.begin_run(other);
  store.add_batch(a, batch_of(0, 1));
  store.finish_run(a, RunStatus::completed, 1, 1);
  EXPECT_EQ(store.list_runs().size(), 2u);
  EXPECT_EQ(store.list_runs().front().name, "beta");  // newest first
  EXPECT_EQ(store.list_runs({.limit = 1}).size(), 1u);
  EXPECT_EQ(store.list_runs({.text = "lph"}).size(), 1u);
  EXPECT_EQ(store.list_runs({.tag = "a"}).front().name, "alpha");
  EXPECT_EQ(store.list_runs({.model = "peptide"}).front().name, "beta");
  EXPECT_EQ(store.list_runs({.status = RunStatus::completed}).front().name, "alpha");
  EXPECT_EQ(store.list_runs({.since = "2999"}).size(), 0u);
  store.add_tags(b, {"keep", "keep"});
  store.remove_tags(a, {"a"});
  EXPECT_EQ(store.run(b).tags, std::vector<std::string>{"keep"});
  EXPECT_EQ(store.run(a).tags, std::vector<std::string>{"b"});
  store.set_notes(b, "looks promising");
  EXPECT_EQ(store.list_runs({.text = "promising"}).front().name, "beta");
  store.delete_run(a);
  EXPECT_THROW(store.run(a), StorageError);
  EXPECT_THROW(store.delete_run(a), StorageError);
  EXPECT_THROW(store.find_run("alpha"), StorageError);
  EXPECT_EQ(store.sequences(a).size(), 0u);  // cascaded
  EXPECT_EQ(store.frames(a).size(), 0u);
}

TEST(RunStore, RunsOfADeadProcessAreMarkedInterruptedOnOpen) {
  TempDir dir;
  const auto file = dir.file("runs.sqlite");
  std::int64_t live = 0, dead = 0;
  {
    RunStore store(file);
    live = store.begin_run(new_run("live"));
    dead = store.begin_run(new_run("dead"));
    store.add_batch(dead, batch_of(0, 2));
  }
  {
    SQLite::Database db(file, SQLite::OPEN_READWRITE);
    // A pid no process has: above the kernel's pid_max limit (4194304).
    db.exec("UPDATE runs SET owner_pid = 99999999 WHERE name = 'dead'");
  }
  RunStore store(file);
  EXPECT_EQ(store.recovered_runs(), 1u);
  EXPECT_EQ(store.run(dead).status, RunStatus::interrupted);
  EXPECT_EQ(store.run(dead).completed, 2u);
  EXPECT_EQ(store.sequences(dead).size(), 2u);
  EXPECT_EQ(store.run(live).status, RunStatus::running);  // this process is alive
  RunStore reader(file, {.read_only = true});
  EXPECT_EQ(reader.recovered_runs(), 0u);
}

std::string error_opening(const std::string& file, const StoreOptions& options = {}) {
  try {
    RunStore store(file, options);
  } catch (const StorageError& e) {
    return e.what();
  }
  return "(opened)";
}

TEST(RunStore, RefusesNewerForeignCorruptAndMissing) {
  TempDir dir;
  const auto newer = dir.file("newer.sqlite");
  { RunStore store(newer); }
  { SQLite::Database(newer, SQLite::OPEN_READWRITE).exec("PRAGMA user_version = 99"); }
  EXPECT_NE(error_opening(newer).find("newer gsflow (schema 99"), std::string::npos)
      << error_opening(newer);

  const auto foreign = dir.file("foreign.sqlite");
  {
    SQLite::Database db(foreign, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE mine (x)");
  }
  EXPECT_NE(error_opening(foreign).find("not a gsflow run store"), std::string::npos);

  const auto corrupt = dir.file("corrupt.sqlite");
  std::ofstream(corrupt) << std::string(4096, '\x5a');
  const auto msg = error_opening(corrupt);
  EXPECT_NE(msg.find(corrupt), std::string::npos) << msg;
  EXPECT_NE(msg.find("not a gsflow run database"), std::string::npos) << msg;
  EXPECT_EQ(fs::file_size(corrupt), 4096u);  // untouched

  EXPECT_NE(error_opening(dir.file("no/such/folder/runs.sqlite")).find("does not exist"),
            std::string::npos);
  EXPECT_NE(error_opening(dir.file("absent.sqlite"), {.read_only = true}).find("no such run database"),
            std::string::npos);
}

TEST(RunStore, ReadOnlyStoreCannotWrite) {
  TempDir dir;
  const auto file = dir.file("runs.sqlite");
  { RunStore store(file); }
  RunStore store(file, {.read_only = true});
  try {
    store.begin_run(new_run("x"));
    FAIL() << "wrote through a read-only store";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("not writable"), std::string::npos) << e.what();
  }
}

TEST(RunStore, MergeJoinsShardsIntoTheRequestAndIsIdempotent) {
  TempDir dir;
  const auto shard_store = [&](std::size_t index, const std::string& file) {
    RunStore store(file);
    auto r = new_run("req-shard" + std::to_string(index), 2);
    r.shard = {index, 2, "group-1", "req", R"({"n":4,"shards":1})", 4};
    const auto id = store.begin_run(r);
    store.add_batch(id, batch_of(index * 2, 2));
    store.finish_run(id, RunStatus::completed, 2.0, 1.0);
    auto plain = new_run("plain-" + std::to_string(index));
    store.begin_run(plain);
  };
  shard_store(0, dir.file("a.sqlite"));
  shard_store(1, dir.file("b.sqlite"));
  RunStore into(dir.file("c.sqlite"));
  auto report = into.merge_from(dir.file("a.sqlite"));
  EXPECT_EQ(report.shards_joined, 1u);
  EXPECT_EQ(report.runs_added, 1u);
  auto merged = into.find_run("req");
  EXPECT_EQ(merged.status, RunStatus::interrupted);  // half of it so far
  EXPECT_EQ(merged.completed, 2u);
  report = into.merge_from(dir.file("b.sqlite"));
  EXPECT_EQ(report.shards_joined, 1u);
  merged = into.find_run("req");
  EXPECT_EQ(merged.status, RunStatus::completed);
  EXPECT_EQ(merged.requested, 4u);
  EXPECT_EQ(merged.params_json, R"({"n":4,"shards":1})");
  EXPECT_EQ(merged.shard.count, 1u);
  EXPECT_DOUBLE_EQ(merged.seconds_total, 4.0);
  const auto seqs = into.sequences(merged.id);
  ASSERT_EQ(seqs.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(seqs[i].index, i);
  EXPECT_EQ(into.frames(merged.id).size(), 8u);
  EXPECT_EQ(into.list_runs().size(), 3u);  // req, plain-0, plain-1

  report = into.merge_from(dir.file("a.sqlite"));  // again: nothing new
  EXPECT_EQ(report.skipped, 2u);
  EXPECT_EQ(report.shards_joined + report.runs_added, 0u);
  EXPECT_EQ(into.list_runs().size(), 3u);
  EXPECT_THROW(into.merge_from(dir.file("c.sqlite")), StorageError);      // itself
  EXPECT_THROW(into.merge_from(dir.file("missing.sqlite")), StorageError);
}

// A run deleted while its writer works: the writer notices (its run is addressed by id and uid)
// and never writes into a new run that took the freed id (issue 36). Deleting a run whose writer
// is alive is refused.
TEST(RunStore, AWriterNeverWritesIntoAnotherRunAndALiveWriterBlocksDelete) {
  TempDir dir;
  const auto file = dir.file("runs.sqlite");
  RunStore writer(file);
  const auto a = writer.begin_run(new_run("a", 8));
  writer.add_batch(a, batch_of(0, 2));
  RunStore other(file);
  try {
    other.delete_run(a);
    ADD_FAILURE() << "a run whose writer is alive was deleted";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("still being written"), std::string::npos) << e.what();
  }
  {  // As a gsflow that allowed it would have: delete the row behind the writer's back.
    SQLite::Database db(file, SQLite::OPEN_READWRITE);
    db.exec("PRAGMA foreign_keys = ON");
    db.exec("DELETE FROM runs WHERE name = 'a'");
  }
  const auto c = other.begin_run(new_run("c", 4));
  EXPECT_EQ(c, a);  // SQLite reuses the largest rowid: the id alone would address run c
  EXPECT_THROW(writer.add_batch(a, batch_of(2, 2)), StorageError);
  EXPECT_THROW(writer.finish_run(a, RunStatus::completed, 1, 1), StorageError);
  EXPECT_EQ(other.run(c).completed, 0u);
  EXPECT_EQ(other.run(c).status, RunStatus::running);
  EXPECT_EQ(other.sequences(c).size(), 0u);
  other.add_batch(c, batch_of(0, 4));
  other.finish_run(c, RunStatus::completed, 1, 1);
  EXPECT_EQ(other.run(c).completed, 4u);
  other.delete_run(c);  // finished: deletable
}

TEST(RunStore, RunNamesThatBreakFastaCsvOrTheCommandLineAreRefused) {
  for (const std::string bad : std::vector<std::string>{"two\nlines", "tab\there", "with space",
                                                       "=1+1", "+x", "@x", "-x", std::string(201, 'a')})
    EXPECT_THROW(check_run_name(bad), std::invalid_argument) << bad;
  for (const std::string good : std::vector<std::string>{"", "screen1", "dna-promoter-s0", "a.b_c-1",
                                                        "s\u00e9quence"})
    EXPECT_NO_THROW(check_run_name(good)) << good;
  RunStore store(":memory:");
  EXPECT_THROW(store.begin_run(new_run("bad name")), std::invalid_argument);
  EXPECT_TRUE(store.list_runs().empty());
}

// A run copied while still running comes over as interrupted; a later merge completes it.
TEST(RunStore, MergeCompletesARunCopiedWhileItWasRunning) {
  TempDir dir;
  RunStore source(dir.file("a.sqlite"));
  const auto id = source.begin_run(new_run("grow", 4));
  source.add_batch(id, batch_of(0, 2));
  RunStore into(dir.file("b.sqlite"));
  auto report = into.merge_from(dir.file("a.sqlite"));
  EXPECT_EQ(report.runs_added, 1u);
  auto copy = into.find_run("grow");
  EXPECT_EQ(copy.status, RunStatus::interrupted);
  EXPECT_EQ(copy.completed, 2u);
  report = into.merge_from(dir.file("a.sqlite"));  // nothing new yet
  EXPECT_EQ(report.skipped, 1u);
  source.add_batch(id, batch_of(2, 2));
  source.finish_run(id, RunStatus::completed, 3.0, 2.0);
  report = into.merge_from(dir.file("a.sqlite"));
  EXPECT_EQ(report.refreshed, 1u);
  copy = into.find_run("grow");
  EXPECT_EQ(copy.status, RunStatus::completed);
  EXPECT_EQ(copy.completed, 4u);
  EXPECT_EQ(into.sequences(copy.id).size(), 4u);
  EXPECT_EQ(into.frames(copy.id).size(), source.frames(id).size());
  EXPECT_DOUBLE_EQ(copy.seconds_total, 3.0);
  report = into.merge_from(dir.file("a.sqlite"));
  EXPECT_EQ(report.skipped, 1u);
  EXPECT_EQ(report.refreshed, 0u);
}

TEST(RunStore, DefaultPathFollowsXdg) {
  setenv("GSFLOW_DB", "", 1);
  setenv("XDG_DATA_HOME", "/tmp/xdg-here", 1);
  EXPECT_EQ(default_database_path(), "/tmp/xdg-here/gsflow/runs.sqlite");
  setenv("GSFLOW_DB", "/tmp/x.sqlite", 1);
  EXPECT_EQ(default_database_path(), "/tmp/x.sqlite");
  unsetenv("GSFLOW_DB");
  unsetenv("XDG_DATA_HOME");
}

}  // namespace
}  // namespace gsflow::storage
