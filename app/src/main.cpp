// The `gsflow` command line: headless entry point for generation, training, evaluation and
// benchmarks. Never links Qt.
#include <malloc.h>
#include <csignal>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "bench_kernels.hpp"
#include "bench_toy.hpp"
#include "data_commands.hpp"
#include "global_options.hpp"
#include "model_commands.hpp"
#include "gsflow/engine/kernels.hpp"
#include "gsflow/version.hpp"

namespace gsflow::app {
GlobalOptions& global_options() {
  static GlobalOptions options;
  return options;
}
int& command_exit_code() {
  static int code = kExitOk;
  return code;
}
}  // namespace gsflow::app

int main(int argc, char** argv) {
  // Fresh pages cost ~14 us each on these VMs: keep big buffers in the heap and do not trim it.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  // A file-size limit (ulimit -f) then makes writes fail with EFBIG, reported as an error,
  // instead of killing the process mid-commit.
  std::signal(SIGXFSZ, SIG_IGN);

  CLI::App app{
      "gsflow: controllable design of DNA and peptide sequences with Gumbel-Softmax flow matching"};
  app.set_version_flag("--version", std::string("gsflow ") + gsflow::kVersion);
  app.require_subcommand(1);
  app.fallthrough();  // global flags (--consistent, -v) may follow the subcommand too
  auto& global = gsflow::app::global_options();
  app.add_flag("-v,--verbose", global.verbose, "Log details (timings) to stderr");
  app.add_flag(
      "--consistent", global.consistent,
      "Use the scalar reference kernels (double accumulation): bit-reproducible on any CPU");

  auto* bench =
      app.add_subcommand("bench", "Measure performance against baselines in the same run");
  bench->require_subcommand(1);
  gsflow::app::add_bench_kernels(*bench);
  gsflow::app::add_bench_toy(*bench);
  gsflow::app::add_train_command(app);
  gsflow::app::add_generate_command(app);
  gsflow::app::add_eval_command(app);
  gsflow::app::add_data_commands(app);
  gsflow::app::add_runs_commands(app);
  gsflow::app::add_export_command(app);
  gsflow::app::add_rerun_command(app);

  app.parse_complete_callback([&] {
    spdlog::set_default_logger(spdlog::stderr_color_st("gsflow"));
    spdlog::set_level(global.verbose ? spdlog::level::debug : spdlog::level::info);
    // The dispatch decision, once per process and by name (stored with every run later on).
    const gsflow::engine::Kernels kernels(gsflow::app::kernel_options());
    spdlog::debug("kernels: {}{} (e.g. {})", gsflow::engine::isa_name(kernels.isa()),
                 global.consistent ? ", forced by --consistent" : ", best this CPU supports",
                 kernels.kernel_name(gsflow::engine::KernelOp::softmax, 4));
  });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, the version, or the usage error
    return code == 0 ? gsflow::app::kExitOk : gsflow::app::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "gsflow: error: " << e.what() << "\n";
    return gsflow::app::kExitInput;
  }
  return gsflow::app::command_exit_code();
}
