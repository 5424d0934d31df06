// Tests for the BLAST v4 protein database reader on a three-record database whose .pin/.psq/.phr
// bytes are written out by hand here (NCBIstdaa codes and BER headers spelled out, not produced by
// the reader's tables), plus truncated and corrupt variants that must name the file and record.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gsflow/engine/blast_db.hpp"
#include "gsflow/engine/errors.hpp"

namespace gsflow::engine {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

void put_u32_be(Bytes& b, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<std::uint8_t>(v >> s));
}
void put_text(Bytes& b, const std::string& s) {
  put_u32_be(b, static_cast<std::uint32_t>(s.size()));
  b.insert(b.end(), s.begin(), s.end());
}
void append(Bytes& b, const std::string& s) { b.insert(b.end(), s.begin(), s.end()); }

// A Blast-def-line-set holding one def-line whose title is `title`, with a seqid after the title
// as makeblastdb writes it. `length_bytes` is the BER length of the VisibleString.
Bytes defline_set(const std::string& title, const Bytes& length_bytes) {
  Bytes b{0x30, 0x80, 0x30, 0x80, 0xA0, 0x80, 0x1A};
  b.insert(b.end(), length_bytes.begin(), length_bytes.end());
  append(b, title);
  // end of [0]; seqid [1] { local { id 7 } }; end of [1]; end of def-line; end of set
  const Bytes tail{0x00, 0x00, 0xA1, 0x80, 0xA2, 0x80, 0x02, 0x01, 0x07,
                   0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  b.insert(b.end(), tail.begin(), tail.end());
  return b;
}

class BlastDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::random_device random;
    dir_ =
        fs::temp_directory_path() / ("gsflow_blast_" + std::string(info->name()) + "_" +
                                     std::to_string(::getpid()) + "_" + std::to_string(random()));
    fs::create_directories(dir_);
    base_ = (dir_ / "tiny").string();

    long_title_ = "Q00001|";
    for (int k = 0; k < 20; ++k)
      long_title_ += (k ? ",GO:00" : "GO:00") + std::to_string(10000 + k);
    // Record 0: "MKV" (M=12, K=10, V=19), short-form title length.
    psq_ = {0x00, 12, 10, 19, 0x00};
    // Record 1: "ACDWY*U" (A=1, C=3, D=4, W=20, Y=22, *=25, U=24), long-form (0x81) length.
    const Bytes r1{1, 3, 4, 20, 22, 25, 24};
    psq_.insert(psq_.end(), r1.begin(), r1.end());
    psq_.push_back(0x00);
    // Record 2: "GJO-" (G=7, J=27, O=26, -=0), a primitive INTEGER before the title.
    const Bytes r2{7, 27, 26, 0};
    psq_.insert(psq_.end(), r2.begin(), r2.end());
    psq_.push_back(0x00);
    seq_offsets_ = {1, 5, 13, 18};

    phr_ = defline_set("P12345|GO:0006412,GO:0042742", {28});
    hdr_offsets_ = {0, static_cast<std::uint32_t>(phr_.size())};
    const Bytes h1 =
        defline_set(long_title_, {0x81, static_cast<std::uint8_t>(long_title_.size())});
    phr_.insert(phr_.end(), h1.begin(), h1.end());
    hdr_offsets_.push_back(static_cast<std::uint32_t>(phr_.size()));
    const Bytes h2{0x30, 0x80, 0x02, 0x02, 0x1A, 0x1A,  // INTEGER whose bytes look like a tag
                   0x1A, 0x05, 'X',  '9',  '|',  'G',  'O', 0x00, 0x00};
    phr_.insert(phr_.end(), h2.begin(), h2.end());
    hdr_offsets_.push_back(static_cast<std::uint32_t>(phr_.size()));

    pin_ = make_pin(4, 1, 3 + 7 + 4, 7);
    write_all();
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  Bytes make_pin(std::uint32_t version, std::uint32_t type, std::uint64_t total,
                 std::uint32_t max_length) const {
    Bytes b;
    put_u32_be(b, version);
    put_u32_be(b, type);
    put_text(b, "tiny test db");
    put_text(b, std::string("Dec 2, 2026  7:00 PM") + std::string(4, '\0'));  // NUL-padded
    put_u32_be(b, 3);
    for (int k = 0; k < 8; ++k) b.push_back(static_cast<std::uint8_t>(total >> (8 * k)));
    put_u32_be(b, max_length);
    for (const auto o : hdr_offsets_) put_u32_be(b, o);
    for (const auto o : seq_offsets_) put_u32_be(b, o);
    return b;
  }
  void write(const std::string& ext, const Bytes& bytes) const {
    std::ofstream out(base_ + ext, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  void write_all() const {
    write(".pin", pin_);
    write(".psq", psq_);
    write(".phr", phr_);
  }
  // Expects the constructor (or `call` on a good database) to throw InputError naming `file`
  // and containing `needle`.
  void expect_open_error(const std::string& ext, const std::string& needle) const {
    try {
      BlastProteinDb db(base_);
      FAIL() << "no error; expected one naming " << ext;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), base_ + ext) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  }

  fs::path dir_;
  std::string base_;
  std::string long_title_;
  Bytes pin_, psq_, phr_;
  std::vector<std::uint32_t> hdr_offsets_, seq_offsets_;
};

TEST_F(BlastDbTest, ReadsHeaderSequencesAndTitles) {
  const BlastProteinDb db(base_);
  EXPECT_EQ(db.header().version, 4u);
  EXPECT_EQ(db.header().type, 1u);
  EXPECT_EQ(db.header().title, "tiny test db");
  EXPECT_EQ(db.header().date, "Dec 2, 2026  7:00 PM");
  EXPECT_EQ(db.header().total_residues, 14u);
  EXPECT_EQ(db.header().max_length, 7u);
  ASSERT_EQ(db.size(), 3u);
  EXPECT_EQ(db.length(0), 3u);
  EXPECT_EQ(db.length(1), 7u);
  EXPECT_EQ(db.length(2), 4u);
  EXPECT_EQ(db.sequence(0), "MKV");
  EXPECT_EQ(db.sequence(1), "ACDWY*U");
  EXPECT_EQ(db.sequence(2), "GJO-");
  EXPECT_EQ(db.title(0), "P12345|GO:0006412,GO:0042742");
  EXPECT_EQ(db.title(1), long_title_);
  EXPECT_GT(long_title_.size(), 127u);  // 226 bytes: needs the long form
  EXPECT_EQ(db.title(2), "X9|GO");
  EXPECT_THROW(db.sequence(3), std::out_of_range);
  EXPECT_THROW(db.title(3), std::out_of_range);
}

TEST_F(BlastDbTest, BerLongFormTwoByteLength) {
  const std::string title(300, 'Z');
  Bytes b = defline_set(title, {0x82, 0x01, 0x2C});
  const std::string ber(b.begin(), b.end());
  EXPECT_EQ(first_ber_visible_string(ber), title);
}

TEST_F(BlastDbTest, BerErrorsNameTheByte) {
  const Bytes past{0x30, 0x80, 0x1A, 0x09, 'a', 'b'};
  EXPECT_THROW(first_ber_visible_string(std::string(past.begin(), past.end())),
               std::invalid_argument);
  const Bytes none{0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00};
  try {
    first_ber_visible_string(std::string(none.begin(), none.end()));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no VisibleString"), std::string::npos);
  }
  const Bytes huge{0x1A, 0x85, 1, 2, 3, 4, 5};
  EXPECT_THROW(first_ber_visible_string(std::string(huge.begin(), huge.end())),
               std::invalid_argument);
}

TEST_F(BlastDbTest, MissingFileNamesIt) {
  fs::remove(base_ + ".phr");
  expect_open_error(".phr", "cannot open");
}

TEST_F(BlastDbTest, TruncatedSequenceFileNamesRecord) {
  psq_.resize(psq_.size() - 2);
  write_all();
  expect_open_error(".psq", "record 2");
}

TEST_F(BlastDbTest, TruncatedHeaderFileNamesRecord) {
  phr_.resize(phr_.size() - 3);
  write_all();
  expect_open_error(".phr", "record 2");
}

TEST_F(BlastDbTest, TruncatedIndexIsAnError) {
  pin_.resize(pin_.size() - 4);
  write_all();
  expect_open_error(".pin", "truncated");
  pin_.resize(20);  // inside the title
  write_all();
  expect_open_error(".pin", "title");
}

TEST_F(BlastDbTest, WrongVersionTypeOrTotalsAreErrors) {
  pin_ = make_pin(5, 1, 14, 7);
  write_all();
  expect_open_error(".pin", "version 5");
  pin_ = make_pin(4, 0, 14, 7);
  write_all();
  expect_open_error(".pin", "protein");
  pin_ = make_pin(4, 1, 15, 7);
  write_all();
  expect_open_error(".pin", "corrupt");
}

TEST_F(BlastDbTest, DecreasingOffsetsAreErrors) {
  std::swap(seq_offsets_[1], seq_offsets_[2]);
  pin_ = make_pin(4, 1, 14, 7);
  write_all();
  expect_open_error(".psq", "record 1");
}

TEST_F(BlastDbTest, CorruptResidueAndHeaderNameRecordAndOffset) {
  psq_[6] = 99;                      // second residue of record 1
  phr_[hdr_offsets_[2] + 3] = 0x7F;  // record 2's INTEGER now claims 127 bytes
  write_all();
  const BlastProteinDb db(base_);
  EXPECT_EQ(db.sequence(0), "MKV");
  try {
    db.sequence(1);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), base_ + ".psq");
    const std::string what = e.what();
    EXPECT_NE(what.find("record 1"), std::string::npos) << what;
    EXPECT_NE(what.find("offset 6"), std::string::npos) << what;
    EXPECT_NE(what.find("99"), std::string::npos) << what;
  }
  try {
    db.title(2);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), base_ + ".phr");
    const std::string what = e.what();
    EXPECT_NE(what.find("record 2"), std::string::npos) << what;
    EXPECT_NE(what.find("offset " + std::to_string(hdr_offsets_[2])), std::string::npos) << what;
  }
}

TEST_F(BlastDbTest, MissingSeparatorIsAnError) {
  psq_[4] = 5;  // the NUL after record 0 becomes a residue
  write_all();
  const BlastProteinDb db(base_);
  EXPECT_THROW(db.sequence(0), InputError);
  EXPECT_EQ(db.sequence(1), "ACDWY*U");
}

}  // namespace
}  // namespace gsflow::engine
