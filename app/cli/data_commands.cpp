// `gsflow data dna|peptides|split-peptides|drop-leaks|protein-windows|manifest`: the real-data pipeline of docs/data.md. Every
// choice that selects or drops sequences is deterministic (input order, or a seeded hash) and is
// counted in the folder's summary.json, which `data manifest` gathers into manifest.json.
#include "data_commands.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/blast_db.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/engine/hash.hpp"
#include "data_files.hpp"
#include "validators.hpp"

namespace gsflow::app {

namespace {

namespace fs = std::filesystem;
using engine::FastaRecord;
using engine::InputError;
using nlohmann::ordered_json;
using data_files::parse_fields;
using data_files::seeded_hash;
using data_files::read_json;
using data_files::write_json;

// The three splits in the order of their priority when identical sequences meet (see dedup).
enum Split : int { kTrain = 0, kValidation = 1, kTest = 2 };
constexpr std::array<const char*, 3> kSplitNames{"train", "validation", "test"};

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Keeps one copy of each distinct key. Among copies the one in the highest-priority split wins
// (test > validation > train), the first in input order among equals: a sequence shared between
// the reserved test split and another split stays in test only, so nothing of it leaks.
struct Dedup {
  std::unordered_map<std::string, std::size_t> keeper;  // key -> index of the kept item
  std::unordered_map<std::string, int> split_mask;      // key -> bit set of the splits it occurs in

  void add(const std::string& key, std::size_t index, int split,
           const std::function<int(std::size_t)>& split_of) {
    split_mask[key] |= 1 << split;
    auto [it, inserted] = keeper.emplace(key, index);
    if (!inserted && split > split_of(it->second)) it->second = index;
  }
  std::size_t across_splits() const {
    std::size_t n = 0;
    for (const auto& [key, mask] : split_mask) n += (mask & (mask - 1)) != 0;
    return n;
  }
};

// ---------------------------------------------------------------------------------------------
// DNA: dm3 upstream2000 records -> windows at the transcription start, split by chromosome arm.

struct DnaOptions {
  std::string input;                     // dm3_upstream2000.fa(.gz)
  std::string out;                       // output folder, e.g. data/dna256
  std::size_t window = 256;              // W, bases kept at the 3' (start-site) end
  std::string test_arm = "chr2L";        // reserved test arm (data.md)
  std::string validation_arm = "chr3L";  // arm used for model selection
  std::string fingerprint;               // recorded in summary.json (scripts/fetch-data)
};

struct DnaRecord {
  std::string accession;  // RefSeq accession, e.g. NM_078863
  std::string chrom;      // e.g. chr2L
  long long tss = 0;  // 1-based dm3 coordinate of the start site (base after the window's 3' end)
  char strand = 'f';  // f or r, as in the header
  std::string sequence;  // uppercase, whole 2 kb
  int split = kTrain;
};

// Header "NM_078863_up_2000_chr2L_16764737_f chr2L:16764737-16766736": the region is 1-based
// inclusive on the + strand; the start site is end+1 on f and start-1 on r (the sequence is given
// on the gene's strand, so its last base is always next to the start site).
DnaRecord parse_dna_header(const FastaRecord& rec, const std::string& file) {
  auto fail = [&](const std::string& why) -> void {
    throw InputError(file, rec.line,
                     "record " + rec.id + ": " + why +
                         " (expected a header like 'NM_078863_up_2000_chr2L_16764737_f "
                         "chr2L:16764737-16766736')");
  };
  DnaRecord out;
  const auto up = rec.id.find("_up_");
  if (up == std::string::npos || up == 0) fail("no '_up_' in the id");
  out.accession = rec.id.substr(0, up);
  const char strand = rec.id.back();
  if ((strand != 'f' && strand != 'r') || rec.id[rec.id.size() - 2] != '_') {
    fail("the id does not end in _f or _r");
  }
  out.strand = strand;
  const auto colon = rec.description.find(':');
  // The start can be negative (a region running off the arm's start: chr3R:-1646-353).
  const auto dash = rec.description.find('-', colon == std::string::npos ? 0 : colon + 2);
  if (colon == std::string::npos || colon == 0 || dash == std::string::npos) {
    fail("description is not CHROM:START-END");
  }
  out.chrom = rec.description.substr(0, colon);
  long long start = 0, end = 0;
  const char* d = rec.description.data();
  const auto r1 = std::from_chars(d + colon + 1, d + dash, start);
  const auto r2 = std::from_chars(d + dash + 1, d + rec.description.size(), end);
  if (r1.ec != std::errc{} || r1.ptr != d + dash || r2.ec != std::errc{} || end < start) {
    fail("bad coordinates in the description");
  }
  out.tss = strand == 'f' ? end + 1 : start - 1;
  return out;
}

void write_split_files(const fs::path& dir, const std::array<std::vector<FastaRecord>, 3>& parts) {
  fs::create_directories(dir);
  for (int s = 0; s < 3; ++s) {
    engine::write_fasta((dir / (std::string(kSplitNames[s]) + ".fasta")).string(), parts[s]);
  }
}

void run_dna(const DnaOptions& opt) {
  if (opt.window == 0) throw CLI::ValidationError("--window", "must be at least 1");
  const std::size_t w = opt.window;
  std::vector<DnaRecord> records;
  std::size_t too_short = 0;
  std::map<std::string, std::size_t> records_per_chrom;
  {
    engine::FastaReader reader(opt.input);
    while (auto rec = reader.next()) {
      DnaRecord r = parse_dna_header(*rec, opt.input);
      r.sequence = upper(std::move(rec->sequence));
      for (const char c : r.sequence) {
        if (c != 'A' && c != 'C' && c != 'G' && c != 'T' && c != 'N') {
          throw InputError(
              opt.input, rec->line,
              "record " + rec->id + ": letter '" + std::string(1, c) + "' is not one of ACGTN");
        }
      }
      ++records_per_chrom[r.chrom];
      if (r.sequence.size() < w) {
        ++too_short;
        continue;
      }
      r.split = r.chrom == opt.test_arm         ? kTest
                : r.chrom == opt.validation_arm ? kValidation
                                                : kTrain;
      records.push_back(std::move(r));
    }
  }
  auto desc = [](const DnaRecord& r) {
    return "chr=" + r.chrom + " tss=" + std::to_string(r.tss) +
           " strand=" + std::string(1, r.strand);
  };
  auto split_of_record = [&](std::size_t i) { return records[i].split; };

  // Windows at the start site: drop those with N, keep one copy of each distinct window.
  std::size_t with_n = 0;
  Dedup dedup;
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::string win = records[i].sequence.substr(records[i].sequence.size() - w);
    if (win.find('N') != std::string::npos) {
      ++with_n;
      continue;
    }
    candidates.push_back(i);
    dedup.add(win, i, records[i].split, split_of_record);
  }
  std::array<std::vector<FastaRecord>, 3> parts;
  std::map<std::string, std::size_t> kept_per_chrom;
  for (const std::size_t i : candidates) {
    const DnaRecord& r = records[i];
    const std::string win = r.sequence.substr(r.sequence.size() - w);
    if (dedup.keeper.at(win) != i) continue;
    parts[r.split].push_back(FastaRecord{r.accession, desc(r), win, 0});
    ++kept_per_chrom[r.chrom];
  }
  const std::size_t duplicates = candidates.size() - dedup.keeper.size();
  write_split_files(opt.out, parts);

