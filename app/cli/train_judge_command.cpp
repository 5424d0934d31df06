// `gsflow train-judge --objective promoter|amp`: fits the independent k-mer judge of an objective
// on the VALIDATION split (the guiding classifier trains on TRAIN), chooses its regularisation by
// cross-validation inside that split, and reports AUROC and accuracy on TRAIN and on TEST.
// `gsflow train-judge --positives A.fasta --negatives B.fasta`: the same judge from the user's two
// files (the same feature choice per alphabet), with an optional held-out test file.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "gsflow/engine/classification_metrics.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/judge.hpp"
#include "model_commands.hpp"
#include "own_data.hpp"
#include "sequence_sets.hpp"
#include "validators.hpp"

namespace gsflow::app {

namespace {

namespace fs = std::filesystem;

struct TrainJudgeCli {
  std::string objective, data, out;
  // From the user's files instead of --objective.
  std::string name, positives, negatives, alphabet, positive;
  std::string test, test_positives, test_negatives;  // optional held-out set, one form
  std::string cv_groups = "auto";                    // auto | cd-hit | none
  int threads = 1;                                   // cd-hit's
  bool force = false;
  std::size_t folds = 5;
  std::uint64_t seed = 0;
  bool json = false;
};

// How a judge looks at an alphabet's sequences: the feature sets cross-validation chooses among.
struct JudgeRecipe {
  std::vector<std::size_t> kmax_candidates;
  bool length_feature;
};

JudgeRecipe recipe_for(const std::string& alphabet) {
  if (alphabet == "dna")
    // k = 1..3, 1..4 or 1..5 by CV: 5-mers (1,024 more features) may or may not pay on ~7,000
    // promoter windows, so the data decides.
    return {{3, 4, 5}, false};
  // Length and composition, with or without dipeptides (21 or 421 features) by CV; 3-mers would
  // be 8,000 features for ~2,200 peptides.
  return {{1, 2}, true};
}

// What each objective's judge reads.
struct JudgeObjective {
  std::string alphabet;   // dna or protein
  std::string dataset;    // folder inside the data folder holding SPLIT.fasta
  std::string key;        // header field with the 0/1 label
  std::string group_key;  // header field that keeps related sequences in one CV fold, or ""
  std::size_t min_length, max_length;
  std::string positive;
};

JudgeObjective objective_named(const std::string& name) {
  if (name == "promoter")
    return {.alphabet = "dna",
            .dataset = "dna256/labels",
            .key = "label",
            .group_key = "",
            .min_length = 256,
            .max_length = 256,
            .positive =
                "transcription-start-proximal 256-bp window (label=1) vs distal window "
                "(label=0)"};
  if (name == "amp")
    // Folds keep whole 50 %-identity clusters together.
    return {.alphabet = "protein",
            .dataset = "peptide",
            .key = "amp",
            .group_key = "cluster",
            .min_length = 10,
            .max_length = 100,
            .positive =
                "antimicrobial-like peptide (amp=1: GO defence against bacteria/fungi or "
                "killing of cells) vs other (amp=0)"};
  throw std::invalid_argument("--objective: expected promoter or amp, not '" + name + "'");
}

// The judge options both modes share: the alphabet's recipe, CV folds and seed from the command
// line, lengths scaled by `length_scale` (the longest training sequence's order).
models::JudgeOptions judge_options(const TrainJudgeCli& cli, const std::string& name,
                                   const std::string& alphabet_name, double length_scale,
                                   const std::string& positive) {
  const JudgeRecipe recipe = recipe_for(alphabet_name);
  models::JudgeOptions options;
  options.name = name;
  options.alphabet = alphabet_name;
  options.positive = positive;
  options.k = alphabet_named(alphabet_name, "--alphabet").size();
  options.kmax_candidates = recipe.kmax_candidates;
  options.length_feature = recipe.length_feature;
  options.length_scale = length_scale;
  options.folds = cli.folds;
  options.seed = cli.seed;
  return options;
}

// The group id (header field group_key, as a number) of every labelled record, in the order
// read_labelled returns them (NA records skipped the same way).
std::vector<std::uint32_t> read_groups(const std::string& path, const JudgeObjective& o) {
  std::vector<std::uint32_t> groups;
  engine::FastaReader reader(path);
  while (auto record = reader.next()) {
    if (header_field(record->description, o.key) == "NA") continue;
    const std::string value = header_field(record->description, o.group_key);
    std::uint32_t id = 0;
    try {
      std::size_t used = 0;
      const unsigned long v = std::stoul(value, &used);
      if (used != value.size() || v > 0xffffffffUL) throw std::out_of_range(value);
      id = static_cast<std::uint32_t>(v);
    } catch (const std::exception&) {
      throw engine::InputError(
          path, record->line,
          "record '" + record->id + "': field " + o.group_key + "= is missing or not a number");
    }
    groups.push_back(id);
  }
  return groups;
}

struct SplitFigures {
  std::size_t sequences = 0, positives = 0;
  double auroc = 0.0, accuracy = 0.0;
};

SplitFigures evaluate_split(const models::KmerJudge& judge, const LabelledSet& set) {
  SplitFigures f;
  f.sequences = set.sequences.size();
  for (auto l : set.labels) f.positives += l;
  const auto p = judge.probabilities(set.sequences);
  f.auroc = engine::auroc(p, set.labels);
  f.accuracy = engine::accuracy(p, set.labels, 0.5);
  return f;
}

// A held-out set the judge is measured on: JSON key, metric prefix saved with the judge, label.
struct NamedSplit {
  std::string key, metric, label;
  SplitFigures figures;
};

// Records the splits' figures in the judge, writes it to `out` and reports: one JSON object
// (`head` plus the fit, the CV grid and the splits) with --json, else the CV table and figures.
void save_and_report(const TrainJudgeCli& cli, models::KmerJudge& judge, const std::string& out,
                     const std::vector<NamedSplit>& splits, nlohmann::json head,
                     const std::string& cv_title) {
  for (const auto& s : splits) {
    const auto& f = s.figures;
    judge.set_metric(s.metric + "_auroc", f.auroc);
    judge.set_metric(s.metric + "_accuracy", f.accuracy);
    judge.set_metric(s.metric + "_positive_fraction",
                     static_cast<double>(f.positives) / static_cast<double>(f.sequences));
  }
  std::error_code ec;
  fs::create_directories(fs::absolute(out).parent_path(), ec);
  judge.save(out);

  const auto& info = judge.info();
  if (cli.json) {
    nlohmann::json cv = nlohmann::json::array();
    for (const auto& c : info.cv)
      cv.push_back({{"kmax", c.kmax},
                    {"lambda", c.lambda},
                    {"log_loss", c.log_loss},
                    {"auroc", c.auroc},
                    {"accuracy", c.accuracy}});
    nlohmann::json split_json = nlohmann::json::object();
    for (const auto& s : splits)
      split_json[s.key] = {{"sequences", s.figures.sequences},
                           {"positives", s.figures.positives},
                           {"auroc", s.figures.auroc},
                           {"accuracy", s.figures.accuracy}};
    nlohmann::json j = std::move(head);
    j.update({{"out", out},
              {"sequences", info.sequences},
              {"positives", info.positives},
              {"features", info.features.size()},
              {"kmax", info.features.kmax},
              {"length_feature", info.features.length},
              {"lambda", info.lambda},
              {"folds", info.folds},
              {"cv", cv},
              {"cv_auroc", info.metrics.at("cv_auroc")},
              {"cv_log_loss", info.metrics.at("cv_log_loss")},
              {"splits", split_json},
              {"data_hash", info.data_hash},
              {"seconds", info.seconds}});
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << cv_title << ": mean held-out log loss (AUROC)\n";
  std::size_t last_kmax = 0;
  for (const auto& c : info.cv) {
    if (c.kmax != last_kmax) std::cout << fmt::format("  k = 1..{}:\n", last_kmax = c.kmax);
    std::cout << fmt::format(
        "    lambda {:9.2e}  {:.4f} ({:.4f}){}\n", c.lambda, c.log_loss, c.auroc,
        c.kmax == info.features.kmax && c.lambda == info.lambda ? "  <- chosen" : "");
  }
  std::cout << fmt::format(
      "chosen: {}k = 1..{} ({} features), lambda {:.2e}; CV AUROC {:.4f}, accuracy {:.4f}\n",
      info.features.length ? "length + " : "", info.features.kmax, info.features.size(),
      info.lambda, info.metrics.at("cv_auroc"), info.metrics.at("cv_accuracy"));
  for (const auto& s : splits)
    std::cout << fmt::format(
        "{:<18} {:6} sequences ({:5.1f} % positive): AUROC {:.4f}, accuracy {:.4f}\n", s.label,
        s.figures.sequences, 100.0 * s.figures.positives / s.figures.sequences, s.figures.auroc,
        s.figures.accuracy);
  std::cout << fmt::format("trained in {:.1f} s; wrote {}\n", info.seconds, out);
}

void run_train_judge(const TrainJudgeCli& cli) {
  const JudgeObjective o = objective_named(cli.objective);
  const engine::Alphabet& alphabet = alphabet_named(o.alphabet, "--objective");
  const std::string folder = data_dir(cli.data);
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec))
    throw engine::InputError(folder, 0,
                             "data folder not found (run scripts/fetch-data, set GSFLOW_DATA or "
                             "pass --data DIR)");
  auto split_file = [&](const std::string& split) {
    const auto path = std::filesystem::path(folder) / o.dataset / (split + ".fasta");
    if (!std::filesystem::is_regular_file(path, ec))
      throw engine::InputError(path.string(), 0,
                               "split file not found in the data folder (run scripts/fetch-data)");
    return path.string();
  };
  const std::string out = cli.out.empty() ? cli.objective + ".json" : cli.out;
  const std::string validation_path = split_file("validation");
  const std::string train_path = split_file("train");
  const std::string test_path = split_file("test");

