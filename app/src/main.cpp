// The `gsflow` command line: headless entry point for generation, training, evaluation and
// benchmarks. Never links Qt.
#include <malloc.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "bench_kernels.hpp"
#include "gsflow/engine/kernels.hpp"
#include "gsflow/version.hpp"

int main(int argc, char** argv) {
  // Fresh pages cost ~14 us each on these VMs: keep big buffers in the heap and do not trim it.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);

  CLI::App app{
      "gsflow: controllable design of DNA and peptide sequences with Gumbel-Softmax flow matching"};
  app.set_version_flag("--version", std::string("gsflow ") + gsflow::kVersion);
  app.require_subcommand(1);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "Log details (kernel dispatch, timings) to stderr");

  auto* bench =
      app.add_subcommand("bench", "Measure performance against baselines in the same run");
  bench->require_subcommand(1);
  gsflow::app::add_bench_kernels(*bench);

  app.parse_complete_callback([&] {
    spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::info);
    spdlog::set_default_logger(spdlog::stderr_color_st("gsflow"));
    spdlog::debug("kernels: {} (detected from CPU features)",
                  gsflow::engine::isa_name(gsflow::engine::detect_best_isa()));
  });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, the version, or the usage error
    return code == 0 ? 0 : 1;      // exit code 1 = usage error
  } catch (const std::exception& e) {
    std::cerr << "gsflow: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
