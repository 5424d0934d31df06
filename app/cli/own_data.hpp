// The user's own labelled data for `gsflow train-classifier --positives/--negatives` and `--table`:
// FASTA and CSV readers that keep the file and line of every record, the alphabet read from the
// letters, checks of the data (classes, sizes, conflicts), and the held-out split (identity
// clusters by cd-hit for proteins, stratified random for DNA). Torch-free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gsflow::app {

// A labelled sequence and where it came from (every error about it names file:line).
struct OwnRecord {
  std::string sequence;  // letters as in the file, uppercased
  double value = 0.0;    // binary: 0 or 1; regression: the measured value
  std::string file;      // path as given
  std::size_t line = 0;  // 1-based line of the FASTA header or the CSV row
  std::string id;        // FASTA id, or "row N" for a CSV row
};

enum class OwnTask { binary, regression };

// A CSV file (RFC 4180: comma-separated, double-quoted fields with "" for a quote, quoted fields may
// hold commas and line breaks; \n or \r\n; a UTF-8 byte-order mark is skipped). The first row is
// the header. Blank lines are skipped.
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> lines;  // 1-based line where each row starts
};
// Throws engine::InputError naming the file and line for an unopenable or empty file, an
// unterminated quote, text after a closing quote, and a row whose field count differs from the
// header's.
CsvTable read_csv(const std::string& path);

// The records of a CSV file: the sequence from column `sequence_column`, the label or value from
// `label_column`. Binary labels: 0/1, true/false, yes/no, pos/neg, positive/negative (any case);
// regression values: any finite number. Rows whose label is empty or NA are skipped (counted in
// `skipped`). Throws engine::InputError naming the file and line for a missing column (line 1,
// listing the columns there are), an empty sequence, a label that is not one of the above (with a
// hint to --task regression for numbers), a value that is not a finite number.
std::vector<OwnRecord> read_table_records(const std::string& path,
                                          const std::string& sequence_column,
                                          const std::string& label_column, OwnTask task,
                                          std::size_t* skipped = nullptr);

// Every record of a FASTA file, labelled `label` (--positives: 1, --negatives: 0). Throws
// engine::InputError as the FASTA reader does.
std::vector<OwnRecord> read_fasta_records(const std::string& path, double label);

// Every record of a FASTA file with its label (binary: `label=0|1` in the header, NA skipped) or
// value (regression: `value=NUMBER`). For --validation and --test in the FASTA form. Throws
// engine::InputError naming the file and line for a record without the field or a bad value.
std::vector<OwnRecord> read_labelled_fasta_records(const std::string& path, OwnTask task);

// "dna" when at least 90 % of the letters are A, C, G, T, U or N (either case), else "protein".
// Throws std::invalid_argument for no records.
std::string detect_alphabet(const std::vector<OwnRecord>& records);

// The same sequence more than once: binary with both labels throws engine::InputError naming both
// places ("the same sequence labelled both ways"); the same label keeps the first; regression keeps
// the first with the mean of the values. Order is kept. `merged` receives how many were folded in.
std::vector<OwnRecord> merge_duplicates(std::vector<OwnRecord> records, OwnTask task,
                                        std::size_t* merged = nullptr);

// Fewest sequences accepted per class (binary) and in all (regression). With 20 per class the
// automatic held-out part (20 % below 1,000 sequences) still holds about 4 of each class, so that
// AUROC and early stopping mean something; fewer is a job for a motif or a PWM, not a CNN.
inline constexpr std::size_t kMinPerClass = 20;
inline constexpr std::size_t kMinRegression = 40;

// Throws engine::InputError naming `what_file` (the file the class came from, or the table) and
// the line of the last record of the short class: one class only, fewer than kMinPerClass per
// class (binary) or kMinRegression in all (regression). `role` names the data ("training data").
void check_counts(const std::vector<OwnRecord>& records, OwnTask task, const std::string& role);

// The share of the data held out when no --validation file is given: 20 % below 1,000 sequences,
// else 10 %.
double held_out_fraction(std::size_t n);

// held_out[i] true for the records held out: binary per class (each class gives `fraction` of its
// records, at least one), regression overall; records ordered by a seeded hash of their sequence,
// so the split depends on the seed and the data, not on the file order.
std::vector<bool> random_split(const std::vector<OwnRecord>& records, OwnTask task, double fraction,
                               std::uint64_t seed);

// The same with whole clusters (cluster[i] = cluster of record i): clusters in seeded-hash order
// are held out while a class (binary) or the total (regression) is below its `fraction`, so that no
// cluster is on both sides.
std::vector<bool> cluster_split(const std::vector<OwnRecord>& records,
                                const std::vector<std::size_t>& cluster, OwnTask task,
                                double fraction, std::uint64_t seed);

// Throws std::invalid_argument naming --name unless `name` can name a user model (a file name and
// a --model / --guide name): letters, digits, '-', '_' and '.', at most 64, not starting with '.'
// or '-'.
void check_user_model_name(const std::string& name);

// Clusters of the sequences at `identity` (0.4..1) by cd-hit (Debian's cd-hit, as scripts/fetch-data
// uses it), run in a temporary folder that is removed afterwards. Sequences cd-hit leaves out (too
// short) are their own clusters. `command` receives the command line run. Throws
// std::runtime_error when cd-hit is not installed or fails (with its log's last line).
std::vector<std::size_t> cd_hit_clusters(const std::vector<std::string>& sequences,
                                         double identity, int threads, std::string* command);

}  // namespace gsflow::app
