// The `kmers:NAME` objective: holds a guided *set* near the positional k-mer frequencies of a real
// class (engine/metrics/kmer_reference.hpp, stored in the band file bands/NAME.json). Each
// evaluation counts the k-mers of all sequences it is given (in STGFlow: the M draws of every
// sequence of the batch, from the prediction), compares them per position bin with the
// reference, and scores each sequence by how much it uses k-mers the set over-uses:
//   score_i = -(1 / L_i) sum_{starts s of i} log(q_set(bin(s), w_s) / r(bin(s), w_s))
// so the potential (length x score) has the gradient, for letter c at position p,
//   -sum_{starts s covering p} log(q/r) of the k-mer at s with c at p,
// with q_set held fixed (the set-level KL(q_set || r) descends along it). A per-sequence band
// (natural:NAME) cannot do this: one extra TATA box is natural in each design, but not in every
// design (docs/notes/2026-12-07-kmer-hold.md). Rows are read as their largest letter (STGFlow's
// draws are one-hot).
#pragma once

#include <memory>
#include <string>

#include "gsflow/guidance/objective.hpp"

namespace gsflow::guidance {

// The objective for the spec `kmers:ARG` (ARG: a band
// name or file with a k-mer reference) for `alphabet`. Throws std::invalid_argument naming the spec
// for a missing argument, a band of another alphabet or a band without k-mers (fit one with gsflow
// profile --band NAME --kmers K).
std::shared_ptr<const Objective> make_kmer_hold_objective(const std::string& spec,
                                                          const std::string& arg,
                                                          const std::string& alphabet);

}  // namespace gsflow::guidance
