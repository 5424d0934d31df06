// Private to engine/src/design: the resolved form of a ConstraintSet (forbidden sites, their
// Aho-Corasick automaton, allowed letters, GC count ranges) and the exact dynamic program over it
// that repair.cpp and satisfiable.cpp both run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gsflow/engine/design/constraints.hpp"

namespace gsflow::engine::design_detail {

// Aho-Corasick automaton over letter indices 0..k-1 with a complete transition table. Every
// single letter is a node of depth 1, so after the first letter a walk never returns to the root
// and the last letter read is a property of the node (last[node]).
struct Automaton {
  std::size_t k = 0;
  std::vector<std::int32_t> next;  // [nodes * k] node after reading a letter
  std::vector<std::uint8_t> bad;   // [nodes] 1 when some forbidden word ends here
  std::vector<std::uint8_t> last;  // [nodes] the letter that leads here (root: 0, unused)
  // [nodes] how many copies of last[node] end the node's word, and whether the word is nothing
  // else (a homopolymer): for any other word this is exactly the run the text ends with.
  std::vector<std::uint32_t> trail;
  std::vector<std::uint8_t> homopolymer;
  std::size_t longest = 0;  // length of the longest forbidden word

  std::size_t nodes() const { return bad.size(); }
  std::int32_t go(std::int32_t node, std::uint8_t letter) const {
    return next[static_cast<std::size_t>(node) * k + letter];
  }
  static Automaton build(std::size_t k, const std::vector<std::vector<std::uint8_t>>& words);
};

// The automaton joined with the current run of one letter: the states are the (node, run) pairs
// that can occur (a node that is not a homopolymer fixes the run), minimised (states that no
// continuation tells apart are merged), and a transition is missing (-1) when it completes a
// forbidden word or a run longer than max_run.
struct Machine {
  std::size_t k = 0, states = 0;
  std::vector<std::int32_t> next;    // [states * k]
  std::vector<std::int32_t> first;   // [k] the state after the first letter
  std::vector<std::uint8_t> letter;  // [states] the last letter read
};
Machine make_machine(const Automaton& automaton, std::size_t max_run);

// One --avoid entry resolved: IUPAC masks (bit i = letter i of ACGT) on both strands.
struct Site {
  std::string entry;  // as the user wrote it, for messages ("EcoRI", "gaattc")
  std::string label;  // "EcoRI (GAATTC)" for an enzyme name, "GAATTC" for a motif
  std::vector<std::uint8_t> forward, reverse;    // masks of the site and of its reverse complement
  bool palindrome = false;                       // reverse == forward: one strand is enough
  std::vector<std::vector<std::uint8_t>> words;  // concrete words of both strands

  bool matches(std::span<const std::uint8_t> seq, std::size_t at, bool reverse_strand) const;
};

// A stretch of the sequence whose GC count must lie in lo..hi (the whole, or one window).
struct GcSpan {
  std::size_t begin = 0, size = 0;
  long lo = 0, hi = 0;
  bool whole = false;
};

inline bool is_gc(std::uint8_t letter) { return letter == 1 || letter == 2; }  // C, G of ACGT

// The minimum-cost walk through a Machine. With a non-empty `start` the walk keeps at most
// `budget` positions different from it (an extra state dimension of budget + 1). Partial walks
// costing more than cost_limit are dropped (repair() bounds the number of changes this way).
struct WalkInput {
  std::size_t length = 0;
  std::span<const std::uint8_t> options;       // [length * k] allowed letters, first count[p] used
  std::span<const std::uint8_t> option_count;  // [length]
  std::span<const std::int64_t> cost;          // [length * k] cost of letter c at p, >= 0
  std::span<const std::uint8_t> start{};       // [length] or empty
  std::size_t budget = 0;
  std::int64_t cost_limit = std::numeric_limits<std::int64_t>::max() - 1;
};
inline constexpr std::int64_t kUnreachable = std::numeric_limits<std::int64_t>::max();
struct Walk {
  std::vector<std::uint8_t> letters;
  std::int64_t cost = kUnreachable;
};
// The exact minimum over the sequences of allowed letters the machine accepts within the budget
// and the cost limit; std::nullopt when there is none.
std::optional<Walk> run_walk(const Machine& machine, const WalkInput& in);

}  // namespace gsflow::engine::design_detail

namespace gsflow::engine {

struct ConstraintSet::Impl {
  std::size_t k = 0;
  bool dna = false;
  std::vector<std::uint8_t> allowed;  // [k] 0 for an omitted letter
  std::string omitted;                // the omitted letters, upper case, in alphabet order
  std::size_t max_run = 0;
  std::vector<design_detail::Site> sites;
  design_detail::Automaton automaton;  // the words of every site
  design_detail::Machine machine;      // the automaton with runs up to max_run
  bool gc = false;                     // a GC range (gc_min > 0 or gc_max < 1) is set
  double gc_min = 0.0, gc_max = 1.0;
  std::size_t gc_window = 0;

  // The whole sequence first, then every window (when 0 < gc_window < length); empty without GC.
  std::vector<design_detail::GcSpan> gc_spans(std::size_t length) const;
};

}  // namespace gsflow::engine
