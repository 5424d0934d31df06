// `gsflow score FILE.fasta`: scores existing sequences the way generation scores its own: the
// built-in properties every stored sequence has (GC, GRAVY), any --guide objective (built-in,
// bundled classifier or plug-in), the constraint status under generate's constraint options, and
// the highest identity to a training sequence (gsflow eval's novelty) where a training set is
// known. The baseline a designer compares designs against (issue 37, item 5).
#include "score_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsflow/engine/design/constraints.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/engine/metrics/distance.hpp"
#include "gsflow/guidance/objective.hpp"
#include "gsflow/guidance/properties.hpp"
#include "gsflow/guidance/stgflow.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/judge.hpp"
#include "gsflow/models/model.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "output_file.hpp"
#include "run_options.hpp"
#include "sequence_sets.hpp"

namespace gsflow::app {

namespace {

using Row = nlohmann::ordered_json;  // one record's columns, in output order

// Objectives take lengths as 16-bit numbers (guidance::SequenceRows).
constexpr std::size_t kMaxLength = 65535;

struct ScoreCli {
  std::string input, model, alphabet, train, data, out = "-";
  std::vector<std::string> guides;
  std::vector<std::string> judges;  // independent k-mer judges (models/pretrained/judges)
  pipeline::RunParams params;  // the constraint options and --threads write here (run schema)
  bool csv = false, json = false;
};

// The input's records ("-": standard input, named "stdin" in messages). Throws InputError naming
// the file and line for malformed FASTA, and for a file without records.
std::vector<engine::FastaRecord> read_input(const std::string& path, const std::string& shown) {
  std::vector<engine::FastaRecord> records;
  try {
    engine::FastaReader reader(path, kMaxLength);  // "-": standard input
    while (auto record = reader.next()) records.push_back(std::move(*record));
  } catch (const engine::InputError& e) {
    if (path != "-") throw;
    throw engine::InputError(shown, e.line(), e.message());
  }
  if (records.empty()) throw engine::InputError(shown, 0, "no FASTA records to score");
  return records;
}

// DNA when every letter of every record is one of ACGTN (either case), else protein.
std::string guess_alphabet(const std::vector<engine::FastaRecord>& records) {
  for (const auto& r : records)
    for (const char c : r.sequence)
      if (std::string_view("ACGTNacgtn").find(c) == std::string_view::npos) return "protein";
  return "dna";
}

// The scores of every record under `objective`. A record the objective cannot score (a length
// outside a classifier's range, a non-finite score from a plug-in) is named by file and line.
std::vector<double> score_records(const guidance::Objective& objective,
                                  const engine::SequenceSet& letters,
                                  const std::vector<engine::FastaRecord>& records,
                                  const std::string& shown) {
  try {
    return guidance::score_sequences(objective, letters);
  } catch (const std::invalid_argument& whole) {
    for (std::size_t i = 0; i < letters.size(); ++i) {
      try {
        guidance::score_sequences(objective, engine::SequenceSet{letters[i]});
      } catch (const std::invalid_argument& e) {
        throw engine::InputError(shown, records[i].line,
                                 "record '" + records[i].id + "': " + e.what());
      }
    }
    throw;
  }
}

// A cell as text: numbers with 6 significant digits (tells 0.99996 from 1), lists joined with
// "; ", null as `null_text`.
std::string cell_text(const nlohmann::ordered_json& v, const std::string& null_text) {
  if (v.is_null()) return null_text;
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
    return buf;
  }
  if (v.is_array()) {
    std::string text;
    for (const auto& item : v) text += (text.empty() ? "" : "; ") + cell_text(item, null_text);
    return text;
  }
  return v.dump();
}

// RFC 4180: a field with a comma, a double quote or a line break is quoted, quotes doubled.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void write_csv(std::ostream& out, const std::vector<std::string>& columns,
               const std::vector<Row>& rows) {
  for (std::size_t c = 0; c < columns.size(); ++c) out << (c ? "," : "") << csv_field(columns[c]);
  out << "\n";
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < columns.size(); ++c)
      out << (c ? "," : "") << csv_field(cell_text(row[columns[c]], ""));
    out << "\n";
  }
}

// Aligned columns: text (id, violations) to the left, numbers to the right, "-" for no value.
void write_table(std::ostream& out, const std::vector<std::string>& columns,
                 const std::vector<Row>& rows) {
  std::vector<std::vector<std::string>> cells(rows.size());
  std::vector<std::size_t> width(columns.size());
  std::vector<bool> left(columns.size(), false);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    width[c] = columns[c].size();
    left[c] = columns[c] == "id" || columns[c] == "violations";
  }
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < columns.size(); ++c) {
      cells[r].push_back(cell_text(rows[r][columns[c]], "-"));
      width[c] = std::max(width[c], cells[r].back().size());
    }
  const auto line = [&](const std::vector<std::string>& texts) {
    std::string text;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c) text += "  ";
      const bool last = c + 1 == columns.size();
      text += left[c] ? (last ? texts[c] : fmt::format("{:<{}}", texts[c], width[c]))
                      : fmt::format("{:>{}}", texts[c], width[c]);
    }
    out << text << "\n";
  };
  line(columns);
  for (const auto& row : cells) line(row);
}

