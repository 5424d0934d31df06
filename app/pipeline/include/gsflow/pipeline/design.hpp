// A design request beyond "sample from the model": fixed letters (templates, motifs at
// positions), hard constraints, and starting from the user's own sequences with an edit budget.
// Resolved against a model's alphabet into the sampler's Conditioning, the constraint steering
// guide, and the exact repair each finished sequence goes through (docs/method.md, "Design").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/design/constraints.hpp"
#include "gsflow/engine/design/fixed_letters.hpp"
#include "gsflow/engine/design/repair.hpp"
#include "gsflow/engine/sampler.hpp"

namespace gsflow::pipeline {

// What the user asked for (run parameters; see run_schema.cpp for the options and their help).
struct DesignOptions {
  // Templates: alphabet letters fixed, N (DNA) / X (peptides) designable. One for every sequence,
  // or several: sequence i uses template i mod count. A template sets the sequence's length.
  std::vector<std::string> templates;
  std::vector<std::string> fix;  // "POS=LETTERS" motifs fixed in every sequence
  // Defaults chosen on the validation split (docs/benchmarks.md, "Design"): the path hold gives
  // the letters next to a fixed TATA box flanks closer to real boxes' (flank JS 0.0067 against
  // 0.0108 clean, GSFM); steering away from violations raised the designed part's 6-mer JS
  // (1.18x unconstrained against 1.08x with the repair alone), so it is off unless asked for.
  engine::FixedHold fixed_hold = engine::FixedHold::path;
  engine::Constraints constraints;
  double constraint_strength = 0.0;  // steering away from violations (0 = the repair alone)
  // Start sequences (letters) and their record ids: sequence i starts from start i mod count.
  std::vector<std::string> starts;
  std::vector<std::string> start_ids;
  double start_time = 0.5;  // where on the path the start sequence is put (0 = noise, -> 1 = kept)
  std::size_t max_edits = engine::kNoEditBudget;  // Hamming budget from the start sequence

  bool has_fixed() const { return !templates.empty() || !fix.empty(); }
  bool active() const {
    return has_fixed() || !starts.empty() || constraints.active() ||
           max_edits != engine::kNoEditBudget;
  }
};

// The length the design gives global sequence i (its template's, else its start sequence's),
// 0 when it gives none.
std::size_t design_length(const DesignOptions& options, std::size_t i);

// What the design did to one finished sequence.
struct DesignNote {
  bool constrained = false;    // constraints or an edit budget applied (repaired / met mean something)
  std::size_t repaired = 0;    // positions the final repair changed
  bool met = true;             // every constraint and the budget hold (false only if repair failed)
  std::vector<std::string> unmet;  // what is still broken when !met
  bool from_start = false;
  std::size_t start = 0;  // index into DesignOptions::starts
  std::size_t edits = 0;  // positions that differ from the start sequence
};

// The design in FASTA-header words, key=value separated by spaces, values without spaces:
// "template=NNNN...(40 fixed) fix=-30:TATAAAAG avoid=EcoRI,BsaI max_run=6 gc=0.4-0.6/50 omit=C
// start_time=0.5 max_edits=5"; "" for free generation. Long templates are summarised by their
// number of fixed letters.
std::string design_summary(const DesignOptions& options);

// The note as stored scores (FASTA header keys): "start" (1-based start record) and "edits" for
// sequences made from a start sequence; "repaired" (positions the repair changed) and
// "constraints_met" (1 or 0) where constraints or a budget applied.
void add_design_scores(const DesignNote& note, std::map<std::string, double>& scores);

// DesignOptions resolved for one alphabet and one request (global sequences first .. first + n).
class Design {
 public:
  // Throws std::invalid_argument naming the option for anything impossible on its own: a letter
  // outside the alphabet, a malformed --fix, templates and starts of different lengths for the
  // same sequence, --max-edits without --start, a bad constraint (engine::ConstraintSet).
  Design(const DesignOptions& options, const engine::Alphabet& alphabet);

  const DesignOptions& options() const { return options_; }
  bool active() const { return options_.active(); }
  // The length the design gives global sequence i (its template's or start's), 0 = none.
  std::size_t length_of(std::size_t i) const;

  // Resolves the fixed letters of sequences first .. first + lengths.size() - 1 and checks, before
  // any work, that each (template, start, length) can meet the constraints: throws
  // std::invalid_argument naming the options otherwise (engine::check_satisfiable).
  void prepare(std::size_t first, const std::vector<std::size_t>& lengths);

  // The sampler's conditioning for the prepared sequences; valid while this Design lives.
  const engine::Conditioning& conditioning() const { return conditioning_; }
  const engine::ConstraintSet& constraint_set() const { return constraints_; }

  // Global sequence i's start letters and fixed letters (nullptr when it has none).
  const std::vector<std::uint8_t>* start_of(std::size_t i) const;
  const engine::FixedLetters* fixed_of(std::size_t i) const;

  // Repairs global sequence i's letters in place (preference: the model's final probabilities,
  // [letters.size(), K] or empty) and says what was done.
  DesignNote finish(std::size_t i, std::vector<std::uint8_t>& letters,
                    engine::ConstRows preference) const;

 private:
  DesignOptions options_;
  const engine::Alphabet* alphabet_;
  engine::ConstraintSet constraints_;
  std::vector<engine::FixedLetters> templates_;  // parsed, as given
  std::vector<engine::FixedMotif> motifs_;
  std::vector<std::vector<std::uint8_t>> starts_;
  // Fixed letters per (template index or -1, length), and which one each prepared sequence uses.
  std::map<std::pair<long, std::size_t>, engine::FixedLetters> fixed_;
  std::size_t first_ = 0;
  std::vector<const engine::FixedLetters*> fixed_by_sequence_;
  engine::Conditioning conditioning_;
};

}  // namespace gsflow::pipeline
