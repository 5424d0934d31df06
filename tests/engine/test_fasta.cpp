// Tests for FASTA reading and writing on real files in a per-test temporary directory: round trips,
// gzip (whole, multi-member, truncated, corrupt), CRLF, blank lines, every malformed-input error
// with its file and line, and alphabet encoding of records under each unknown-letter policy.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"

namespace gsflow::engine {
namespace {

namespace fs = std::filesystem;
using Codes = std::vector<std::uint8_t>;

class FastaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::random_device random;
    dir_ =
        fs::temp_directory_path() / ("gsflow_fasta_" + std::string(info->name()) + "_" +
                                     std::to_string(::getpid()) + "_" + std::to_string(random()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string write_file(const std::string& name, const std::string& bytes) const {
    const std::string p = path(name);
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    EXPECT_TRUE(out.good()) << p;
    return p;
  }

  // mode "wb" starts a new file, "ab" appends another gzip member.
  std::string write_gz(const std::string& name, const std::string& bytes,
                       const char* mode = "wb") const {
    const std::string p = path(name);
    gzFile gz = gzopen(p.c_str(), mode);
    EXPECT_NE(gz, nullptr) << p;
    if (gz == nullptr) return p;
    EXPECT_EQ(gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size())),
              static_cast<int>(bytes.size()));
    EXPECT_EQ(gzclose(gz), Z_OK);
    return p;
  }

  static std::string read_bytes(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  fs::path dir_;
};

FastaRecord rec(std::string id, std::string description, std::string sequence, std::size_t line) {
  return FastaRecord{std::move(id), std::move(description), std::move(sequence), line};
}

constexpr std::size_t kAnyLine = static_cast<std::size_t>(-1);

// Reads the whole file expecting an InputError at `line` (kAnyLine: some line >= 1, for errors
// whose position depends on zlib's buffering) whose message contains `fragment`.
void expect_input_error(const std::string& p, std::size_t line, const std::string& fragment) {
  try {
    const auto records = read_fasta(p);
    ADD_FAILURE() << "expected InputError, read " << records.size() << " records from " << p;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.file(), p) << what;
    if (line == kAnyLine) {
      EXPECT_GE(e.line(), 1u) << what;
      line = e.line();
    } else {
      EXPECT_EQ(e.line(), line) << what;
    }
    const std::string prefix = line > 0 ? p + ":" + std::to_string(line) + ": " : p + ": ";
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << "'" << what << "' should start with '" << prefix << "'";
    EXPECT_NE(what.find(fragment), std::string::npos)
        << "'" << what << "' lacks '" << fragment << "'";
  }
}

std::string random_dna(std::size_t length, std::mt19937& rng) {
  static constexpr char kLetters[] = "ACGT";
  std::uniform_int_distribution<int> pick(0, 3);
  std::string s(length, 'A');
  for (char& c : s) c = kLetters[pick(rng)];
  return s;
}

// ----------------------------------------------------------------------------- reading

TEST_F(FastaTest, ReadsMultiLineRecordsWithIdsDescriptionsAndLines) {
  const std::string p = write_file("a.fa",
                                   ">seq1 first record\n"
                                   "ACGT\n"
                                   "TTGA\n"
                                   "C\n"
                                   ">seq2\n"
                                   "GGGG\n"
                                   ">seq3  spaced   out  \n"
                                   "acgtn\n");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0], rec("seq1", "first record", "ACGTTTGAC", 1));
  EXPECT_EQ(records[1], rec("seq2", "", "GGGG", 5));
  EXPECT_EQ(records[2], rec("seq3", "spaced   out", "acgtn", 7));
}

