// Reading, checking and splitting the user's own labelled data (see own_data.hpp).
#include "own_data.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/engine/hash.hpp"

extern char** environ;

namespace gsflow::app {

namespace {

namespace fs = std::filesystem;
using engine::InputError;

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

bool is_na(const std::string& v) {
  const auto l = lower(v);
  return l.empty() || l == "na" || l == "nan" || l == "n/a";
}

// A binary label, or -1 when the text is not one.
int binary_label(const std::string& v) {
  const auto l = lower(v);
  if (l == "1" || l == "true" || l == "yes" || l == "pos" || l == "positive") return 1;
  if (l == "0" || l == "false" || l == "no" || l == "neg" || l == "negative") return 0;
  return -1;
}

// A finite number, or false.
bool parse_number(const std::string& v, double& out) {
  if (v.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(v.c_str(), &end);
  return end == v.c_str() + v.size() && errno == 0 && std::isfinite(out);
}

double label_value(const std::string& text, OwnTask task, const std::string& file,
                   std::size_t line, const std::string& column) {
  if (task == OwnTask::binary) {
    const int y = binary_label(text);
    if (y < 0) {
      double number = 0.0;
      throw InputError(file, line,
                       column + " is '" + text + "', not a binary label (0/1, true/false, yes/no)" +
                           (parse_number(text, number) ? "; for numeric values use --task regression"
                                                       : ""));
    }
    return y;
  }
  double v = 0.0;
  if (!parse_number(text, v))
    throw InputError(file, line, column + " is '" + text + "', not a number (regression values)");
  return v;
}

std::uint64_t seeded(std::uint64_t seed, const std::string& s) {
  return engine::fnv1a64(s.data(), s.size(), engine::fnv1a64(&seed, sizeof seed));
}

}  // namespace

CsvTable read_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  CsvTable t;
  std::size_t line = 1;
  std::vector<std::string> row;
  std::string field;
  std::size_t row_line = 1;
  bool any = false;  // the current row has content
  const auto end_row = [&] {
    row.push_back(field);
    field.clear();
    const bool blank = !any && row.size() == 1 && trim(row[0]).empty();
    if (!blank) {
      if (t.header.empty()) {
        for (auto& h : row) h = trim(h);
        t.header = row;
      } else {
        if (row.size() != t.header.size())
          throw InputError(path, row_line,
                           std::to_string(row.size()) + " fields, the header has " +
                               std::to_string(t.header.size()));
        t.rows.push_back(row);
        t.lines.push_back(row_line);
      }
    }
    row.clear();
    any = false;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"' && trim(field).empty()) {  // a quoted field
      const std::size_t start_line = line;
      field.clear();
      ++i;
      for (;;) {
        if (i >= text.size()) throw InputError(path, start_line, "unterminated quoted field");
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        if (text[i] == '\n') ++line;
        field += text[i++];
      }
      any = true;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
      if (i < text.size() && text[i] != ',' && text[i] != '\n')
        throw InputError(path, line, "text after a closing quote");
      continue;
    }
    if (c == ',') {
      row.push_back(field);
      field.clear();
      any = true;
      ++i;
    } else if (c == '\n') {
      if (!field.empty() && field.back() == '\r') field.pop_back();
      end_row();
      ++line;
      row_line = line;
      ++i;
    } else {
      field += c;
      ++i;
    }
  }
  if (!field.empty() || !row.empty()) {
    if (!field.empty() && field.back() == '\r') field.pop_back();
    end_row();
  }
  if (t.header.empty()) throw InputError(path, 0, "empty file (a header row is needed)");
  return t;
}