  // Promoter labels: proximal window (last W, label 1) vs distal window (first W, label 0) of the
  // same record, with the same N policy and dedup; a sequence seen with both labels is dropped.
  struct LabelItem {
    std::size_t record;
    int label;
    std::string seq;
  };
  std::vector<LabelItem> items;
  std::size_t label_with_n = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::string& s = records[i].sequence;
    for (const int label : {1, 0}) {
      std::string win = label == 1 ? s.substr(s.size() - w) : s.substr(0, w);
      if (win.find('N') != std::string::npos) {
        ++label_with_n;
        continue;
      }
      items.push_back({i, label, std::move(win)});
    }
  }
  Dedup label_dedup;
  std::unordered_map<std::string, int> label_mask;
  for (std::size_t k = 0; k < items.size(); ++k) {
    label_dedup.add(items[k].seq, k, records[items[k].record].split,
                    [&](std::size_t j) { return records[items[j].record].split; });
    label_mask[items[k].seq] |= 1 << items[k].label;
  }
  std::array<std::vector<FastaRecord>, 3> label_parts;
  std::array<std::array<std::size_t, 2>, 3> label_counts{};
  std::size_t conflicting = 0;
  for (const auto& [seq, mask] : label_mask) conflicting += mask == 3;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const LabelItem& it = items[k];
    if (label_dedup.keeper.at(it.seq) != k || label_mask.at(it.seq) == 3) continue;
    const DnaRecord& r = records[it.record];
    const char* where = it.label == 1 ? "proximal" : "distal";
    label_parts[r.split].push_back(FastaRecord{
        r.accession + "_" + where,
        "label=" + std::to_string(it.label) + " window=" + where + " " + desc(r), it.seq, 0});
    ++label_counts[r.split][it.label];
  }
  write_split_files(fs::path(opt.out) / "labels", label_parts);

  ordered_json summary;
  summary["component"] = fs::path(opt.out).filename().string();
  summary["fingerprint"] = opt.fingerprint;
  summary["input"] = opt.input;
  summary["options"] = {
      {"window", w}, {"test_arm", opt.test_arm}, {"validation_arm", opt.validation_arm}};
  summary["policies"] = {
      {"window",
       "the last W bases of each 2 kb upstream record (the base next to the transcription start "
       "site is last), uppercased"},
      {"N", "a window containing N is dropped"},
      {"dedup",
       "identical windows are kept once: the copy in the highest-priority split (test > validation "
       "> train), the first in file order among equals, so no test window appears in "
       "validation/train"},
      {"splits", "test = arm " + opt.test_arm + " (reserved), validation = arm " +
                     opt.validation_arm + ", train = every other chromosome/scaffold"},
      {"labels",
       "labels/*.fasta: per record the proximal window (last W bp, label=1) and the distal window "
       "(first W bp, label=0), same split, N policy and dedup; a sequence occurring with both "
       "labels "
       "is dropped"},
      {"header",
       "id = RefSeq accession; description chr=CHROM tss=START_SITE strand=f|r with "
       "START_SITE the 1-based dm3 coordinate of the transcription start"}};
  ordered_json per_chrom_in = ordered_json::object(), per_chrom_kept = ordered_json::object();
  for (const auto& [c, n] : records_per_chrom) per_chrom_in[c] = n;
  for (const auto& [c, n] : kept_per_chrom) per_chrom_kept[c] = n;
  summary["counts"] = {{"records", records.size() + too_short},
                       {"dropped_shorter_than_window", too_short},
                       {"dropped_with_n", with_n},
                       {"duplicates_removed", duplicates},
                       {"windows_shared_across_splits", dedup.across_splits()},
                       {"unique_windows", dedup.keeper.size()},
                       {"train", parts[kTrain].size()},
                       {"validation", parts[kValidation].size()},
                       {"test", parts[kTest].size()},
                       {"records_per_chromosome", per_chrom_in},
                       {"unique_windows_per_chromosome", per_chrom_kept}};
  ordered_json lab;
  for (int s = 0; s < 3; ++s) {
    lab[kSplitNames[s]] = {{"label_1", label_counts[s][1]}, {"label_0", label_counts[s][0]}};
  }
  summary["labels"] = {{"dropped_with_n", label_with_n},
                       {"duplicates_removed", items.size() - label_dedup.keeper.size()},
                       {"sequences_with_both_labels_dropped", conflicting},
                       {"splits", lab}};
  write_json(fs::path(opt.out) / "summary.json", summary);
  spdlog::info(
      "data dna: W={} records={} with N={} duplicates={} -> train {} validation {} test {}", w,
      records.size() + too_short, with_n, duplicates, parts[kTrain].size(),
      parts[kValidation].size(), parts[kTest].size());
}

