// `gsflow train-classifier --name NAME --positives/--negatives | --table` (see own_classifier.hpp).
#include "own_classifier.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

#include "global_options.hpp"
#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/classification_metrics.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/guidance/objective.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/classifier_training.hpp"
#include "interrupt.hpp"
#include "own_data.hpp"
#include "progress.hpp"
#include "sequence_sets.hpp"

namespace gsflow::app {

namespace {

namespace fs = std::filesystem;

// A held-out or training part, encoded, with where it came from.
struct Part {
  std::string name;  // "train", "validation", "test"
  std::vector<OwnRecord> records;
  Sequences sequences;
  models::LabelledDataset data;
  std::size_t positives() const {
    std::size_t n = 0;
    for (const auto& r : records) n += r.value > 0.5;
    return n;
  }
};

struct Metrics {
  double auroc = -1, accuracy = -1, majority = -1;  // binary
  double spearman = -2, rmse = -1, sd = -1;         // regression (sd: of the part's values)
};

void encode(Part& p, const engine::Alphabet& alphabet) {
  p.sequences.clear();
  for (const auto& r : p.records)
    p.sequences.push_back(*engine::encode_sequence(alphabet, r.sequence, {},
                                                   {r.file, r.line, r.id}));
}

void to_data(Part& p, std::size_t max_length, OwnTask task) {
  p.data.data = to_dataset(p.sequences, max_length);
  p.data.labels.clear();
  p.data.values.clear();
  for (const auto& r : p.records) {
    if (task == OwnTask::binary)
      p.data.labels.push_back(r.value > 0.5 ? 1 : 0);
    else
      p.data.values.push_back(r.value);
  }
}

Metrics measure(const models::Classifier& c, const Part& p, OwnTask task) {
  Metrics m;
  const auto scores = models::classifier_scores(c, p.data.data);
  if (task == OwnTask::binary) {
    m.auroc = engine::auroc(scores, p.data.labels);
    m.accuracy = engine::accuracy(scores, p.data.labels, 0.0);
    const double f = static_cast<double>(p.positives()) / static_cast<double>(p.records.size());
    m.majority = std::max(f, 1.0 - f);
  } else {
    m.spearman = models::spearman(scores, p.data.values);
    double sq = 0, mean = 0, var = 0;
    for (std::size_t i = 0; i < scores.size(); ++i)
      sq += (scores[i] - p.data.values[i]) * (scores[i] - p.data.values[i]);
    for (const double v : p.data.values) mean += v;
    mean /= static_cast<double>(scores.size());
    for (const double v : p.data.values) var += (v - mean) * (v - mean);
    m.rmse = std::sqrt(sq / static_cast<double>(scores.size()));
    m.sd = std::sqrt(var / static_cast<double>(scores.size()));
  }
  return m;
}

std::string metric_text(const Metrics& m, OwnTask task) {
  if (task == OwnTask::binary)
    return fmt::format("AUROC {:.4f} accuracy {:.4f} (majority class {:.4f})", m.auroc, m.accuracy,
                       m.majority);
  return fmt::format("Spearman {:.4f} RMSE {:.4g} (values' SD {:.4g})", m.spearman, m.rmse, m.sd);
}

// Names that --guide already gives another meaning (properties, parametrised objectives).
void check_name(const std::string& name) {
  check_user_model_name(name);
  std::set<std::string> taken = {"classifier", "natural"};
  const auto classifiers = models::bundled_classifiers();  // bundled and the user's
  for (const char* alphabet : {"dna", "protein"})
    for (const auto& n : guidance::objective_names(alphabet))
      if (std::find(classifiers.begin(), classifiers.end(), n) == classifiers.end()) taken.insert(n);
  if (taken.count(name))
    throw std::invalid_argument("--name " + name + ": a built-in guidance objective has that name");
}

std::string command_line(const OwnClassifierCli& c, const TrainingCli& t) {
  std::string s = "gsflow train-classifier --name " + c.name;
  const auto add = [&](const char* flag, const std::string& v) {
    if (!v.empty()) s += std::string(" ") + flag + " " + v;
  };
  add("--positives", c.positives);
  add("--negatives", c.negatives);
  add("--table", c.table);
  if (!c.table.empty()) {
    add("--sequence-column", c.sequence_column);
    add("--label-column", c.label_column);
  }
  if (c.task != "binary") add("--task", c.task);
  add("--alphabet", c.alphabet);
  add("--validation", c.validation);
  add("--test", c.test);
  if (c.split != "auto") add("--split", c.split);
  if (c.seed != 1) add("--seed", std::to_string(c.seed));
  return s + overrides_text(t);
}

}  // namespace

void add_own_classifier_options(CLI::App& cmd, OwnClassifierCli& cli) {
  cmd.add_option("--name", cli.name,
                 "Train from plain files (no --config): the model's name (file, --guide NAME, "
                 "FASTA header key)");
  cmd.add_option("--positives", cli.positives, "FASTA of positive sequences (with --negatives)");
  cmd.add_option("--negatives", cli.negatives, "FASTA of negative sequences (with --positives)");
  cmd.add_option("--table", cli.table, "CSV with a header row: a sequence and a label column");
  cmd.add_option("--sequence-column", cli.sequence_column, "CSV column of the sequences")
      ->capture_default_str();
  cmd.add_option("--label-column", cli.label_column,
                 "CSV column of the labels (0/1) or values (--task regression)")
      ->capture_default_str();
  cmd.add_option("--task", cli.task, "binary (a classifier) or regression (values, CSV only)")
      ->check(CLI::IsMember({"binary", "regression"}))
      ->capture_default_str();
  cmd.add_option("--alphabet", cli.alphabet, "dna or protein (default: from the letters)")
      ->check(CLI::IsMember({"dna", "protein"}));
  add_held_out_options(
      cmd, cli,
      "Held-out file for early stopping and the card's figures (CSV like --table, or FASTA with "
      "label=0|1 / value=X in the headers); default: split off the data",
      "Untouched file scored once after training (same forms)");
  cmd.add_option("--positive", cli.positive, "What a high output means (card, reports)");
  cmd.add_option("--min-length", cli.min_length, "Shortest sequence accepted (default: the data's)");
  cmd.add_option("--max-length", cli.max_length, "Longest sequence accepted (default: the data's)");
}

void run_train_own_classifier(const OwnClassifierCli& cli, const TrainingCli& common) {
  const auto t_start = std::chrono::steady_clock::now();
  check_name(cli.name);
  const OwnTask task = cli.task == "regression" ? OwnTask::regression : OwnTask::binary;
  const bool fasta = !cli.positives.empty() || !cli.negatives.empty();
  if (fasta == !cli.table.empty())
    throw std::invalid_argument(
        "train-classifier --name: give --positives and --negatives (FASTA), or --table (CSV)");
  if (fasta && (cli.positives.empty() || cli.negatives.empty()))
    throw std::invalid_argument("train-classifier --name: --positives and --negatives go together");
  if (fasta && task == OwnTask::regression)
    throw std::invalid_argument("--task regression needs --table (a CSV with a value column)");
  if (!common.data.empty())
    throw std::invalid_argument("--data is for --config; give the files' paths");

  // Where the model goes; an existing one stays unless --force (and bundled ones always stay).
  const std::string out =
      common.out.empty()
          ? (fs::path(models::user_models_folder()) / "classifiers" / (cli.name + ".ckpt")).string()
          : common.out;
  const std::string card = fs::path(out).replace_extension(".md").string();
  for (const auto& bundled : models::bundled_classifiers()) {
    if (bundled != cli.name) continue;
    const auto file = models::resolve_classifier(bundled);
    if (fs::weakly_canonical(file) != fs::weakly_canonical(out))
      throw std::invalid_argument("--name " + cli.name + ": a classifier of that name exists (" +
                                  file + "); choose another name");
  }
  std::error_code ec;
  if (fs::exists(out, ec) && !common.force)
    throw std::invalid_argument("--name " + cli.name + ": " + out +
                                " already exists (gsflow models delete " + cli.name +
                                ", or --force replaces it)");

  // Read everything before training: any error leaves no file behind.
  std::size_t skipped = 0, merged = 0;
  std::vector<OwnRecord> all;
  std::string data_text;
  if (fasta) {
    all = read_fasta_records(cli.positives, 1.0);
    if (all.empty()) throw engine::InputError(cli.positives, 0, "no sequences (positives)");
    auto neg = read_fasta_records(cli.negatives, 0.0);
    if (neg.empty()) throw engine::InputError(cli.negatives, 0, "no sequences (negatives)");
    all.insert(all.end(), neg.begin(), neg.end());
    data_text = fmt::format("positives `{}`, negatives `{}`", cli.positives, cli.negatives);
  } else {
    all = read_table_records(cli.table, cli.sequence_column, cli.label_column, task, &skipped);
    if (all.empty()) throw engine::InputError(cli.table, 0, "no rows with a label");
    data_text = fmt::format("`{}` (sequence column `{}`, {} column `{}`)", cli.table,
                            cli.sequence_column, task == OwnTask::binary ? "label" : "value",
                            cli.label_column);
  }
  all = merge_duplicates(std::move(all), task, &merged);
  const std::string alphabet_name = cli.alphabet.empty() ? detect_alphabet(all) : cli.alphabet;
  const engine::Alphabet& alphabet = alphabet_named(alphabet_name, "--alphabet");
  for (const auto& r : all)  // letters outside the alphabet: file and line, before any work
    engine::encode_sequence(alphabet, r.sequence, {}, {r.file, r.line, r.id});
  check_counts(all, task, "training data");

  const auto read_held_out = [&](const std::string& file, const char* name) {
    Part p;
    p.name = name;
    p.records = fs::path(file).extension() == ".csv" || !cli.table.empty()
                    ? read_table_records(file, cli.sequence_column, cli.label_column, task)
                    : read_labelled_fasta_records(file, task);
    p.records = merge_duplicates(std::move(p.records), task);
    if (task == OwnTask::binary) {
      const std::size_t pos = p.positives();
      if (pos == 0 || pos == p.records.size())
        throw engine::InputError(file, 0,
                                 std::string(name) + " data: one class only (" +
                                     std::to_string(pos) + " positives of " +
                                     std::to_string(p.records.size()) + "); both are needed");
    } else if (p.records.size() < 3) {
      throw engine::InputError(file, 0, std::string(name) + " data: at least 3 values needed");
    }
    encode(p, alphabet);
    return p;
  };
  std::vector<Part> parts(2);
  parts[0].name = "train";
  std::string split_text;
  if (!cli.validation.empty()) {
    parts[1] = read_held_out(cli.validation, "validation");
    std::set<std::string> held;
    for (const auto& r : parts[1].records) held.insert(r.sequence);
    std::size_t dropped = 0;
    for (auto& r : all) {
      if (held.count(r.sequence))
        ++dropped;
      else
        parts[0].records.push_back(r);
    }
    split_text = fmt::format("the user's file `{}`{}", cli.validation,
                             dropped ? fmt::format(" ({} of its sequences also in the training "
                                                   "data were left out of training)",
                                                   dropped)
                                     : "");
  } else {
    const double fraction = held_out_fraction(all.size());
    const bool clusters =
        cli.split == "cd-hit" || (cli.split == "auto" && alphabet_name == "protein");
    std::vector<bool> held;
    if (clusters) {
      std::vector<std::string> seqs;
      for (const auto& r : all) seqs.push_back(r.sequence);
      std::string command;
      const auto t0 = std::chrono::steady_clock::now();
      const auto cluster =
          cd_hit_clusters(seqs, 0.5, std::max(1, common.threads), &command);
      const std::size_t n_clusters = *std::max_element(cluster.begin(), cluster.end()) + 1;
      held = cluster_split(all, cluster, task, fraction, cli.seed);
      split_text = fmt::format(
          "{:.0f} % held out as whole clusters of 50 % identity ({} clusters; `{}`, {:.1f} s), "
          "seed {}",
          100 * fraction, n_clusters, command,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), cli.seed);
    } else {
      held = random_split(all, task, fraction, cli.seed);
      split_text = fmt::format("{:.0f} % held out at random{}, seed {}", 100 * fraction,
                               task == OwnTask::binary ? " within each class" : "", cli.seed);
    }
    parts[1].name = "validation";
    for (std::size_t i = 0; i < all.size(); ++i)
      (held[i] ? parts[1] : parts[0]).records.push_back(all[i]);
    const auto one_class = [](const Part& p) {
      const auto pos = p.positives();
      return pos == 0 || pos == p.records.size();
    };
    if (task == OwnTask::binary && (one_class(parts[0]) || one_class(parts[1])))
      throw engine::InputError(fasta ? cli.positives : cli.table, 0,
                               "the held-out split left one side with one class only (a few "
                               "large clusters?): give --validation FILE or --split random");
  }
  encode(parts[0], alphabet);
  if (cli.validation.empty()) encode(parts[1], alphabet);
  if (!cli.test.empty()) parts.push_back(read_held_out(cli.test, "test"));

