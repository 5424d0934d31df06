// FASTA reading through zlib's gz* API (which passes plain files through untouched), FASTA writing,
// and the whole-file helpers.
#include "gsflow/engine/fasta.hpp"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace gsflow::engine {
namespace {

// Byte classes shared by the reader and the writer, so the writer refuses exactly what the reader
// would reject or silently alter.
enum ByteClass : std::uint8_t { kKeep, kBlank, kBad };

constexpr std::array<std::uint8_t, 256> make_byte_classes() {
  std::array<std::uint8_t, 256> classes{};
  for (int b = 0; b < 256; ++b) {
    if (b == ' ' || b == '\t' || b == '\r') {
      classes[b] = kBlank;
    } else if (b < 0x20 || b >= 0x7F) {
      classes[b] = kBad;
    } else {
      classes[b] = kKeep;
    }
  }
  return classes;
}
constexpr std::array<std::uint8_t, 256> kByteClass = make_byte_classes();

ByteClass byte_class(char c) {
  return static_cast<ByteClass>(kByteClass[static_cast<unsigned char>(c)]);
}
bool is_blank(char c) { return byte_class(c) == kBlank; }
// Headers may carry UTF-8 descriptions, so only control characters are refused there.
bool is_header_control(char c) {
  const auto b = static_cast<unsigned char>(c);
  return (b < 0x20 && b != '\t') || b == 0x7F;
}

std::string hex_byte(char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned char>(c));
  return buf;
}

std::string describe_bad_byte(char c, std::size_t column, const char* where) {
  const auto b = static_cast<unsigned char>(c);
  const char* kind = b >= 0x80 ? "non-ASCII byte" : "control character";
  return std::string(kind) + " " + hex_byte(c) + " at column " + std::to_string(column) + " of " +
         where + " (binary data or not a FASTA file?)";
}

constexpr std::size_t kReadChunk = std::size_t{1} << 16;
constexpr unsigned kZlibBuffer = 1u << 17;
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

}  // namespace

struct FastaReader::Impl {
  std::string path;
  gzFile file = nullptr;
  std::vector<char> buffer = std::vector<char>(kReadChunk);
  std::size_t pos = 0;              // next unread byte in buffer
  std::size_t end = 0;              // bytes of buffer holding data
  bool at_eof = false;              // gzread has reported the end of the stream
  std::size_t line_number = 0;      // number of lines returned by read_line so far
  std::string line;                 // the current line, reused to keep its capacity
  bool have_pending = false;        // a header line was read that starts the next record
  std::string pending_header;       // its text after '>', parsed when its record is returned
  std::size_t pending_line = 0;     // its line number
  std::size_t pending_column = 0;   // 1-based column of the text after '>', for messages
  std::optional<InputError> error;  // sticky: a reader that failed keeps failing
  std::size_t max_length = 0;       // longest record accepted, in letters
  std::size_t max_line = 0;         // longest line accepted, in bytes

  Impl(std::string p, std::size_t max)
      : path(std::move(p)), max_length(max), max_line(max + (std::size_t{1} << 16)) {}