std::vector<OwnRecord> read_table_records(const std::string& path,
                                          const std::string& sequence_column,
                                          const std::string& label_column, OwnTask task,
                                          std::size_t* skipped) {
  const CsvTable t = read_csv(path);
  const auto column = [&](const std::string& name, const char* option) {
    const auto it = std::find(t.header.begin(), t.header.end(), name);
    if (it == t.header.end()) {
      std::string have;
      for (const auto& h : t.header) have += (have.empty() ? "" : ", ") + h;
      throw InputError(path, 1,
                       std::string("no column '") + name + "' (" + option + "); the header has: " +
                           have);
    }
    return static_cast<std::size_t>(it - t.header.begin());
  };
  const std::size_t sc = column(sequence_column, "--sequence-column");
  const std::size_t lc = column(label_column, "--label-column");
  std::vector<OwnRecord> out;
  std::size_t na = 0;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const std::size_t line = t.lines[r];
    const std::string label = trim(t.rows[r][lc]);
    if (is_na(label)) {
      ++na;
      continue;
    }
    OwnRecord rec;
    rec.sequence = upper(trim(t.rows[r][sc]));
    rec.sequence.erase(std::remove_if(rec.sequence.begin(), rec.sequence.end(),
                                      [](char c) { return c == ' ' || c == '\t'; }),
                       rec.sequence.end());
    if (rec.sequence.empty()) throw InputError(path, line, sequence_column + " is empty");
    rec.value = label_value(label, task, path, line, label_column);
    rec.file = path;
    rec.line = line;
    rec.id = "row " + std::to_string(r + 1);
    out.push_back(std::move(rec));
  }
  if (skipped) *skipped = na;
  return out;
}

std::vector<OwnRecord> read_fasta_records(const std::string& path, double label) {
  std::vector<OwnRecord> out;
  for (auto& r : engine::read_fasta(path))
    out.push_back({upper(std::move(r.sequence)), label, path, r.line, r.id});
  return out;
}

std::vector<OwnRecord> read_labelled_fasta_records(const std::string& path, OwnTask task) {
  const std::string key = task == OwnTask::binary ? "label" : "value";
  std::vector<OwnRecord> out;
  for (auto& r : engine::read_fasta(path)) {
    std::string text;
    bool found = false;
    std::istringstream words(r.description);
    for (std::string w; words >> w;)
      if (w.rfind(key + "=", 0) == 0) {
        text = w.substr(key.size() + 1);
        found = true;
      }
    if (!found)
      throw InputError(path, r.line,
                       "record " + r.id + " has no " + key + "= field in its header (" +
                           (task == OwnTask::binary ? "label=0 or label=1" : "value=NUMBER") + ")");
    if (is_na(text)) continue;
    const double v = label_value(text, task, path, r.line, key);
    out.push_back({upper(std::move(r.sequence)), v, path, r.line, r.id});
  }
  return out;
}

std::string detect_alphabet(const std::vector<OwnRecord>& records) {
  if (records.empty()) throw std::invalid_argument("no sequences to detect the alphabet from");
  std::size_t nucleotide = 0, total = 0;
  for (const auto& r : records)
    for (const char c : r.sequence) {
      ++total;
      nucleotide += c == 'A' || c == 'C' || c == 'G' || c == 'T' || c == 'U' || c == 'N';
    }
  return nucleotide >= 0.9 * static_cast<double>(total) ? "dna" : "protein";
}

std::vector<OwnRecord> merge_duplicates(std::vector<OwnRecord> records, OwnTask task,
                                        std::size_t* merged) {
  std::unordered_map<std::string, std::size_t> first;  // sequence -> index in out
  std::vector<OwnRecord> out;
  std::vector<std::size_t> count;
  std::size_t folded = 0;
  for (auto& r : records) {
    const auto [it, fresh] = first.emplace(r.sequence, out.size());
    if (fresh) {
      out.push_back(std::move(r));
      count.push_back(1);
      continue;
    }
    OwnRecord& kept = out[it->second];
    ++folded;
    if (task == OwnTask::binary) {
      if (kept.value != r.value)
        throw InputError(r.file, r.line,
                         "the same sequence labelled both ways: " + r.id + " (label " +
                             std::to_string(static_cast<int>(r.value)) + ") is also " + kept.id +
                             " at " + kept.file + ":" + std::to_string(kept.line) + " (label " +
                             std::to_string(static_cast<int>(kept.value)) + ")");
    } else {
      const auto n = static_cast<double>(++count[it->second]);
      kept.value += (r.value - kept.value) / n;  // running mean
    }
  }
  if (merged) *merged = folded;
  return out;
}

