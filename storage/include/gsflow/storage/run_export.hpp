// Stored sequences as others read them: the FASTA header line and the CSV table that `gsflow
// export`, `gsflow generate --out` and gsflow-studio all write, so files agree wherever made.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "gsflow/storage/records.hpp"

namespace gsflow::storage {

// "RUN_sIDX model=.. method=.. seed=.. steps=.. length=.. [MADE_WITH] OBJECTIVE=score ...
// [novelty=..]" (scores to 4 significant digits, by name). `made_with` is the run's design in
// key=value words (pipeline::design_summary: "fix=-30:TATAAAAG avoid=EcoRI,BsaI"), or "".
std::string fasta_header(const std::string& run, const std::string& model,
                         const std::string& method, std::uint64_t seed, int steps,
                         const SequenceRecord& sequence, const std::string& made_with = "");

// The CSV table: header "id,index,sequence,length,SCORE...,novelty" (scores: the union of the
// records' score names, sorted), one row per record with id RUN_sIDX, values to 6 significant
// digits, empty cells for missing values; fields quoted as RFC 4180 asks.
void write_csv(std::ostream& out, const std::string& run,
               const std::vector<SequenceRecord>& sequences);

}  // namespace gsflow::storage
