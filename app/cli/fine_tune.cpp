// `gsflow train --name NAME --fasta FAMILY --init MODEL` (see fine_tune.hpp).
#include "fine_tune.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <tuple>

#include "fine_tune_family.hpp"
#include "fine_tune_report.hpp"
#include "generator_training.hpp"
#include "global_options.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/classifier.hpp"
#include "progress.hpp"
#include "train_config.hpp"

namespace gsflow::app {

namespace {

namespace fs = std::filesystem;

// A temporary folder for the training state (the best weights), removed with everything in it.
struct TempFolder {
  fs::path path;
  TempFolder() {
    std::string tmpl = (fs::temp_directory_path() / "gsflow-fine-tune-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot make a temporary folder");
    path = tmpl;
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
};

// The checkpoint NAME goes to, refused when the name would be shadowed by a bundled model (the
// catalog searches the user folder last), is a user classifier's (`models delete NAME` removes
// both), or exists without --force.
std::string destination(const std::string& name, const TrainingCli& common) {
  check_user_model_name(name);
  std::error_code ec;
  if (!common.out.empty()) {
    if (fs::exists(common.out, ec) && !common.force)
      throw std::invalid_argument("--out " + common.out + " already exists (--force replaces it)");
    return common.out;
  }
  const fs::path user = models::user_models_folder();
  for (const auto& folder : models::model_folders())
    if (fs::path(folder) != user && fs::is_regular_file(fs::path(folder) / (name + ".ckpt"), ec))
      throw std::invalid_argument("--name " + name + ": a bundled model has that name (" +
                                  (fs::path(folder) / (name + ".ckpt")).string() +
                                  "); choose another name");
  for (const auto& classifier : models::bundled_classifiers())
    if (classifier == name)
      throw std::invalid_argument("--name " + name + ": a classifier has that name (" +
                                  models::resolve_classifier(name) + "); choose another name");
  const std::string out = (user / (name + ".ckpt")).string();
  if (fs::exists(out, ec) && !common.force)
    throw std::invalid_argument("--name " + name + ": " + out +
                                " already exists (gsflow models delete " + name +
                                ", or --force replaces it)");
  return out;
}

std::string file_hash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return models::content_hash(bytes.view());
}

std::string command_line(const FineTuneCli& c, const TrainingCli& t) {
  std::string s = "gsflow train --name " + c.name + " --fasta " + c.fasta + " --init " + c.init;
  const auto add = [&](const char* flag, const std::string& v) {
    if (!v.empty()) s += std::string(" ") + flag + " " + v;
  };
  add("--validation", c.validation);
  add("--test", c.test);
  if (c.split != "auto") add("--split", c.split);
  if (c.lr != FineTuneCli{}.lr) add("--lr", fmt::format("{}", c.lr));
  if (c.patience != FineTuneCli{}.patience) add("--patience", std::to_string(c.patience));
  if (c.eval_n != FineTuneCli{}.eval_n) add("--eval-n", std::to_string(c.eval_n));
  if (c.seed != 1) add("--seed", std::to_string(c.seed));
  return s + overrides_text(t);
}

// Fine-tuning defaults from the training part's size n: batches of n/4 (8..64); about 40 passes
// (200..2,000 steps: enough to move a pretrained network, a few minutes on 2 cores); a fifth of
// the from-scratch learning rate, so the base's knowledge is adapted rather than overwritten;
// validation ~20 times (the early-stopping clock); EMA 0.99 (the recipes' 0.999 would average
// over more steps than a fine-tuning run has).
models::TrainOptions fine_tune_options(std::size_t n, const FineTuneCli& cli,
                                       const TrainingCli& common) {
  models::TrainOptions o;
  const auto count = static_cast<std::int64_t>(n);
  o.batch = static_cast<std::size_t>(std::clamp<std::int64_t>(count / 4, 8, 64));
  o.steps = std::clamp<std::int64_t>(40 * count / static_cast<std::int64_t>(o.batch), 200, 2000);
  if (common.steps > 0) o.steps = common.steps;
  o.lr = cli.lr;
  o.warmup = std::max<std::int64_t>(1, std::min<std::int64_t>(100, o.steps / 10));
  o.validate_every = std::clamp<std::int64_t>(o.steps / 20, 10, 250);
  o.ema = 0.99;
  o.time_sampling = models::TimeSampling::stratified;
  o.threads = common.threads > 0 ? common.threads : 2;
  o.seed = cli.seed;
  return o;
}

// The family and its parts, read and checked (the summary receives the counts and the split).
struct Parts {
  FamilyPart train, held_out, test;  // test is empty without --test
  std::size_t unique = 0;            // unique sequences in the family
};

Parts read_parts(const FineTuneCli& cli, const TrainingCli& common, const models::ModelSpec& spec,
                 const std::string& base_name, FineTuneSummary& s) {
  Parts parts;
  FamilyPart& train = parts.train;
  FamilyPart& held_out = parts.held_out;
  FamilyPart& test = parts.test;
  std::size_t merged = 0;
  const FamilyPart all = read_family(cli.fasta, spec, base_name, "family", kMinFamily, &merged);
  parts.unique = all.records.size();
  s.family_records = all.records.size() + merged;
  s.merged = merged;
  if (!cli.validation.empty()) {
    held_out = read_family(cli.validation, spec, base_name, "held-out", kMinHeldOutFile);
    train = all;
    train.name = "train";
    const std::size_t dropped = remove_held_out(train, held_out);
    s.split_text = fmt::format("the user's file `{}`{}", cli.validation,
                               dropped ? fmt::format(" ({} of its sequences also in the family "
                                                     "were left out of training)",
                                                     dropped)
                                       : "");
  } else {
    std::tie(train, held_out) =
        split_family(all, spec.alphabet,
                     {cli.split, cli.seed, common.threads > 0 ? common.threads : 2}, &s.split_text);
  }
  if (!cli.test.empty()) {
    test = read_family(cli.test, spec, base_name, "test", kMinHeldOutFile);
    if (const std::size_t dropped = remove_held_out(train, test))
      s.split_text +=
          fmt::format("; {} sequences of the --test file left out of training", dropped);
  }
  if (train.records.size() < kMinFamily / 2)
    throw engine::InputError(cli.fasta, 0,
                             fmt::format("only {} sequences are left to train on once those of "
                                         "the held-out files are removed; at least {} are needed",
                                         train.records.size(), kMinFamily / 2));
  return parts;
}

// What `models list --json` and a later reader of the checkpoint find in its record.
void record_figures(std::map<std::string, double>& m, const FineTuneSummary& s,
                    const Parts& parts) {
  m["fine_tune_steps"] = static_cast<double>(s.steps_done);
  m["best_step"] = static_cast<double>(s.best_step);
  m["train_seconds"] = s.train_seconds;
  m["train_sequences"] = static_cast<double>(parts.train.records.size());
  m["held_out_sequences"] = static_cast<double>(parts.held_out.records.size());
  m["train_loss"] = s.losses.tuned_train;
  m["held_out_loss"] = s.losses.tuned_held_out;
  m["base_held_out_loss"] = s.losses.base_held_out;
  const std::size_t kmax = eval_kmax(s.spec);
  for (const auto& e : s.evals) {
    const std::string key =
        (e.part == "test" ? "test" : "held_out") + fmt::format("_kmer_js_{}", kmax);
    m[key] = e.tuned.kmer_js[kmax - 1];
    m["base_" + key] = e.base.kmer_js[kmax - 1];
  }
}

}  // namespace

void add_fine_tune_options(CLI::App& cmd, FineTuneCli& cli) {
  cmd.add_option("--name", cli.name,
                 "Fine-tune a generator on your family (no --config): the model's name (file in "
                 "the user models folder, `generate --model NAME`)");
  cmd.add_option("--fasta", cli.fasta, "The family to fine-tune on (FASTA; with --name)");
  cmd.add_option("--init", cli.init,
                 "Base model (with --name): dna-promoter, peptide, any name generate --model "
                 "takes or a checkpoint; network, path, method and lengths come from it (DNA: "
                 "exactly its length; peptides: up to its maximum)");
  add_held_out_options(cmd, cli,
                       "FASTA held-out part (early stopping, the card's figures); default: split "
                       "off the family (20 % below 1,000 sequences, else 10 %; proteins fall back "
                       "to random without cd-hit)",
                       "FASTA scored once after fine-tuning (the card's figures)");
  cmd.add_option("--lr", cli.lr, "Peak learning rate of fine-tuning")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--eval-n", cli.eval_n,
                 "Sequences the fine-tuned and the base model generate for the card's k-mer JS "
                 "figures on the held-out part (0 = none)")
      ->capture_default_str();
  cmd.footer(fmt::format(
      "Fine-tuning (--name): {} unique sequences at least; steps default to ~40 passes over the "
      "training part (200..2,000) in batches of n/4 (8..64); a warning when steps x batch / "
      "training sequences exceeds {:.0f} passes (the family is too small for the steps: it may be "
      "learnt by heart; watch validation against training loss).",
      kMinFamily, kMaxPasses));
}

