// What each objective of `--guide` / `gsflow score --guide` means, for people: what it scores, its
// range, what its argument does, and the guidance strength gamma measured to work for the bundled
// models (`gsflow objectives list`, help texts). A table beside the objectives' definitions
// (objective.hpp): make_objective() remains the only authority on which specs exist.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gsflow::guidance {

struct ObjectiveEntry {
  std::string name;      // the spec's name: "gc", "charge", "amp", "natural", "classifier"
  std::string alphabet;  // "dna", "protein" or "any"
  std::string usage;     // the spec forms, e.g. "charge[:TARGET]"
  std::string scores;    // what the score is (higher is better when guiding)
  std::string range;     // the score's range, e.g. "0..1"
  std::string argument;  // what the argument does ("" when it takes none)
  // The gamma measured to move the bundled model's designs (docs/benchmarks.md, "Guidance", and
  // docs/notes/2026-12-06-guidance-before-leak-filter.md, with the default naturalness term); none
  // where nothing was measured.
  std::optional<double> suggested_gamma;
  std::string gamma_note;  // where the suggestion comes from, or why there is none
  // Sampling steps at which guiding the bundled model by it was measured to keep its quality
  // (docs/notes/2026-12-06-fewer-steps.md): a guided run's default when it is the first guide;
  // none: pipeline::kDefaultGuidedSteps.
  std::optional<int> guided_steps{};
};

// Every objective family, DNA first, in the order `gsflow objectives list` shows them.
const std::vector<ObjectiveEntry>& objective_catalog();

// The entry for a spec's name (the part before ':'), or nullptr when the catalog has none (a
// bundled classifier added after this table was written).
const ObjectiveEntry* find_objective_entry(const std::string& spec);

}  // namespace gsflow::guidance
