// Stored sequences as others read them: the FASTA header line and the CSV table that `gsflow
// export`, `gsflow generate --out` and gsflow-studio all write, so files agree wherever made.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "gsflow/storage/records.hpp"

namespace gsflow::storage {

// A stored sequence's record id: RUN_sIDX (IDX 0-based, as in the run), e.g. dna-promoter-seed3_s0.
std::string sequence_id(const std::string& run, const SequenceRecord& sequence);

// The name a score goes by in headers and CSV columns: the objective's spec, except a plug-in
// classifier ("classifier:/path/to/my-model.ckpt"), which goes by its file stem ("my-model";
// blanks, '=' and ',' become '_').
std::string score_label(const std::string& objective);
// `scores` keyed by score_label(); a plug-in whose label is another score's name keeps its spec.
std::map<std::string, double> labelled_scores(const std::map<std::string, double>& scores);

// "RUN_sIDX model=.. method=.. seed=.. steps=.. length=.. [MADE_WITH] OBJECTIVE=score ...
// [novelty=..]" (scores to 6 significant digits, so 0.99996 and 1 differ; by score_label).
// `made_with` is how the run was made in key=value words (pipeline::run_summary: "guide=amp:1,
// natural:amp:16 gamma=8 fix=-30:TATAAAAG avoid=EcoRI,BsaI"), or "".
std::string fasta_header(const std::string& run, const std::string& model,
                         const std::string& method, std::uint64_t seed, int steps,
                         const SequenceRecord& sequence, const std::string& made_with = "");

// The CSV table: header "id,index,sequence,length,SCORE...,novelty" (scores: the union of the
// records' score labels, sorted), one row per record with id RUN_sIDX, values to 6 significant
// digits, empty cells for missing values; fields quoted as RFC 4180 asks.
void write_csv(std::ostream& out, const std::string& run,
               const std::vector<SequenceRecord>& sequences);

}  // namespace gsflow::storage