  const auto validation =
      read_labelled(validation_path, alphabet, o.key, o.min_length, o.max_length);
  const auto groups =
      o.group_key.empty() ? std::vector<std::uint32_t>{} : read_groups(validation_path, o);
  std::cerr << fmt::format(
      "train-judge {}: {} validation sequences ({} positive, {} unlabelled skipped) from {}; "
      "{}-fold CV over kmax x {} lambdas{}\n",
      cli.objective, validation.sequences.size(),
      std::count(validation.labels.begin(), validation.labels.end(), 1), validation.skipped,
      validation_path, cli.folds, models::default_judge_lambdas().size(),
      o.group_key.empty() ? "" : ", whole " + o.group_key + "s per fold");

  auto options =
      judge_options(cli, cli.objective, o.alphabet, static_cast<double>(o.max_length), o.positive);
  options.split = "validation";
  options.data_file = o.dataset + "/validation.fasta";
  auto judge = models::KmerJudge::train(validation.sequences, validation.labels, options, groups);

  // The guiding classifier's training split, which the judge never saw, and the reserved test
  // split: evaluated once for the report; nothing above was selected on either.
  const auto train_set = read_labelled(train_path, alphabet, o.key, o.min_length, o.max_length);
  const auto test_set = read_labelled(test_path, alphabet, o.key, o.min_length, o.max_length);
  const std::vector<NamedSplit> splits = {
      {"train", "train_split", "train (never seen)", evaluate_split(judge, train_set)},
      {"test", "test_split", "test (reserved)", evaluate_split(judge, test_set)}};
  save_and_report(cli, judge, out, splits,
                  {{"objective", cli.objective}, {"trained_on", "validation"}},
                  fmt::format("cross-validation ({} folds inside validation)", cli.folds));
}

// The user's records (one file's or both files') as a labelled set, letters checked.
LabelledSet encode_records(const std::vector<OwnRecord>& records,
                           const engine::Alphabet& alphabet) {
  LabelledSet set;
  for (const auto& r : records) {
    set.sequences.push_back(
        *engine::encode_sequence(alphabet, r.sequence, {}, {r.file, r.line, r.id}));
    set.labels.push_back(r.value > 0.5 ? 1 : 0);
  }
  return set;
}

// The records of a positives and a negatives file, each file non-empty.
std::vector<OwnRecord> read_sides(const std::string& positives, const std::string& negatives) {
  auto all = read_fasta_records(positives, 1.0);
  if (all.empty()) throw engine::InputError(positives, 0, "no sequences (positives)");
  auto neg = read_fasta_records(negatives, 0.0);
  if (neg.empty()) throw engine::InputError(negatives, 0, "no sequences (negatives)");
  all.insert(all.end(), neg.begin(), neg.end());
  return all;
}

// CV groups of the training records: whole 50 %-identity clusters (cd-hit) for proteins, so that
// the CV AUROC is not that of near-copies; none ({}) for DNA, for --cv-groups none, and for auto
// when cd-hit is missing (said on stderr).
std::vector<std::uint32_t> cv_groups(const TrainJudgeCli& cli, const std::string& alphabet_name,
                                     const std::vector<OwnRecord>& records, std::string* text) {
  *text = "single sequences";
  if (cli.cv_groups == "none" || (cli.cv_groups == "auto" && alphabet_name != "protein")) return {};
  if (alphabet_name != "protein")
    throw std::invalid_argument("--cv-groups cd-hit: cd-hit clusters proteins; these are " +
                                alphabet_name + " sequences (give --cv-groups none)");
  std::vector<std::string> letters;
  for (const auto& r : records) letters.push_back(r.sequence);
  std::vector<std::size_t> cluster;
  std::string command;
  try {
    cluster = cd_hit_clusters(letters, 0.5, std::max(1, cli.threads), &command);
  } catch (const std::runtime_error& e) {
    if (cli.cv_groups != "auto") throw;
    std::cerr << "warning: " << e.what() << "; CV folds take single sequences instead\n";
    *text = "single sequences (cd-hit unavailable)";
    return {};
  }
  const std::size_t n = *std::max_element(cluster.begin(), cluster.end()) + 1;
  if (n < cli.folds)
    throw engine::InputError(cli.positives, 0,
                             fmt::format("only {} clusters of 50 % identity for {} CV folds: give "
                                         "--cv-groups none or fewer --folds",
                                         n, cli.folds));
  *text = fmt::format("whole 50 %-identity clusters ({}; `{}`)", n, command);
  return {cluster.begin(), cluster.end()};
}

void run_train_judge_files(const TrainJudgeCli& cli) {
  if (cli.positives.empty() || cli.negatives.empty())
    throw std::invalid_argument("train-judge: --positives and --negatives go together");
  if (!cli.data.empty())
    throw std::invalid_argument("train-judge: --data is for --objective; give the files' paths");
  if (cli.out.empty() && cli.name.empty())
    throw std::invalid_argument(
        "train-judge --positives/--negatives: give --out FILE or --name NAME (the user models "
        "folder's judges/NAME.json)");
  if (!cli.test.empty() && (!cli.test_positives.empty() || !cli.test_negatives.empty()))
    throw std::invalid_argument(
        "train-judge: --test (one FASTA with label=0|1) or --test-positives/--test-negatives, "
        "not both");
  if (cli.test_positives.empty() != cli.test_negatives.empty())
    throw std::invalid_argument("train-judge: --test-positives and --test-negatives go together");

  // Where the judge goes; an existing file stays unless --force, a bundled judge's name is taken.
  if (!cli.name.empty()) check_user_model_name(cli.name);
  const std::string name = !cli.name.empty() ? cli.name : fs::path(cli.out).stem().string();
  const std::string out =
      !cli.out.empty()
          ? cli.out
          : (fs::path(models::user_models_folder()) / "judges" / (cli.name + ".json")).string();
  std::error_code ec;
  if (!cli.name.empty()) {
    const auto names = models::bundled_judges();
    if (std::find(names.begin(), names.end(), cli.name) != names.end()) {
      const auto file = models::resolve_judge(cli.name);
      if (fs::weakly_canonical(file, ec) != fs::weakly_canonical(out, ec))
        throw std::invalid_argument("--name " + cli.name + ": a judge of that name exists (" +
                                    file + "); choose another name");
    }
  }
  if (fs::exists(out, ec) && !cli.force)
    throw std::invalid_argument(out + " already exists (--force replaces it)");

  // Read and check everything before fitting: any error leaves no file behind.
  std::size_t merged = 0;
  auto records =
      merge_duplicates(read_sides(cli.positives, cli.negatives), OwnTask::binary, &merged);
  const std::string alphabet_name = cli.alphabet.empty() ? detect_alphabet(records) : cli.alphabet;
  const engine::Alphabet& alphabet = alphabet_named(alphabet_name, "--alphabet");
  const LabelledSet training = encode_records(records, alphabet);
  check_counts(records, OwnTask::binary, "training data");

  std::optional<LabelledSet> test;
  std::size_t shared = 0;
  std::string test_text;
  if (!cli.test.empty() || !cli.test_positives.empty()) {
    test_text = !cli.test.empty() ? cli.test : cli.test_positives + " + " + cli.test_negatives;
    auto held =
        merge_duplicates(!cli.test.empty() ? read_labelled_fasta_records(cli.test, OwnTask::binary)
                                           : read_sides(cli.test_positives, cli.test_negatives),
                         OwnTask::binary);
    std::size_t pos = 0;
    for (const auto& r : held) pos += r.value > 0.5;
    if (pos == 0 || pos == held.size())
      throw engine::InputError(!cli.test.empty() ? cli.test : cli.test_positives, 0,
                               fmt::format("test data: one class only ({} positives of {}); "
                                           "both are needed",
                                           pos, held.size()));
    test = encode_records(held, alphabet);
    std::set<std::string> seen;
    for (const auto& r : records) seen.insert(r.sequence);
    for (const auto& r : held) shared += seen.count(r.sequence);
  }

  std::size_t longest = 0;
  for (const auto& s : training.sequences) longest = std::max(longest, s.size());
  std::string groups_text;
  const auto groups = cv_groups(cli, alphabet_name, records, &groups_text);
  std::cerr << fmt::format(
      "train-judge {}: {} {} sequences ({} positive{}) from {} and {}; {}-fold CV over kmax x {} "
      "lambdas, folds keep {}\n",
      name, records.size(), alphabet_name,
      std::count(training.labels.begin(), training.labels.end(), 1),
      merged ? fmt::format(", {} duplicates merged", merged) : "", cli.positives, cli.negatives,
      cli.folds, models::default_judge_lambdas().size(), groups_text);
  if (shared)
    std::cerr << fmt::format("train-judge {}: {} test sequences are also in the training files\n",
                             name, shared);

  auto options = judge_options(
      cli, name, alphabet_name, static_cast<double>(longest),
      !cli.positive.empty() ? cli.positive
                            : "like " + fs::path(cli.positives).filename().string() + " (vs " +
                                  fs::path(cli.negatives).filename().string() + ")");
  options.split = "user files";
  options.data_file = cli.positives + " + " + cli.negatives;
  auto judge = models::KmerJudge::train(training.sequences, training.labels, options, groups);

  std::vector<NamedSplit> splits;
  if (test) {
    judge.set_metric("test_shared_with_training", static_cast<double>(shared));
    splits.push_back({"test", "test", "test", evaluate_split(judge, *test)});
  }
  save_and_report(cli, judge, out, splits,
                  {{"name", name},
                   {"trained_on", options.data_file},
                   {"alphabet", alphabet_name},
                   {"test_file", test ? nlohmann::json(test_text) : nlohmann::json(nullptr)}},
                  fmt::format("cross-validation ({} folds keeping {})", cli.folds, groups_text));
}

// --objective or --positives/--negatives, each with only its own options.
void run_train_judge_command(const TrainJudgeCli& cli) {
  const bool files = !cli.positives.empty() || !cli.negatives.empty();
  if (files && !cli.objective.empty())
    throw std::invalid_argument(
        "train-judge: --objective (a bundled objective's judge from the data splits) and "
        "--positives/--negatives (your files) exclude each other");
  if (!files && cli.objective.empty())
    throw std::invalid_argument(
        "train-judge: give --objective promoter|amp, or --positives FILE --negatives FILE");
  if (files) return run_train_judge_files(cli);
  for (const auto& [flag, given] :
       {std::pair{"--name", !cli.name.empty()}, std::pair{"--alphabet", !cli.alphabet.empty()},
        std::pair{"--positive", !cli.positive.empty()}, std::pair{"--test", !cli.test.empty()},
        std::pair{"--test-positives", !cli.test_positives.empty()},
        std::pair{"--test-negatives", !cli.test_negatives.empty()},
        std::pair{"--cv-groups", cli.cv_groups != "auto"}, std::pair{"--force", cli.force}})
    if (given)
      throw std::invalid_argument(std::string("train-judge: ") + flag +
                                  " is for --positives/--negatives, not --objective");
  run_train_judge(cli);
}

}  // namespace

