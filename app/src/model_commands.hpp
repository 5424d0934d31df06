// `gsflow train`, `gsflow generate` and `gsflow eval`: the commands that make, use and judge
// models on real data.
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

void add_train_command(CLI::App& app);     // train_command.cpp
void add_generate_command(CLI::App& app);  // generate_command.cpp
void add_eval_command(CLI::App& app);      // eval_command.cpp

}  // namespace gsflow::app
