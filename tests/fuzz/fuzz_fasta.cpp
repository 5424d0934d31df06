// libFuzzer target for the FASTA reader (engine/fasta.hpp): the input is the content of a FASTA
// file, plain or gzip. Expected failures are InputError; the reader's documented contract (record
// shape, line numbers, sticky errors, writer round trip, encode_record policies) is checked too.
#include "fuzz_check.hpp"
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"

namespace {

using gsflow::engine::FastaReader;
using gsflow::engine::FastaRecord;
using gsflow::engine::InputError;

// FastaReader only opens paths, so each input goes through a file; one per process (libFuzzer
// -jobs/-fork run several processes), under $TMPDIR (tmpfs there makes it cheaper).
struct TempFiles {
  std::string input;
  std::string round_trip;
  TempFiles() {
    const char* dir = std::getenv("TMPDIR");
    const std::string base = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") +
                             "/gsflow-fuzz-fasta-" + std::to_string(::getpid());
    input = base + ".in";
    round_trip = base + ".rt";
  }
  ~TempFiles() {
    std::remove(input.c_str());
    std::remove(round_trip.c_str());
  }
};

const TempFiles& temp_files() {
  static const TempFiles files;
  return files;
}

void write_file(const std::string& path, std::string_view bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    std::perror(path.c_str());
    std::abort();  // not a finding in the reader, but nothing else can be tested either
  }
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (std::fclose(f) != 0 || !ok) {
    std::perror(path.c_str());
    std::abort();
  }
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Reads every record; on InputError checks its location and that the reader keeps failing the
// same way. Returns the records read (those before an error included) and whether it failed.
std::vector<FastaRecord> read_all(const std::string& path, std::size_t max_line, bool& failed) {
  std::vector<FastaRecord> records;
  failed = false;
  FastaReader reader(path);  // the file exists: InputError here would be a finding
  FUZZ_CHECK(reader.path() == path);
  try {
    while (auto record = reader.next()) records.push_back(std::move(*record));
  } catch (const InputError& e) {
    failed = true;
    FUZZ_CHECK(e.file() == path);
    FUZZ_CHECK(e.line() >= 1);
    FUZZ_CHECK(max_line == 0 || e.line() <= max_line);
    const std::string first = e.what();
    try {
      (void)reader.next();
      const bool next_threw_again = false;
      FUZZ_CHECK(next_threw_again);
    } catch (const InputError& again) {
      FUZZ_CHECK(first == again.what());
    }
  }
  std::size_t previous_line = 0;
  for (const FastaRecord& r : records) {
    FUZZ_CHECK(!r.id.empty());
    for (const char c : r.id) FUZZ_CHECK(!is_blank(c));
    FUZZ_CHECK(r.description.empty() ||
               (!is_blank(r.description.front()) && !is_blank(r.description.back())));
    FUZZ_CHECK(!r.sequence.empty());
    for (const char c : r.sequence) {
      const auto b = static_cast<unsigned char>(c);
      FUZZ_CHECK(b > 0x20 && b < 0x7F);
    }
    FUZZ_CHECK(r.line > previous_line);
    FUZZ_CHECK(max_line == 0 || r.line <= max_line);
    previous_line = r.line;
  }
  return records;
}

// encode_record under each policy must agree: `error` throws exactly when `skip_record` drops the
// record, `replace` always gives one code per letter, and decoding gives the letters uppercased.
void check_encoding(const FastaRecord& record, const gsflow::engine::Alphabet& alphabet) {
  using gsflow::engine::EncodeOptions;
  using gsflow::engine::UnknownLetterPolicy;
  std::optional<std::vector<std::uint8_t>> strict;
  try {
    strict = gsflow::engine::encode_record(record, alphabet, {}, "fuzz.fa");
    FUZZ_CHECK(strict.has_value());
  } catch (const InputError& e) {
    FUZZ_CHECK(e.line() == record.line);
  }
  const auto skipped = gsflow::engine::encode_record(
      record, alphabet, EncodeOptions{.policy = UnknownLetterPolicy::skip_record});
  FUZZ_CHECK(skipped.has_value() == strict.has_value());
  const auto replaced = gsflow::engine::encode_record(
      record, alphabet, EncodeOptions{.policy = UnknownLetterPolicy::replace, .replacement = 'a'});
  FUZZ_CHECK(replaced.has_value() && replaced->size() == record.sequence.size());
  if (strict) {
    FUZZ_CHECK(*skipped == *strict && *replaced == *strict);
    std::string upper = record.sequence;
    for (char& c : upper) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    FUZZ_CHECK(alphabet.decode(*strict) == upper);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const TempFiles& files = temp_files();
  write_file(files.input, bytes);

  // Line numbers can be bounded only when zlib passes the bytes through (no gzip magic).
  const bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  std::size_t max_line = 0;
  if (!gzip) {
    max_line = 1;
    for (const char c : bytes) max_line += c == '\n';
  }

  bool failed = false;
  const std::vector<FastaRecord> records = read_all(files.input, max_line, failed);

  for (const FastaRecord& record : records) {
    check_encoding(record, gsflow::engine::dna_alphabet());
    check_encoding(record, gsflow::engine::protein_alphabet());
  }

  // The writer refuses only what the reader would reject or alter; of what the reader returns that
  // is a '>' inside a sequence line (a wrapped line could start with it). What it writes reads back
  // equal, line numbers aside.
  std::ostringstream out;
  gsflow::engine::FastaWriter writer(out, {.line_width = 1 + size % 7});
  std::vector<FastaRecord> written;
  for (const FastaRecord& record : records) {
    try {
      writer.write(record);
      written.push_back(record);
    } catch (const std::invalid_argument&) {
      FUZZ_CHECK(record.sequence.find('>') != std::string::npos);
    }
  }
  if (written.empty()) return 0;  // opening a file costs ~0.5 MB of zlib buffers: skip it
  write_file(files.round_trip, out.str());
  bool round_trip_failed = false;
  const std::vector<FastaRecord> back = read_all(files.round_trip, 0, round_trip_failed);
  FUZZ_CHECK(!round_trip_failed);
  FUZZ_CHECK(back.size() == written.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    FUZZ_CHECK(back[i].id == written[i].id);
    FUZZ_CHECK(back[i].description == written[i].description);
    FUZZ_CHECK(back[i].sequence == written[i].sequence);
  }
  return 0;
}