  std::size_t lo = SIZE_MAX, hi = 0;
  for (const auto& p : parts)
    for (const auto& s : p.sequences) lo = std::min(lo, s.size()), hi = std::max(hi, s.size());
  const std::size_t min_length = cli.min_length ? cli.min_length : lo;
  const std::size_t max_length = cli.max_length ? cli.max_length : hi;
  if (min_length < 1 || max_length < min_length || max_length > 65535)
    throw std::invalid_argument("--min-length/--max-length: 1 <= min <= max <= 65535 required");
  for (const auto& p : parts)
    for (std::size_t i = 0; i < p.sequences.size(); ++i)
      if (p.sequences[i].size() < min_length || p.sequences[i].size() > max_length)
        throw engine::InputError(p.records[i].file, p.records[i].line,
                                 fmt::format("{} has {} letters, outside --min-length {} .. "
                                             "--max-length {}",
                                             p.records[i].id, p.sequences[i].size(), min_length,
                                             max_length));
  for (auto& p : parts) to_data(p, max_length, task);

  // Defaults from the data: ~40 passes over the training set in batches of up to 64, between 200
  // and 3,000 steps, validated ~20 times; dropout and EMA for small sets.
  models::ClassifierTrainOptions o;
  const auto n = static_cast<std::int64_t>(parts[0].records.size());
  o.batch = static_cast<std::size_t>(std::clamp<std::int64_t>(n / 8, 8, 64));
  o.steps = std::clamp<std::int64_t>(40 * n / static_cast<std::int64_t>(o.batch), 200, 3000);
  if (common.steps > 0) o.steps = common.steps;
  o.validate_every = std::clamp<std::int64_t>(o.steps / 20, 10, 250);
  o.warmup = std::max<std::int64_t>(1, std::min<std::int64_t>(100, o.steps / 10));
  o.lr = 2e-3;
  o.weight_decay = 0.05;
  o.ema = o.steps >= 1000 ? 0.99 : 0.95;
  o.threads = common.threads > 0 ? common.threads : 1;
  o.seed = cli.seed;
  o.max_minutes = common.max_minutes >= 0 ? common.max_minutes : 15.0;
  o.regression = task == OwnTask::regression;
  o.ties_by_loss = true;  // an easy task saturates AUROC early, before the logits are calibrated
  o.network.width = 32;
  o.network.blocks = 2;
  o.network.kernel = 9;
  o.network.hidden = 32;
  o.network.dropout = n < 2000 ? 0.3 : 0.1;
  o.network.pool = max_length > 512 ? 2 : 1;
  models::ClassifierInfo& info = o.info;
  info.name = cli.name;
  info.alphabet = alphabet_name;
  info.k = alphabet.size();
  info.min_length = min_length;
  info.max_length = max_length;
  info.positive = !cli.positive.empty() ? cli.positive
                  : task == OwnTask::regression
                      ? "predicted " + cli.label_column
                      : (fasta ? "like " + fs::path(cli.positives).filename().string()
                               : cli.label_column + " = 1");