// ---------------------------------------------------------------------------------------------
// Peptides: metastudent BLAST db -> 10-100 aa standard-letter unique sequences with GO labels.

struct PeptideOptions {
  std::string blast_db;  // base path of goasp.fasta.{pin,psq,phr}
  std::string go_graph;  // goGraph.txt
  std::string extra;     // mmseqs2 DB.fasta.gz (optional)
  std::string out;       // data/peptide
  std::size_t min_length = 10;
  std::size_t max_length = 100;
  std::size_t ribosomal_cap = 3000;  // at most this many GO:0006412 sequences are kept
  std::uint64_t seed = 1;
};

constexpr const char* kTranslation = "GO:0006412";
constexpr const char* kDefenseResponse = "GO:0006952";
constexpr std::array<const char*, 3> kAmpTerms{"GO:0042742", "GO:0050832", "GO:0031640"};

// The GO graph restricted to is_a and part_of, with memoised ancestor closures (term included).
class GoGraph {
 public:
  explicit GoGraph(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path, 0, "cannot open file");
    std::string line;
    std::size_t lineno = 0;
    while (std::getline(in, line)) {
      ++lineno;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      std::array<std::string, 4> f;
      std::size_t pos = 0;
      for (int k = 0; k < 4; ++k) {
        const auto tab = line.find('\t', pos);
        if (k < 3 && tab == std::string::npos) {
          throw InputError(path, lineno, "expected PARENT<TAB>CHILD<TAB>1<TAB>RELATION");
        }
        f[k] = line.substr(pos, k < 3 ? tab - pos : std::string::npos);
        pos = tab + 1;
      }
      ++edges_read_;
      if (f[3] != "is_a" && f[3] != "part_of") continue;
      const int parent = intern(f[0]);
      const int child = intern(f[1]);
      parents_[child].push_back(parent);
      ++edges_used_;
    }
  }

  int intern(const std::string& term) {
    auto [it, inserted] = ids_.emplace(term, static_cast<int>(names_.size()));
    if (inserted) {
      names_.push_back(term);
      parents_.emplace_back();
      closure_.emplace_back();
      done_.push_back(0);
    }
    return it->second;
  }
  bool known(const std::string& term) const { return ids_.count(term) != 0; }

  // Sorted ancestor set of `term` (itself included).
  const std::vector<int>& closure(int term) {
    if (done_[term] == 2) return closure_[term];
    if (done_[term] == 1) throw std::runtime_error("GO graph has a cycle at " + names_[term]);
    done_[term] = 1;
    std::vector<int> acc{term};
    for (std::size_t k = 0; k < parents_[term].size(); ++k) {
      const auto& up = closure(parents_[term][k]);
      acc.insert(acc.end(), up.begin(), up.end());
    }
    std::sort(acc.begin(), acc.end());
    acc.erase(std::unique(acc.begin(), acc.end()), acc.end());
    closure_[term] = std::move(acc);
    done_[term] = 2;
    return closure_[term];
  }
  std::size_t edges_read() const { return edges_read_; }
  std::size_t edges_used() const { return edges_used_; }

 private:
  std::unordered_map<std::string, int> ids_;
  std::vector<std::string> names_;
  std::vector<std::vector<int>> parents_;
  std::vector<std::vector<int>> closure_;
  std::vector<char> done_;  // 0 not started, 1 in progress, 2 done
  std::size_t edges_read_ = 0, edges_used_ = 0;
};

