// DNA motifs written in IUPAC codes (TATAWAWR), matched on one strand of letters in ACGT order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gsflow::engine {

class DnaMotif {
 public:
  // `iupac`: one or more of A C G T, R (A/G), Y (C/T), S (C/G), W (A/T), K (G/T), M (A/C), B, D, H,
  // V (all but A, C, G, T respectively) and N, in either case. Throws std::invalid_argument naming
  // the character and its 1-based position otherwise, or for an empty motif.
  explicit DnaMotif(std::string_view iupac);

  std::size_t size() const { return masks_.size(); }
  // The motif as given, upper case.
  const std::string& text() const { return text_; }
  // True when the motif starts at `start` of `s` (letters 0..3 = A C G T); false when fewer than
  // size() letters follow.
  bool at(std::span<const std::uint8_t> s, std::size_t start) const;
  // True when the motif starts at some position p of `s` with first <= p <= last. Positions are
  // 1-based from the 5' end when positive and count from the 3' end when negative (-1 = the last
  // letter), both ends included; positions outside `s` match nothing.
  bool starts_between(std::span<const std::uint8_t> s, long first, long last) const;
  // True when a match of the motif ends (has its last letter) at some position p of `s` with
  // first <= p <= last, positions as in starts_between. On the reverse strand of `s`, a match of
  // reverse_complement() that ends at p is the motif read backwards beginning at p.
  bool ends_between(std::span<const std::uint8_t> s, long first, long last) const;
  // The letters allowed at motif position i: bit c set = letter c (0..3 = A C G T).
  std::uint8_t mask(std::size_t i) const { return masks_.at(i); }
  // The motif read on the other strand (GGTCTC -> GAGACC, CCWGG -> CCWGG), in IUPAC codes.
  DnaMotif reverse_complement() const;

 private:
  // A match starting at 0-based p with p + shift inside first..last (clipped to `s`).
  bool any_start(std::span<const std::uint8_t> s, long first, long last, long shift) const;

  std::string text_;
  std::vector<std::uint8_t> masks_;  // allowed letters per position, bit i = letter i
};

}  // namespace gsflow::engine