void add_train_judge_command(CLI::App& app) {
  auto cli = std::make_shared<TrainJudgeCli>();
  auto* cmd = app.add_subcommand(
      "train-judge",
      "Fit an independent k-mer judge: a bundled objective's on the validation split (CV inside "
      "it; AUROC on the train and test splits), or your own from positives and negatives (FASTA)");
  cmd->add_option("--objective", cli->objective,
                  "promoter (DNA) or amp (peptides): the bundled objective's judge")
      ->check(CLI::IsMember({"promoter", "amp"}));
  cmd->add_option("--positives", cli->positives,
                  "Instead of --objective: FASTA of positive sequences (with --negatives)");
  cmd->add_option("--negatives", cli->negatives, "FASTA of negative sequences (with --positives)");
  cmd->add_option("--name", cli->name,
                  "With --positives: the judge's name; written to the user models folder's "
                  "judges/NAME.json (then --judge NAME finds it) unless --out is given");
  cmd->add_option("--alphabet", cli->alphabet, "dna or protein (default: from the letters)")
      ->check(CLI::IsMember({"dna", "protein"}));
  cmd->add_option("--positive", cli->positive, "What a high probability means (saved, reports)");
  cmd->add_option("--test", cli->test,
                  "Held-out FASTA with label=0|1 in the headers, scored once (AUROC)");
  cmd->add_option("--test-positives", cli->test_positives,
                  "Held-out positives (FASTA, with --test-negatives), scored once (AUROC)");
  cmd->add_option("--test-negatives", cli->test_negatives, "Held-out negatives (FASTA)");
  cmd->add_option("--cv-groups", cli->cv_groups,
                  "With --positives: what a CV fold keeps whole: auto (cd-hit 50 % identity "
                  "clusters for proteins, single sequences for DNA), cd-hit or none")
      ->check(CLI::IsMember({"auto", "cd-hit", "none"}))
      ->capture_default_str();
  cmd->add_option("--threads", cli->threads, "cd-hit's threads")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--force", cli->force, "With --positives: replace an existing judge file");
  cmd->add_option("--data", cli->data,
                  "With --objective: data folder (default: $GSFLOW_DATA or data/)");
  cmd->add_option("--out", cli->out, "Judge file to write (--objective: default OBJECTIVE.json)");
  cmd->add_option("--folds", cli->folds, "Cross-validation folds")
      ->check(CLI::Range(2, 100))
      ->capture_default_str();
  cmd->add_option("--seed", cli->seed, "Seed of the fold assignment")
      ->check(kUnsigned64)
      ->capture_default_str();
  cmd->add_flag("--json", cli->json, "Print one JSON object on stdout");
  cmd->callback([cli] { run_train_judge_command(*cli); });
}

}  // namespace gsflow::app