void check_counts(const std::vector<OwnRecord>& records, OwnTask task, const std::string& role) {
  if (records.empty()) throw InputError("", 0, role + ": no sequences");
  if (task == OwnTask::regression) {
    if (records.size() < kMinRegression)
      throw InputError(records.back().file, records.back().line,
                       role + ": " + std::to_string(records.size()) +
                           " sequences with a value; at least " + std::to_string(kMinRegression) +
                           " are needed");
    double lo = records[0].value, hi = lo;
    for (const auto& r : records) lo = std::min(lo, r.value), hi = std::max(hi, r.value);
    if (lo == hi)
      throw InputError(records.back().file, 0,
                       role + ": every value is " + std::to_string(lo) + "; nothing to learn");
    return;
  }
  std::size_t n[2] = {0, 0};
  const OwnRecord* last[2] = {nullptr, nullptr};
  for (const auto& r : records) {
    const int y = r.value > 0.5;
    ++n[y];
    last[y] = &r;
  }
  for (int y = 0; y < 2; ++y) {
    const OwnRecord* other = last[1 - y];
    const char* name = y ? "positive" : "negative";
    if (n[y] == 0)  // a CSV: its header line, where the label column is named
      throw InputError(other->file, other->id.rfind("row ", 0) == 0 ? 1 : other->line,
                       role + ": one class only: " + std::to_string(n[1 - y]) + " " +
                           (y ? "negative" : "positive") + " sequences and no " + name +
                           " ones (both classes are needed)");
    if (n[y] < kMinPerClass)
      throw InputError(last[y]->file, last[y]->line,
                       role + ": only " + std::to_string(n[y]) + " " + name +
                           " sequences (unique); at least " + std::to_string(kMinPerClass) +
                           " per class are needed");
  }
}

double held_out_fraction(std::size_t n) { return n < 1000 ? 0.2 : 0.1; }

std::vector<bool> random_split(const std::vector<OwnRecord>& records, OwnTask task, double fraction,
                               std::uint64_t seed) {
  std::vector<std::size_t> clusters(records.size());
  for (std::size_t i = 0; i < clusters.size(); ++i) clusters[i] = i;
  return cluster_split(records, clusters, task, fraction, seed);
}

std::vector<bool> cluster_split(const std::vector<OwnRecord>& records,
                                const std::vector<std::size_t>& cluster, OwnTask task,
                                double fraction, std::uint64_t seed) {
  if (cluster.size() != records.size())
    throw std::invalid_argument("cluster_split: one cluster per record needed");
  // Members and a key per cluster: the smallest seeded hash of its sequences.
  std::map<std::size_t, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < records.size(); ++i) members[cluster[i]].push_back(i);
  std::vector<std::pair<std::uint64_t, std::size_t>> order;
  for (const auto& [c, m] : members) {
    std::uint64_t key = UINT64_MAX;
    for (const auto i : m) key = std::min(key, seeded(seed, records[i].sequence));
    order.emplace_back(key, c);
  }
  std::sort(order.begin(), order.end());
  // Targets per class (binary) or overall (regression; one "class").
  const auto klass = [&](std::size_t i) {
    return task == OwnTask::binary && records[i].value > 0.5 ? 1 : 0;
  };
  std::size_t total[2] = {0, 0}, held[2] = {0, 0};
  for (std::size_t i = 0; i < records.size(); ++i) ++total[klass(i)];
  std::size_t target[2];
  for (int y = 0; y < 2; ++y)
    target[y] = total[y] ? std::max<std::size_t>(
                               1, static_cast<std::size_t>(std::llround(fraction * total[y])))
                         : 0;
  std::vector<bool> out(records.size(), false);
  for (const auto& [key, c] : order) {
    if (held[0] >= target[0] && held[1] >= target[1]) break;
    const auto& m = members[c];
    bool wanted = false;
    for (const auto i : m) wanted = wanted || held[klass(i)] < target[klass(i)];
    if (!wanted) continue;
    for (const auto i : m) {
      out[i] = true;
      ++held[klass(i)];
    }
  }
  return out;
}