std::string amp_name(int amp) { return amp < 0 ? "NA" : std::to_string(amp); }

using data_files::standard_only;

void run_peptides(const PeptideOptions& opt) {
  GoGraph go(opt.go_graph);
  engine::BlastProteinDb db(opt.blast_db);
  spdlog::info("data peptides: {} records in {}", db.size(), opt.blast_db);

  struct Entry {
    std::string accession;  // of the first record with this sequence
    std::string seq;
    std::set<std::string> terms;  // union over the records with this sequence
    std::size_t records = 0;
    int amp = 0;  // 1, 0, or -1 = unlabelled
    bool ribosomal = false;
  };
  std::vector<Entry> entries;
  std::unordered_map<std::string, std::size_t> by_seq;
  std::size_t in_length = 0, standard = 0;
  for (std::size_t i = 0; i < db.size(); ++i) {
    const std::size_t len = db.length(i);
    if (len < opt.min_length || len > opt.max_length) continue;
    ++in_length;
    std::string seq = db.sequence(i);
    if (!standard_only(seq)) continue;
    ++standard;
    const std::string title = db.title(i);
    const auto bar = title.find('|');
    if (bar == 0 || title.empty()) {
      throw InputError(
          opt.blast_db + ".phr", 0,
          "record " + std::to_string(i) + ": title '" + title + "' is not ACCESSION|GO:...,GO:...");
    }
    auto [it, inserted] = by_seq.emplace(seq, entries.size());
    if (inserted) entries.push_back(Entry{title.substr(0, bar), std::move(seq), {}, 0, 0, false});
    Entry& e = entries[it->second];
    ++e.records;
    if (bar != std::string::npos) {
      std::size_t pos = bar + 1;
      while (pos <= title.size()) {
        auto comma = title.find(',', pos);
        if (comma == std::string::npos) comma = title.size();
        if (comma > pos) e.terms.insert(title.substr(pos, comma - pos));
        pos = comma + 1;
      }
    }
  }

  // Labels from the GO closure.
  std::vector<int> amp_ids;
  for (const char* t : kAmpTerms) amp_ids.push_back(go.intern(t));
  const int defense = go.intern(kDefenseResponse);
  const int translation = go.intern(kTranslation);
  std::set<std::string> unknown_terms;
  std::array<std::size_t, 3> before_cap{};  // negatives, positives, unlabelled
  std::size_t ribosomal = 0;
  for (Entry& e : entries) {
    std::vector<int> closure;
    for (const auto& t : e.terms) {
      if (!go.known(t)) unknown_terms.insert(t);
      const auto& c = go.closure(go.intern(t));
      closure.insert(closure.end(), c.begin(), c.end());
    }
    std::sort(closure.begin(), closure.end());
    auto has = [&](int id) { return std::binary_search(closure.begin(), closure.end(), id); };
    e.amp = std::any_of(amp_ids.begin(), amp_ids.end(), has) ? 1 : has(defense) ? -1 : 0;
    e.ribosomal = has(translation);
    ribosomal += e.ribosomal;
    ++before_cap[e.amp < 0 ? 2 : e.amp];
  }

  // Ribosomal cap: keep the `ribosomal_cap` translation sequences of smallest seeded hash.
  std::vector<std::size_t> ribo;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (entries[k].ribosomal) ribo.push_back(k);
  }
  std::vector<char> removed(entries.size(), 0);
  std::array<std::size_t, 3> removed_by_label{};
  if (ribo.size() > opt.ribosomal_cap) {
    std::vector<std::pair<std::uint64_t, std::size_t>> keyed;
    for (const std::size_t k : ribo) keyed.emplace_back(seeded_hash(opt.seed, entries[k].seq), k);
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t j = opt.ribosomal_cap; j < keyed.size(); ++j) {
      removed[keyed[j].second] = 1;
      const int a = entries[keyed[j].second].amp;
      ++removed_by_label[a < 0 ? 2 : a];
    }
  }

  const fs::path out(opt.out);
  fs::create_directories(out / "work");
  std::vector<FastaRecord> candidates;
  std::set<std::string> used_ids;
  std::size_t renamed = 0;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (removed[k]) continue;
    const Entry& e = entries[k];
    std::string id = e.accession;
    for (int n = 2; !used_ids.insert(id).second; ++n) id = e.accession + "." + std::to_string(n);
    renamed += id != e.accession;
    candidates.push_back(FastaRecord{id,
                                     "amp=" + amp_name(e.amp) +
                                         " ribosomal=" + std::to_string(e.ribosomal ? 1 : 0) +
                                         " len=" + std::to_string(e.seq.size()),
                                     e.seq, 0});
  }
  engine::write_fasta((out / "work" / "candidates.fasta").string(), candidates);

  // Extra reserved test set: short standard-letter proteins of mmseqs2-examples absent from
  // metastudent (exact sequence, compared before the ribosomal cap).
  ordered_json extra_counts;
  if (!opt.extra.empty()) {
    engine::FastaReader reader(opt.extra);
    std::vector<FastaRecord> extra;
    std::unordered_map<std::string, int> seen;
    std::size_t records = 0, in_len = 0, std_letters = 0, in_metastudent = 0, dup = 0;
    while (auto rec = reader.next()) {
      ++records;
      std::string seq = upper(rec->sequence);
      if (seq.size() < opt.min_length || seq.size() > opt.max_length) continue;
      ++in_len;
      if (!standard_only(seq)) continue;
      ++std_letters;
      if (by_seq.count(seq)) {
        ++in_metastudent;
        continue;
      }
      if (!seen.emplace(seq, 1).second) {
        ++dup;
        continue;
      }
      // "tr|W0FSK4|W0FSK4_9FLAV" -> W0FSK4
      std::string id = rec->id;
      const auto b1 = id.find('|');
      const auto b2 = b1 == std::string::npos ? b1 : id.find('|', b1 + 1);
      if (b2 != std::string::npos && b2 > b1 + 1) id = id.substr(b1 + 1, b2 - b1 - 1);
      extra.push_back(
          FastaRecord{id, "amp=NA len=" + std::to_string(seq.size()) + " source=mmseqs2-examples",
                      std::move(seq), 0});
    }
    engine::write_fasta((out / "test-extra.fasta").string(), extra);
    extra_counts = {{"input", opt.extra},
                    {"records", records},
                    {"in_length_range", in_len},
                    {"standard_letters_only", std_letters},
                    {"exact_match_in_metastudent", in_metastudent},
                    {"duplicates_removed", dup},
                    {"written", extra.size()}};
  }

  ordered_json j;
  j["blast_db"] = {{"base", opt.blast_db},
                   {"records", db.size()},
                   {"title", db.header().title},
                   {"date", db.header().date}};
  j["go_graph"] = {{"path", opt.go_graph},
                   {"edges", go.edges_read()},
                   {"edges_used_is_a_part_of", go.edges_used()}};
  j["options"] = {{"min_length", opt.min_length},
                  {"max_length", opt.max_length},
                  {"ribosomal_cap", opt.ribosomal_cap},
                  {"seed", opt.seed}};
  j["counts"] = {
      {"records_in_length_range", in_length},
      {"records_standard_letters", standard},
      {"unique_sequences", entries.size()},
      {"unknown_go_terms", unknown_terms.size()},
      {"before_cap",
       {{"amp_1", before_cap[1]}, {"amp_0", before_cap[0]}, {"amp_NA", before_cap[2]}}},
      {"ribosomal_before_cap", ribosomal},
      {"ribosomal_removed", removed_by_label[0] + removed_by_label[1] + removed_by_label[2]},
      {"ribosomal_removed_by_label",
       {{"amp_1", removed_by_label[1]},
        {"amp_0", removed_by_label[0]},
        {"amp_NA", removed_by_label[2]}}},
      {"ids_renamed_for_uniqueness", renamed},
      {"candidates", candidates.size()}};
  if (!extra_counts.is_null()) j["test_extra"] = extra_counts;
  write_json(out / "work" / "peptides.json", j);
  spdlog::info(
      "data peptides: {} unique {}-{} aa (amp 1: {}, 0: {}, NA: {}); ribosomal {} capped to {}; "
      "{} candidates",
      entries.size(), opt.min_length, opt.max_length, before_cap[1], before_cap[0], before_cap[2],
      ribosomal, std::min(ribosomal, opt.ribosomal_cap), candidates.size());
}

