// `gsflow data ...`: turns the real data sets of data.md (dm3 promoters, metastudent peptides,
// mmseqs2 examples) into train/validation/test FASTA files with labels; scripts/fetch-data drives
// it.
#pragma once

#include <CLI/CLI.hpp>

namespace gsflow::app {

// Registers the `data` subcommand group (dna, peptides, split-peptides, drop-leaks, protein-windows,
// manifest) under `app`.
void add_data_commands(CLI::App& app);

// Registers `data drop-leaks` under the `data` group (data_leaks.cpp).
void add_drop_leaks_command(CLI::App& data);

// Registers `data protein-windows` under the `data` group (data_windows.cpp).
void add_protein_windows_command(CLI::App& data);

}  // namespace gsflow::app
