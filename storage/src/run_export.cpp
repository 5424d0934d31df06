// FASTA headers and CSV rows of stored sequences (see run_export.hpp).
#include "gsflow/storage/run_export.hpp"

#include <cstdio>
#include <map>
#include <set>

namespace gsflow::storage {

namespace {

std::string number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::string sequence_id(const std::string& run, const SequenceRecord& s) {
  return run + "_s" + std::to_string(s.index);
}

std::string score_label(const std::string& objective) {
  static const std::string plugin = "classifier:";
  if (objective.rfind(plugin, 0) != 0) return objective;
  std::string file = objective.substr(plugin.size());
  if (const auto slash = file.find_last_of('/'); slash != std::string::npos)
    file = file.substr(slash + 1);
  if (const auto dot = file.find_last_of('.'); dot != std::string::npos && dot > 0)
    file.resize(dot);
  for (char& c : file)
    if (c == ' ' || c == '\t' || c == '=' || c == ',') c = '_';
  return file.empty() ? objective : file;
}

std::map<std::string, double> labelled_scores(const std::map<std::string, double>& scores) {
  std::map<std::string, double> out;
  for (const auto& [objective, value] : scores) {
    const std::string label = score_label(objective);
    // A plug-in whose file stem is another score's name keeps its full spec.
    const bool clash = label != objective && (scores.count(label) || out.count(label));
    out.emplace(clash ? objective : label, value);
  }
  return out;
}

std::string fasta_header(const std::string& run, const std::string& model,
                         const std::string& method, std::uint64_t seed, int steps,
                         const SequenceRecord& s, const std::string& made_with) {
  std::string header = sequence_id(run, s) + " model=" + model + " method=" + method +
                       " seed=" + std::to_string(seed) + " steps=" + std::to_string(steps) +
                       " length=" + std::to_string(s.text.size());
  if (!made_with.empty()) header += " " + made_with;
  for (const auto& [objective, value] : labelled_scores(s.scores))
    header += " " + objective + "=" + number("%.6g", value);
  if (s.novelty) header += " novelty=" + number("%.6g", *s.novelty);
  return header;
}

void write_csv(std::ostream& out, const std::string& run,
               const std::vector<SequenceRecord>& sequences) {
  std::vector<std::map<std::string, double>> scores;
  scores.reserve(sequences.size());
  std::set<std::string> names;
  for (const auto& s : sequences) {
    scores.push_back(labelled_scores(s.scores));
    for (const auto& [k, v] : scores.back()) names.insert(k);
  }
  out << "id,index,sequence,length";
  for (const auto& name : names) out << "," << csv_field(name);
  out << ",novelty\n";
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const auto& s = sequences[i];
    out << csv_field(sequence_id(run, s)) << "," << s.index << "," << s.text << ","
        << s.text.size();
    for (const auto& name : names) {
      const auto it = scores[i].find(name);
      out << "," << (it == scores[i].end() ? "" : number("%.6g", it->second));
    }
    out << "," << (s.novelty ? number("%.6g", *s.novelty) : "") << "\n";
  }
}

}  // namespace gsflow::storage
