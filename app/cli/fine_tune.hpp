// `gsflow train --name NAME --fasta FAMILY.fasta --init MODEL`: a generator fine-tuned on the
// user's family with no recipe: network, path, method and lengths from the base model, defaults
// from the family's size, an automatic held-out part with early stopping on its loss, and the
// model and its card (losses, `gsflow eval` figures against the base model) in the user models
// folder, where `generate --model NAME` finds it.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#include "training_cli.hpp"

namespace gsflow::app {

// The held-out part (FASTA files), --patience and --seed: HeldOutCli (training_cli.hpp).
struct FineTuneCli : HeldOutCli {
  std::string name;          // the model's name: file stem, `generate --model NAME`
  std::string fasta;         // the family (FASTA)
  std::string init;          // base model: a name `generate --model` takes, or a checkpoint
  double lr = 2e-4;          // peak learning rate (from-scratch recipes use 1e-3)
  std::size_t eval_n = 500;  // sequences each model generates for the card; 0 = none
};

// Passes over the training part above which fine-tuning warns that the family is too small for
// the steps (steps x batch / training sequences): the model may learn the family by heart.
inline constexpr double kMaxPasses = 100.0;

// Adds --name, --fasta, --init, --validation, --test, --split, --lr, --patience, --eval-n and
// --seed to `cmd` (the train command, whose --out, --steps, --threads, --max-minutes and --force
// apply too).
void add_fine_tune_options(CLI::App& cmd, FineTuneCli& cli);

// Fine-tunes and writes NAME.ckpt and NAME.md (in the user models folder, or at common.out).
// Throws std::invalid_argument / engine::InputError (exit 2) for bad options and bad data before
// anything is written; Ctrl-C writes nothing and exits 3.
void run_fine_tune(const FineTuneCli& cli, const TrainingCli& common);

}  // namespace gsflow::app