// Memory stays bounded whatever the input (issue 36): a record past the bound is refused at the
// line where it crosses it, and an endless line is refused without being read to its end.
TEST_F(FastaTest, RecordsAndLinesBeyondTheBoundAreRefused) {
  const std::string p = write_file("long.fa", ">ok\nACGT\n>big\nACGTACGT\nACGTACGT\nAC\n");
  FastaReader reader(p, 16);
  EXPECT_EQ(reader.next()->id, "ok");
  try {
    reader.next();
    ADD_FAILURE() << "a 18-letter record was accepted under a bound of 16";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 6u) << e.what();
    EXPECT_NE(std::string(e.what()).find("'big' is longer than 16 letters"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_fasta(p, 18).size(), 2u);  // exactly at the bound: accepted

  // /dev/zero is one endless line: without a bound the reader would grow until memory runs out.
  try {
    FastaReader zero("/dev/zero", 1000);
    zero.next();
    ADD_FAILURE() << "/dev/zero was read as FASTA";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line longer than"), std::string::npos) << e.what();
  }
  // A gzip file of one long line (the compressed size says nothing about it).
  const std::string gz = write_gz("line.fa.gz", ">x\n" + std::string(3u << 20, 'A') + "\n");
  EXPECT_THROW(FastaReader(gz, 1u << 20).next(), InputError);
  EXPECT_EQ(FastaReader(gz, 3u << 20).next()->sequence.size(), 3u << 20);
}

TEST_F(FastaTest, StreamsOneRecordAtATime) {
  const std::string p = write_file("s.fa", ">a\nAC\n>b\nGT\n");
  FastaReader reader(p);
  EXPECT_EQ(reader.path(), p);
  auto first = reader.next();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, rec("a", "", "AC", 1));
  FastaReader moved = std::move(reader);
  auto second = moved.next();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(*second, rec("b", "", "GT", 3));
  EXPECT_FALSE(moved.next().has_value());
  EXPECT_FALSE(moved.next().has_value());
}

TEST_F(FastaTest, HeaderWithTabsAndBlanksAroundMarker) {
  const std::string p = write_file("h.fa",
                                   ">id1\tdesc with\ttab\n"
                                   "A\n"
                                   ">   id2\n"
                                   "C\n"
                                   "  >id3 x y\n"
                                   "G\n");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0], rec("id1", "desc with\ttab", "A", 1));
  EXPECT_EQ(records[1], rec("id2", "", "C", 3));
  EXPECT_EQ(records[2], rec("id3", "x y", "G", 5));
}

TEST_F(FastaTest, LettersAreNotValidatedByTheReader) {
  const std::string p = write_file("l.fa", ">x\nacgtNnRY*-.\n");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].sequence, "acgtNnRY*-.");
}

TEST_F(FastaTest, CrlfLineEndings) {
  const std::string p = write_file("crlf.fa",
                                   ">r1 desc one\r\n"
                                   "ACGT\r\n"
                                   "AC\r\n"
                                   "\r\n"
                                   ">r2\r\n"
                                   "GG\r\n");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0], rec("r1", "desc one", "ACGTAC", 1));
  EXPECT_EQ(records[1], rec("r2", "", "GG", 5));
}

TEST_F(FastaTest, CrlfKeepsLineNumbersInErrors) {
  const std::string p = write_file("crlf_bad.fa", ">r1\r\nACGT\r\n\r\n>r2\r\n>r3\r\nAC\r\n");
  expect_input_error(p, 4, "record 'r2' has no sequence");
}

TEST_F(FastaTest, BlankLinesAnywhereAreIgnored) {
  const std::string p = write_file("blank.fa",
                                   "\n"
                                   "   \n"
                                   ">r1\n"
                                   "\n"
                                   "AC\n"
                                   " \t \n"
                                   "GT\n"
                                   "\n"
                                   "\n"
                                   ">r2 d\n"
                                   "TT\n"
                                   "\n");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0], rec("r1", "", "ACGT", 3));
  EXPECT_EQ(records[1], rec("r2", "d", "TT", 10));
}

