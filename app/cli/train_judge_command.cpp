// `gsflow train-judge --objective promoter|amp`: fits the independent k-mer judge of an objective
// on the VALIDATION split (the guiding classifier trains on TRAIN), chooses its regularisation by
// cross-validation inside that split, and reports AUROC and accuracy on TRAIN and on TEST.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "gsflow/engine/classification_metrics.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/models/judge.hpp"
#include "model_commands.hpp"
#include "sequence_sets.hpp"
#include "validators.hpp"

namespace gsflow::app {

namespace {

struct TrainJudgeCli {
  std::string objective, data, out;
  std::size_t folds = 5;
  std::uint64_t seed = 0;
  bool json = false;
};

// What each objective's judge reads and how it looks at sequences.
struct JudgeObjective {
  std::string alphabet;   // dna or protein
  std::string dataset;    // folder inside the data folder holding SPLIT.fasta
  std::string key;        // header field with the 0/1 label
  std::string group_key;  // header field that keeps related sequences in one CV fold, or ""
  std::size_t min_length, max_length;
  std::vector<std::size_t> kmax_candidates;
  bool length_feature;
  std::string positive;
};

JudgeObjective objective_named(const std::string& name) {
  if (name == "promoter")
    // k = 1..3, 1..4 or 1..5 by CV: 5-mers (1,024 more features) may or may not pay on ~7,000
    // windows, so the data decides.
    return {.alphabet = "dna",
            .dataset = "dna256/labels",
            .key = "label",
            .group_key = "",
            .min_length = 256,
            .max_length = 256,
            .kmax_candidates = {3, 4, 5},
            .length_feature = false,
            .positive =
                "transcription-start-proximal 256-bp window (label=1) vs distal window "
                "(label=0)"};
  if (name == "amp")
    // Length and composition, with or without dipeptides (21 or 421 features) by CV; 3-mers
    // would be 8,000 features for ~2,200 peptides. Folds keep whole 50 %-identity clusters
    // together.
    return {.alphabet = "protein",
            .dataset = "peptide",
            .key = "amp",
            .group_key = "cluster",
            .min_length = 10,
            .max_length = 100,
            .kmax_candidates = {1, 2},
            .length_feature = true,
            .positive =
                "antimicrobial-like peptide (amp=1: GO defence against bacteria/fungi or "
                "killing of cells) vs other (amp=0)"};
  throw std::invalid_argument("--objective: expected promoter or amp, not '" + name + "'");
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

  models::JudgeOptions options;
  options.name = cli.objective;
  options.alphabet = o.alphabet;
  options.positive = o.positive;
  options.k = alphabet.size();
  options.kmax_candidates = o.kmax_candidates;
  options.length_feature = o.length_feature;
  options.length_scale = static_cast<double>(o.max_length);
  options.folds = cli.folds;
  options.seed = cli.seed;
  options.split = "validation";
  options.data_file = o.dataset + "/validation.fasta";
  auto judge = models::KmerJudge::train(validation.sequences, validation.labels, options, groups);

  // The guiding classifier's training split, which the judge never saw, and the reserved test
  // split: evaluated once for the report; nothing above was selected on either.
  const auto train_set = read_labelled(train_path, alphabet, o.key, o.min_length, o.max_length);
  const auto test_set = read_labelled(test_path, alphabet, o.key, o.min_length, o.max_length);
  const SplitFigures on_train = evaluate_split(judge, train_set);
  const SplitFigures on_test = evaluate_split(judge, test_set);
  for (const auto& [prefix, f] :
       {std::pair{"train_split", on_train}, std::pair{"test_split", on_test}}) {
    judge.set_metric(std::string(prefix) + "_auroc", f.auroc);
    judge.set_metric(std::string(prefix) + "_accuracy", f.accuracy);
    judge.set_metric(std::string(prefix) + "_positive_fraction",
                     static_cast<double>(f.positives) / static_cast<double>(f.sequences));
  }
  std::filesystem::create_directories(std::filesystem::absolute(out).parent_path(), ec);
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
    for (const auto& [name, f] : {std::pair{"train", on_train}, std::pair{"test", on_test}})
      split_json[name] = {{"sequences", f.sequences},
                          {"positives", f.positives},
                          {"auroc", f.auroc},
                          {"accuracy", f.accuracy}};
    const nlohmann::json j = {{"objective", cli.objective},
                              {"out", out},
                              {"trained_on", "validation"},
                              {"sequences", info.sequences},
                              {"positives", info.positives},
                              {"features", info.features.size()},
                              {"kmax", info.features.kmax},
                              {"lambda", info.lambda},
                              {"folds", info.folds},
                              {"cv", cv},
                              {"cv_auroc", info.metrics.at("cv_auroc")},
                              {"cv_log_loss", info.metrics.at("cv_log_loss")},
                              {"splits", split_json},
                              {"data_hash", info.data_hash},
                              {"seconds", info.seconds}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << fmt::format(
      "cross-validation ({} folds inside validation): mean held-out log loss "
      "(AUROC)\n",
      info.folds);
  std::size_t last_kmax = 0;
  for (const auto& c : info.cv) {
    if (c.kmax != last_kmax) std::cout << fmt::format("  k = 1..{}:\n", last_kmax = c.kmax);
    std::cout << fmt::format(
        "    lambda {:9.2e}  {:.4f} ({:.4f}){}\n", c.lambda, c.log_loss, c.auroc,
        c.kmax == info.features.kmax && c.lambda == info.lambda ? "  <- chosen" : "");
  }
  std::cout << fmt::format(
      "chosen: k = 1..{} ({} features), lambda {:.2e}; CV AUROC {:.4f}, accuracy {:.4f}\n",
      info.features.kmax, info.features.size(), info.lambda, info.metrics.at("cv_auroc"),
      info.metrics.at("cv_accuracy"));
  for (const auto& [name, f] :
       {std::pair{"train (never seen)", on_train}, std::pair{"test (reserved)", on_test}})
    std::cout << fmt::format(
        "{:<18} {:6} sequences ({:5.1f} % positive): AUROC {:.4f}, accuracy "
        "{:.4f}\n",
        name, f.sequences, 100.0 * f.positives / f.sequences, f.auroc, f.accuracy);
  std::cout << fmt::format("trained in {:.1f} s; wrote {}\n", info.seconds, out);
}

}  // namespace

void add_train_judge_command(CLI::App& app) {
  auto cli = std::make_shared<TrainJudgeCli>();
  auto* cmd = app.add_subcommand(
      "train-judge",
      "Fit the independent k-mer judge of an objective on the validation split (CV inside it) "
      "and report AUROC on the train and test splits");
  cmd->add_option("--objective", cli->objective, "promoter (DNA) or amp (peptides)")
      ->required()
      ->check(CLI::IsMember({"promoter", "amp"}));
  cmd->add_option("--data", cli->data, "Data folder (default: $GSFLOW_DATA or data/)");
  cmd->add_option("--out", cli->out, "Judge file to write (default: OBJECTIVE.json)");
  cmd->add_option("--folds", cli->folds, "Cross-validation folds")
      ->check(CLI::Range(2, 100))
      ->capture_default_str();
  cmd->add_option("--seed", cli->seed, "Seed of the fold assignment")->check(kUnsigned64)->capture_default_str();
  cmd->add_flag("--json", cli->json, "Print one JSON object on stdout");
  cmd->callback([cli] { run_train_judge(*cli); });
}

}  // namespace gsflow::app