void run_fine_tune(const FineTuneCli& cli, const TrainingCli& common) {
  const auto t_start = std::chrono::steady_clock::now();
  if (cli.fasta.empty() || cli.init.empty())
    throw std::invalid_argument("train --name: --fasta FAMILY.fasta and --init MODEL are needed");
  if (!common.data.empty()) throw std::invalid_argument("--data is for --config; give the files");
  const std::string out = destination(cli.name, common);
  const std::string card = fs::path(out).replace_extension(".md").string();

  // The base: every setting of the fine-tuned model is its.
  std::string base_file;
  try {
    base_file = models::resolve_model(cli.init);
  } catch (const models::ModelError& e) {
    throw std::invalid_argument("--init " + cli.init + ": " + e.what());
  }
  const models::Model base = models::Model::load(base_file);
  const models::ModelSpec& spec = base.spec();
  if (spec.alphabet != "dna" && spec.alphabet != "protein")
    throw std::invalid_argument("--init " + cli.init + ": " + base_file +
                                " is not a DNA or protein model");
  const std::string base_name = fs::path(base_file).stem().string();

  // Read and check everything before training: any error leaves no file behind.
  FineTuneSummary s;
  Parts parts = read_parts(cli, common, spec, base_name, s);
  const FamilyPart &train = parts.train, &held_out = parts.held_out, &test = parts.test;
  const auto train_data = to_dataset(train.sequences, spec.length);
  const auto held_data = to_dataset(held_out.sequences, spec.length);

  TrainConfig c;
  c.name = cli.name;
  c.alphabet = spec.alphabet;
  c.output = out;
  c.init = base_file;
  c.spec = spec;
  c.train = fine_tune_options(train.records.size(), cli, common);
  c.max_minutes = common.max_minutes >= 0 ? common.max_minutes : 15.0;
  c.report_every = c.train.validate_every;  // every report follows a validation: early stopping
  const models::TrainOptions& o = c.train;
  const auto warn = [&](std::string text) {
    std::cerr << "warning: " << text << "\n";
    s.warnings.push_back(std::move(text));
  };
  s.passes = static_cast<double>(o.steps) * static_cast<double>(o.batch) /
             static_cast<double>(train.records.size());
  if (s.passes > kMaxPasses)
    warn(fmt::format(
        "{} training sequences for {} steps of {}: each is seen about {:.0f} times (more than "
        "{:.0f}): the family is small for the steps and may be learnt by heart; compare the "
        "validation loss with the training loss, or give fewer --steps or more sequences",
        train.records.size(), o.steps, o.batch, s.passes, kMaxPasses));
  std::cerr << fmt::format(
      "train {}: fine-tuning {} ({}) on {}: {} unique sequences{}, {} train / {} held-out{}; {} "
      "steps of {} (~{:.0f} passes), lr {}, validation every {}, patience {}\n",
      cli.name, base_name, base_file, cli.fasta, parts.unique,
      s.merged ? fmt::format(" ({} duplicates folded)", s.merged) : "", train.records.size(),
      held_out.records.size(),
      test.records.empty() ? "" : fmt::format(" / {} test", test.records.size()), o.steps, o.batch,
      s.passes, o.lr, o.validate_every, cli.patience);
  std::cerr << fmt::format("train {}: held out: {}\n", cli.name, s.split_text);

  // The trainer keeps the weights of the lowest validation loss in STATE.best (the base's own at
  // step 0 included): those are what is written.
  TempFolder state;
  c.train.checkpoint_file = (state.path / "state").string();
  double best = -1.0;
  int stale = 0;
  const StopRule early_stop = [&](const models::TrainProgress& p) {
    if (p.val_loss < 0.0 || cli.patience == 0) return false;
    if (best < 0.0 || p.val_loss < best) {
      best = p.val_loss;
      stale = 0;
      return false;
    }
    return ++stale >= cli.patience;
  };
  auto run = train_generator(c, train_data, held_data, false, early_stop);
  if (run.interrupted) {
    std::cerr << fmt::format("train {}: interrupted: nothing written\n", cli.name);
    command_exit_code() = kExitInterrupted;
    return;
  }
  models::Model tuned = models::Model::load(c.train.checkpoint_file + ".best");
  s.best_step = tuned.record().train_steps;
  s.steps_done = run.result.steps_done;
  s.train_seconds = run.result.seconds;
  s.stopped = run.stopped_by_rule ? fmt::format(
                                        "early stop: {} validations without a lower "
                                        "held-out loss",
                                        cli.patience)
              : run.over_time ? "stopped at the time budget"
                              : "all steps";

  const std::uint64_t loss_seed = o.seed ^ 0x5eedULL;  // the trainer's validation noise
  const auto loss = [&](const models::Model& m, const models::Dataset& d) {
    return models::validation_loss(m, d, o.validation_batches, o.batch, loss_seed);
  };
  s.losses = {loss(base, train_data), loss(base, held_data), loss(tuned, train_data),
              loss(tuned, held_data)};
  std::cerr << fmt::format(
      "train {}: loss (fixed noise)   training part  held-out part\n"
      "train {}:   base {:<18} {:.4f}         {:.4f}\n"
      "train {}:   fine-tuned step {:<7} {:.4f}         {:.4f}\n",
      cli.name, cli.name, base_name, s.losses.base_train, s.losses.base_held_out, cli.name,
      s.best_step, s.losses.tuned_train, s.losses.tuned_held_out);
  if (run.result.last_val_loss > run.result.best_val_loss * 1.01 && s.best_step < s.steps_done)
    warn(fmt::format(
        "the held-out loss rose from {:.4f} (step {}) to {:.4f} (last validation) while training "
        "went on: over-fitting; the weights of step {} are kept",
        run.result.best_val_loss, s.best_step, run.result.last_val_loss, s.best_step));
  if (s.best_step == 0)
    warn(
        "no step lowered the held-out loss below the base model's: the weights "
        "written are the base's");

  // `gsflow eval` figures of both models' sequences on each held-out part.
  s.eval_n = cli.eval_n;
  s.eval_seed = cli.seed;
  if (cli.eval_n > 0) {
    const auto t0 = std::chrono::steady_clock::now();
    const Sequences tuned_set = generate_for_eval(tuned, cli.eval_n, cli.seed, o.threads);
    const Sequences base_set = generate_for_eval(base, cli.eval_n, cli.seed, o.threads);
    for (const FamilyPart* part : {&held_out, &test})
      if (!part->records.empty())
        s.evals.push_back(
            evaluate_part(cli.name, base_name, tuned_set, base_set, *part, train, spec, cli.seed));
    std::cerr << fmt::format(
        "train {}: {} sequences from each model and their figures in {:.1f} s\n", cli.name,
        cli.eval_n, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }

  s.spec = spec;
  record_figures(tuned.record().metrics, s, parts);

  // Write: the checkpoint (temporary file + rename), then its card.
  std::error_code ec;
  fs::create_directories(fs::absolute(out).parent_path(), ec);
  if (fs::exists(out, ec) && !common.force)
    throw std::invalid_argument(out + " appeared while training; nothing written (--force)");
  tuned.save_for_inference(out);
  s.name = cli.name;
  s.out = out;
  s.command = command_line(cli, common);
  s.base_name = base_name;
  s.base_file = base_file;
  s.base_hash = models::model_hash(base_file);
  s.family_file = cli.fasta;
  s.family_hash = file_hash(cli.fasta);
  s.parts = {&train, &held_out};
  if (!test.records.empty()) s.parts.push_back(&test);
  s.data_hash = tuned.record().data_hash;
  s.options = o;
  s.patience = cli.patience;
  s.total_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  write_fine_tune_card(card, s);
  const std::size_t kmax = eval_kmax(spec);
  for (const auto& e : s.evals) {
    std::cout << e.table;
    std::cerr << fmt::format(
        "train {}: {}-mer JS to the {} part ({} sequences): fine-tuned {:.4f}, base {:.4f}, floor "
        "{:.4f}\n",
        cli.name, kmax, e.part, e.sequences, e.tuned.kmer_js[kmax - 1], e.base.kmer_js[kmax - 1],
        e.floor[kmax - 1]);
  }
  std::cerr << fmt::format(
      "train {}: {} after {} steps in {}; weights of step {} (held-out loss {:.4f}, base {:.4f}); "
      "wrote {} and {}\n",
      cli.name, s.stopped, s.steps_done, clock_text(s.train_seconds), s.best_step,
      s.losses.tuned_held_out, s.losses.base_held_out, out, card);
}

}  // namespace gsflow::app
