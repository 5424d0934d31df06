// Streaming FASTA reader (plain or gzip, detected by content) and a line-wrapping FASTA writer,
// plus whole-file conveniences and alphabet encoding of records with file/line error reporting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/errors.hpp"

namespace gsflow::engine {

struct FastaRecord {
  std::string id;           // first whitespace-separated word of the header, never empty
  std::string description;  // rest of the header, leading and trailing blanks trimmed
  std::string sequence;     // sequence lines joined, blanks removed, letters as in the file
  std::size_t line = 0;     // 1-based line number of the header in the source file

  bool operator==(const FastaRecord&) const = default;
};

// Reads one record at a time from a FASTA file, plain or gzip-compressed (recognised by its
// content, whatever the file name; concatenated gzip members are read as one stream). Memory is
// bounded by the longest record, not by the number of records.
//
// Accepted: multi-line records, \n or \r\n line endings, a UTF-8 byte-order mark at the start,
// blank lines anywhere, spaces, tabs and \r inside sequence lines (removed), a header whose '>'
// is preceded or followed by blanks. Letters are not checked against any alphabet (see
// encode_record); they are returned unchanged, case included.
//
// Every malformed input throws InputError with file() the path given and line() the 1-based line:
// sequence data before the first header (that line), a header without a name such as a lone '>'
// (the header line), a record without sequence, i.e. a header followed by another header or by the
// end of the file (that record's header line), a control character other than tab or a byte >= 0x80
// in a sequence line or a control character in a header (that line; the message gives the column
// and the byte), and a read error or a truncated or corrupt gzip stream (the line being read when
// zlib reports it; for a corrupt stream that can be some lines before the damage, as zlib drops the
// block it was decoding). Records before the error are returned normally. A file that cannot be
// opened throws InputError with line 0. A file with no records is not an error.
//
// Memory is bounded whatever the input: a record longer than `max_length` letters, or a line longer
// than max_length plus 64 KiB (blanks, a long header), throws InputError as soon as the reader
// gets that far, without reading the rest of the line (/dev/zero, a gzip bomb of one huge line).
//
// After next() has thrown, every later call throws the same error again. Not copyable; movable (a
// moved-from reader may only be destroyed or assigned to; its next() throws std::logic_error).
// Not thread-safe: use one reader per thread.
class FastaReader {
 public:
  // The default bound on a record: far above any sequence gsflow models (at most 65,535 letters),
  // far below what would exhaust memory.
  static constexpr std::size_t kDefaultMaxLength = std::size_t{1} << 24;

  // "-": the path that reads standard input (plain or gzip, as a file), named kStdinName ("stdin")
  // in error messages and by path().
  static constexpr std::string_view kStdinPath = "-";
  static constexpr std::string_view kStdinName = "stdin";

  // Opens `path` (kStdinPath: standard input). Throws InputError (line 0) if it does not exist,
  // is a directory or cannot be opened. Records longer than `max_length` letters are refused (see above); a command passes the
  // longest sequence it can use.
  explicit FastaReader(const std::string& path, std::size_t max_length = kDefaultMaxLength);
  ~FastaReader();
  FastaReader(FastaReader&&) noexcept;
  FastaReader& operator=(FastaReader&&) noexcept;
  FastaReader(const FastaReader&) = delete;
  FastaReader& operator=(const FastaReader&) = delete;

  // The next record, or std::nullopt at the end of the file. Throws InputError as described above.
  std::optional<FastaRecord> next();

  // The path as given to the constructor, or "stdin" for "-" (used in error messages).
  const std::string& path() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Every record of the file at `path` ("-": standard input), in order. Throws what FastaReader
// throws.
std::vector<FastaRecord> read_fasta(const std::string& path,
                                    std::size_t max_length = FastaReader::kDefaultMaxLength);

// Encodes `record.sequence` with encode_sequence, attributing errors to `file` (e.g.
// FastaReader::path(); may be empty), the record's header line, its id and the 1-based position
// within the sequence. Returns std::nullopt only under UnknownLetterPolicy::skip_record. Throws
// InputError under `error`, std::invalid_argument for a replacement letter outside the alphabet.
std::optional<std::vector<std::uint8_t>> encode_record(const FastaRecord& record,
                                                       const Alphabet& alphabet,
                                                       const EncodeOptions& options = {},
                                                       std::string_view file = {});

struct FastaWriterOptions {
  std::size_t line_width = 60;  // letters per sequence line; 0 writes each sequence on one line
};

// Writes records as ">header\n" followed by the sequence wrapped at options.line_width, with "\n"
// line endings. It refuses what FastaReader would reject or alter, so a record written with
// write(const FastaRecord&) reads back equal (its `line` aside). Does not own the stream, which
// must outlive the writer.
class FastaWriter {
 public:
  explicit FastaWriter(std::ostream& out, const FastaWriterOptions& options = {});

  // Writes ">" + header. Throws std::invalid_argument (writing nothing) if the header has no
  // non-blank character or contains a control character other than tab, or if the sequence is
  // empty or contains a blank, a control character, a byte >= 0x80 or '>'. Throws
  // std::runtime_error if the stream is in a failed state afterwards.
  void write(std::string_view header, std::string_view sequence);
  // Writes id, then " " + description when the description is not empty. Throws as above, and
  // std::invalid_argument if the id is empty or contains a blank, or the description has leading
  // or trailing blanks (they would not read back).
  void write(const FastaRecord& record);

 private:
  std::ostream& out_;
  FastaWriterOptions options_;
};

// Writes `records` to the file at `path` (plain text), replacing it. Throws std::invalid_argument
// as FastaWriter::write does, before touching the file, and std::runtime_error with a message
// starting with the path if the file cannot be created or written (a partial file may remain).
void write_fasta(const std::string& path, std::span<const FastaRecord> records,
                 const FastaWriterOptions& options = {});

}  // namespace gsflow::engine
