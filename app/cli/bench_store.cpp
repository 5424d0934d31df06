// `gsflow bench store` (see bench_store.hpp). Timings are medians of alternating repeats; sizes
// are the database file after one run.
#include "bench_store.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "generation_run.hpp"
#include "gsflow/storage/run_store.hpp"
#include "interrupt.hpp"
#include "statistics.hpp"

namespace gsflow::app {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct BenchStoreCli {
  std::string model = "dna-promoter", peptide_model = "peptide", dir;
  std::size_t n = 100, runs = 10000, peptides = 1000;
  int steps = 100, repeats = 3, threads = 2, frames_every = 10;
  bool sizes = false, json = false;
};

void remove_db(const std::string& file) {
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(file + suffix);
}

// One generation; returns wall seconds (in-process: no start-up cost in the ratio).
double timed_run(const BenchStoreCli& cli, const std::string& model, std::size_t n, int frames,
                 const std::string& db, std::size_t* frames_out = nullptr) {
  RunOptions o;
  o.params.model = model;
  o.params.n = n;
  o.params.threads = cli.threads;
  o.params.sampler.steps = cli.steps;
  o.params.sampler.batch = 256;
  o.params.sampler.frames_every = frames;
  o.db = db;
  o.progress = false;
  o.rename_if_taken = true;
  o.name = "bench";
  const InterruptGuard interrupt;
  const auto t0 = Clock::now();
  const auto outcome = execute_run(o, interrupt);
  if (frames_out) *frames_out = outcome.frames;
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double file_mb(const std::string& file) {
  return static_cast<double>(fs::file_size(file)) / (1024.0 * 1024.0);
}

// Process wall time of `command` (run through the shell), median of `repeats`.
double process_ms(const std::string& command, int repeats) {
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    if (std::system(command.c_str()) != 0)
      throw std::runtime_error("bench store: failed: " + command);
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return median(t);
}

void run_bench_store(const BenchStoreCli& cli) {
  const std::string dir = cli.dir.empty() ? fs::temp_directory_path().string() +
                                                "/gsflow-bench-store-" + std::to_string(getpid())
                                          : cli.dir;
  fs::create_directories(dir);
  nlohmann::json out;
  std::string report = fmt::format("gsflow bench store: {} x {} steps of {}, {} threads; medians of "
                                   "{} alternating repeats\n",
                                   cli.n, cli.steps, cli.model, cli.threads, cli.repeats);

  // 1. Overhead of storing (sequences + frames at the default rate) against no store.
  const std::string db = dir + "/overhead.sqlite";
  remove_db(db);
  timed_run(cli, cli.model, std::min<std::size_t>(cli.n, 8), cli.frames_every, db);  // warm-up
  std::vector<double> with, without;
  for (int r = 0; r < cli.repeats; ++r) {
    without.push_back(timed_run(cli, cli.model, cli.n, 0, ""));
    with.push_back(timed_run(cli, cli.model, cli.n, cli.frames_every, db));
  }
  const double ratio = median(with) / median(without);
  report += fmt::format("  generate, no store                 {:8.2f} s\n", median(without));
  report += fmt::format("  generate, store + frames every {:<3} {:8.2f} s   ratio {:.3f} ({:+.1f} %)\n",
                        cli.frames_every, median(with), ratio, 100.0 * (ratio - 1.0));
  out["overhead"] = {{"no_store_s", median(without)},
                     {"store_s", median(with)},
                     {"frames_every", cli.frames_every},
                     {"ratio", ratio},
                     {"no_store_all_s", without},
                     {"store_all_s", with}};

  // 2. Trajectory sizes.
  if (cli.sizes) {
    const auto size_of = [&](const std::string& model, std::size_t n, int every) {
      const std::string file = fmt::format("{}/size-{}-{}.sqlite", dir, model, every);
      remove_db(file);
      std::size_t frames = 0;
      const double s = timed_run(cli, model, n, every, file, &frames);
      { storage::RunStore checkpoint(file); }  // closing checkpoints the WAL into the file
      const double mb = file_mb(file);
      report += fmt::format("  store size: {} x {}, {} steps, frames every {:<3}: {:7.2f} MiB "
                            "({} frames, {:.1f} s)\n",
                            n, model, cli.steps, every, mb, frames, s);
      out["sizes"].push_back({{"model", model},
                              {"n", n},
                              {"steps", cli.steps},
                              {"frames_every", every},
                              {"frames", frames},
                              {"mebibytes", mb}});
      remove_db(file);
    };
    size_of(cli.model, cli.n, 1);
    size_of(cli.model, cli.n, cli.frames_every);
    size_of(cli.peptide_model, cli.peptides, cli.frames_every);
  }

  // 3. `gsflow runs list` on a store with many runs (the front end, a real process).
  if (cli.runs > 0) {
    const std::string file = dir + "/many.sqlite";
    remove_db(file);
    {
      storage::RunStore store(file);
      storage::NewRun run;
      run.params_json = R"({"n":10})";
      run.method = "gsfm";
      run.model = {"dna-promoter", "/m.ckpt", "0123456789abcdef", "gsfm", "dna", 256, 4};
      run.kernels = {"softmax_f32_ref"};
      run.version = "bench";
      run.requested = 10;
      for (std::size_t i = 0; i < cli.runs; ++i) {
        run.name = fmt::format("run-{}", i);
        run.tags = {i % 2 ? "odd" : "even"};
        const auto id = store.begin_run(run);
        store.finish_run(id, storage::RunStatus::completed, 1.0, 0.5);
      }
    }
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec).parent_path();
    const std::string front = (self / "gsflow").string();
    const double list = process_ms(fmt::format("'{}' runs list --db '{}' >/dev/null", front, file), 5);
    const double start = process_ms(fmt::format("'{}' runs --help >/dev/null", front), 5);
    report += fmt::format("  gsflow runs list, {} runs          {:8.1f} ms (process start-up "
                          "alone {:.1f} ms; target < 200 ms)\n",
                          cli.runs, list, start);
    out["runs_list"] = {{"runs", cli.runs}, {"ms", list}, {"startup_ms", start}};
    remove_db(file);
  }
  remove_db(db);
  std::error_code ignored;
  if (cli.dir.empty()) fs::remove_all(dir, ignored);
  if (cli.json)
    std::cout << out.dump(2) << "\n";
  else
    std::cout << report;
}

}  // namespace