  const char* metric = task == OwnTask::binary ? "AUROC" : "Spearman";
  std::cerr << fmt::format(
      "train-classifier {}: {} {} sequences, {} train / {} validation{}{}; {} letters {}..{}; "
      "{} steps of {} (validation every {}, patience {})\n",
      cli.name, all.size(), alphabet_name, parts[0].records.size(), parts[1].records.size(),
      parts.size() > 2 ? fmt::format(" / {} test", parts[2].records.size()) : "",
      merged ? fmt::format(" ({} duplicates merged)", merged) : "", alphabet_name, min_length,
      max_length, o.steps, o.batch, o.validate_every, cli.patience);
  std::cerr << fmt::format("train-classifier {}: held out: {}\n", cli.name, split_text);

  std::atomic<bool> cancel{false};
  bool early_stopped = false;
  int stale = 0;
  double best = -2.0, best_loss = 0.0;
  std::optional<InterruptGuard> interrupt(std::in_place);
  const auto progress = [&](const models::TrainProgress& p) {
    const double rate = static_cast<double>(p.step) / std::max(p.seconds, 1e-9);
    std::cerr << fmt::format(
        "train-classifier {}: step {}/{} loss {:.4f} val {} {} best {} {:.0f} seq/s elapsed {} "
        "eta {}\n",
        cli.name, p.step, p.total, p.loss, metric,
        p.val_auroc < -1 ? "-" : fmt::format("{:.4f}", p.val_auroc),
        p.best_val_auroc < -1 ? "-" : fmt::format("{:.4f}", p.best_val_auroc),
        rate * static_cast<double>(o.batch), clock_text(p.seconds),
        clock_text(rate > 0 ? static_cast<double>(p.total - p.step) / rate : 0.0));
    // Improved when the kept weights changed: a better metric, or a tie with a lower loss.
    if (p.best_val_auroc > best || (p.val_auroc == best && p.val_loss < best_loss)) {
      best = p.best_val_auroc;
      best_loss = p.val_loss;
      stale = 0;
    } else if (cli.patience > 0 && ++stale >= cli.patience && p.step < p.total) {
      early_stopped = true;
      cancel = true;
    }
    if (interrupt->stop_requested()) cancel = true;
  };
  auto result = models::train_classifier(parts[0].data, parts[1].data, o, progress,
                                         o.validate_every, &cancel);
  const bool interrupted = interrupt->stop_requested();
  interrupt.reset();
  if (interrupted)
    throw std::runtime_error("interrupted: nothing written");  // a half-trained model is no model
  models::Classifier& classifier = result.classifier;

