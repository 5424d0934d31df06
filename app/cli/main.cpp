// `gsflow`, the command line users call. The run-store commands (runs, export, merge) run here,
// without loading LibTorch, so that they answer at once; every other command (and --help) is
// handed to gsflow-compute next to this binary by exec, keeping the process id, signals and exit
// code. Never links Qt or LibTorch.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>

#include "cli_main.hpp"
#include "global_options.hpp"
#include "gsflow/pipeline/openmp_env.hpp"
#include "store_commands.hpp"

int main(int argc, char** argv) {
  std::string command;  // the first word that is not an option
  for (int i = 1; i < argc && command.empty(); ++i)
    if (argv[i][0] != '-') command = argv[i];
  static const std::set<std::string> quick = {"runs", "export", "merge"};
  if (quick.count(command)) {
    auto app = gsflow::app::make_cli();
    gsflow::app::add_runs_commands(*app);
    gsflow::app::add_export_command(*app);
    return gsflow::app::run_cli(*app, argc, argv);
  }
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const auto compute = (ec ? std::filesystem::path(argv[0]) : self).parent_path() / "gsflow-compute";
  gsflow::pipeline::default_passive_openmp();  // before LibTorch's libgomp loads (openmp_env.hpp)
  execv(compute.c_str(), argv);
  std::cerr << "gsflow: error: cannot start " << compute.string() << ": " << std::strerror(errno)
            << "\n";
  return gsflow::app::kExitInput;
}
