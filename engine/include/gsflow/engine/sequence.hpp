// Sequences as the engine sees them: letter indices into an alphabet (alphabet.hpp), and sets of
// them (generated designs, a data split).
#pragma once

#include <cstdint>
#include <vector>

namespace gsflow::engine {

// One sequence: letter indices 0..K-1 (alphabet.hpp order; DNA is A=0 C=1 G=2 T=3).
using Sequence = std::vector<std::uint8_t>;
// A set of sequences, possibly of different lengths.
using SequenceSet = std::vector<Sequence>;

}  // namespace gsflow::engine