  std::vector<Metrics> metrics;
  for (const auto& p : parts) metrics.push_back(measure(classifier, p, task));
  const auto record = [&](const std::string& split, const Metrics& m) {
    if (task == OwnTask::binary) {
      classifier.set_metric(split + "_auroc", m.auroc);
      classifier.set_metric(split + "_accuracy", m.accuracy);
    } else {
      classifier.set_metric(split + "_spearman", m.spearman);
      classifier.set_metric(split + "_rmse", m.rmse);
    }
  };
  record("train", metrics[0]);
  if (parts.size() > 2) {
    record("test", metrics[2]);
    classifier.set_metric("test_sequences", static_cast<double>(parts[2].records.size()));
  }
  classifier.set_metric("early_stopped", early_stopped ? 1.0 : 0.0);

  // Write: the checkpoint (temporary file + rename), then its card.
  fs::create_directories(fs::absolute(out).parent_path(), ec);
  if (fs::exists(out, ec) && !common.force)
    throw std::invalid_argument(out + " appeared while training; nothing written (--force)");
  classifier.save(out);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  {
    const auto& ci = classifier.info();
    std::ofstream md(card);
    md << fmt::format("# {} ({})\n\n", cli.name,
                      task == OwnTask::binary ? "classifier from the user's data"
                                              : "regressor from the user's data");
    md << fmt::format(
        "**Output:** {}. **Positive / higher:** {}. **Input:** {} one-hot, K = {}, length "
        "{}..{}. **File:** `{}`. **Use:** `gsflow generate --guide {}`, `gsflow score FILE "
        "--guide {}` (header key `{}`).\n\n",
        task == OwnTask::binary
            ? "logit (P = sigmoid; classes weighted to equal priors)"
            : "the predicted value in the data's units (guidance follows it directly)",
        ci.positive, alphabet_name, ci.k, min_length, max_length, out, cli.name, cli.name,
        cli.name);
    md << "## Data\n\n";
    md << fmt::format(
        "{}; {} unique sequences{}{}. Alphabet {} ({}). Training data hash `{}` (FNV-1a 64 of "
        "the training letters, lengths and {}).\n\n",
        data_text, all.size(), merged ? fmt::format(" ({} duplicates merged)", merged) : "",
        skipped ? fmt::format(", {} rows without a label skipped", skipped) : "", alphabet_name,
        cli.alphabet.empty() ? "read from the letters" : "--alphabet", ci.data_hash,
        task == OwnTask::binary ? "labels" : "values");
    md << "Held out: " << split_text << ".\n\n";
    md << (task == OwnTask::binary ? "| split | sequences | positives |\n|---|---|---|\n"
                                   : "| split | sequences |\n|---|---|\n");
    for (const auto& p : parts)
      md << (task == OwnTask::binary
                 ? fmt::format("| {} | {} | {} |\n", p.name, p.records.size(), p.positives())
                 : fmt::format("| {} | {} |\n", p.name, p.records.size()));
    md << "\n## Training\n\n```sh\n" << command_line(cli, common) << "\n```\n\n";
    md << fmt::format(
        "CNN (width {}, {} residual blocks, kernel {}, hidden {}, dropout {}, pool {}; {} "
        "parameters), AdamW lr {} (warm-up {}, cosine), weight decay {}, batch {}, EMA {}, {} "
        "loss, {} steps planned, validation every {}, patience {}, seed {}, {} thread(s). {} "
        "steps in {}{}; weights of step {} kept (best validation {}, ties broken by the "
        "validation loss).\n\n",
        o.network.width, o.network.blocks, o.network.kernel, o.network.hidden, o.network.dropout,
        o.network.pool, ci.parameters, o.lr, o.warmup, o.weight_decay, o.batch, o.ema,
        task == OwnTask::binary ? "class-weighted binary cross-entropy"
                                : "mean squared error on standardised targets",
        o.steps, o.validate_every, cli.patience, o.seed, o.threads, result.steps_done,
        clock_text(result.seconds),
        early_stopped      ? " (early stop)"
        : result.over_time ? " (time budget)"
                           : "",
        result.best_step, metric);
    md << "## Metrics\n\n";
    md << (task == OwnTask::binary
               ? "| split | AUROC | accuracy (output >= 0) | majority class |\n|---|---|---|---|\n"
               : "| split | Spearman | RMSE | SD of values |\n|---|---|---|---|\n");
    for (std::size_t i = 0; i < parts.size(); ++i)
      md << (task == OwnTask::binary
                 ? fmt::format("| {} | {:.4f} | {:.4f} | {:.4f} |\n", parts[i].name,
                               metrics[i].auroc, metrics[i].accuracy, metrics[i].majority)
                 : fmt::format("| {} | {:.4f} | {:.4g} | {:.4g} |\n", parts[i].name,
                               metrics[i].spearman, metrics[i].rmse, metrics[i].sd));
    md << "\nThe validation split also chose the stopping step, so its figure is slightly "
          "optimistic; a `--test` file, when given, was scored once after training.\n\n";
    if (task == OwnTask::regression)
      md << fmt::format(
          "As a guide the potential is the predicted value itself (not a log probability): "
          "`--guide {}=W` with W about 1 / SD of the training values ({:.3g}) gives one SD the "
          "weight of an e-fold change of a classifier's probability.\n\n",
          cli.name, 1.0 / ci.metrics.at("target_sd"));
    md << fmt::format("Total time {} (reading, split, training, scoring).\n", clock_text(seconds));
  }
  for (std::size_t i = 0; i < parts.size(); ++i)
    std::cerr << fmt::format("train-classifier {}: {} ({} sequences) {}\n", cli.name,
                             parts[i].name, parts[i].records.size(),
                             metric_text(metrics[i], task));
  std::cerr << fmt::format(
      "train-classifier {}: {} after {} steps in {}{}; wrote {} and {}\n", cli.name,
      early_stopped ? "stopped early" : (result.over_time ? "stopped at the time budget" : "done"),
      result.steps_done, clock_text(result.seconds),
      fmt::format(" (best validation {} at step {})", metric, result.best_step), out, card);
}

}  // namespace gsflow::app
