// `gsflow data protein-windows`: windows cut from the metastudent proteins longer than the
// peptides, as extra training data for the peptide generator (issue 39, item 2: 17,675 training
// peptides are too few for the transformer, which starts to overfit them after ~7 epochs,
// docs/models.md "Longer training ... do not teach families").
//
// One window per protein, its length drawn from the training peptides' lengths (so the windows
// keep the peptides' length distribution) and its start uniform over the protein; both from the
// seeded hash of the accession, so a seed reproduces the same file on any machine. Proteins are
// taken in seeded-hash order of their sequence (identical sequences once).
//
// The held-out splits stay leak-free by the rule of `data drop-leaks` applied from the other
// side: for every held-out peptide, its best-scoring local alignment against the windows must
// reproduce less than `identity` of its residues. Windows that break it are removed and the
// peptides that had them as best hit are aligned again against the rest, until none does.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "data_commands.hpp"
#include "data_files.hpp"
#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/blast_db.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/evaluation/protein_likeness.hpp"
#include "leak_rule.hpp"
#include "validators.hpp"

namespace gsflow::app {

namespace {

namespace fs = std::filesystem;
using engine::FastaRecord;
using nlohmann::ordered_json;

struct WindowOptions {
  std::string blast_db;                  // base path of goasp.fasta.{pin,psq,phr}
  std::string dir;                       // data/peptide after `data drop-leaks`
  std::size_t proteins = 50000;          // proteins to cut one window from each
  std::size_t min_protein_length = 101;  // longer than every peptide (10-100 aa)
  double identity = 0.5;                 // the leak rule of drop-leaks
  std::uint64_t seed = 1;
  int threads = 0;  // 0: every core
  std::vector<std::string> held_out{"validation", "test", "test-extra"};
  std::string output = "windows.fasta";  // in dir
};

using data_files::sequences_of;
using data_files::standard_only;

struct Candidate {
  std::uint64_t key;  // seeded hash of the sequence: the order proteins are taken in
  std::size_t record;
};

void run_protein_windows(const WindowOptions& opt) {
  const auto start = std::chrono::steady_clock::now();
  const fs::path dir(opt.dir);
  const auto train_path = (dir / "train.fasta").string();
  std::vector<std::size_t> lengths;
  for (const auto& r : engine::read_fasta(train_path)) lengths.push_back(r.sequence.size());
  if (lengths.empty()) throw engine::InputError(train_path, 0, "no training peptides");
  const std::size_t longest = *std::max_element(lengths.begin(), lengths.end());
  if (longest >= opt.min_protein_length)
    throw std::invalid_argument(fmt::format(
        "--min-protein-length {} must exceed the longest training peptide ({} residues in {})",
        opt.min_protein_length, longest, train_path));

  std::vector<std::string> held_out;
  ordered_json held_out_files = ordered_json::object();
  for (const auto& split : opt.held_out) {
    const fs::path path = dir / (split + ".fasta");
    if (!fs::exists(path)) {
      if (split == "test-extra") continue;  // optional in data peptides
      throw engine::InputError(path.string(), 0, "missing (run data split-peptides first)");
    }
    const auto seqs = sequences_of(engine::read_fasta(path.string()));
    held_out_files[split] = seqs.size();
    held_out.insert(held_out.end(), seqs.begin(), seqs.end());
  }
  if (held_out.empty()) throw engine::InputError(opt.dir, 0, "no held-out peptides to guard");

  engine::BlastProteinDb db(opt.blast_db);
  std::vector<Candidate> candidates;
  std::unordered_set<std::string> seen;
  std::size_t long_enough = 0, standard = 0;
  for (std::size_t i = 0; i < db.size(); ++i) {
    if (db.length(i) < opt.min_protein_length) continue;
    ++long_enough;
    std::string seq = db.sequence(i);
    if (!standard_only(seq)) continue;
    ++standard;
    const auto key = data_files::seeded_hash(opt.seed, seq);
    if (seen.insert(std::move(seq)).second) candidates.push_back({key, i});
  }
  seen.clear();
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& a, const Candidate& b) { return a.key < b.key; });
  if (candidates.size() > opt.proteins) candidates.resize(opt.proteins);

  std::vector<FastaRecord> windows;
  windows.reserve(candidates.size());
  for (const auto& c : candidates) {
    const std::string seq = db.sequence(c.record);
    const std::string title = db.title(c.record);
    const std::string accession = title.substr(0, title.find('|'));
    const std::size_t len =
        lengths[data_files::seeded_hash(opt.seed, accession + ":length") % lengths.size()];
    const std::size_t from =
        data_files::seeded_hash(opt.seed, accession + ":start") % (seq.size() - len + 1);
    windows.push_back(
        FastaRecord{fmt::format("{}/{}-{}", accession, from + 1, from + len),
                    fmt::format("source=metastudent protein_len={} len={}", seq.size(), len),
                    seq.substr(from, len), 0});
  }

