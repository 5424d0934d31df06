// Templates and motifs at positions (see fixed_letters.hpp).
#include "gsflow/engine/design/fixed_letters.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace gsflow::engine {

namespace {
std::string shown(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string(1, c);
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(c));
  return buf;
}
}  // namespace

char free_letter(const Alphabet& alphabet) { return alphabet.name() == "dna" ? 'N' : 'X'; }

FixedLetters parse_template(std::string_view text, const Alphabet& alphabet,
                            const std::string& what) {
  if (text.empty()) throw std::invalid_argument(what + ": the template is empty");
  const char free = free_letter(alphabet);
  FixedLetters fixed(text.size(), kFree);
  for (std::size_t p = 0; p < text.size(); ++p) {
    const char c = text[p];
    if (std::toupper(static_cast<unsigned char>(c)) == free) continue;
    const int index = alphabet.index_of(c);
    if (index < 0)
      throw std::invalid_argument(what + ": '" + shown(c) + "' at position " +
                                  std::to_string(p + 1) + " is neither a letter of " +
                                  alphabet.name() + " (" + alphabet.letters() + ") nor " +
                                  std::string(1, free) + " (designable)");
    fixed[p] = static_cast<std::int16_t>(index);
  }
  return fixed;
}

FixedMotif parse_fixed_motif(std::string_view text, const Alphabet& alphabet) {
  const std::string where = "--fix " + std::string(text);
  const auto eq = text.find('=');
  if (eq == std::string_view::npos)
    throw std::invalid_argument(where + ": expected POS=LETTERS (e.g. 10=TATAAAAG or -30=TATA)");
  FixedMotif motif;
  const std::string_view pos = text.substr(0, eq);
  const auto r = std::from_chars(pos.data(), pos.data() + pos.size(), motif.position);
  if (pos.empty() || r.ec != std::errc() || r.ptr != pos.data() + pos.size() || motif.position == 0)
    throw std::invalid_argument(where + ": '" + std::string(pos) +
                                "' is not a position (1-based, or negative from the 3' end)");
  const std::string_view letters = text.substr(eq + 1);
  if (letters.empty()) throw std::invalid_argument(where + ": no letters after '='");
  for (std::size_t i = 0; i < letters.size(); ++i) {
    if (alphabet.index_of(letters[i]) < 0)
      throw std::invalid_argument(where + ": '" + shown(letters[i]) + "' (letter " +
                                  std::to_string(i + 1) + ") is not a letter of " +
                                  alphabet.name() + " (" + alphabet.letters() + ")");
    motif.letters.push_back(
        static_cast<char>(std::toupper(static_cast<unsigned char>(letters[i]))));
  }
  return motif;
}

void apply_fixed_motif(FixedLetters& fixed, const FixedMotif& motif, const Alphabet& alphabet) {
  const std::string where = "--fix " + std::to_string(motif.position) + "=" + motif.letters;
  const long length = static_cast<long>(fixed.size());
  const long first = motif.position > 0 ? motif.position - 1 : length + motif.position;
  const long size = static_cast<long>(motif.letters.size());
  if (first < 0 || first + size > length)
    throw std::invalid_argument(where + ": the motif (" + std::to_string(size) +
                                " letters) does not fit in a sequence of " +
                                std::to_string(length) + " letters at that position");
  for (long i = 0; i < size; ++i) {
    const auto letter = static_cast<std::int16_t>(alphabet.encode(motif.letters[i]));
    auto& slot = fixed[first + i];
    if (slot != kFree && slot != letter)
      throw std::invalid_argument(where + ": position " + std::to_string(first + i + 1) +
                                  " is already fixed to " +
                                  std::string(1, alphabet.decode(static_cast<std::uint8_t>(slot))) +
                                  ", not " + std::string(1, motif.letters[i]));
    slot = letter;
  }
}

std::size_t count_fixed(const FixedLetters& fixed) {
  return static_cast<std::size_t>(
      std::count_if(fixed.begin(), fixed.end(), [](std::int16_t v) { return v != kFree; }));
}

}  // namespace gsflow::engine