TEST_F(FastaTest, WhitespaceInsideSequenceLinesIsRemoved) {
  const std::string p = write_file("ws.fa", ">r\n  AC GT\tAC \r\nG T\n");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].sequence, "ACGTACGT");
}

TEST_F(FastaTest, LastLineWithoutNewline) {
  const std::string p = write_file("nonl.fa", ">r1\nAC\n>r2\nGTA");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1], rec("r2", "", "GTA", 3));
}

TEST_F(FastaTest, Utf8ByteOrderMarkIsSkipped) {
  const std::string p = write_file("bom.fa", "\xEF\xBB\xBF>r1\nACGT\n");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0], rec("r1", "", "ACGT", 1));
}

TEST_F(FastaTest, Utf8InDescriptionIsKept) {
  const std::string p = write_file("utf8.fa", ">r1 caf\xC3\xA9\nACGT\n");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].description, "caf\xC3\xA9");
}

TEST_F(FastaTest, EmptyOrBlankFileHasNoRecords) {
  EXPECT_TRUE(read_fasta(write_file("empty.fa", "")).empty());
  EXPECT_TRUE(read_fasta(write_file("blank.fa", "\n \n\r\n")).empty());
  EXPECT_TRUE(read_fasta(write_gz("empty.fa.gz", "")).empty());
}

TEST_F(FastaTest, LinesLongerThanTheReadBufferAndManyRecords) {
  std::mt19937 rng(7);
  std::string text;
  std::vector<FastaRecord> expected;
  std::size_t line = 1;
  // One unwrapped sequence far longer than any internal buffer, then many small records.
  const std::string long_seq = random_dna(300'000, rng);
  text += ">long one line\n" + long_seq + "\n";
  expected.push_back(rec("long", "one line", long_seq, line));
  line += 2;
  for (int i = 0; i < 3000; ++i) {
    const std::string seq = random_dna(1 + static_cast<std::size_t>(i % 150), rng);
    text += ">r" + std::to_string(i) + "\n";
    expected.push_back(rec("r" + std::to_string(i), "", seq, line++));
    for (std::size_t off = 0; off < seq.size(); off += 70) {
      text += seq.substr(off, 70) + "\n";
      ++line;
    }
  }
  EXPECT_EQ(read_fasta(write_file("big.fa", text)), expected);
  EXPECT_EQ(read_fasta(write_gz("big.fa.gz", text)), expected);
}

// ----------------------------------------------------------------------------- gzip

TEST_F(FastaTest, GzipIsDetectedByContentNotName) {
  const std::string text = ">g1 zipped\nACGT\nAA\n>g2\nC\n";
  const std::vector<FastaRecord> expected = {rec("g1", "zipped", "ACGTAA", 1),
                                             rec("g2", "", "C", 4)};
  EXPECT_EQ(read_fasta(write_gz("x.fa.gz", text)), expected);
  EXPECT_EQ(read_fasta(write_gz("no_extension.fa", text)), expected);
  EXPECT_EQ(read_fasta(write_file("plain_named.fa.gz", text)), expected);
}

TEST_F(FastaTest, ConcatenatedGzipMembersReadAsOneFile) {
  write_gz("multi.fa.gz", ">m1\nAC\n", "wb");
  const std::string p = write_gz("multi.fa.gz", ">m2\nGT\n", "ab");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0], rec("m1", "", "AC", 1));
  EXPECT_EQ(records[1], rec("m2", "", "GT", 3));
}

TEST_F(FastaTest, ErrorsInGzipFilesCarryLineNumbers) {
  expect_input_error(write_gz("bad.fa.gz", ">r1\nAC\n\nGT\n>\nAC\n"), 5, "no record name");
}

