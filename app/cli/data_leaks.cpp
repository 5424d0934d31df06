// `gsflow data drop-leaks`: removes from the held-out peptide files (validation, test, test-extra)
// every sequence that one training peptide matches too closely, so that the 50 % cd-hit clusters
// of `split-peptides` become an identity bound across splits (issue 39, item 4; docs/data.md).
//
// Identity of a held-out peptide to the training set: the identical pairs of its best local
// alignment against any training peptide (parasail's Smith-Waterman, BLOSUM62, BLAST's gap costs,
// as `gsflow eval`'s protein-likeness), divided by the held-out peptide's own length: the share of
// its residues that one training peptide reproduces. cd-hit-2d was tried first and not used: its
// identity is over the shorter sequence, and with unequal lengths allowed it paired 12-residue
// peptides with unrelated 57-residue ones (notes/2026-12-06-leak-free-split.md). The same figure
// for the held-out peptides with shuffled letters is recorded as the chance level.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "data_commands.hpp"
#include "data_files.hpp"
#include "leak_rule.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/evaluation/protein_likeness.hpp"
#include "validators.hpp"

namespace gsflow::app {

namespace {

namespace fs = std::filesystem;
using engine::FastaRecord;
using nlohmann::ordered_json;

struct LeakOptions {
  std::string dir;                   // data/peptide, after `data split-peptides`
  double identity = 0.5;             // drop held-out peptides at or above this identity
  std::uint64_t seed = 1;            // shuffles for the chance level
  std::size_t chance_sample = 300;   // held-out peptides per split shuffled for it (0: all)
  int threads = 0;                   // 0: every core
  std::vector<std::string> splits{"validation", "test", "test-extra"};
};

// The thresholds of the report: the share of held-out (and shuffled) peptides at or above each.
constexpr std::array<double, 7> kReportThresholds{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};

using data_files::sequences_of;

using leak_rule::reproduced_shares;

double share_at_least(const std::vector<double>& values, double t) {
  if (values.empty()) return 0.0;
  std::size_t n = 0;
  for (double v : values) n += v >= t;
  return static_cast<double>(n) / static_cast<double>(values.size());
}

// The split's figures as split-peptides counts them, from the kept records' headers.
ordered_json count_records(const std::vector<FastaRecord>& records) {
  std::map<std::string, std::size_t> amp;
  std::set<std::string> clusters, amp_clusters;
  std::size_t ribosomal = 0;
  for (const auto& r : records) {
    auto f = data_files::parse_fields(r.description);
    ++amp[f["amp"]];
    ribosomal += f["ribosomal"] == "1";
    if (f.count("cluster")) clusters.insert(f["cluster"]);
    if (f["amp"] == "1" && f.count("cluster")) amp_clusters.insert(f["cluster"]);
  }
  return {{"sequences", records.size()}, {"clusters", clusters.size()},
          {"amp_1", amp["1"]},           {"amp_0", amp["0"]},
          {"amp_NA", amp["NA"]},         {"clusters_with_amp_1", amp_clusters.size()},
          {"ribosomal", ribosomal}};
}

// Rewrites clusters.tsv with split "dropped" for the removed accessions.
void mark_dropped(const fs::path& tsv_path, const std::set<std::string>& dropped) {
  if (!fs::exists(tsv_path)) return;
  std::ifstream in(tsv_path);
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    const auto last = line.rfind('\t');
    if (tab != std::string::npos && dropped.count(line.substr(0, tab)))
      line = line.substr(0, last + 1) + "dropped";
    out << line << '\n';
  }
  in.close();
  std::ofstream w(tsv_path);
  w << out.str();
  if (!w) throw std::runtime_error(tsv_path.string() + ": cannot write");
}

void run_drop_leaks(const LeakOptions& opt) {
  const fs::path dir(opt.dir);
  const auto train_path = (dir / "train.fasta").string();
  const auto train = sequences_of(engine::read_fasta(train_path));
  const auto align = leak_rule::alignment_options(opt.threads);

  const fs::path summary_path = dir / "summary.json";
  ordered_json summary =
      fs::exists(summary_path) ? data_files::read_json(summary_path) : ordered_json::object();
  ordered_json report = {
      {"identity", opt.identity},
      {"definition",
       "identical pairs of the best local alignment against any training peptide (parasail "
       "Smith-Waterman, BLOSUM62, gap open 12 / extend 1 in parasail's convention = BLAST 11 + k) "
       "divided by the held-out peptide's length; held-out peptides at or above `identity` are "
       "removed (kept in work/leaks-SPLIT.fasta); `shuffled` is the same figure for the held-out "
       "peptides with their letters shuffled (chance level)"},
      {"training_sequences", train.size()},
      {"shuffle_seed", opt.seed}};
  for (const auto& split : opt.splits) {  // every file present before any is rewritten
    const fs::path path = dir / (split + ".fasta");
    if (!fs::exists(path))
      throw engine::InputError(path.string(), 0, "missing (run data split-peptides first)");
  }
  std::set<std::string> dropped_ids;
  for (const auto& split : opt.splits) {
    const fs::path path = dir / (split + ".fasta");
    const auto records = engine::read_fasta(path.string());
    const auto queries = sequences_of(records);
    const auto hits = evaluation::nearest_training_hits(queries, train, align);
    const auto ids = reproduced_shares(hits, queries);
    // The chance level on every k-th peptide (k = ceil(n / chance_sample)): a seventh of the
    // alignments of the full set at the defaults, which keeps scripts/fetch-data short on CI.
    std::vector<std::string> sample;
    const std::size_t stride =
        opt.chance_sample == 0 ? 1
                               : std::max<std::size_t>(1, (queries.size() + opt.chance_sample - 1) /
                                                              opt.chance_sample);
    for (std::size_t i = 0; i < queries.size(); i += stride) sample.push_back(queries[i]);
    const auto shuffled = evaluation::shuffle_letters(sample, opt.seed);
    const auto shuffled_ids =
        reproduced_shares(evaluation::nearest_training_hits(shuffled, train, align), shuffled);

    std::vector<FastaRecord> kept, leaks;
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (ids[i] >= opt.identity) {
        FastaRecord r = records[i];
        r.description += fmt::format(" identity_to_train={:.3f}", ids[i]);
        leaks.push_back(std::move(r));
        dropped_ids.insert(records[i].id);
      } else {
        kept.push_back(records[i]);
      }
    }
    ordered_json shares_real = ordered_json::object(), shares_shuffled = ordered_json::object();
    for (double t : kReportThresholds) {
      shares_real[fmt::format("{:.1f}", t)] = share_at_least(ids, t);
      shares_shuffled[fmt::format("{:.1f}", t)] = share_at_least(shuffled_ids, t);
    }
    report[split] = {{"before", records.size()},
                     {"dropped", leaks.size()},
                     {"kept", kept.size()},
                     {"share_at_least", shares_real},
                     {"shuffled_share_at_least", shares_shuffled},
                     {"shuffled_sample", shuffled.size()}};
    engine::write_fasta(path.string(), kept);
    fs::create_directories(dir / "work");
    engine::write_fasta((dir / "work" / ("leaks-" + split + ".fasta")).string(), leaks);
    if (summary.contains("counts") && summary["counts"].contains(split))
      summary["counts"][split] = count_records(kept);
    spdlog::info("data drop-leaks: {} {} -> {} ({} at identity >= {:.2f}; shuffled: {:.1f} %)",
                 split, records.size(), kept.size(), leaks.size(), opt.identity,
                 100.0 * share_at_least(shuffled_ids, opt.identity));
  }
  mark_dropped(dir / "clusters.tsv", dropped_ids);
  if (summary.contains("policies"))
    summary["policies"]["leak_filter"] =
        "held-out peptides whose identity to the training set (leak_filter.definition) is at "
        "least leak_filter.identity are removed from their split";
  summary["leak_filter"] = report;
  data_files::write_json(summary_path, summary);
}

}  // namespace

void add_drop_leaks_command(CLI::App& data) {
  auto opt = std::make_shared<LeakOptions>();
  auto* c = data.add_subcommand(
      "drop-leaks",
      "Remove held-out peptides too close to a training peptide (after split-peptides)");
  c->add_option("--dir", opt->dir, "Peptide folder written by `data split-peptides`")
      ->required()
      ->check(CLI::ExistingDirectory);
  c->add_option("--identity", opt->identity,
                "Drop held-out peptides with at least this share of their residues identically "
                "aligned to one training peptide")
      ->check(CLI::Range(0.05, 1.0))
      ->capture_default_str();
  c->add_option("--splits", opt->splits, "Held-out files (SPLIT.fasta) to filter")
      ->capture_default_str();
  c->add_option("--seed", opt->seed, "Seed of the letter shuffles (chance level)")
      ->check(kUnsigned64)
      ->capture_default_str();
  c->add_option("--chance-sample", opt->chance_sample,
                "Held-out peptides per split shuffled for the chance level (0: all)")
      ->capture_default_str();
  c->add_option("--threads", opt->threads, "Alignment threads (0: every core)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  c->callback([opt] { run_drop_leaks(*opt); });
}

}  // namespace gsflow::app
