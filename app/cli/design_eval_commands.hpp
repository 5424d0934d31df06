// The commands that measure the designer's toolkit (issue 37): eval-design (fixed letters and
// constraints: exactness, naturalness of the designed part, cost) and eval-edits (lead
// optimisation from real sequences under an edit budget, against random and greedy edits).
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

void add_eval_design_command(CLI::App& app);  // eval_design_command.cpp
void add_eval_edits_command(CLI::App& app);   // eval_edits_command.cpp

}  // namespace gsflow::app
