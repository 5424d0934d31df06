// `gsflow train-classifier --config configs/classifier-NAME.json`: trains a guidance classifier on
// labelled FASTA splits (selection on validation), evaluates it once on the reserved test split,
// and writes the checkpoint and its model card.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "classifier_config.hpp"
#include "global_options.hpp"
#include "gsflow/engine/classification_metrics.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/models/classifier_training.hpp"
#include "interrupt.hpp"
#include "model_commands.hpp"
#include "own_classifier.hpp"
#include "progress.hpp"
#include "training_cli.hpp"
#include "sequence_sets.hpp"

namespace gsflow::app {

namespace {

namespace fs = std::filesystem;

struct SplitSummary {
  std::string name, file;  // file as read (resolved against the data folder)
  std::string configured;  // file as the config names it (what the card shows)
  std::size_t sequences = 0, positives = 0, skipped = 0;
  double auroc = -1.0, accuracy = -1.0;
  double majority() const {
    const double p = static_cast<double>(positives) / static_cast<double>(sequences);
    return std::max(p, 1.0 - p);
  }
};

// One data.extra_negatives file (resolved as the splits are): every record, label 0. Throws
// engine::InputError naming the file and line for malformed FASTA, letters outside the alphabet,
// lengths outside the config's range and a record whose header says LABEL=1, and for a protein
// config a file holding only DNA letters (another alphabet).
Sequences read_extra_negatives(const ClassifierConfig& c, const std::string& file,
                               const std::string& data_dir_override, SplitSummary& summary) {
  const models::ClassifierInfo& info = c.train.info;
  summary.name = "extra negatives (train only)";
  summary.file = data_file(file, data_dir_override);
  summary.configured = file;
  const engine::Alphabet& alphabet = alphabet_named(info.alphabet, "data.alphabet");
  if (!fs::is_regular_file(summary.file))
    throw engine::InputError(summary.file, 0, "data.extra_negatives: no such file");
  auto sequences = read_sequences(summary.file, alphabet, info.min_length, info.max_length);
  if (sequences.empty()) throw engine::InputError(summary.file, 0, "no records (extra negatives)");
  engine::FastaReader reader(summary.file, info.max_length + 1);
  bool dna_only = info.alphabet == "protein";
  while (auto record = reader.next()) {
    if (header_field(record->description, c.label) == "1")
      throw engine::InputError(summary.file, record->line,
                               "record '" + record->id + "' says " + c.label +
                                   "=1, but extra negatives are label 0");
    dna_only = dna_only && record->sequence.find_first_not_of("ACGTNacgtn") == std::string::npos;
  }
  if (dna_only)
    throw engine::InputError(summary.file, 1,
                             "every record holds only DNA letters (ACGTN): another alphabet than "
                             "data.alphabet protein");
  summary.sequences = sequences.size();
  return sequences;
}

models::LabelledDataset read_split(const ClassifierConfig& c, const std::string& name,
                                   const std::string& file, const std::string& data_dir_override,
                                   SplitSummary& summary, const Sequences& extra_negatives = {}) {
  const models::ClassifierInfo& info = c.train.info;
  summary.name = name;
  summary.file = data_file(file, data_dir_override);
  summary.configured = file;
  const auto set = read_labelled(summary.file, alphabet_named(info.alphabet, "data.alphabet"),
                                 c.label, info.min_length, info.max_length);
  models::LabelledDataset d;
  summary.sequences = set.labels.size();
  for (const auto y : set.labels) summary.positives += y;
  if (extra_negatives.empty()) {
    d.data = to_dataset(set.sequences, info.max_length);
    d.labels = set.labels;
  } else {  // the labelled records first, then the extra negatives (label 0)
    Sequences all = set.sequences;
    all.insert(all.end(), extra_negatives.begin(), extra_negatives.end());
    d.data = to_dataset(all, info.max_length);
    d.labels = set.labels;
    d.labels.resize(all.size(), 0);
  }
  summary.skipped = set.skipped;
  if (summary.positives == 0 || summary.positives == summary.sequences)
    throw std::invalid_argument(summary.file + ": the " + name + " split needs both labels (" +
                                std::to_string(summary.positives) + " of " +
                                std::to_string(summary.sequences) + " have " + c.label + "=1)");
  return d;
}

using TrainClassifierCli = TrainingCli;

std::string command_line(const TrainClassifierCli& cli) {
  std::string s = "gsflow train-classifier --config " + cli.config;
  if (!cli.data.empty()) s += " --data " + cli.data;
  if (!cli.out.empty()) s += " --out " + cli.out;
  if (cli.steps > 0) s += " --steps " + std::to_string(cli.steps);
  if (cli.threads > 0) s += " --threads " + std::to_string(cli.threads);
  if (cli.max_minutes >= 0.0) s += fmt::format(" --max-minutes {}", cli.max_minutes);
  if (cli.force) s += " --force";
  return s;
}

// Median wall time of evaluate() with input gradients on 1,024 random one-hot sequences of the
// longest accepted length (what guidance asks of it at every step), after one warm-up call.
double gradient_ms_per_1024(const models::Classifier& classifier) {
  const auto& info = classifier.info();
  const std::size_t n = 1024, rows = n * info.max_length, k = info.k;
  std::vector<float> x(rows * k, 0.0f), grad(rows * k);
  std::uint64_t state = 1;
  for (std::size_t r = 0; r < rows; ++r) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x[r * k + (state >> 33) % k] = 1.0f;
  }
  std::vector<double> out(n), times;
  engine::Rows g{grad.data(), rows, k, k};
  for (int i = 0; i < 4; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    classifier.evaluate({x.data(), rows, k, k}, n, info.max_length, {}, out, &g);
    if (i > 0)
      times.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void write_card(const std::string& file, const ClassifierConfig& c, const TrainClassifierCli& cli,
                const models::Classifier& classifier, const models::ClassifierTrainResult& r,
                const std::vector<SplitSummary>& splits, const std::vector<SplitSummary>& extras,
                double gradient_ms) {
  const models::ClassifierInfo& info = classifier.info();
  const models::ClassifierNetworkOptions& n = c.train.network;
  const models::ClassifierTrainOptions& t = c.train;
  std::ofstream out(file);
  out << fmt::format("# {} (guidance classifier)\n\n", info.name);
  out << fmt::format(
      "**Positive (high output):** {}. **Output:** logit of a class-weighted classifier "
      "(positives weighted {:.3g}x; training positive fraction {:.4f}). **Input:** {} one-hot, "
      "K = {}, length {}..{}. **File:** `{}` ({:.0f} KiB, inference weights only).\n\n",
      info.positive, info.metrics.at("positive_weight"), info.metrics.at("train_positive_fraction"),
      info.alphabet, info.k, info.min_length, info.max_length, c.output,
      static_cast<double>(fs::file_size(c.output)) / 1024.0);
  out << "## Network\n\n";
  std::string dilations;
  for (int b = 0; b < n.blocks; ++b) dilations += (b ? ", " : "") + std::to_string(1 << b);
  out << fmt::format(
      "1-D CNN (`models/src/classifier_network.cpp`): convolution K -> {} channels (kernel {}){}, "
      "GELU{}, then {} residual convolution block(s) of kernel {} (dilations {}, GELU); padded "
      "positions zeroed before every convolution; masked global max + mean pooling over real "
      "positions; head {} -> {} -> 1 (GELU, dropout {} while training). {} parameters.\n\n",
      n.width, n.kernel, n.positions ? " plus a learned position embedding" : "",
      n.pool > 1 ? fmt::format(", max pooling over windows of {}", n.pool) : "", n.blocks, n.kernel,
      n.blocks ? dilations : "none", 2 * n.width, n.hidden, n.dropout, info.parameters);
  out << "## Data\n\n";
  out << fmt::format("Labels: header field `{}=0/1` (`NA` skipped). Training data hash `{}`.\n\n",
                     c.label, info.data_hash);
  out << "| split | file | sequences | positives | NA skipped |\n|---|---|---|---|---|\n";
  for (const auto& s : splits)
    out << fmt::format("| {} | `{}` | {} | {} | {} |\n", s.name, s.configured, s.sequences,
                       s.positives, s.skipped);
  for (const auto& e : extras)
    out << fmt::format("| {} | `{}` | {} | 0 | - |\n", e.name, e.configured, e.sequences);
  if (!extras.empty())
    out << "\nExtra negatives (`data.extra_negatives`) join the training split only, with label "
           "0 (they count in the training positive fraction and the class weight); the metrics "
           "below are on the labelled files only, validation and test never see them. They are "
           "not fetched data: make them first (hard negatives: `scripts/make-hard-negatives`, "
           "docs/benchmarks.md).\n";
  out << "\nFiles are relative to the data folder (`--data`, else `$GSFLOW_DATA`, else `data/`; "
         "`scripts/fetch-data`, docs/data.md). The training split trains; the validation split "
         "selects the weights (best AUROC); the test split is reserved and was scored once, after "
         "training.\n\n";
  out << "## Training\n\n```sh\n" << command_line(cli) << "\n```\n\n";
  out << fmt::format(
      "AdamW lr {} (warm-up {} steps, cosine to {}x), weight decay {}, clip {}, batch {}, {} "
      "steps planned, EMA {}, validation every {} steps, seed {}, {} thread(s). {} steps in {} "
      "({}); best validation AUROC at step {}.\n\n",
      t.lr, t.warmup, t.min_lr_ratio, t.weight_decay, t.clip, t.batch, t.steps, t.ema,
      t.validate_every, t.seed, t.threads, r.steps_done, clock_text(r.seconds),
      r.over_time   ? "stopped by max_minutes"
      : r.cancelled ? "interrupted"
                    : "all steps",
      r.best_step);
  if (t.augment_substitution > 0.0)
    out << fmt::format(
        "Input augmentation (`train.augment_substitution` {}): each training sequence of a batch "
        "has its letters replaced by uniform random ones at a rate drawn from [0, {}]; "
        "validation and test are scored on the clean sequences.\n\n",
        t.augment_substitution, t.augment_substitution);
  out << "## Metrics\n\n| split | AUROC | accuracy (output >= 0) | majority-class accuracy |\n"
         "|---|---|---|---|\n";
  for (const auto& s : splits)
    if (s.auroc >= 0.0)
      out << fmt::format("| {} | {:.4f} | {:.4f} | {:.4f} |\n", s.name, s.auroc, s.accuracy,
                         s.majority());
  out << "\nAccuracy is at output 0, i.e. P(positive) = 0.5 under equal class priors (the class "
         "weighting); on unbalanced splits the majority-class accuracy is the trivial baseline.\n";
  out << "\n## Speed\n\n";
  out << fmt::format(
      "`evaluate()` with input gradients on 1,024 one-hot sequences of length {}: {:.0f} ms "
      "({} thread(s), median of 3, measured right after training on the training machine). "
      "Against a generator denoiser call: `gsflow bench classifier --classifier {} --model "
      "MODEL` (docs/models.md).\n",
      info.max_length, gradient_ms, c.train.threads, info.name);
}

void run_train_classifier(const TrainClassifierCli& cli) {
  ClassifierConfig c = read_classifier_config(cli.config);
  apply_training_overrides(cli, c.output, c.train, c.max_minutes);
  c.train.max_minutes = c.max_minutes;
  const std::string name = c.train.info.name;

  std::error_code ec;
  if (fs::exists(c.output, ec) && !cli.force)
    throw std::invalid_argument(c.output + " already exists: --force replaces it");
  std::vector<SplitSummary> splits(2), extras(c.extra_negatives.size());
  Sequences extra_negatives;
  for (std::size_t i = 0; i < extras.size(); ++i) {
    const auto more = read_extra_negatives(c, c.extra_negatives[i], cli.data, extras[i]);
    extra_negatives.insert(extra_negatives.end(), more.begin(), more.end());
  }
  const auto train = read_split(c, "train", c.train_file, cli.data, splits[0], extra_negatives);
  const auto validation = read_split(c, "validation", c.validation_file, cli.data, splits[1]);
  std::optional<models::LabelledDataset> test;
  if (!c.test_file.empty()) {
    splits.emplace_back();
    test = read_split(c, "test", c.test_file, cli.data, splits[2]);
  }
  for (const auto& s : splits)
    std::cerr << fmt::format(
        "train-classifier {}: {} {} sequences ({} with {}=1, {} NA skipped) "
        "from {}\n",
        name, s.name, s.sequences, s.positives, c.label, s.skipped, s.file);
  for (const auto& e : extras)
    std::cerr << fmt::format("train-classifier {}: train + {} extra negatives ({}=0) from {}\n",
                             name, e.sequences, c.label, e.file);
  if (!extras.empty())
    std::cerr << fmt::format("train-classifier {}: training set {} sequences ({} with {}=1)\n",
                             name, train.labels.size(), splits[0].positives, c.label);

  std::atomic<bool> cancel{false};
  std::optional<InterruptGuard> interrupt(std::in_place);
  const auto progress = [&](const models::TrainProgress& p) {
    const double rate = static_cast<double>(p.step) / std::max(p.seconds, 1e-9);
    std::cerr << fmt::format(
        "train-classifier {}: step {}/{} loss {:.4f} val AUROC {} acc {} best {} lr {:.2e} "
        "{:.0f} seq/s elapsed {} eta {}\n",
        name, p.step, p.total, p.loss, p.val_auroc < 0 ? "-" : fmt::format("{:.4f}", p.val_auroc),
        p.val_accuracy < 0 ? "-" : fmt::format("{:.4f}", p.val_accuracy),
        p.best_val_auroc < 0 ? "-" : fmt::format("{:.4f}", p.best_val_auroc), p.lr,
        rate * static_cast<double>(c.train.batch), clock_text(p.seconds),
        clock_text(rate > 0 ? static_cast<double>(p.total - p.step) / rate : 0.0));
    if (interrupt->stop_requested()) cancel = true;
  };
  auto result =
      models::train_classifier(train, validation, c.train, progress, c.report_every, &cancel);
  const bool interrupted = interrupt->stop_requested();
  interrupt.reset();
  models::Classifier& classifier = result.classifier;
  splits[1].auroc = result.best_val_auroc;
  splits[1].accuracy = result.best_val_accuracy;
  classifier.set_metric(
      "validation_positive_fraction",
      static_cast<double>(splits[1].positives) / static_cast<double>(splits[1].sequences));
  {
    // On the labelled training file (its records come first; extra negatives are left out, so
    // the figure compares with a classifier trained without them).
    auto scores = models::classifier_scores(classifier, train.data);
    scores.resize(splits[0].sequences);
    const std::vector<std::uint8_t> labels(train.labels.begin(),
                                           train.labels.begin() + splits[0].sequences);
    splits[0].auroc = engine::auroc(scores, labels);
    splits[0].accuracy = engine::accuracy(scores, labels, 0.0);
    classifier.set_metric("train_auroc", splits[0].auroc);
    classifier.set_metric("train_accuracy", splits[0].accuracy);
  }
  if (test) {
    // The reserved split, once, with the weights already chosen on validation.
    const auto scores = models::classifier_scores(classifier, test->data);
    splits[2].auroc = engine::auroc(scores, test->labels);
    splits[2].accuracy = engine::accuracy(scores, test->labels, 0.0);
    classifier.set_metric("test_auroc", splits[2].auroc);
    classifier.set_metric("test_accuracy", splits[2].accuracy);
    classifier.set_metric("test_sequences", static_cast<double>(splits[2].sequences));
    classifier.set_metric("test_positive_fraction", static_cast<double>(splits[2].positives) /
                                                        static_cast<double>(splits[2].sequences));
  }
  fs::create_directories(fs::absolute(c.output).parent_path(), ec);
  classifier.save(c.output);
  const std::string card = fs::path(c.output).replace_extension(".md").string();
  classifier.set_threads(c.train.threads);
  write_card(card, c, cli, classifier, result, splits, extras, gradient_ms_per_1024(classifier));
  std::cerr << fmt::format(
      "train-classifier {}: {} after {} steps in {}; {} parameters; best validation AUROC {:.4f} "
      "(accuracy {:.4f}) at step {}\n",
      name,
      result.over_time ? "stopped at the time budget" : (result.cancelled ? "interrupted" : "done"),
      result.steps_done, clock_text(result.seconds), classifier.info().parameters,
      result.best_val_auroc, result.best_val_accuracy, result.best_step);
  for (const auto& s : splits)
    if (s.auroc >= 0.0)
      std::cerr << fmt::format(
          "train-classifier {}: {} AUROC {:.4f} accuracy {:.4f} (majority class {:.4f})\n", name,
          s.name, s.auroc, s.accuracy, s.majority());
  std::cerr << fmt::format("train-classifier {}: wrote {} and {}\n", name, c.output, card);
  if (result.cancelled && interrupted) command_exit_code() = kExitInterrupted;
}

}  // namespace

void add_train_classifier_command(CLI::App& app) {
  auto cli = std::make_shared<TrainClassifierCli>();
  auto own = std::make_shared<OwnClassifierCli>();
  auto* cmd = app.add_subcommand(
      "train-classifier",
      "Train a guidance classifier from a config file (configs/classifier-NAME.json), or from "
      "plain files: --name NAME --positives A.fasta --negatives B.fasta, or --name NAME --table "
      "DATA.csv (docs/own-data.md)");
  add_training_options(*cmd, *cli, "Replace an existing output");
  add_own_classifier_options(*cmd, *own);
  recipe_or_name(
      *cmd, *cli, own->name, [cli] { run_train_classifier(*cli); },
      [cli, own] { run_train_own_classifier(*own, *cli); }, "plain files");
}

}  // namespace gsflow::app