TEST_F(FastaTest, TruncatedGzipIsAnInputErrorAfterTheIntactRecords) {
  std::mt19937 rng(11);
  std::string text;
  std::vector<FastaRecord> expected;
  for (int i = 0; i < 2000; ++i) {
    const std::string seq = random_dna(60, rng);
    text += ">t" + std::to_string(i) + "\n" + seq + "\n";
    expected.push_back(rec("t" + std::to_string(i), "", seq, 2 * static_cast<std::size_t>(i) + 1));
  }
  const std::string full = read_bytes(write_gz("full.fa.gz", text));
  ASSERT_GT(full.size(), 1000u);
  const std::string p = write_file("cut.fa.gz", full.substr(0, full.size() / 2));

  FastaReader reader(p);
  std::size_t good = 0;
  try {
    while (auto record = reader.next()) {
      ASSERT_LT(good, expected.size());
      // The record cut by the truncation may come back shortened; all earlier ones are intact.
      if (record->sequence.size() == 60) {
        EXPECT_EQ(*record, expected[good]);
      }
      ++good;
    }
    FAIL() << "expected InputError after " << good << " records";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.file(), p);
    EXPECT_GT(e.line(), 2 * good) << what;
    EXPECT_EQ(what.rfind(p + ":" + std::to_string(e.line()) + ": ", 0), 0u) << what;
    EXPECT_NE(what.find("truncated"), std::string::npos) << what;
  }
  EXPECT_GT(good, 100u);
  EXPECT_LT(good, 2000u);
  // The error is sticky.
  EXPECT_THROW(reader.next(), InputError);
}

TEST_F(FastaTest, GzipMissingOnlyItsTrailerIsTruncated) {
  const std::string full = read_bytes(write_gz("full.fa.gz", ">r\nACGT\n>s\nGG\n"));
  const std::string p = write_file("cut.fa.gz", full.substr(0, full.size() - 5));
  expect_input_error(p, 5, "truncated");
}

TEST_F(FastaTest, GzipWithBadChecksumIsCorrupt) {
  std::string bytes = read_bytes(write_gz("ok.fa.gz", ">r\nACGT\n>s\nGG\n"));
  ASSERT_GT(bytes.size(), 8u);
  bytes[bytes.size() - 8] = static_cast<char>(bytes[bytes.size() - 8] ^ 0x5A);  // CRC-32 byte
  expect_input_error(write_file("crc.fa.gz", bytes), kAnyLine,
                     "gzip stream is corrupt: incorrect data check");
}

TEST_F(FastaTest, GzipWithGarbledDataNeverCrashes) {
  std::mt19937 rng(3);
  std::string text;
  for (int i = 0; i < 300; ++i)
    text += ">q" + std::to_string(i) + "\n" + random_dna(80, rng) + "\n";
  const std::string good = read_bytes(write_gz("good.fa.gz", text));
  for (int trial = 0; trial < 20; ++trial) {
    std::string bytes = good;
    std::uniform_int_distribution<std::size_t> where(10, bytes.size() - 9);
    for (int k = 0; k < 4; ++k) bytes[where(rng)] ^= static_cast<char>(1 + trial);
    const std::string p = write_file("garbled" + std::to_string(trial) + ".fa.gz", bytes);
    EXPECT_THROW(read_fasta(p), InputError) << "trial " << trial;
  }
}

// ----------------------------------------------------------------------------- malformed input

TEST_F(FastaTest, MissingFile) {
  const std::string p = path("does_not_exist.fa");
  expect_input_error(p, 0, "cannot open for reading: No such file or directory");
  EXPECT_THROW(FastaReader{p}, InputError);
}

TEST_F(FastaTest, DirectoryInsteadOfFile) { expect_input_error(dir_.string(), 0, "directory"); }

