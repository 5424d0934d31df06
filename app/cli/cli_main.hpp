// What both gsflow executables share: the top-level CLI11 app with the global flags (-v,
// --consistent, --version), logging set-up, and the mapping of errors to exit codes.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>

namespace gsflow::app {

// The top-level app with the global flags; add commands to it, then call run_cli().
// `setup_details`, when given, adds to the run-time set-up logged under -v (gsflow-compute: the
// BLAS kernels, which the LibTorch-free front end cannot name).
std::unique_ptr<CLI::App> make_cli(std::function<std::string()> setup_details = {});
// Parses and runs the chosen command: 0 success (--help and --version too), 2 usage or input
// error (message on stderr), 3 interrupted (see global_options.hpp).
int run_cli(CLI::App& app, int argc, char** argv);

}  // namespace gsflow::app