  // The leak guard, in rounds: each round aligns the held-out peptides still in question against
  // the windows left, and removes every window that reproduces >= identity of a peptide it is the
  // best hit of.
  const auto align = leak_rule::alignment_options(opt.threads);
  std::vector<char> removed(windows.size(), 0);
  std::vector<std::size_t> open(held_out.size());
  for (std::size_t i = 0; i < open.size(); ++i) open[i] = i;
  std::size_t rounds = 0;
  while (!open.empty()) {
    ++rounds;
    std::vector<std::size_t> left;  // window indices still kept
    std::vector<std::string> left_seqs;
    for (std::size_t w = 0; w < windows.size(); ++w)
      if (!removed[w]) {
        left.push_back(w);
        left_seqs.push_back(windows[w].sequence);
      }
    if (left.empty()) break;
    std::vector<std::string> queries;
    for (const std::size_t h : open) queries.push_back(held_out[h]);
    const auto hits = evaluation::nearest_training_hits(queries, left_seqs, align);
    std::vector<std::size_t> still;
    std::size_t removed_now = 0;
    for (std::size_t q = 0; q < hits.size(); ++q) {
      if (leak_rule::reproduced_share(hits[q], queries[q]) < opt.identity) continue;
      char& r = removed[left[hits[q].training]];
      removed_now += r == 0;
      r = 1;
      still.push_back(open[q]);
    }
    spdlog::info(
        "data protein-windows: round {}: {} held-out peptides aligned, {} with a window "
        "at >= {:.2f} ({} windows removed)",
        rounds, queries.size(), still.size(), opt.identity, removed_now);
    open = std::move(still);
  }

  std::vector<FastaRecord> kept, leaks;
  for (std::size_t w = 0; w < windows.size(); ++w)
    (removed[w] ? leaks : kept).push_back(windows[w]);
  engine::write_fasta((dir / opt.output).string(), kept);
  fs::create_directories(dir / "work");
  engine::write_fasta((dir / "work" / ("leaks-" + opt.output)).string(), leaks);

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const fs::path summary_path = dir / "summary.json";
  ordered_json summary =
      fs::exists(summary_path) ? data_files::read_json(summary_path) : ordered_json::object();
  summary["protein_windows"] = {
      {"file", opt.output},
      {"blast_db", opt.blast_db},
      {"seed", opt.seed},
      {"definition",
       "one window per protein of at least min_protein_length residues (standard letters, "
       "identical sequences once, taken in seeded-hash order), its length drawn from the training "
       "peptides' lengths and its start uniform; windows that are the best hit of a held-out "
       "peptide and reproduce at least `identity` of its residues are removed (drop-leaks' rule), "
       "in rounds until no held-out peptide has such a best hit"},
      {"min_protein_length", opt.min_protein_length},
      {"identity", opt.identity},
      {"proteins_long_enough", long_enough},
      {"proteins_standard_letters", standard},
      {"proteins_taken", windows.size()},
      {"held_out", held_out_files},
      {"leak_rounds", rounds},
      {"windows_removed", leaks.size()},
      {"windows", kept.size()},
      {"seconds", seconds}};
  data_files::write_json(summary_path, summary);
  spdlog::info(
      "data protein-windows: {} proteins >= {} aa; {} windows written to {} ({} removed as too "
      "close to a held-out peptide, {} rounds, {:.0f} s)",
      standard, opt.min_protein_length, kept.size(), (dir / opt.output).string(), leaks.size(),
      rounds, seconds);
}

}  // namespace

void add_protein_windows_command(CLI::App& data) {
  auto opt = std::make_shared<WindowOptions>();
  auto* c = data.add_subcommand(
      "protein-windows",
      "Cut peptide-length windows from longer metastudent proteins as extra training data, kept "
      "leak-free against the held-out splits (after drop-leaks)");
  c->add_option("--blast-db", opt->blast_db, "BLAST db base, e.g. .../BPO/goasp.fasta")->required();
  c->add_option("--dir", opt->dir, "Peptide folder after `data drop-leaks`")
      ->required()
      ->check(CLI::ExistingDirectory);
  c->add_option("--proteins", opt->proteins, "Proteins to cut one window from each")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  c->add_option("--min-protein-length", opt->min_protein_length,
                "Shortest protein used (must exceed every training peptide)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  c->add_option("--identity", opt->identity,
                "Remove windows that reproduce at least this share of a held-out peptide")
      ->check(CLI::Range(0.05, 1.0))
      ->capture_default_str();
  c->add_option("--held-out", opt->held_out, "Held-out files (SPLIT.fasta) to guard")
      ->capture_default_str();
  c->add_option("--output", opt->output, "Output file name in --dir")->capture_default_str();
  c->add_option("--seed", opt->seed, "Seed of the protein order, window lengths and starts")
      ->check(kUnsigned64)
      ->capture_default_str();
  c->add_option("--threads", opt->threads, "Alignment threads (0: every core)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  c->callback([opt] { run_protein_windows(*opt); });
}

}  // namespace gsflow::app
