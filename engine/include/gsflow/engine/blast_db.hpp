// Reader of BLAST version-4 protein databases (makeblastdb's .pin index, .psq residues, .phr
// ASN.1 BER headers): record count, sequences as letters and each record's title.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gsflow/engine/errors.hpp"

namespace gsflow::engine {

// The fields of the .pin index before the offset tables. Integers are big-endian in the file,
// except total_residues, which is little-endian (NCBI's layout).
struct BlastDbHeader {
  std::uint32_t version = 0;         // format version; only 4 is read
  std::uint32_t type = 0;            // 1 = protein (0 = nucleotide, refused)
  std::string title;                 // database title as given to makeblastdb
  std::string date;                  // creation date, trailing NUL padding removed
  std::uint32_t num_sequences = 0;   // N, the number of records
  std::uint64_t total_residues = 0;  // sum of the N sequence lengths
  std::uint32_t max_length = 0;      // longest sequence
};

// NCBIstdaa code -> letter, index 0..27: "-ABCDEFGHIKLMNPQRSTVWXYZU*OJ".
inline constexpr char kNcbiStdaaLetters[] = "-ABCDEFGHIKLMNPQRSTVWXYZU*OJ";

// A whole BLAST v4 protein database held in memory (the three files are read once by the
// constructor; the goasp.fasta database of metastudent-data takes ~240 MB). Record i's residues are
// .psq bytes [seq[i], seq[i+1]-1) (one NUL separator follows each sequence) and its header is the
// .phr bytes [hdr[i], hdr[i+1]), a Blast-def-line-set in ASN.1 BER.
//
// Every problem throws InputError whose file() is the offending file (BASE.pin, .psq or .phr) and
// whose message names the record index (0-based) and byte offset where known: a missing file, a
// .pin of the wrong size or version or a nucleotide database, offsets that decrease or run past the
// end of their file (a truncated .psq or .phr), a residue total or maximum length that disagrees
// with the offsets, a residue code outside NCBIstdaa or a missing separator, and a header whose BER
// is malformed or holds no VisibleString. Immutable after construction: concurrent reads are safe.
class BlastProteinDb {
 public:
  // Reads BASE.pin, BASE.psq and BASE.phr, e.g. base = ".../BPO/goasp.fasta", and checks the
  // offset tables against the file sizes and the header's totals.
  explicit BlastProteinDb(std::string base);

  const std::string& base() const noexcept { return base_; }
  const BlastDbHeader& header() const noexcept { return header_; }
  // N, the number of records.
  std::size_t size() const noexcept { return header_.num_sequences; }

  // Number of residues of record i (cheap: no decoding). Throws std::out_of_range unless i <
  // size().
  std::size_t length(std::size_t i) const;
  // The residues of record i as NCBIstdaa letters (uppercase; '-', '*', 'U', 'O', 'J', 'X', 'B',
  // 'Z' kept as they are). Throws InputError naming the record and offset of a code > 27 or of a
  // missing separator, std::out_of_range unless i < size().
  std::string sequence(std::size_t i) const;
  // The title of record i: the first VisibleString (BER tag 0x1A, short or long-form length) of its
  // header in document order, i.e. the title of its first Blast-def-line. Throws InputError for
  // malformed BER or a header without a VisibleString, std::out_of_range unless i < size().
  std::string title(std::size_t i) const;

 private:
  std::string base_;
  BlastDbHeader header_;
  std::vector<std::uint32_t> header_offsets_;    // N+1 offsets into phr_
  std::vector<std::uint32_t> sequence_offsets_;  // N+1 offsets into psq_
  std::string psq_;
  std::string phr_;
};

// The first VisibleString (tag 0x1A) in a BER byte string, walking into constructed values
// (definite or indefinite length) in document order and skipping primitive ones. Throws
// std::invalid_argument whose message starts with "byte K:" (K 0-based within `ber`) for a tag or
// length that runs past the end, a length form of more than 4 bytes, or no VisibleString at all.
std::string first_ber_visible_string(std::string_view ber);

}  // namespace gsflow::engine
