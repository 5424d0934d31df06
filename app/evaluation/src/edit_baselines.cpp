// Random-substitution and greedy-search baselines of lead optimisation (see edit_baselines.hpp).
#include "gsflow/evaluation/edit_baselines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

namespace gsflow::evaluation {

namespace {

void check_letters(const engine::SequenceSet& starts, std::size_t K, const char* what) {
  if (K < 2) throw std::invalid_argument(fmt::format("{}: K must be at least 2", what));
  for (std::size_t i = 0; i < starts.size(); ++i)
    for (const auto c : starts[i])
      if (c >= K)
        throw std::invalid_argument(
            fmt::format("{}: start {} has letter {} (K = {})", what, i + 1, c, K));
}

// The generator of start i's draws for one purpose (0: random edits, 1 + r: greedy round r).
std::mt19937_64 rng_for(std::uint64_t seed, std::size_t start, std::size_t purpose) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                    static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(purpose)};
  return std::mt19937_64(seq);
}

std::size_t hamming(const engine::Sequence& a, const engine::Sequence& b) {
  std::size_t d = 0;
  for (std::size_t p = 0; p < a.size(); ++p) d += a[p] != b[p];
  return d;
}

}  // namespace

engine::SequenceSet random_substitutions(const engine::SequenceSet& starts, std::size_t K,
                                         std::size_t edits, std::uint64_t seed) {
  check_letters(starts, K, "random_substitutions");
  engine::SequenceSet out = starts;
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto& s = out[i];
    if (s.size() < edits)
      throw std::invalid_argument(
          fmt::format("random_substitutions: start {} has {} letters, "
                      "fewer than {} edits",
                      i + 1, s.size(), edits));
    auto rng = rng_for(seed, i, 0);
    std::vector<std::size_t> positions(s.size());
    std::iota(positions.begin(), positions.end(), std::size_t{0});
    for (std::size_t e = 0; e < edits; ++e) {  // partial Fisher-Yates: distinct positions
      std::uniform_int_distribution<std::size_t> pick(e, positions.size() - 1);
      std::swap(positions[e], positions[pick(rng)]);
      std::uniform_int_distribution<std::size_t> other(1, K - 1);
      auto& letter = s[positions[e]];
      letter = static_cast<std::uint8_t>((letter + other(rng)) % K);
    }
  }
  return out;
}

GreedyResult greedy_substitutions(const engine::SequenceSet& starts, std::size_t K,
                                  std::size_t rounds, std::size_t calls, const BatchScorer& score,
                                  std::uint64_t seed) {
  check_letters(starts, K, "greedy_substitutions");
  if (calls == 0) throw std::invalid_argument("greedy_substitutions: a budget of 0 calls");
  const auto scored = [&](const engine::SequenceSet& batch) {
    auto s = score(batch);
    if (s.size() != batch.size())
      throw std::invalid_argument(
          fmt::format("greedy_substitutions: the scorer returned {} "
                      "scores for {} sequences",
                      s.size(), batch.size()));
    return s;
  };
  GreedyResult r;
  r.sequences = starts;
  r.scores = scored(starts);
  r.calls.assign(starts.size(), 1);
  // A candidate: (start, position, letter).
  struct Candidate {
    std::size_t start, position;
    std::uint8_t letter;
  };
  for (std::size_t round = 0; round < rounds; ++round) {
    std::vector<Candidate> candidates;
    engine::SequenceSet batch;
    for (std::size_t i = 0; i < starts.size(); ++i) {
      const auto& s = r.sequences[i];
      const std::size_t all = s.size() * (K - 1);
      const std::size_t share = (calls - r.calls[i]) / (rounds - round);
      const std::size_t take = std::min(all, share);
      if (take == 0) continue;
      // Candidate j of the full scan: position j / (K - 1), letter (s[p] + 1 + j % (K - 1)) % K.
      std::vector<std::size_t> order(all);
      std::iota(order.begin(), order.end(), std::size_t{0});
      if (take < all) {
        auto rng = rng_for(seed, i, 1 + round);
        for (std::size_t e = 0; e < take; ++e) {
          std::uniform_int_distribution<std::size_t> pick(e, all - 1);
          std::swap(order[e], order[pick(rng)]);
        }
      }
      for (std::size_t e = 0; e < take; ++e) {
        const std::size_t p = order[e] / (K - 1);
        const auto letter = static_cast<std::uint8_t>((s[p] + 1 + order[e] % (K - 1)) % K);
        candidates.push_back({i, p, letter});
        batch.push_back(s);
        batch.back()[p] = letter;
      }
      r.calls[i] += take;
    }
    if (batch.empty()) break;
    const auto scores = scored(batch);
    std::vector<std::size_t> best(starts.size(), candidates.size());
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      const std::size_t i = candidates[c].start;
      if (scores[c] > r.scores[i] && (best[i] == candidates.size() || scores[c] > scores[best[i]]))
        best[i] = c;
    }
    for (std::size_t i = 0; i < starts.size(); ++i) {
      if (best[i] == candidates.size()) continue;
      r.sequences[i][candidates[best[i]].position] = candidates[best[i]].letter;
      r.scores[i] = scores[best[i]];
    }
  }
  r.edits.resize(starts.size());
  for (std::size_t i = 0; i < starts.size(); ++i) r.edits[i] = hamming(r.sequences[i], starts[i]);
  return r;
}

}  // namespace gsflow::evaluation
