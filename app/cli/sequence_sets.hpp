// Sequence sets read from FASTA for training and evaluation, and the data folder they live in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/dna_motif.hpp"
#include "gsflow/models/training.hpp"

namespace gsflow::app {

using Sequences = std::vector<std::vector<std::uint8_t>>;

// The data folder written by scripts/fetch-data: `explicit_dir` when not empty, else $GSFLOW_DATA,
// else data/ in the source tree this binary was built from.
std::string data_dir(const std::string& explicit_dir = "");

// `name` itself when it is an absolute path or an existing file, else DATA_DIR/name.
std::string data_file(const std::string& name, const std::string& explicit_dir = "");

// Every record of a FASTA file encoded with `alphabet`. Throws engine::InputError naming the file,
// line and record for letters outside the alphabet and for lengths outside min..max.
Sequences read_sequences(const std::string& path, const engine::Alphabet& alphabet,
                         std::size_t min_length, std::size_t max_length);

// A labelled set for classifiers: sequences with a 0/1 label read from the header field KEY=VALUE
// (e.g. label=1 for DNA windows, amp=1 for peptides).
struct LabelledSet {
  Sequences sequences;
  std::vector<std::uint8_t> labels;  // 0 or 1, one per sequence
  std::size_t skipped = 0;           // records whose field was NA (unlabelled) and were left out
};

// Every record of a FASTA file whose description holds `key`=0 or `key`=1; `key`=NA records are
// skipped (counted). Throws engine::InputError naming the file, line and record for a missing
// field, another value, letters outside the alphabet and lengths outside min..max.
LabelledSet read_labelled(const std::string& path, const engine::Alphabet& alphabet,
                          const std::string& key, std::size_t min_length, std::size_t max_length);
// The sequences labelled 1 (the class's real members).
Sequences positives_of(const LabelledSet& set);

// The value of KEY=VALUE among the blank-separated fields of a FASTA description, or "" when the
// description has no such field (e.g. header_field("amp=1 cluster=7", "cluster") is "7").
std::string header_field(const std::string& description, const std::string& key);

// One data.oversample rule of a training config: the DNA sequences it matches are used `copies`
// times in all. A motif rule matches where `motif` (IUPAC) starts between positions `from` and `to`
// (1-based from the 5' end, or negative from the 3' end, -1 = the last letter; both ends
// included); with `forward_only`, a sequence that also reads the motif on the reverse strand
// beginning there (its reverse complement's last letter in from..to: a palindromic box such as
// TATATATA) is not repeated. A rule without a motif matches a sequence holding a perfect tandem
// repeat of period 1-6 at least `tandem_repeat` bases long (evaluation::tandem_repeat_mask, the
// definition `gsflow eval` counts with).
struct OversampleRule {
  std::optional<engine::DnaMotif> motif;
  long from = 0;
  long to = 0;
  std::size_t copies = 1;
  bool forward_only = false;
  std::size_t tandem_repeat = 0;  // rules without a motif: the shortest repeat region, bp (>= 7)
};

// What a rule matches, for the training log: "TATAWAWR starting in -45..-15 (and not read on the
// reverse strand there)" or "a perfect tandem repeat (period 1-6) of at least 16 bp".
std::string describe(const OversampleRule& rule);

// `sequences` with every sequence that matches a rule repeated right after itself, `copies` times
// in all (the largest copies among the rules it matches); the others once, order kept. DNA letters
// (ACGT order). matched[i] (when given) receives how many sequences rule i matched.
Sequences oversample(const Sequences& sequences, const std::vector<OversampleRule>& rules,
                     std::vector<std::size_t>* matched = nullptr);

// Sequences as a training Dataset of row length `length` (shorter ones padded, with lengths).
models::Dataset to_dataset(const Sequences& sequences, std::size_t length);

// The alphabet named "dna" or "protein"; throws std::invalid_argument naming `field` otherwise.
const engine::Alphabet& alphabet_named(const std::string& name, const std::string& field);

}  // namespace gsflow::app