// ---------------------------------------------------------------------------------------------
// Split by cd-hit cluster.

struct SplitOptions {
  std::string dir;             // data/peptide (reads work/candidates.fasta, work/peptides.json)
  std::string clusters;        // cd-hit .clstr file
  std::uint64_t seed = 1;      // orders the clusters
  double test_fraction = 0.1;  // of sequences, filled with whole clusters
  double validation_fraction = 0.1;
  std::string cd_hit_command;  // recorded
  double cd_hit_seconds = -1;  // recorded when >= 0
  std::string fingerprint;     // recorded
};

void run_split_peptides(const SplitOptions& opt) {
  const fs::path dir(opt.dir);
  const std::string cand_path = (dir / "work" / "candidates.fasta").string();
  std::vector<FastaRecord> cand = engine::read_fasta(cand_path);

  // cd-hit .clstr: ">Cluster K" then one line per member "J\tLaa, >ID... *" (* = representative).
  std::unordered_map<std::string, std::size_t> cluster_of;
  std::vector<std::string> representative;
  {
    std::ifstream in(opt.clusters);
    if (!in) throw InputError(opt.clusters, 0, "cannot open file");
    std::string line;
    std::size_t lineno = 0;
    long long current = -1;
    while (std::getline(in, line)) {
      ++lineno;
      if (line.empty()) continue;
      if (line[0] == '>') {
        if (line.rfind(">Cluster ", 0) != 0)
          throw InputError(opt.clusters, lineno, "bad cluster line");
        current = static_cast<long long>(representative.size());
        representative.emplace_back();
        continue;
      }
      const auto gt = line.find('>');
      const auto dots = line.find("...", gt == std::string::npos ? 0 : gt);
      if (current < 0 || gt == std::string::npos || dots == std::string::npos) {
        throw InputError(opt.clusters, lineno, "expected 'N\\tLaa, >ID... ' member line");
      }
      const std::string id = line.substr(gt + 1, dots - gt - 1);
      if (!cluster_of.emplace(id, static_cast<std::size_t>(current)).second) {
        throw InputError(opt.clusters, lineno, "sequence " + id + " is in two clusters");
      }
      if (line.find("*", dots) != std::string::npos) representative[current] = id;
    }
  }
  const std::size_t n_clusters = representative.size();
  std::vector<std::size_t> cluster_size(n_clusters, 0);
  std::vector<std::size_t> record_cluster(cand.size());
  for (std::size_t i = 0; i < cand.size(); ++i) {
    const auto it = cluster_of.find(cand[i].id);
    if (it == cluster_of.end()) {
      throw InputError(opt.clusters, 0,
                       "sequence " + cand[i].id + " of " + cand_path + " is in no cluster");
    }
    record_cluster[i] = it->second;
    ++cluster_size[it->second];
  }
  if (cluster_of.size() != cand.size()) {
    throw InputError(opt.clusters, 0,
                     "holds " + std::to_string(cluster_of.size()) + " sequences, " + cand_path +
                         " " + std::to_string(cand.size()) + ": clusters from another run?");
  }

  // Whole clusters in seeded-hash order (of the representative's id): test until it holds
  // test_fraction of the sequences, then validation likewise, the rest train.
  std::vector<std::pair<std::uint64_t, std::size_t>> order;
  for (std::size_t c = 0; c < n_clusters; ++c) {
    order.emplace_back(seeded_hash(opt.seed, representative[c]), c);
  }
  std::sort(order.begin(), order.end());
  std::vector<int> cluster_split(n_clusters, kTrain);
  const double total = static_cast<double>(cand.size());
  std::size_t in_test = 0, in_val = 0;
  std::array<std::size_t, 3> clusters_per_split{};
  for (const auto& [h, c] : order) {
    if (in_test < opt.test_fraction * total) {
      cluster_split[c] = kTest;
      in_test += cluster_size[c];
    } else if (in_val < opt.validation_fraction * total) {
      cluster_split[c] = kValidation;
      in_val += cluster_size[c];
    }
    ++clusters_per_split[cluster_split[c]];
  }

  std::array<std::vector<FastaRecord>, 3> parts;
  std::array<std::map<std::string, std::size_t>, 3> amp_counts;
  std::array<std::size_t, 3> ribo_counts{};
  std::array<std::set<std::size_t>, 3> positive_clusters;
  std::ofstream tsv(dir / "clusters.tsv");
  tsv << "accession\tcluster\tsplit\n";
  for (std::size_t i = 0; i < cand.size(); ++i) {
    auto f = parse_fields(cand[i].description);
    const std::size_t c = record_cluster[i];
    const int s = cluster_split[c];
    ++amp_counts[s][f["amp"]];
    ribo_counts[s] += f["ribosomal"] == "1";
    if (f["amp"] == "1") positive_clusters[s].insert(c);
    parts[s].push_back(FastaRecord{cand[i].id,
                                   "amp=" + f["amp"] + " cluster=" + std::to_string(c) +
                                       " ribosomal=" + f["ribosomal"] + " len=" + f["len"],
                                   cand[i].sequence, 0});
    tsv << cand[i].id << '\t' << c << '\t' << kSplitNames[s] << '\n';
  }
  if (!tsv) throw std::runtime_error((dir / "clusters.tsv").string() + ": cannot write");
  tsv.close();
  write_split_files(dir, parts);

  ordered_json summary;
  summary["component"] = "peptide";
  summary["fingerprint"] = opt.fingerprint;
  const fs::path pep_json = dir / "work" / "peptides.json";
  if (fs::exists(pep_json)) summary["preparation"] = read_json(pep_json);
  summary["policies"] = {
      {"selection", "10-100 residues (see options), only the 20 standard amino acids"},
      {"dedup",
       "identical sequences are kept once (accession of the first record) with the union "
       "of their GO terms"},
      {"go_closure",
       "GO terms propagated to all ancestors over goGraph.txt is_a and part_of edges"},
      {"amp_label",
       "amp=1 if the closure holds GO:0042742, GO:0050832 or GO:0031640; amp=NA (unlabelled: kept "
       "for generator data, excluded from classifier labels) if it holds another descendant of "
       "GO:0006952 (defense response); amp=0 otherwise"},
      {"ribosomal_cap",
       "sequences whose closure holds GO:0006412 (translation) are capped: the ribosomal_cap with "
       "the smallest seeded hash mix64(FNV-1a-64(sequence) ^ mix64(seed)) are kept, the rest "
       "removed before clustering"},
      {"clusters", "cd-hit at 50 % identity over the remaining sequences"},
      {"splits",
       "whole clusters, ordered by the seeded hash of their representative's id: test until it "
       "holds test_fraction of the sequences, then validation, the rest train"},
      {"test_extra",
       "test-extra.fasta: 10-100 aa standard-letter proteins of mmseqs2-examples DB.fasta.gz whose "
       "exact sequence is not in metastudent (reserved test data)"}};
  summary["options"] = {{"seed", opt.seed},
                        {"test_fraction", opt.test_fraction},
                        {"validation_fraction", opt.validation_fraction}};
  ordered_json cdhit = {{"command", opt.cd_hit_command}, {"clusters", n_clusters}};
  if (opt.cd_hit_seconds >= 0) cdhit["seconds"] = opt.cd_hit_seconds;
  summary["cd_hit"] = cdhit;
  ordered_json splits;
  for (int s = 0; s < 3; ++s) {
    splits[kSplitNames[s]] = {
        {"sequences", parts[s].size()},  {"clusters", clusters_per_split[s]},
        {"amp_1", amp_counts[s]["1"]},   {"amp_0", amp_counts[s]["0"]},
        {"amp_NA", amp_counts[s]["NA"]}, {"clusters_with_amp_1", positive_clusters[s].size()},
        {"ribosomal", ribo_counts[s]}};
  }
  summary["counts"] = splits;
  write_json(dir / "summary.json", summary);
  spdlog::info("data split-peptides: {} sequences in {} clusters -> train {} validation {} test {}",
               cand.size(), n_clusters, parts[kTrain].size(), parts[kValidation].size(),
               parts[kTest].size());
}

