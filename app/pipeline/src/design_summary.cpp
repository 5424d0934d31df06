// The design in FASTA-header words (see design.hpp). Kept apart from design.cpp: `gsflow export`,
// which links no model code, compiles this file with the run-parameter reader.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "gsflow/pipeline/design.hpp"

namespace gsflow::pipeline {

std::string design_summary(const DesignOptions& o) {
  std::vector<std::string> words;
  const auto joined = [](const std::vector<std::string>& items, char sep) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : std::string(1, sep)) + item;
    return out;
  };
  const auto number = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  if (!o.templates.empty()) {
    std::size_t fixed = 0;
    for (const auto& t : o.templates)
      fixed += static_cast<std::size_t>(std::count_if(t.begin(), t.end(), [](char c) {
        return c != 'N' && c != 'X' && c != 'n' && c != 'x';
      }));
    words.push_back(o.templates.size() == 1 && o.templates[0].size() <= 40
                        ? "template=" + o.templates[0]
                        : "templates=" + std::to_string(o.templates.size()) + "(" +
                              std::to_string(fixed) + "_fixed_letters)");
  }
  if (!o.fix.empty()) {
    std::vector<std::string> fixes;
    for (auto f : o.fix) {
      std::replace(f.begin(), f.end(), '=', ':');
      fixes.push_back(f);
    }
    words.push_back("fix=" + joined(fixes, ','));
  }
  const auto& c = o.constraints;
  if (!c.avoid.empty()) words.push_back("avoid=" + joined(c.avoid, ','));
  if (c.max_run > 0) words.push_back("max_run=" + std::to_string(c.max_run));
  if (c.gc_min > 0.0 || c.gc_max < 1.0)
    words.push_back("gc=" + number(c.gc_min) + "-" + number(c.gc_max) +
                    (c.gc_window > 0 ? "/" + std::to_string(c.gc_window) : ""));
  if (!c.omit.empty()) words.push_back("omit=" + c.omit);
  if (!o.starts.empty()) words.push_back("start_time=" + number(o.start_time));
  if (o.max_edits != engine::kNoEditBudget)
    words.push_back("max_edits=" + std::to_string(o.max_edits));
  return joined(words, ' ');
}

}  // namespace gsflow::pipeline
