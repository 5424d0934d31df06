// `gsflow score FILE.fasta`: the scores, constraint status and training-set identity of existing
// sequences (score_command.cpp).
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

void add_score_command(CLI::App& app);

}  // namespace gsflow::app