void run_score(const ScoreCli& cli) {
  if (cli.csv && cli.json)
    throw std::invalid_argument("--csv and --json: give one output format (default: a table)");
  const std::string shown = cli.input == "-" ? "stdin" : cli.input;

  // The model (alphabet, training set) is checked before the input is read: a wrong name fails
  // at once, even when the input is a pipe.
  std::string model_file, alphabet_name, train_file;
  std::size_t model_length = 0;
  if (!cli.model.empty()) {
    model_file = models::resolve_model(cli.model);
    const auto model = models::Model::load(model_file);
    alphabet_name = model.spec().alphabet;
    model_length = model.spec().length;
    alphabet_named(alphabet_name, "--model " + cli.model + ": alphabet");  // dna or protein
  }
  if (!cli.alphabet.empty()) {
    alphabet_named(cli.alphabet, "--alphabet");
    if (!alphabet_name.empty() && cli.alphabet != alphabet_name)
      throw std::invalid_argument("--alphabet " + cli.alphabet + ": --model " + cli.model +
                                  " makes " + alphabet_name + " sequences");
    alphabet_name = cli.alphabet;
  }
  const auto records = read_input(cli.input, shown);
  if (alphabet_name.empty()) {
    alphabet_name = guess_alphabet(records);
    std::cerr << "score: alphabet " << alphabet_name << ", guessed from the letters of " << shown
              << (alphabet_name == "dna" ? " (only ACGTN)" : " (not only ACGTN)")
              << "; --alphabet or --model sets it\n";
  }
  const engine::Alphabet& alphabet = alphabet_named(alphabet_name, "alphabet");
  engine::SequenceSet letters;
  letters.reserve(records.size());
  for (const auto& r : records) letters.push_back(*engine::encode_record(r, alphabet, {}, shown));

  // Everything that can refuse its options is built before any scoring.
  const engine::ConstraintSet constraints(cli.params.design.constraints, alphabet);
  std::vector<std::string> guide_names;
  std::vector<std::shared_ptr<const guidance::Objective>> objectives;
  bool weighted = false;
  for (const auto& text : cli.guides) {
    const auto term = guidance::parse_guide_term(text);
    weighted = weighted || term.weight != 1.0;
    if (std::find(guide_names.begin(), guide_names.end(), term.objective) != guide_names.end())
      continue;
    objectives.push_back(
        guidance::make_objective(term.objective, alphabet_name, cli.params.threads));
    guide_names.push_back(term.objective);
  }
  if (weighted)
    std::cerr << "score: guide weights are ignored (each objective is its own column)\n";
  std::vector<models::KmerJudge> judges;
  for (const auto& name : cli.judges) {
    judges.push_back(models::KmerJudge::load(models::resolve_judge(name)));
    if (judges.back().info().alphabet != alphabet_name)
      throw std::invalid_argument("--judge " + name + ": judges " + judges.back().info().alphabet +
                                  " sequences, these are " + alphabet_name);
  }

  // The training set: --train, else the model's training split in the data folder (the one
  // `gsflow eval` compares with).
  if (!cli.train.empty()) {
    train_file = cli.train;
  } else if (!cli.model.empty()) {
    const std::string dataset =
        alphabet_name == "dna" ? fmt::format("dna{}", model_length) : "peptide";
    const auto candidate = data_file(dataset + "/train.fasta", cli.data);
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec))
      train_file = candidate;
    else
      std::cerr << "score: no training set for " << cli.model << " (" << candidate
                << " not found: scripts/fetch-data, --data DIR or --train FILE.fasta); no "
                   "train_identity column\n";
  } else {
    std::cerr << "score: no training set known (--model NAME or --train FILE.fasta); no "
                 "train_identity column\n";
  }
  std::vector<std::optional<double>> identity;
  if (!train_file.empty()) {
    const auto training = read_sequences(train_file, alphabet, 1, kMaxLength);
    if (training.empty()) throw engine::InputError(train_file, 0, "no training sequences");
    std::set<std::size_t> lengths;
    for (const auto& t : training) lengths.insert(t.size());
    const auto novelty = engine::novelty(letters, training, alphabet.size());
    std::size_t unmatched = 0;
    for (std::size_t i = 0; i < letters.size(); ++i) {
      if (lengths.count(letters[i].size())) {
        identity.emplace_back(novelty.identity[i]);
      } else {
        identity.emplace_back(std::nullopt);
        ++unmatched;
      }
    }
    std::cerr << fmt::format(
        "score: train_identity: highest ungapped identity to a training sequence of the same "
        "length, {} sequences in {} (gsflow eval's novelty)\n",
        training.size(), train_file);
    if (unmatched)
      std::cerr << fmt::format(
          "score: {} record(s) have a length no training sequence has: train_identity left "
          "empty\n",
          unmatched);
  }

  // The table: id, length, the stored properties, the objectives, identity, constraints.
  std::vector<Row> rows(records.size());
  std::vector<std::string> columns = {"id", "length"};
  for (const auto& [name, value] : guidance::property_scores(alphabet_name, letters.front()))
    columns.push_back(name);
  for (std::size_t i = 0; i < records.size(); ++i) {
    rows[i]["id"] = records[i].id;
    rows[i]["length"] = letters[i].size();
    for (const auto& [name, value] : guidance::property_scores(alphabet_name, letters[i]))
      rows[i][name] = value;
  }
  for (std::size_t t = 0; t < objectives.size(); ++t) {
    const auto scores = score_records(*objectives[t], letters, records, shown);
    if (std::find(columns.begin(), columns.end(), guide_names[t]) == columns.end())
      columns.push_back(guide_names[t]);
    for (std::size_t i = 0; i < records.size(); ++i) rows[i][guide_names[t]] = scores[i];
  }
  for (std::size_t j = 0; j < judges.size(); ++j) {
    const std::string column = "judge:" + cli.judges[j];
    if (std::find(columns.begin(), columns.end(), column) != columns.end()) continue;
    columns.push_back(column);
    const auto p = judges[j].probabilities(letters);
    for (std::size_t i = 0; i < records.size(); ++i) rows[i][column] = p[i];
  }
  if (!identity.empty()) {
    columns.push_back("train_identity");
    for (std::size_t i = 0; i < records.size(); ++i)
      rows[i]["train_identity"] =
          identity[i] ? nlohmann::ordered_json(*identity[i]) : nlohmann::ordered_json();
  }
  std::size_t met = 0;
  if (constraints.active()) {
    columns.push_back("constraints_met");
    columns.push_back("violations");
    for (std::size_t i = 0; i < records.size(); ++i) {
      const auto broken = constraints.violations(letters[i]);
      met += broken.empty();
      rows[i]["constraints_met"] = broken.empty() ? 1 : 0;
      rows[i]["violations"] = broken;
    }
  }

  OutputFile file(cli.out);
  if (cli.json) {
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (auto& row : rows) all.push_back(std::move(row));
    file.stream() << all.dump(2) << "\n";
  } else if (cli.csv) {
    write_csv(file.stream(), columns, rows);
  } else {
    write_table(file.stream(), columns, rows);
  }
  file.commit();
  std::cerr << fmt::format(
      "score: {} records from {} ({}){}{}\n", records.size(), shown, alphabet_name,
      constraints.active() ? fmt::format(", constraints met by {} of {}", met, records.size()) : "",
      cli.out == "-" ? "" : ", wrote " + cli.out);
}

}  // namespace

