// The design in FASTA-header words (see design.hpp). Kept apart from design.cpp: `gsflow export`,
// which links no model code, compiles this file with the run-parameter reader.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "gsflow/pipeline/design.hpp"
#include "gsflow/pipeline/run_params.hpp"
#include "gsflow/storage/run_export.hpp"

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

std::string guidance_summary(const guidance::GuidanceOptions& g) {
  if (g.terms.empty()) return "";
  const auto number = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  std::string guides;
  for (const auto& t : g.terms)
    guides += (guides.empty() ? "" : ",") + storage::score_label(t.objective) + ":" +
              number(t.weight);
  std::string out = "guide=" + guides + " gamma=" + number(g.gamma);
  if (g.schedule != guidance::GammaSchedule::constant)
    out += std::string(" gamma_schedule=") + guidance::kGammaScheduleNames.name(g.schedule);
  if (g.method != guidance::GuidanceMethod::stgflow)
    out += std::string(" guidance=") + guidance::kGuidanceMethodNames.name(g.method);
  if (g.from != guidance::GuideFrom::state)
    out += std::string(" guide_from=") + guidance::kGuideFromNames.name(g.from);
  out += " guide_samples=" + std::to_string(g.samples);
  return out;
}

std::string run_summary(const RunParams& params) {
  const std::string guided = guidance_summary(params.guidance);
  const std::string design = design_summary(params.design);
  return guided + (guided.empty() || design.empty() ? "" : " ") + design;
}

}  // namespace gsflow::pipeline
