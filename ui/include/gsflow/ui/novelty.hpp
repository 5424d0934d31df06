// Novelty of generated sequences against a reference FASTA (e.g. the model's training split): for
// each sequence, the highest ungapped identity to any reference sequence of its length
// (engine::novelty; 1 = a verbatim copy, 0 = no reference of that length). Qt-free, so the app runs
// it on a worker thread.
#pragma once

#include <string>
#include <vector>

#include "gsflow/storage/records.hpp"

namespace gsflow::ui {

// Throws engine::InputError naming the file, line and record for unreadable FASTA or letters
// outside `alphabet` ("dna" or "protein"), std::invalid_argument when the file has no sequences.
std::vector<double> noveltyAgainst(const std::string& fasta, const std::string& alphabet,
                                   const std::vector<storage::SequenceRecord>& sequences);

}  // namespace gsflow::ui
