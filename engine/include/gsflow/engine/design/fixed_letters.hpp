// Fixed letters of a design: templates ("NNNN...TATAAAAG...NNN") and motifs placed at a position
// ("-30=TATAAAAG"), resolved to one letter or "free" per position of a sequence.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gsflow/engine/alphabet.hpp"

namespace gsflow::engine {

// Per position: the letter index that must stay, or kFree.
using FixedLetters = std::vector<std::int16_t>;
inline constexpr std::int16_t kFree = -1;

// The letter that marks a designable position of a template: 'N' for DNA, 'X' otherwise.
char free_letter(const Alphabet& alphabet);

// A template: upper- or lower-case letters of the alphabet are fixed, free_letter() (either case)
// is designable. Throws std::invalid_argument "WHAT: 'Z' at position P is neither a letter of
// ALPHABET nor N (designable)" for anything else, or for an empty template.
FixedLetters parse_template(std::string_view text, const Alphabet& alphabet,
                            const std::string& what = "--template");

// A motif at a position, "POS=LETTERS": POS is 1-based from the 5' end, or negative from the 3'
// end (-1 = the last letter, as the TATA metrics count) and names the motif's first letter.
struct FixedMotif {
  long position = 1;
  std::string letters;  // upper case
};
// Throws std::invalid_argument "--fix TEXT: ..." for a malformed entry or letters outside the
// alphabet.
FixedMotif parse_fixed_motif(std::string_view text, const Alphabet& alphabet);

// Writes `motif` into `fixed` (a sequence of fixed.size() letters). Throws std::invalid_argument
// "--fix TEXT: ..." when it does not fit in the sequence or disagrees with a letter already fixed
// (naming the 1-based position and both letters).
void apply_fixed_motif(FixedLetters& fixed, const FixedMotif& motif, const Alphabet& alphabet);

// Number of fixed positions.
std::size_t count_fixed(const FixedLetters& fixed);

}  // namespace gsflow::engine
