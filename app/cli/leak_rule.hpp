// The leak rule of the peptide splits, one definition for `data drop-leaks` (held-out peptides
// against the training set) and `data protein-windows` (held-out peptides against the windows):
// a held-out peptide leaks when its best local alignment reproduces at least a given share of its
// own residues (docs/data.md, "No leaks across splits").
#pragma once

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "gsflow/evaluation/protein_likeness.hpp"

namespace gsflow::app::leak_rule {

// Identical aligned pairs of `hit` divided by the held-out peptide's length.
inline double reproduced_share(const evaluation::NearestHit& hit, const std::string& peptide) {
  return static_cast<double>(hit.matches) / static_cast<double>(peptide.size());
}

// reproduced_share of every peptide against its hit (same order).
inline std::vector<double> reproduced_shares(const std::vector<evaluation::NearestHit>& hits,
                                             const std::vector<std::string>& peptides) {
  std::vector<double> out(hits.size());
  for (std::size_t i = 0; i < hits.size(); ++i) out[i] = reproduced_share(hits[i], peptides[i]);
  return out;
}

// The search's options: `threads` workers, 0 = every core.
inline evaluation::AlignmentOptions alignment_options(int threads) {
  evaluation::AlignmentOptions o;
  o.threads =
      threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return o;
}

}  // namespace gsflow::app::leak_rule
