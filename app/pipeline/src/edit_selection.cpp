// Greedy selection of a guided design's edits under a budget (see edit_selection.hpp).
#include "gsflow/pipeline/edit_selection.hpp"

#include <stdexcept>

namespace gsflow::pipeline {

namespace {
// The weighted potential of each sequence (what guidance steers up).
std::vector<double> values(const engine::SequenceSet& seqs,
                           const std::vector<std::shared_ptr<const guidance::Objective>>& objectives,
                           const std::vector<guidance::GuideTerm>& terms) {
  std::vector<double> v(seqs.size(), 0.0);
  for (std::size_t j = 0; j < objectives.size(); ++j) {
    const auto scores = guidance::score_sequences(*objectives[j], seqs);
    guidance::require_finite(*objectives[j], scores);
    for (std::size_t i = 0; i < seqs.size(); ++i)
      v[i] += terms[j].weight * guidance::potential(objectives[j]->info(), scores[i], seqs[i].size());
  }
  return v;
}
}  // namespace

EditSelection select_edits(std::span<const std::uint8_t> start,
                           std::span<const std::uint8_t> proposal,
                           std::span<const std::int16_t> fixed, std::size_t max_edits,
                           const std::vector<std::shared_ptr<const guidance::Objective>>& objectives,
                           const std::vector<guidance::GuideTerm>& terms) {
  if (start.size() != proposal.size())
    throw std::invalid_argument("select_edits: the start and the proposal differ in length");
  if (objectives.size() != terms.size())
    throw std::invalid_argument("select_edits: one objective per term is needed");
  std::vector<std::size_t> open;  // proposed edits not yet taken
  std::size_t proposed = 0;
  EditSelection out;
  out.letters.assign(start.begin(), start.end());
  for (std::size_t p = 0; p < start.size(); ++p) {
    if (proposal[p] == start[p]) continue;
    ++proposed;
    if (p < fixed.size() && fixed[p] >= 0) {  // a fixed letter: forced, and it costs an edit
      out.letters[p] = proposal[p];
      max_edits = max_edits > 0 ? max_edits - 1 : 0;
    } else {
      open.push_back(p);
    }
  }
  if (open.size() <= max_edits) {
    out.letters.assign(proposal.begin(), proposal.end());
    return out;
  }
  double current = values({out.letters}, objectives, terms)[0];
  out.objective_calls += 1;
  for (std::size_t round = 0; round < max_edits && !open.empty(); ++round) {
    engine::SequenceSet trials;
    for (const std::size_t p : open) {
      trials.push_back(out.letters);
      trials.back()[p] = proposal[p];
    }
    const auto v = values(trials, objectives, terms);
    out.objective_calls += trials.size();
    std::size_t best = 0;
    for (std::size_t i = 1; i < v.size(); ++i)
      if (v[i] > v[best]) best = i;
    if (!(v[best] > current)) break;  // no proposed edit helps any more
    current = v[best];
    out.letters[open[best]] = proposal[open[best]];
    open.erase(open.begin() + static_cast<std::ptrdiff_t>(best));
  }
  return out;
}

}  // namespace gsflow::pipeline
