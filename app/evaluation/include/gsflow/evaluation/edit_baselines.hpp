// The baselines guided editing must beat in lead optimisation under an edit budget
// (`gsflow eval-edits`): E random substitutions, and greedy single-substitution search with a
// budget of scorer (classifier) calls. The scorer is a callback, so this stays Torch-free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gsflow/engine/sequence.hpp"

namespace gsflow::evaluation {

// Scores a batch of sequences (higher is better), one score per sequence, in order.
using BatchScorer = std::function<std::vector<double>(const engine::SequenceSet&)>;

// Each start with `edits` substitutions: distinct positions drawn uniformly, each letter replaced
// by one of the K - 1 others uniformly. Sequence i's draws depend only on (seed, i). Throws
// std::invalid_argument for K < 2, a letter >= K, or a start shorter than `edits`.
engine::SequenceSet random_substitutions(const engine::SequenceSet& starts, std::size_t K,
                                         std::size_t edits, std::uint64_t seed);

struct GreedyResult {
  engine::SequenceSet sequences;   // the result for each start
  std::vector<double> scores;      // the scorer's score of each result
  std::vector<std::size_t> calls;  // scorer calls spent on each start (<= the budget)
  std::vector<std::size_t> edits;  // positions that differ from the start
};

// Greedy hill climbing from each start with at most `calls` scorer calls per start: one call
// scores the start, then up to `rounds` rounds each score single substitutions of the current
// sequence and take the best one if it beats the current score (else the round changes nothing).
// Round r (of R = rounds) may spend floor(remaining calls / rounds left): every one of the
// L (K - 1) substitutions when that is enough, else a uniformly random subset of that many
// (draws keyed by (seed, start, round)). So the result is within `rounds` edits of its start. The
// candidates of all starts in one round go to `score` as one batch. Throws std::invalid_argument
// for K < 2, a letter >= K, calls == 0, or a scorer that returns the wrong number of scores.
GreedyResult greedy_substitutions(const engine::SequenceSet& starts, std::size_t K,
                                  std::size_t rounds, std::size_t calls, const BatchScorer& score,
                                  std::uint64_t seed);

}  // namespace gsflow::evaluation