  [[noreturn]] void line_too_long() const {
    fail(line_number + 1, "line longer than " + std::to_string(max_line) +
                              " bytes (a sequence longer than " + std::to_string(max_length) +
                              " letters, or not a FASTA file)");
  }
  ~Impl() {
    if (file != nullptr) gzclose(file);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  [[noreturn]] void fail(std::size_t line_no, std::string message) const {
    throw InputError(path, line_no, std::move(message));
  }

  void open(bool from_stdin) {
    if (from_stdin) {
      // A duplicate, so that gzclose leaves the process's standard input open.
      const int fd = dup(STDIN_FILENO);
      if (fd < 0) fail(0, std::string("cannot read: ") + std::strerror(errno));
      file = gzdopen(fd, "rb");
      if (file == nullptr) {
        ::close(fd);
        fail(0, "cannot read: out of memory");
      }
      gzbuffer(file, kZlibBuffer);
      return;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) fail(0, "cannot read: is a directory");
    errno = 0;
    file = gzopen(path.c_str(), "rb");
    if (file == nullptr) {
      const int err = errno;
      fail(0, std::string("cannot open for reading: ") +
                  (err != 0 ? std::strerror(err) : "out of memory"));
    }
    gzbuffer(file, kZlibBuffer);
  }

  // zlib reports a truncated gzip stream only through gzerror (Z_BUF_ERROR) while gzread returns
  // 0 as at a clean end, so the error state is checked whenever nothing comes back. Data that
  // did come back is used first, so that the error points at the line where the stream breaks.
  bool fill() {
    if (at_eof) return false;
    const int n = gzread(file, buffer.data(), static_cast<unsigned>(buffer.size()));
    if (n > 0) {
      pos = 0;
      end = static_cast<std::size_t>(n);
      return true;
    }
    const int read_errno = errno;
    int errnum = Z_OK;
    const char* message = gzerror(file, &errnum);
    if (n < 0 || errnum != Z_OK) {
      std::string what;
      if (errnum == Z_ERRNO) {
        what = std::string("read error: ") + std::strerror(read_errno);
      } else if (errnum == Z_BUF_ERROR) {
        what = "gzip stream is truncated (unexpected end of file)";
      } else {
        // zlib prefixes its message with the path, which InputError already shows.
        std::string_view detail = message != nullptr ? message : "unknown error";
        const std::string prefix = path + ": ";
        if (detail.starts_with(prefix)) detail.remove_prefix(prefix.size());
        what = "gzip stream is corrupt: " + std::string(detail);
      }
      fail(line_number + 1, std::move(what));
    }
    at_eof = true;
    return false;
  }

  // Reads the next line into `line` without its line ending (\n and any \r before it). Returns
  // false at the end of the input; a last line without \n still counts as a line.
  bool read_line() {
    line.clear();
    bool got_any = false;
    for (;;) {
      if (pos == end && !fill()) {
        if (!got_any) return false;
        break;
      }
      got_any = true;
      const char* start = buffer.data() + pos;
      const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end - pos));
      const std::size_t take = newline != nullptr ? static_cast<std::size_t>(newline - start)
                                                  : end - pos;
      if (line.size() + take > max_line) line_too_long();
      if (newline != nullptr) {
        line.append(start, newline);
        pos += take + 1;
        break;
      }
      line.append(start, end - pos);
      pos = end;
    }
    ++line_number;
    while (!line.empty() && line.back() == '\r') line.pop_back();
    // Editors on Windows may start UTF-8 files with a byte-order mark.
    if (line_number == 1 && line.starts_with(kUtf8Bom)) line.erase(0, kUtf8Bom.size());
    return true;
  }

  // Offset of the '>' when the current line is a header, npos otherwise.
  std::size_t header_marker() const {
    std::size_t i = 0;
    while (i < line.size() && is_blank(line[i])) ++i;
    return (i < line.size() && line[i] == '>') ? i : std::string::npos;
  }

  bool line_is_blank() const {
    for (const char c : line) {
      if (!is_blank(c)) return false;
    }
    return true;
  }

  void append_sequence_line(std::string& sequence) const {
    const std::size_t n = line.size();
    std::size_t i = 0;
    while (i < n) {
      std::size_t j = i;
      while (j < n && byte_class(line[j]) == kKeep) ++j;
      sequence.append(line, i, j - i);
      if (j == n) break;
      if (byte_class(line[j]) == kBad) {
        fail(line_number, describe_bad_byte(line[j], j + 1, "a sequence line"));
      }
      i = j + 1;
    }
  }

  void take_header(std::size_t marker) {
    have_pending = true;
    pending_header.assign(line, marker + 1);
    pending_line = line_number;
    pending_column = marker + 2;
  }

  // Parsed only when its record is returned, so that an empty previous record is reported first.
  FastaRecord parse_pending_header() {
    FastaRecord record;
    record.line = pending_line;
    const std::string& text = pending_header;
    for (std::size_t k = 0; k < text.size(); ++k) {
      if (is_header_control(text[k])) {
        fail(pending_line, describe_bad_byte(text[k], pending_column + k, "a header line"));
      }
    }
    std::size_t i = 0;
    while (i < text.size() && is_blank(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && !is_blank(text[j])) ++j;
    if (i == j) fail(pending_line, "header has no record name after '>'");
    record.id.assign(text, i, j - i);
    while (j < text.size() && is_blank(text[j])) ++j;
    std::size_t k = text.size();
    while (k > j && is_blank(text[k - 1])) --k;
    record.description.assign(text, j, k - j);
    have_pending = false;
    return record;
  }

  std::optional<FastaRecord> next() {
    if (!have_pending) {
      while (read_line()) {
        const std::size_t marker = header_marker();
        if (marker != std::string::npos) {
          take_header(marker);
          break;
        }
        if (!line_is_blank()) {
          // Check for binary bytes first: a wrong file type deserves the more telling message.
          std::string ignored;
          append_sequence_line(ignored);
          fail(line_number, "sequence data before the first header line ('>')");
        }
      }
      if (!have_pending) return std::nullopt;
    }
    FastaRecord record = parse_pending_header();
    while (read_line()) {
      const std::size_t marker = header_marker();
      if (marker != std::string::npos) {
        take_header(marker);
        break;
      }
      append_sequence_line(record.sequence);
      if (record.sequence.size() > max_length)
        fail(line_number, "record '" + record.id + "' is longer than " +
                              std::to_string(max_length) + " letters, the most accepted here");
    }
    if (record.sequence.empty()) {
      fail(record.line,
           "record '" + record.id + "' has no sequence" +
               (have_pending ? " (followed by another header)" : " (at the end of the file)"));
    }
    return record;
  }
};