// ---------------------------------------------------------------------------------------------
// Manifest: the inputs (from scripts/fetch-data) and every component's summary.json.

void run_manifest(const std::string& data_dir, const std::string& inputs) {
  ordered_json m;
  m["format"] = "gsflow-data-manifest-1";
  if (!inputs.empty()) {
    const ordered_json in = read_json(inputs);
    for (const auto& [k, v] : in.items()) m[k] = v;
  }
  ordered_json components = ordered_json::object();
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(data_dir)) {
    if (entry.is_directory() && fs::exists(entry.path() / "summary.json"))
      dirs.push_back(entry.path());
  }
  std::sort(dirs.begin(), dirs.end());
  for (const auto& d : dirs) components[d.filename().string()] = read_json(d / "summary.json");
  m["components"] = components;
  write_json(fs::path(data_dir) / "manifest.json", m);
  spdlog::info("data manifest: {} components -> {}", components.size(),
               (fs::path(data_dir) / "manifest.json").string());
}

}  // namespace

void add_data_commands(CLI::App& app) {
  auto* data = app.add_subcommand(
      "data", "Build the real DNA/peptide data sets (scripts/fetch-data runs these; docs/data.md)");
  data->require_subcommand(1);

  auto dna = std::make_shared<DnaOptions>();
  auto* d = data->add_subcommand("dna", "dm3 promoter windows split by arm, with promoter labels");
  d->add_option("--input", dna->input, "dm3_upstream2000.fa(.gz)")
      ->required()
      ->check(CLI::ExistingFile);
  d->add_option("--out", dna->out, "Output folder (e.g. data/dna256)")->required();
  d->add_option("--window", dna->window, "Bases kept at the start-site end")->capture_default_str();
  d->add_option("--test-arm", dna->test_arm, "Reserved test arm")->capture_default_str();
  d->add_option("--validation-arm", dna->validation_arm, "Validation arm")->capture_default_str();
  d->add_option("--fingerprint", dna->fingerprint, "Recorded in summary.json");
  d->callback([dna] { run_dna(*dna); });

  auto pep = std::make_shared<PeptideOptions>();
  auto* p = data->add_subcommand(
      "peptides", "metastudent peptides: length/letter filter, dedup, GO labels, ribosomal cap");
  p->add_option("--blast-db", pep->blast_db, "BLAST db base path (BASE.pin/.psq/.phr)")->required();
  p->add_option("--go-graph", pep->go_graph, "goGraph.txt")->required()->check(CLI::ExistingFile);
  p->add_option("--extra", pep->extra, "mmseqs2-examples DB.fasta.gz (reserved test-extra)")
      ->check(CLI::ExistingFile);
  p->add_option("--out", pep->out, "Output folder (e.g. data/peptide)")->required();
  p->add_option("--min-length", pep->min_length)->capture_default_str();
  p->add_option("--max-length", pep->max_length)->capture_default_str();
  p->add_option("--ribosomal-cap", pep->ribosomal_cap,
                "Keep at most this many GO:0006412 sequences")
      ->capture_default_str();
  p->add_option("--seed", pep->seed, "Seed of the cap's hash")->check(kUnsigned64)->capture_default_str();
  p->callback([pep] { run_peptides(*pep); });

  auto split = std::make_shared<SplitOptions>();
  auto* s = data->add_subcommand("split-peptides",
                                 "Assign whole cd-hit clusters to train/validation/test");
  s->add_option("--dir", split->dir, "Peptide folder written by `data peptides`")->required();
  s->add_option("--clusters", split->clusters, "cd-hit .clstr file")
      ->required()
      ->check(CLI::ExistingFile);
  s->add_option("--seed", split->seed, "Seed ordering the clusters")->check(kUnsigned64)->capture_default_str();
  s->add_option("--test-fraction", split->test_fraction)->capture_default_str();
  s->add_option("--validation-fraction", split->validation_fraction)->capture_default_str();
  s->add_option("--cd-hit-command", split->cd_hit_command, "Recorded in summary.json");
  s->add_option("--cd-hit-seconds", split->cd_hit_seconds, "Recorded in summary.json");
  s->add_option("--fingerprint", split->fingerprint, "Recorded in summary.json");
  s->callback([split] { run_split_peptides(*split); });

  add_drop_leaks_command(*data);
  add_protein_windows_command(*data);

  auto manifest = std::make_shared<std::pair<std::string, std::string>>();
  auto* m = data->add_subcommand(
      "manifest", "Gather inputs and every DIR/*/summary.json into DIR/manifest.json");
  m->add_option("--data", manifest->first, "Data folder")
      ->required()
      ->check(CLI::ExistingDirectory);
  m->add_option("--inputs", manifest->second, "JSON object of inputs to include")
      ->check(CLI::ExistingFile);
  m->callback([manifest] { run_manifest(manifest->first, manifest->second); });
}

}  // namespace gsflow::app
