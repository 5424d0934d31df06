// FASTA headers and CSV rows of stored sequences (see run_export.hpp).
#include "gsflow/storage/run_export.hpp"

#include <cstdio>
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

std::string sequence_id(const std::string& run, const SequenceRecord& s) {
  return run + "_s" + std::to_string(s.index);
}

}  // namespace

std::string fasta_header(const std::string& run, const std::string& model,
                         const std::string& method, std::uint64_t seed, int steps,
                         const SequenceRecord& s, const std::string& made_with) {
  std::string header = sequence_id(run, s) + " model=" + model + " method=" + method +
                       " seed=" + std::to_string(seed) + " steps=" + std::to_string(steps) +
                       " length=" + std::to_string(s.text.size());
  if (!made_with.empty()) header += " " + made_with;
  for (const auto& [objective, value] : s.scores)
    header += " " + objective + "=" + number("%.4g", value);
  if (s.novelty) header += " novelty=" + number("%.4g", *s.novelty);
  return header;
}

void write_csv(std::ostream& out, const std::string& run,
               const std::vector<SequenceRecord>& sequences) {
  std::set<std::string> names;
  for (const auto& s : sequences)
    for (const auto& [k, v] : s.scores) names.insert(k);
  out << "id,index,sequence,length";
  for (const auto& name : names) out << "," << csv_field(name);
  out << ",novelty\n";
  for (const auto& s : sequences) {
    out << csv_field(sequence_id(run, s)) << "," << s.index << "," << s.text << ","
        << s.text.size();
    for (const auto& name : names) {
      const auto it = s.scores.find(name);
      out << "," << (it == s.scores.end() ? "" : number("%.6g", it->second));
    }
    out << "," << (s.novelty ? number("%.6g", *s.novelty) : "") << "\n";
  }
}

}  // namespace gsflow::storage
