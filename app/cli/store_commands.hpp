// The commands that only read or manage the run store (no model layer, no LibTorch): the quick
// `gsflow` front end runs them itself.
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

void add_runs_commands(CLI::App& app);   // runs_commands.cpp: runs list|show|delete|tag, merge
void add_export_command(CLI::App& app);  // export_command.cpp

}  // namespace gsflow::app
