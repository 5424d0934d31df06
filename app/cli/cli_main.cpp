// The top-level command line shared by `gsflow` and `gsflow-compute` (see cli_main.hpp).
#include "cli_main.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <iostream>

#include "global_options.hpp"
#include "gsflow/engine/kernels.hpp"
#include "gsflow/version.hpp"
#include "gsflow/pipeline/openmp_env.hpp"

namespace gsflow::app {

GlobalOptions& global_options() {
  static GlobalOptions options;
  return options;
}

int& command_exit_code() {
  static int code = kExitOk;
  return code;
}

std::unique_ptr<CLI::App> make_cli(std::function<std::string()> setup_details) {
  auto app = std::make_unique<CLI::App>(
      "gsflow: controllable design of DNA and peptide sequences with Gumbel-Softmax flow "
      "matching",
      "gsflow");
  // The version only; the run-time set-up (kernels, OpenMP wait policy) is logged under -v.
  app->set_version_flag("--version", std::string("gsflow ") + kVersion);
  app->require_subcommand(1);
  app->fallthrough();  // global flags (--consistent, -v) may follow the subcommand too
  auto& global = global_options();
  app->add_flag("-v,--verbose", global.verbose, "Log details (timings) to stderr");
  app->add_flag(
      "--consistent", global.consistent,
      "Use the scalar reference kernels (double accumulation): bit-reproducible on any CPU");
  app->parse_complete_callback([&global, setup_details] {
    spdlog::set_default_logger(spdlog::stderr_color_st("gsflow"));
    spdlog::set_level(global.verbose ? spdlog::level::debug : spdlog::level::info);
    // The dispatch decision, once per process and by name (stored with every run).
    const engine::Kernels kernels(kernel_options());
    spdlog::debug("kernels: {}{} (e.g. {}); OpenMP wait policy: {}{}",
                  engine::isa_name(kernels.isa()),
                  global.consistent ? ", forced by --consistent" : ", best this CPU supports",
                  kernels.kernel_name(engine::KernelOp::softmax, 4),
                  pipeline::openmp_wait_policy(), setup_details ? "; " + setup_details() : "");
  });
  return app;
}

int run_cli(CLI::App& app, int argc, char** argv) {
  // A file-size limit (ulimit -f) then makes writes fail with EFBIG, reported as an error,
  // instead of killing the process mid-commit.
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, the version, or the usage error
    return code == 0 ? kExitOk : kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "gsflow: error: " << e.what() << "\n";
    return kExitInput;
  }
  return command_exit_code();
}

}  // namespace gsflow::app
