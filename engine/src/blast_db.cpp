// BLAST v4 protein database reader: the .pin index layout follows NCBI's CSeqDBIdxFile (version,
// type, title, date, N, residue total, max length, then N+1 header and N+1 sequence offsets).
#include "gsflow/engine/blast_db.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

namespace gsflow::engine {

namespace {

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open file");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path, 0, "read error");
  return bytes;
}

// Big-endian reads from the .pin with a bounds check that names the field.
class PinCursor {
 public:
  PinCursor(const std::string& path, const std::string& bytes) : path_(path), bytes_(bytes) {}

  std::uint32_t u32_be(const char* field) {
    need(4, field);
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(bytes_[pos_ + k]);
    pos_ += 4;
    return v;
  }
  std::uint64_t u64_le(const char* field) {
    need(8, field);
    std::uint64_t v = 0;
    for (int k = 7; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(bytes_[pos_ + k]);
    pos_ += 8;
    return v;
  }
  std::string text(const char* field) {
    const std::uint32_t n = u32_be(field);
    need(n, field);
    std::string s = bytes_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::size_t pos() const { return pos_; }

 private:
  void need(std::size_t n, const char* field) const {
    if (bytes_.size() - pos_ < n) {
      throw InputError(path_, 0,
                       "truncated index: " + std::string(field) + " at offset " +
                           std::to_string(pos_) + " needs " + std::to_string(n) +
                           " bytes, the file has " + std::to_string(bytes_.size()));
    }
  }

  const std::string& path_;
  const std::string& bytes_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string first_ber_visible_string(std::string_view ber) {
  const std::size_t n = ber.size();
  std::size_t pos = 0;
  auto fail = [](std::size_t at, const std::string& message) -> void {
    throw std::invalid_argument("byte " + std::to_string(at) + ": " + message);
  };
  while (pos < n) {
    const std::size_t tag_at = pos;
    const auto tag = static_cast<unsigned char>(ber[pos++]);
    if ((tag & 0x1F) == 0x1F) {  // high tag number: continuation bytes have bit 8 set
      while (pos < n && (static_cast<unsigned char>(ber[pos]) & 0x80) != 0) ++pos;
      ++pos;
    }
    if (pos >= n) fail(tag_at, "tag without a length (header truncated)");
    const auto first = static_cast<unsigned char>(ber[pos++]);
    bool indefinite = false;
    std::size_t length = 0;
    if (first == 0x80) {
      indefinite = true;
    } else if (first < 0x80) {
      length = first;
    } else {
      const std::size_t k = first & 0x7F;
      if (k > 4) fail(tag_at, "length of " + std::to_string(k) + " bytes is not supported");
      if (n - pos < k) fail(tag_at, "long-form length runs past the end of the header");
      for (std::size_t j = 0; j < k; ++j)
        length = (length << 8) | static_cast<unsigned char>(ber[pos++]);
    }
    if (tag == 0x00) {  // end-of-contents of an indefinite-length value
      if (indefinite || length != 0) fail(tag_at, "malformed end-of-contents");
      continue;
    }
    if (!indefinite && n - pos < length) {
      fail(tag_at, "value of " + std::to_string(length) +
                       " bytes runs past the end of the header (" + std::to_string(n - pos) +
                       " left)");
    }
    if (tag == 0x1A) {
      if (indefinite) fail(tag_at, "VisibleString with an indefinite length");
      return std::string(ber.substr(pos, length));
    }
    if ((tag & 0x20) != 0) continue;  // constructed: its contents follow, walk into them
    if (indefinite) fail(tag_at, "primitive value with an indefinite length");
    pos += length;
  }
  fail(n, "no VisibleString (title) in the header");
  return {};
}

BlastProteinDb::BlastProteinDb(std::string base) : base_(std::move(base)) {
  const std::string pin_path = base_ + ".pin";
  const std::string psq_path = base_ + ".psq";
  const std::string phr_path = base_ + ".phr";

  const std::string pin = read_whole_file(pin_path);
  PinCursor cur(pin_path, pin);
  header_.version = cur.u32_be("version");
  if (header_.version != 4) {
    throw InputError(pin_path, 0,
                     "format version " + std::to_string(header_.version) +
                         " at offset 0; only BLAST version 4 databases are read");
  }
  header_.type = cur.u32_be("database type");
  if (header_.type != 1) {
    throw InputError(
        pin_path, 0,
        "database type " + std::to_string(header_.type) + " at offset 4; expected 1 (protein)");
  }
  header_.title = cur.text("title");
  header_.date = cur.text("date");
  while (!header_.date.empty() && header_.date.back() == '\0') header_.date.pop_back();
  header_.num_sequences = cur.u32_be("number of sequences");
  header_.total_residues = cur.u64_le("residue total");
  header_.max_length = cur.u32_be("maximum length");
  const std::size_t n = header_.num_sequences;
  const std::size_t tables_at = cur.pos();
  const std::size_t expected = tables_at + 8 * (n + 1);
  if (pin.size() != expected) {
    throw InputError(pin_path, 0,
                     "size " + std::to_string(pin.size()) + " bytes, expected " +
                         std::to_string(expected) + " for " + std::to_string(n) +
                         " records (offset tables from offset " + std::to_string(tables_at) +
                         "): truncated or corrupt index");
  }
  header_offsets_.resize(n + 1);
  sequence_offsets_.resize(n + 1);
  for (std::size_t i = 0; i <= n; ++i) header_offsets_[i] = cur.u32_be("header offset");
  for (std::size_t i = 0; i <= n; ++i) sequence_offsets_[i] = cur.u32_be("sequence offset");

  psq_ = read_whole_file(psq_path);
  phr_ = read_whole_file(phr_path);

  auto check_table = [n](const std::vector<std::uint32_t>& off, const std::string& path,
                         std::size_t file_size, std::size_t min_step, const char* what) {
    for (std::size_t i = 0; i < n; ++i) {
      if (off[i + 1] < off[i] + min_step) {
        throw InputError(path, 0,
                         "record " + std::to_string(i) + ": " + what + " offsets " +
                             std::to_string(off[i]) + " -> " + std::to_string(off[i + 1]) +
                             " in the index are not increasing (corrupt index)");
      }
      if (off[i + 1] > file_size) {
        throw InputError(path, 0,
                         "record " + std::to_string(i) + ": " + what + " at offset " +
                             std::to_string(off[i]) + " ends at offset " +
                             std::to_string(off[i + 1]) + ", past the end of the file (" +
                             std::to_string(file_size) + " bytes): truncated file");
      }
    }
    if (off[n] != file_size) {
      throw InputError(path, 0,
                       "the index ends the last " + std::string(what) + " at offset " +
                           std::to_string(off[n]) + " but the file has " +
                           std::to_string(file_size) + " bytes: mismatched or corrupt file");
    }
  };
  check_table(header_offsets_, phr_path, phr_.size(), 0, "header");
  check_table(sequence_offsets_, psq_path, psq_.size(), 1, "sequence");

  std::uint64_t total = 0;
  std::size_t longest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t len = sequence_offsets_[i + 1] - sequence_offsets_[i] - 1;
    total += len;
    longest = std::max(longest, len);
  }
  if (total != header_.total_residues || longest != header_.max_length) {
    throw InputError(pin_path, 0,
                     "the index states " + std::to_string(header_.total_residues) +
                         " residues and maximum length " + std::to_string(header_.max_length) +
                         ", its offsets give " + std::to_string(total) + " and " +
                         std::to_string(longest) + ": corrupt index");
  }
}

std::size_t BlastProteinDb::length(std::size_t i) const {
  if (i >= size()) throw std::out_of_range("BlastProteinDb: record " + std::to_string(i));
  return sequence_offsets_[i + 1] - sequence_offsets_[i] - 1;
}

std::string BlastProteinDb::sequence(std::size_t i) const {
  const std::size_t len = length(i);
  const std::size_t begin = sequence_offsets_[i];
  if (psq_[begin + len] != '\0') {
    throw InputError(base_ + ".psq", 0,
                     "record " + std::to_string(i) + ": no NUL separator at offset " +
                         std::to_string(begin + len) + " (corrupt sequence file)");
  }
  std::string out(len, '\0');
  for (std::size_t k = 0; k < len; ++k) {
    const auto code = static_cast<unsigned char>(psq_[begin + k]);
    if (code >= sizeof(kNcbiStdaaLetters) - 1) {
      throw InputError(base_ + ".psq", 0,
                       "record " + std::to_string(i) + ": residue code " + std::to_string(code) +
                           " at offset " + std::to_string(begin + k) + " is not NCBIstdaa (0..27)");
    }
    out[k] = kNcbiStdaaLetters[code];
  }
  return out;
}

std::string BlastProteinDb::title(std::size_t i) const {
  if (i >= size()) throw std::out_of_range("BlastProteinDb: record " + std::to_string(i));
  const std::size_t begin = header_offsets_[i];
  const std::string_view ber(phr_.data() + begin, header_offsets_[i + 1] - begin);
  try {
    return first_ber_visible_string(ber);
  } catch (const std::invalid_argument& e) {
    throw InputError(base_ + ".phr", 0,
                     "record " + std::to_string(i) + " (header at offset " + std::to_string(begin) +
                         "), " + e.what());
  }
}

}  // namespace gsflow::engine
