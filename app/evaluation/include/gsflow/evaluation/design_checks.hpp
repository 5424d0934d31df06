// What `gsflow eval-design` measures on designed sets without using the design code it checks:
// fixed letters read back by position, forbidden sites found by plain string search on both
// strands, letter runs and omitted letters counted; k-mer JS restricted to the designed positions
// of a sequence (k-mers that touch a fixed letter left out); and the letters around a motif.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gsflow/engine/sequence.hpp"

namespace gsflow::evaluation {

// The 0-based index of a 1-based position as `--fix POS=...` gives it (> 0 from the 5' end, < 0
// from the 3' end, -1 = the last letter) in a sequence of `length` letters, or nullopt when the
// position is 0 or outside the sequence.
std::optional<std::size_t> resolve_position(long position, std::size_t length);

// The reverse complement of DNA text in A C G T (upper case). Throws std::invalid_argument naming
// the character for anything else.
std::string reverse_complement(std::string_view dna);

// What a designed set must satisfy, written out independently of the design options' parser.
// The {} initializers keep -Wmissing-field-initializers quiet for designated initializers.
struct DesignCheck {
  struct Fixed {
    long position = 1;    // as --fix: 1-based, negative = from the 3' end (first letter's position)
    std::string letters;  // upper case
  };
  std::vector<Fixed> fixed{};
  std::vector<std::string> sites{};  // DNA sites in A C G T that must not occur on either strand
  std::size_t max_run = 0;           // longest run of one letter allowed; 0 = any
  std::string omit{};                // letters that must not occur (upper case)
  bool any() const { return !fixed.empty() || !sites.empty() || max_run > 0 || !omit.empty(); }
};

// What `sequence` (upper-case letters) breaks, one line each, 1-based positions: "fixed -30:
// TATAAAAG reads TATAATAG", "fixed -30: outside a sequence of 20", "site GAATTC at 37", "site
// GGTCTC on the reverse strand (GAGACC) at 120", "run of 8 A at 12 (max 6)", "omitted C at 5".
// Empty when everything holds.
std::vector<std::string> check_design(std::string_view sequence, const DesignCheck& check);

// A range of positions written as --fix writes them (1-based, negative = from the 3' end), both
// ends included, resolved against each sequence's own length.
struct PositionRange {
  long first = 1;
  long last = 1;
};

// Which k-mers of a sequence are counted: those lying wholly inside `within` (the whole sequence
// when unset) that share no position with any `excluded` range. Parts of ranges outside a
// sequence are ignored.
struct KmerRegion {
  std::optional<PositionRange> within;
  std::vector<PositionRange> excluded;
};

// k-mer counts (dense, K^k bins, the first letter the most significant digit as in
// engine::kmer_counts) of the k-mers of `seqs` in `region`. Throws std::invalid_argument for a
// letter >= K, k == 0, K < 2 or K^k > 2^24.
std::vector<double> region_kmer_counts(const engine::SequenceSet& seqs, std::size_t K,
                                       std::size_t k, const KmerRegion& region);

struct RegionJs {
  double js = 0.0;            // Jensen-Shannon divergence, bits
  double bootstrap_sd = 0.0;  // SD of js over bootstrap resamples of the generated set (0 if none)
  std::size_t kmers = 0;      // k-mers counted in the generated set
};

// JS (bits) between the k-mers of `generated` in `region` and those of `reference` in
// `reference_region`; with `bootstrap` > 0 also the SD of the JS over that many resamples of the
// generated sequences with replacement (std::mt19937_64 seeded with `seed`; the reference is kept
// fixed), a measure of the sampling noise of a set of this size. Throws std::invalid_argument as
// region_kmer_counts, and when either side has no k-mer in its region.
RegionJs region_kmer_js(const engine::SequenceSet& generated, const KmerRegion& region,
                        const engine::SequenceSet& reference, const KmerRegion& reference_region,
                        std::size_t K, std::size_t k, std::size_t bootstrap = 0,
                        std::uint64_t seed = 0);

// The letters around motif occurrences: where a design put a fixed motif, or where real
// sequences carry one, for comparing the context the generator made with the real context.
struct Site {
  std::size_t sequence = 0;  // index into the set
  std::size_t start = 0;     // 0-based first letter of the motif
};

// Letter counts around `sites`: [2 * flank, K], row r < flank = letter at start - flank + r, row
// flank + r = letter at start + motif_length + r. Positions outside a sequence are not counted.
// Throws std::invalid_argument for a site outside its set or sequence, or a letter >= K.
std::vector<double> flank_counts(const engine::SequenceSet& seqs, std::size_t K,
                                 const std::vector<Site>& sites, std::size_t motif_length,
                                 std::size_t flank);

// The mean over rows of the JS (bits) between the letter distributions of two flank_counts
// tables; rows empty on either side are skipped. Throws std::invalid_argument for tables of
// different sizes, a size that is not a multiple of K, or no row counted on both sides.
double flank_js(const std::vector<double>& a, const std::vector<double>& b, std::size_t K);

}  // namespace gsflow::evaluation