void add_score_command(CLI::App& app) {
  auto cli = std::make_shared<ScoreCli>();
  auto* cmd = app.add_subcommand(
      "score",
      "Score existing sequences (FASTA): properties, objectives, constraints, identity to the "
      "training set");
  cmd->add_option("FILE", cli->input, "FASTA file of the sequences to score (- = stdin)")
      ->required();
  cmd->add_option("--guide", cli->guides,
                  "Score with an objective: NAME[:ARG], repeatable, as generate's --guide (gc, "
                  "gc:0.6, motif, tata, promoter; gravy, charge, amp; classifier:FILE.ckpt|.json); "
                  "a weight is ignored")
      ->allow_extra_args(false);  // `--guide gc FILE`: FILE is the input
  cmd->add_option("--judge", cli->judges,
                  "Also score with an independent judge (P(class), column judge:NAME): a bundled "
                  "judge name (amp, promoter) or a judge .json file; repeatable")
      ->allow_extra_args(false);
  auto* model =
      cmd->add_option("--model", cli->model,
                      "Bundled model name or checkpoint: its alphabet, and its training split (for "
                      "train_identity)");
  cmd->add_option("--alphabet", cli->alphabet,
                  "dna or protein (default: the model's, else guessed from the letters)");
  cmd->add_option("--train", cli->train,
                  "Training sequences (FASTA) for train_identity (default: the model's training "
                  "split)");
  cmd->add_option("--data", cli->data,
                  "Data folder holding the model's training split (default: $GSFLOW_DATA or "
                  "data/)")
      ->needs(model);
  add_run_options(*cmd, cli->params,
                  {"avoid", "max_run", "gc_min", "gc_max", "gc_window", "omit", "threads"});
  cmd->add_option("--out", cli->out, "File to write (default: stdout)");
  cmd->add_flag("--csv", cli->csv, "Write CSV (a header row, RFC 4180 quoting)");
  cmd->add_flag("--json", cli->json, "Write a JSON array of objects, one per record");
  cmd->callback([cli] { run_score(*cli); });
}

}  // namespace gsflow::app
