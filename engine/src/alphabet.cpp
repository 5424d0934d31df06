// Alphabet construction, single-letter and whole-sequence encoding, the built-in DNA and protein
// alphabets and the unknown-letter policies.
#include "gsflow/engine/alphabet.hpp"

#include <cstdio>
#include <stdexcept>
#include <utility>

#include "gsflow/engine/errors.hpp"

namespace gsflow::engine {
namespace {

char ascii_upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }
char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
bool ascii_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

// Messages quote the offending byte; a raw NUL or escape sequence would garble the terminal.
std::string quote_letter(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7F) return std::string{'\'', c, '\''};
  char buf[8];
  std::snprintf(buf, sizeof buf, "'\\x%02X'", byte);
  return buf;
}

[[noreturn]] void throw_unknown_letter(const Alphabet& alphabet, std::size_t index, char letter,
                                       const SequenceSource& source) {
  std::string message;
  if (!source.record.empty()) message = "record '" + std::string(source.record) + "': ";
  message += "letter " + quote_letter(letter) + " at position " + std::to_string(index + 1) +
             " is not in the " + alphabet.name() + " alphabet (" + alphabet.letters() + ")";
  throw InputError(std::string(source.file), source.line, std::move(message));
}

}  // namespace

Alphabet::Alphabet(std::string name, std::string_view letters) : name_(std::move(name)) {
  if (name_.empty()) throw std::invalid_argument("Alphabet: empty name");
  if (letters.empty() || letters.size() > 255) {
    throw std::invalid_argument("Alphabet '" + name_ + "': needs 1 to 255 letters, got " +
                                std::to_string(letters.size()));
  }
  table_.fill(kAbsent);
  letters_.reserve(letters.size());
  for (const char c : letters) {
    if (!ascii_letter(c)) {
      throw std::invalid_argument("Alphabet '" + name_ + "': " + quote_letter(c) +
                                  " is not an ASCII letter");
    }
    const char upper = ascii_upper(c);
    if (table_[static_cast<unsigned char>(upper)] != kAbsent) {
      throw std::invalid_argument("Alphabet '" + name_ + "': letter " + quote_letter(upper) +
                                  " appears twice");
    }
    const auto index = static_cast<std::uint8_t>(letters_.size());
    table_[static_cast<unsigned char>(upper)] = index;
    table_[static_cast<unsigned char>(ascii_lower(c))] = index;
    letters_.push_back(upper);
  }
}

std::uint8_t Alphabet::encode(char letter) const {
  const int index = index_of(letter);
  if (index < 0) {
    throw std::invalid_argument("letter " + quote_letter(letter) + " is not in the " + name_ +
                                " alphabet (" + letters_ + ")");
  }
  return static_cast<std::uint8_t>(index);
}

char Alphabet::decode(std::uint8_t index) const {
  if (index >= letters_.size()) {
    throw std::out_of_range("index " + std::to_string(index) + " is out of range for the " + name_ +
                            " alphabet (size " + std::to_string(letters_.size()) + ")");
  }
  return letters_[index];
}

std::vector<std::uint8_t> Alphabet::encode(std::string_view sequence) const {
  // Under the error policy encode_sequence never returns nullopt.
  return *encode_sequence(*this, sequence);
}

std::string Alphabet::decode(std::span<const std::uint8_t> indices) const {
  std::string out(indices.size(), '\0');
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] >= letters_.size()) {
      throw std::out_of_range("index " + std::to_string(indices[i]) + " at position " +
                              std::to_string(i + 1) + " is out of range for the " + name_ +
                              " alphabet (size " + std::to_string(letters_.size()) + ")");
    }
    out[i] = letters_[indices[i]];
  }
  return out;
}

const Alphabet& dna_alphabet() {
  static const Alphabet alphabet("dna", "ACGT");
  return alphabet;
}

const Alphabet& protein_alphabet() {
  static const Alphabet alphabet("protein", "ACDEFGHIKLMNPQRSTVWY");
  return alphabet;
}

const Alphabet& alphabet_by_name(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = ascii_lower(c);
  if (lower == "dna") return dna_alphabet();
  if (lower == "protein") return protein_alphabet();
  throw std::invalid_argument("unknown alphabet '" + std::string(name) + "' (known: dna, protein)");
}

std::optional<std::vector<std::uint8_t>> encode_sequence(const Alphabet& alphabet,
                                                         std::string_view sequence,
                                                         const EncodeOptions& options,
                                                         const SequenceSource& source) {
  int replacement = -1;
  if (options.policy == UnknownLetterPolicy::replace) {
    // Checked up front so that a bad option fails on every input, not only on dirty ones.
    replacement = alphabet.index_of(options.replacement);
    if (replacement < 0) {
      throw std::invalid_argument("replacement letter " + quote_letter(options.replacement) +
                                  " is not in the " + alphabet.name() + " alphabet (" +
                                  alphabet.letters() + ")");
    }
  }
  std::vector<std::uint8_t> out(sequence.size());
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    const int index = alphabet.index_of(sequence[i]);
    if (index >= 0) {
      out[i] = static_cast<std::uint8_t>(index);
      continue;
    }
    switch (options.policy) {
      case UnknownLetterPolicy::error:
        throw_unknown_letter(alphabet, i, sequence[i], source);
      case UnknownLetterPolicy::skip_record:
        return std::nullopt;
      case UnknownLetterPolicy::replace:
        out[i] = static_cast<std::uint8_t>(replacement);
        break;
    }
  }
  return out;
}

}  // namespace gsflow::engine