TEST_F(FastaTest, UnreadableFile) {
  const std::string p = write_file("locked.fa", ">r\nA\n");
  fs::permissions(p, fs::perms::none);
  if (::geteuid() != 0) return expect_input_error(p, 0, "Permission denied");
  // Root reads any file (CI runs as root), so the open is tried as user nobody in a child process,
  // which reports by exit code: 0 ok, 1 opened, 2 wrong message, 3 could not drop root, 4 other.
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
    try {
      FastaReader reader(p);
      ::_exit(1);
    } catch (const InputError& e) {
      const std::string what = e.what();
      const bool ok = e.file() == p && e.line() == 0 && what.find("Permission denied") != std::string::npos;
      ::_exit(ok ? 0 : 2);
    } catch (...) {
      ::_exit(4);
    }
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: opened, 2: wrong message, 3: cannot drop root, 4: other";
}

TEST_F(FastaTest, SequenceBeforeFirstHeader) {
  expect_input_error(write_file("pre.fa", "ACGT\n>r1\nAC\n"), 1, "before the first header");
  expect_input_error(write_file("pre2.fa", "\n  \nACGT\n>r1\nAC\n"), 3, "before the first header");
}

TEST_F(FastaTest, RecordFollowedByHeaderHasNoSequence) {
  expect_input_error(write_file("e.fa", ">r1\nACGT\n>r2 empty\n>r3\nAC\n"), 3,
                     "record 'r2' has no sequence");
}

TEST_F(FastaTest, RecordAtEndOfFileHasNoSequence) {
  expect_input_error(write_file("e.fa", ">r1\nACGT\n\n>r2\n\n  \n"), 4,
                     "record 'r2' has no sequence");
  expect_input_error(write_file("only.fa", ">lonely"), 1, "record 'lonely' has no sequence");
}

TEST_F(FastaTest, HeaderWithoutName) {
  expect_input_error(write_file("n.fa", ">r1\nACGT\n>\nACGT\n"), 3, "no record name");
  expect_input_error(write_file("n2.fa", ">r1\nACGT\n> \t \nAC\n"), 3, "no record name");
}

TEST_F(FastaTest, EmptyRecordIsReportedBeforeANamelessHeaderAfterIt) {
  expect_input_error(write_file("order.fa", ">r1\n>\nAC\n"), 1, "record 'r1' has no sequence");
}

TEST_F(FastaTest, NulByteInSequenceLine) {
  expect_input_error(write_file("nul.fa", std::string(">r1\nACGT\nAC\0GT\n", 15)), 3,
                     "control character 0x00 at column 3");
}

TEST_F(FastaTest, ControlCharacterInSequenceLine) {
  expect_input_error(write_file("bel.fa", ">r1\nAC\n\nA\x07G\n"), 4,
                     "control character 0x07 at column 2");
}

TEST_F(FastaTest, HighByteInSequenceLine) {
  expect_input_error(write_file("hi.fa", ">r1\nACGT\n>r2\nAC\xC3\xA9GT\n"), 4,
                     "non-ASCII byte 0xC3 at column 3");
}

TEST_F(FastaTest, ControlCharacterInHeader) {
  expect_input_error(write_file("hc.fa", ">r1\nAC\n>r2 de\x01sc\nAC\n"), 3,
                     "control character 0x01 at column 7");
}

TEST_F(FastaTest, BinaryFileIsRejectedOnItsFirstLine) {
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  expect_input_error(write_file("image.fa", png), 1, "non-ASCII byte 0x89 at column 1");
}

TEST_F(FastaTest, RandomBinaryNeverCrashes) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int trial = 0; trial < 20; ++trial) {
    std::string bytes(4096, '\0');
    for (char& c : bytes) c = static_cast<char>(byte(rng));
    if (trial % 2 == 1) bytes[0] = '>';  // also exercise the header path
    EXPECT_THROW(read_fasta(write_file("rnd" + std::to_string(trial), bytes)), InputError);
    EXPECT_THROW(read_fasta(write_gz("rnd" + std::to_string(trial) + ".gz", bytes)), InputError);
  }
}

