// JASPAR count matrices to log-odds PWMs (see motif.hpp).
#include "gsflow/guidance/motif.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gsflow/engine/errors.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/model.hpp"

namespace gsflow::guidance {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// One row of counts: "61 16 352" or "A [ 61 16 352 ]"; `letter` is the row's expected letter.
std::vector<double> parse_row(std::string line, char letter, const std::string& path,
                              std::size_t line_no) {
  line = trim(line);
  if (!line.empty() && std::isalpha(static_cast<unsigned char>(line[0]))) {
    if (std::toupper(static_cast<unsigned char>(line[0])) != letter)
      throw engine::InputError(path, line_no,
                               std::string("expected the row of letter ") + letter);
    line = line.substr(1);
  }
  for (char& c : line)
    if (c == '[' || c == ']' || c == '\t') c = ' ';
  std::istringstream in(line);
  std::vector<double> out;
  std::string word;
  while (in >> word) {
    std::size_t used = 0;
    double v = 0.0;
    try {
      v = std::stod(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != word.size() || !std::isfinite(v) || v < 0.0)
      throw engine::InputError(path, line_no, "'" + word + "' is not a count (a number >= 0)");
    out.push_back(v);
  }
  if (out.empty()) throw engine::InputError(path, line_no, "a row of counts is empty");
  return out;
}

}  // namespace

// std::getline with bounds: a line past 64 KiB, or a file past 64 MiB (JASPAR's whole CORE
// collection is a few MB), is not a motif file (/dev/zero, a stray binary) and throws instead of
// growing without end.
bool bounded_getline(std::istream& in, std::string& line, const std::string& path,
                     std::size_t line_no, std::size_t& bytes) {
  constexpr std::size_t kMaxLine = std::size_t{1} << 16, kMaxFile = std::size_t{1} << 26;
  line.clear();
  char c = 0;
  bool any = false;
  while (in.get(c)) {
    any = true;
    if (++bytes > kMaxFile)
      throw engine::InputError(path, line_no + 1, "larger than 64 MiB: not a JASPAR motif file");
    if (c == '\n') return true;
    if (line.size() >= kMaxLine)
      throw engine::InputError(path, line_no + 1,
                               "line longer than 64 KiB: not a JASPAR motif file");
    line.push_back(c);
  }
  return any;
}

Pwm read_jaspar(const std::string& path, const std::string& id) {
  std::ifstream in(path);
  if (!in) throw engine::InputError(path, 0, "cannot open the motif file");
  std::string line;
  std::size_t line_no = 0, bytes = 0;
  bool any = false;
  while (bounded_getline(in, line, path, line_no, bytes)) {
    ++line_no;
    line = trim(line);
    if (line.empty()) continue;
    if (line[0] != '>') {
      if (!any) throw engine::InputError(path, line_no, "expected a '>ID NAME' header line");
      continue;
    }
    any = true;
    Pwm pwm;
    std::istringstream header(line.substr(1));
    header >> pwm.id;
    std::getline(header >> std::ws, pwm.name);
    const bool wanted = id.empty() || pwm.id == id;
    std::array<std::vector<double>, 4> rows;
    for (int r = 0; r < 4; ++r) {
      do {
        if (!bounded_getline(in, line, path, line_no, bytes))
          throw engine::InputError(path, line_no, "matrix " + pwm.id + " ends before its T row");
        ++line_no;
      } while (trim(line).empty());
      if (wanted) rows[r] = parse_row(line, "ACGT"[r], path, line_no);
    }
    if (!wanted) continue;
    const std::size_t width = rows[0].size();
    for (int r = 1; r < 4; ++r)
      if (rows[r].size() != width)
        throw engine::InputError(path, line_no,
                                 "matrix " + pwm.id + ": rows have different widths");
    for (std::size_t j = 0; j < width; ++j) {
      std::array<double, 4> c{rows[0][j], rows[1][j], rows[2][j], rows[3][j]};
      const double total = c[0] + c[1] + c[2] + c[3];
      std::array<double, 4> lo{};
      for (int r = 0; r < 4; ++r) lo[r] = std::log2((c[r] + 0.25) / (total + 1.0) / 0.25);
      pwm.counts.push_back(c);
      pwm.log_odds.push_back(lo);
    }
    return pwm;
  }
  throw engine::InputError(path, line_no,
                           id.empty() ? "no matrix in the file" : "no matrix with id " + id);
}

std::string bundled_motif_file() {
  for (const auto& folder : models::model_folders()) {
    const auto file = std::filesystem::path(folder) / "motifs" / "MA0108.2.jaspar";
    std::error_code ec;
    if (std::filesystem::is_regular_file(file, ec)) return file.string();
  }
  throw models::ModelError("the bundled TBP matrix motifs/MA0108.2.jaspar is in none of the model "
                           "folders (set GSFLOW_MODELS or reinstall)");
}

}  // namespace gsflow::guidance
