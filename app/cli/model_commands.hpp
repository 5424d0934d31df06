// The commands that make, use and judge models (train, train-classifier, train-judge, generate,
// eval, eval-guidance) and that manage the runs they store (runs, export, rerun, merge).
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

void add_train_command(CLI::App& app);             // train_command.cpp
void add_train_classifier_command(CLI::App& app);  // train_classifier_command.cpp
void add_generate_command(CLI::App& app);          // generate_command.cpp
void add_eval_command(CLI::App& app);              // eval_command.cpp
void add_rerun_command(CLI::App& app);             // rerun_command.cpp
void add_train_judge_command(CLI::App& app);       // train_judge_command.cpp
void add_eval_guidance_command(CLI::App& app);     // eval_guidance_command.cpp
void add_profile_command(CLI::App& app);           // profile_command.cpp
void add_objectives_command(CLI::App& app);        // objectives_command.cpp (list)
void add_models_command(CLI::App& app);            // models_command.cpp (list, delete)

}  // namespace gsflow::app