TEST_F(FastaTest, RecordsBeforeAnErrorAreReturnedAndTheErrorIsSticky) {
  const std::string p = write_file("late.fa", ">ok\nACGT\n>bad\n>after\nAC\n");
  FastaReader reader(p);
  auto first = reader.next();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, rec("ok", "", "ACGT", 1));
  std::string message;
  try {
    reader.next();
  } catch (const InputError& e) {
    message = e.what();
  }
  EXPECT_EQ(message, p + ":3: record 'bad' has no sequence (followed by another header)");
  try {
    reader.next();
    ADD_FAILURE() << "error should be sticky";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

// ----------------------------------------------------------------------------- writing

TEST_F(FastaTest, WriterWrapsAtLineWidth) {
  std::ostringstream out;
  FastaWriter writer(out, {.line_width = 4});
  writer.write("s1 a description", "ACGTACGTA");
  writer.write("s2", "ACGTACGT");
  writer.write("s3", "AC");
  EXPECT_EQ(out.str(), ">s1 a description\nACGT\nACGT\nA\n>s2\nACGT\nACGT\n>s3\nAC\n");
}

TEST_F(FastaTest, WriterWidthZeroIsUnwrapped) {
  std::ostringstream out;
  FastaWriter writer(out, {.line_width = 0});
  writer.write(rec("s1", "d e", std::string(150, 'G'), 0));
  EXPECT_EQ(out.str(), ">s1 d e\n" + std::string(150, 'G') + "\n");
}

TEST_F(FastaTest, WriterDefaultsToSixty) {
  EXPECT_EQ(FastaWriterOptions{}.line_width, 60u);
  std::ostringstream out;
  FastaWriter writer(out);
  writer.write("x", std::string(61, 'T'));
  EXPECT_EQ(out.str(), ">x\n" + std::string(60, 'T') + "\nT\n");
}

TEST_F(FastaTest, RoundTripAcrossWidthsAndLengths) {
  std::mt19937 rng(42);
  for (const std::size_t width : {std::size_t{60}, std::size_t{80}, std::size_t{0}}) {
    SCOPED_TRACE("width " + std::to_string(width));
    std::vector<FastaRecord> records;
    std::size_t line = 1;
    for (std::size_t length = 1; length <= 200; ++length) {
      const std::string description = length % 3 == 0 ? "len " + std::to_string(length) : "";
      records.push_back(
          rec("r" + std::to_string(length), description, random_dna(length, rng), line));
      line += 1 + (width == 0 ? 1 : (length + width - 1) / width);
    }
    const std::string p = path("rt" + std::to_string(width) + ".fa");
    write_fasta(p, records, {.line_width = width});
    EXPECT_EQ(read_fasta(p), records);

    // Layout: every sequence line is full except the last of its record, and none is empty.
    std::istringstream text(read_bytes(p));
    std::string current;
    std::vector<std::string> lines;
    while (std::getline(text, current)) lines.push_back(current);
    ASSERT_EQ(lines.size(), line - 1);
    std::size_t at = 0;
    for (const FastaRecord& r : records) {
      ASSERT_EQ(lines[at++].substr(0, 1), ">");
      std::size_t remaining = r.sequence.size();
      while (remaining > 0) {
        const std::size_t expect_len = width == 0 ? remaining : std::min(width, remaining);
        ASSERT_EQ(lines[at++].size(), expect_len) << r.id;
        remaining -= expect_len;
      }
    }
  }
}

TEST_F(FastaTest, EmptySequenceIsRefusedBecauseItCouldNotBeReadBack) {
  std::ostringstream out;
  FastaWriter writer(out);
  EXPECT_THROW(writer.write("r0", ""), std::invalid_argument);
  EXPECT_EQ(out.str(), "");
  const std::string p = path("zero.fa");
  const std::vector<FastaRecord> records = {rec("a", "", "AC", 0), rec("r0", "", "", 0)};
  EXPECT_THROW(write_fasta(p, records), std::invalid_argument);
  EXPECT_FALSE(fs::exists(p));
}

TEST_F(FastaTest, WriterRefusesWhatTheReaderWouldRejectOrAlter) {
  std::ostringstream out;
  FastaWriter writer(out);
  EXPECT_THROW(writer.write("", "AC"), std::invalid_argument);
  EXPECT_THROW(writer.write("  \t", "AC"), std::invalid_argument);
  EXPECT_THROW(writer.write("a\nb", "AC"), std::invalid_argument);
  EXPECT_THROW(writer.write("a\rb", "AC"), std::invalid_argument);
  EXPECT_THROW(writer.write("a", "AC GT"), std::invalid_argument);
  EXPECT_THROW(writer.write("a", "AC\nGT"), std::invalid_argument);
  EXPECT_THROW(writer.write("a", "AC>GT"), std::invalid_argument);
  EXPECT_THROW(writer.write("a", "AC\xC3GT"), std::invalid_argument);
  EXPECT_THROW(writer.write(rec("a b", "", "AC", 0)), std::invalid_argument);
  EXPECT_THROW(writer.write(rec("", "desc", "AC", 0)), std::invalid_argument);
  EXPECT_THROW(writer.write(rec("a", "desc ", "AC", 0)), std::invalid_argument);
  EXPECT_EQ(out.str(), "");
}

TEST_F(FastaTest, WriteFastaNamesThePathWhenItCannotWrite) {
  const std::vector<FastaRecord> records = {rec("a", "", "ACGT", 0)};
  const std::string p = path("no_such_dir/out.fa");
  try {
    write_fasta(p, records);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(p + ": cannot open for writing", 0), 0u) << e.what();
  }
  if (fs::exists("/dev/full")) {
    std::vector<FastaRecord> many(2000, rec("a", "", std::string(100, 'A'), 0));
    try {
      write_fasta("/dev/full", many);
      FAIL() << "expected std::runtime_error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("/dev/full: write failed", 0), 0u) << e.what();
    }
  }
}

