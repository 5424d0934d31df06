// Sequence alphabets (DNA, protein): letter <-> index encoding for single letters and whole
// sequences, with a caller-chosen policy for letters outside the alphabet.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gsflow::engine {

// What whole-sequence encoding does with a letter that is not in the alphabet.
enum class UnknownLetterPolicy {
  error,        // throw InputError naming the record, the 1-based position and the letter
  skip_record,  // drop the whole sequence: encode_sequence returns std::nullopt
  replace,      // substitute EncodeOptions::replacement for every unknown letter
};

struct EncodeOptions {
  UnknownLetterPolicy policy = UnknownLetterPolicy::error;  // handling of unknown letters
  char replacement = 'A';  // used by `replace`; must be in the alphabet (either case)
};

// Where a sequence came from, only used to make error messages point at it. The views must stay
// valid for the duration of the call.
struct SequenceSource {
  std::string_view file;    // file path; empty when not from a file
  std::size_t line = 0;     // 1-based line of the record header; 0 when unknown
  std::string_view record;  // record id; empty when unknown
};

// An ordered set of K <= 255 distinct letters; letter i encodes to index i. Lookup is
// case-insensitive and decoding gives uppercase. Immutable after construction, so concurrent use
// is safe.
class Alphabet {
 public:
  // Throws std::invalid_argument if name is empty, letters is empty or longer than 255, or letters
  // holds anything but ASCII letters or the same letter twice (ignoring case).
  Alphabet(std::string name, std::string_view letters);

  const std::string& name() const noexcept { return name_; }
  // K, the number of letters.
  std::size_t size() const noexcept { return letters_.size(); }
  // The K letters, uppercase, in index order (e.g. "ACGT").
  const std::string& letters() const noexcept { return letters_; }

  bool contains(char letter) const noexcept { return index_of(letter) >= 0; }
  // Index 0..K-1 of the letter, or -1 when it is not in the alphabet.
  int index_of(char letter) const noexcept {
    const std::uint8_t code = table_[static_cast<unsigned char>(letter)];
    return code == kAbsent ? -1 : code;
  }

  // Throws std::invalid_argument for a letter outside the alphabet.
  std::uint8_t encode(char letter) const;
  // Throws std::out_of_range unless index < size().
  char decode(std::uint8_t index) const;

  // Encodes a whole sequence. Throws InputError (no file or line) naming the 1-based position and
  // the letter of the first letter outside the alphabet; see encode_sequence for other policies.
  std::vector<std::uint8_t> encode(std::string_view sequence) const;
  // Uppercase letters of the indices. Throws std::out_of_range naming the first index >= size()
  // and its 1-based position.
  std::string decode(std::span<const std::uint8_t> indices) const;

 private:
  static constexpr std::uint8_t kAbsent = 0xFF;

  std::string name_;
  std::string letters_;
  std::array<std::uint8_t, 256> table_{};  // byte -> index, kAbsent when not a letter of ours
};

// The DNA alphabet "dna": ACGT, K = 4.
const Alphabet& dna_alphabet();
// The protein alphabet "protein": the 20 standard amino acids "ACDEFGHIKLMNPQRSTVWY", K = 20.
const Alphabet& protein_alphabet();
// The built-in alphabet called `name` ("dna" or "protein", case-insensitive). Throws
// std::invalid_argument naming the unknown name and the known ones.
const Alphabet& alphabet_by_name(std::string_view name);

// Encodes `sequence` under `options.policy`. Returns std::nullopt only when the policy is
// skip_record and the sequence holds a letter outside the alphabet. Under `error` throws
// InputError whose file and line are `source.file` and `source.line` and whose message names
// `source.record`, the 1-based position in the sequence and the letter (non-printable bytes are
// shown as \xNN). Throws std::invalid_argument if the policy is `replace` and
// `options.replacement` is not in the alphabet, even when nothing needs replacing.
std::optional<std::vector<std::uint8_t>> encode_sequence(const Alphabet& alphabet,
                                                         std::string_view sequence,
                                                         const EncodeOptions& options = {},
                                                         const SequenceSource& source = {});

}  // namespace gsflow::engine