FastaReader::FastaReader(const std::string& path, std::size_t max_length)
    : impl_(std::make_unique<Impl>(path == kStdinPath ? std::string(kStdinName) : path,
                                   max_length)) {
  impl_->open(path == kStdinPath);
}

FastaReader::~FastaReader() = default;
FastaReader::FastaReader(FastaReader&&) noexcept = default;
FastaReader& FastaReader::operator=(FastaReader&&) noexcept = default;

std::optional<FastaRecord> FastaReader::next() {
  if (!impl_) throw std::logic_error("FastaReader::next on a moved-from reader");
  if (impl_->error) throw *impl_->error;
  try {
    return impl_->next();
  } catch (const InputError& e) {
    impl_->error = e;
    throw;
  }
}

const std::string& FastaReader::path() const noexcept {
  static const std::string empty;
  return impl_ ? impl_->path : empty;
}

std::vector<FastaRecord> read_fasta(const std::string& path, std::size_t max_length) {
  FastaReader reader(path, max_length);
  std::vector<FastaRecord> records;
  while (auto record = reader.next()) records.push_back(std::move(*record));
  return records;
}

std::optional<std::vector<std::uint8_t>> encode_record(const FastaRecord& record,
                                                       const Alphabet& alphabet,
                                                       const EncodeOptions& options,
                                                       std::string_view file) {
  return encode_sequence(alphabet, record.sequence, options,
                         SequenceSource{.file = file, .line = record.line, .record = record.id});
}

namespace {

void check_header(std::string_view header) {
  bool has_name = false;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (is_header_control(header[i])) {
      throw std::invalid_argument("FASTA header: " +
                                  describe_bad_byte(header[i], i + 1, "the header"));
    }
    has_name = has_name || !is_blank(header[i]);
  }
  if (!has_name) throw std::invalid_argument("FASTA header: no record name");
}

void check_sequence(std::string_view header, std::string_view sequence) {
  if (sequence.empty()) {
    throw std::invalid_argument("FASTA record '" + std::string(header) +
                                "': empty sequence (the reader rejects such records)");
  }
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    const char c = sequence[i];
    if (byte_class(c) != kKeep || c == '>') {
      throw std::invalid_argument("FASTA record '" + std::string(header) + "': character " +
                                  hex_byte(c) + " at position " + std::to_string(i + 1) +
                                  " cannot be written in a sequence");
    }
  }
}

void check_record(const FastaRecord& record) {
  if (record.id.empty()) throw std::invalid_argument("FASTA record: empty id");
  for (const char c : record.id) {
    if (is_blank(c)) {
      throw std::invalid_argument("FASTA record '" + record.id + "': id contains a blank");
    }
  }
  if (!record.description.empty() &&
      (is_blank(record.description.front()) || is_blank(record.description.back()))) {
    throw std::invalid_argument("FASTA record '" + record.id +
                                "': description has leading or trailing blanks");
  }
}

std::string header_of(const FastaRecord& record) {
  return record.description.empty() ? record.id : record.id + ' ' + record.description;
}

}  // namespace

FastaWriter::FastaWriter(std::ostream& out, const FastaWriterOptions& options)
    : out_(out), options_(options) {}

void FastaWriter::write(std::string_view header, std::string_view sequence) {
  check_header(header);
  check_sequence(header, sequence);
  out_.put('>');
  out_.write(header.data(), static_cast<std::streamsize>(header.size()));
  out_.put('\n');
  const std::size_t width = options_.line_width == 0 ? sequence.size() : options_.line_width;
  for (std::size_t offset = 0; offset < sequence.size(); offset += width) {
    const std::size_t n = std::min(width, sequence.size() - offset);
    out_.write(sequence.data() + offset, static_cast<std::streamsize>(n));
    out_.put('\n');
  }
  if (!out_) throw std::runtime_error("FASTA output stream failed");
}

void FastaWriter::write(const FastaRecord& record) {
  check_record(record);
  write(header_of(record), record.sequence);
}

void write_fasta(const std::string& path, std::span<const FastaRecord> records,
                 const FastaWriterOptions& options) {
  // Validate before creating the file so that bad records do not leave a half-written one.
  for (const FastaRecord& record : records) {
    check_record(record);
    const std::string header = header_of(record);
    check_header(header);
    check_sequence(header, record.sequence);
  }
  auto io_error = [&path](const char* what) {
    const int err = errno;
    std::string message = path + ": " + what;
    if (err != 0) message += std::string(": ") + std::strerror(err);
    return std::runtime_error(message);
  };
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out.is_open()) throw io_error("cannot open for writing");
  FastaWriter writer(out, options);
  try {
    for (const FastaRecord& record : records) writer.write(record);
  } catch (const std::runtime_error&) {
    throw io_error("write failed");
  }
  out.close();
  if (out.fail()) throw io_error("write failed");
}

}  // namespace gsflow::engine