// ----------------------------------------------------------------------------- encoding records

TEST_F(FastaTest, EncodeRecordErrorNamesFileLineRecordPositionAndLetter) {
  const std::string p = write_file("enc.fa",
                                   ">good\nACGT\n"
                                   ">bad dirty\n" +
                                       std::string(60, 'A') + "\nACGTN\n");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(encode_record(records[0], dna_alphabet(), {}, p), (Codes{0, 1, 2, 3}));
  try {
    encode_record(records[1], dna_alphabet(), {}, p);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), p);
    EXPECT_EQ(e.line(), 3u);
    EXPECT_EQ(std::string(e.what()),
              p + ":3: record 'bad': letter 'N' at position 65 is not in the dna alphabet (ACGT)");
  }
}

TEST_F(FastaTest, EncodeRecordPolicies) {
  const std::string p = write_file("pol.fa", ">p1\nMKLV\n>p2\nMKXV\n>p3\nmkwy\n");
  const auto records = read_fasta(p);
  ASSERT_EQ(records.size(), 3u);
  const Alphabet& protein = protein_alphabet();

  std::vector<std::string> kept;
  const EncodeOptions skip{.policy = UnknownLetterPolicy::skip_record};
  for (const FastaRecord& r : records) {
    if (auto codes = encode_record(r, protein, skip, p)) kept.push_back(protein.decode(*codes));
  }
  EXPECT_EQ(kept, (std::vector<std::string>{"MKLV", "MKWY"}));

  const EncodeOptions replace{.policy = UnknownLetterPolicy::replace, .replacement = 'G'};
  const auto replaced = encode_record(records[1], protein, replace, p);
  ASSERT_TRUE(replaced.has_value());
  EXPECT_EQ(protein.decode(*replaced), "MKGV");

  EXPECT_THROW(encode_record(records[1], protein, {}, p), InputError);
  EXPECT_THROW(encode_record(records[1], dna_alphabet(), skip, p).value(),
               std::bad_optional_access);
}

}  // namespace
}  // namespace gsflow::engine