void add_bench_store(CLI::App& bench) {
  auto cli = std::make_shared<BenchStoreCli>();
  auto* cmd = bench.add_subcommand(
      "store", "Run store: generation with vs without storing, trajectory sizes, runs list");
  cmd->add_option("--model", cli->model, "Model for the overhead and DNA size runs")
      ->capture_default_str();
  cmd->add_option("--n", cli->n, "Sequences per run")->capture_default_str();
  cmd->add_option("--steps", cli->steps, "Sampling steps")->capture_default_str();
  cmd->add_option("--repeats", cli->repeats, "Repeats per variant (median)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--threads", cli->threads, "Threads")->capture_default_str();
  cmd->add_option("--frames-every", cli->frames_every, "Frame rate of the stored runs")
      ->capture_default_str();
  cmd->add_flag("--sizes", cli->sizes,
                "Also measure store sizes: N DNA sequences at every step and at the frame rate, "
                "and --peptides peptides at the frame rate (slow)");
  cmd->add_option("--peptides", cli->peptides, "Peptides in the size run")->capture_default_str();
  cmd->add_option("--runs", cli->runs, "Runs in the `runs list` store (0 = skip)")
      ->capture_default_str();
  cmd->add_option("--dir", cli->dir, "Folder for the scratch stores (default: a temp folder)");
  cmd->add_flag("--json", cli->json, "JSON on stdout");
  cmd->callback([cli] { run_bench_store(*cli); });
}

}  // namespace gsflow::app
