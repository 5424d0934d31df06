// IUPAC DNA motifs (see dna_motif.hpp).
#include "gsflow/engine/dna_motif.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace gsflow::engine {

namespace {
// Letter mask of one IUPAC code over A=1 C=2 G=4 T=8; 0 for anything else.
std::uint8_t iupac_mask(char c) {
  switch (c) {
    case 'A': return 1;
    case 'C': return 2;
    case 'G': return 4;
    case 'T': return 8;
    case 'R': return 1 | 4;
    case 'Y': return 2 | 8;
    case 'S': return 2 | 4;
    case 'W': return 1 | 8;
    case 'K': return 4 | 8;
    case 'M': return 1 | 2;
    case 'B': return 2 | 4 | 8;
    case 'D': return 1 | 4 | 8;
    case 'H': return 1 | 2 | 8;
    case 'V': return 1 | 2 | 4;
    case 'N': return 15;
    default: return 0;
  }
}
}  // namespace

DnaMotif::DnaMotif(std::string_view iupac) {
  if (iupac.empty()) throw std::invalid_argument("DNA motif: empty");
  for (std::size_t i = 0; i < iupac.size(); ++i) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(iupac[i])));
    const std::uint8_t mask = iupac_mask(c);
    if (mask == 0)
      throw std::invalid_argument("DNA motif \"" + std::string(iupac) + "\": '" +
                                  std::string(1, iupac[i]) + "' at position " +
                                  std::to_string(i + 1) +
                                  " is not an IUPAC nucleotide code (ACGTRYSWKMBDHVN)");
    text_ += c;
    masks_.push_back(mask);
  }
}

bool DnaMotif::at(std::span<const std::uint8_t> s, std::size_t start) const {
  if (start > s.size() || s.size() - start < masks_.size()) return false;
  for (std::size_t j = 0; j < masks_.size(); ++j)
    if (s[start + j] > 3 || !((masks_[j] >> s[start + j]) & 1u)) return false;
  return true;
}

bool DnaMotif::starts_between(std::span<const std::uint8_t> s, long first, long last) const {
  return any_start(s, first, last, 0);
}

bool DnaMotif::ends_between(std::span<const std::uint8_t> s, long first, long last) const {
  return any_start(s, first, last, static_cast<long>(masks_.size()) - 1);
}

bool DnaMotif::any_start(std::span<const std::uint8_t> s, long first, long last,
                         long shift) const {
  const long n = static_cast<long>(s.size());
  const auto index = [n](long p) { return p < 0 ? n + p : p - 1; };  // 0-based
  // Positions outside the sequence match nothing: clip the range before shifting it.
  const long a = std::max(index(first), 0L) - shift, b = std::min(index(last), n - 1) - shift;
  for (long p = std::max(a, 0L); p <= b; ++p)
    if (at(s, static_cast<std::size_t>(p))) return true;
  return false;
}

DnaMotif DnaMotif::reverse_complement() const {
  static constexpr char kCodes[] = "?ACMGRSVTWYHKDBN";  // IUPAC letter of each mask 0..15
  std::string text;
  for (auto it = masks_.rbegin(); it != masks_.rend(); ++it) {
    const unsigned m = *it;  // A=1 C=2 G=4 T=8 -> T=8 G=4 C=2 A=1: the bits reversed
    const unsigned c = ((m & 1u) << 3) | ((m & 2u) << 1) | ((m & 4u) >> 1) | ((m & 8u) >> 3);
    text.push_back(kCodes[c]);
  }
  return DnaMotif(text);
}

}  // namespace gsflow::engine