void check_user_model_name(const std::string& name) {
  if (name.empty()) throw std::invalid_argument("--name is required (the model's name)");
  if (name.size() > 64 || !std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
      }) || name[0] == '.' || name[0] == '-')
    throw std::invalid_argument("--name " + name +
                                ": use letters, digits, '-', '_' and '.' (at most 64, not "
                                "starting with '.' or '-'): it becomes a file name and a --model "
                                "or --guide name");
}

std::vector<std::size_t> cd_hit_clusters(const std::vector<std::string>& sequences,
                                         double identity, int threads, std::string* command) {
  std::string tmpl = (fs::temp_directory_path() / "gsflow-cdhit-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("cd-hit: cannot make a temporary folder");
  const fs::path dir(tmpl);
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{dir};
  {
    std::ofstream out(dir / "in.fasta");
    for (std::size_t i = 0; i < sequences.size(); ++i)
      out << ">r" << i << "\n" << sequences[i] << "\n";
    if (!out) throw std::runtime_error("cd-hit: cannot write " + (dir / "in.fasta").string());
  }
  // Word size for the identity (cd-hit's guide: -n 2 for 0.4-0.5, 3 for 0.5-0.6, 4 for 0.6-0.7, 5
  // above); -l 9 keeps 10-residue peptides (the default throws away sequences of <= 10).
  const int word = identity <= 0.5 ? 2 : identity <= 0.6 ? 3 : identity <= 0.7 ? 4 : 5;
  char c_text[32];
  std::snprintf(c_text, sizeof c_text, "%.2f", identity);
  const std::vector<std::string> args = {"cd-hit",
                                         "-i", (dir / "in.fasta").string(),
                                         "-o", (dir / "out").string(),
                                         "-c", c_text,
                                         "-n", std::to_string(word),
                                         "-l", "9",
                                         "-T", std::to_string(std::max(1, threads)),
                                         "-M", "0",
                                         "-d", "0"};
  if (command) {
    *command = "cd-hit -c " + std::string(c_text) + " -n " + std::to_string(word) + " -l 9 -M 0 -d 0";
  }
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log = (dir / "cd-hit.log").string();
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "cd-hit", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    throw std::runtime_error(
        "cd-hit is not installed (Debian package cd-hit); it makes the identity-clustered "
        "held-out split for proteins: install it, or give --validation FILE, or --split random");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
      if (!trim(line).empty()) last = trim(line);
    throw std::runtime_error("cd-hit failed (" + last + ")");
  }
  // .clstr: ">Cluster K", then "J\tLaa, >rI... *" per member.
  std::vector<std::size_t> cluster(sequences.size(), SIZE_MAX);
  std::ifstream in(dir / "out.clstr");
  std::string line;
  std::size_t current = 0, n_clusters = 0;
  while (std::getline(in, line)) {
    if (line.rfind(">Cluster", 0) == 0) {
      current = n_clusters++;
      continue;
    }
    const auto gt = line.find(">r");
    const auto dots = line.find("...", gt == std::string::npos ? 0 : gt);
    if (gt == std::string::npos || dots == std::string::npos) continue;
    const auto index = std::stoul(line.substr(gt + 2, dots - gt - 2));
    if (index < cluster.size()) cluster[index] = current;
  }
  for (auto& c : cluster)
    if (c == SIZE_MAX) c = n_clusters++;  // left out by cd-hit: a cluster of its own
  return cluster;
}

}  // namespace gsflow::app
