// Design requests resolved for a model (see design.hpp).
#include "gsflow/pipeline/design.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>

namespace gsflow::pipeline {

namespace {
std::vector<engine::FixedLetters> parse_templates(const DesignOptions& o,
                                                  const engine::Alphabet& alphabet) {
  std::vector<engine::FixedLetters> out;
  for (std::size_t t = 0; t < o.templates.size(); ++t)
    out.push_back(engine::parse_template(
        o.templates[t], alphabet,
        o.templates.size() == 1 ? "--template" : "--template " + std::to_string(t + 1)));
  return out;
}

std::vector<std::vector<std::uint8_t>> encode_starts(const DesignOptions& o,
                                                     const engine::Alphabet& alphabet) {
  std::vector<std::vector<std::uint8_t>> out;
  for (std::size_t s = 0; s < o.starts.size(); ++s) {
    const std::string what = "--start " + (s < o.start_ids.size() && !o.start_ids[s].empty()
                                               ? o.start_ids[s]
                                               : "sequence " + std::to_string(s + 1));
    if (o.starts[s].empty()) throw std::invalid_argument(what + ": the sequence is empty");
    for (std::size_t p = 0; p < o.starts[s].size(); ++p)
      if (!alphabet.contains(o.starts[s][p]))
        throw std::invalid_argument(what + ": '" + std::string(1, o.starts[s][p]) +
                                    "' at position " + std::to_string(p + 1) +
                                    " is not a letter of " + alphabet.name() + " (" +
                                    alphabet.letters() + ")");
    out.push_back(alphabet.encode(o.starts[s]));
  }
  return out;
}
}  // namespace

Design::Design(const DesignOptions& options, const engine::Alphabet& alphabet)
    : options_(options),
      alphabet_(&alphabet),
      constraints_(options.constraints, alphabet),
      templates_(parse_templates(options, alphabet)),
      starts_(encode_starts(options, alphabet)) {
  for (const auto& text : options.fix) motifs_.push_back(engine::parse_fixed_motif(text, alphabet));
  if (options.max_edits != engine::kNoEditBudget && starts_.empty())
    throw std::invalid_argument("--max-edits: an edit budget needs a start sequence (--start)");
  if (!(options.start_time >= 0.0 && options.start_time < 1.0))
    throw std::invalid_argument("--start-time: must be in [0, 1)");
  if (!(options.constraint_strength >= 0.0))
    throw std::invalid_argument("--constraint-strength: must be 0 or more");
  // A template and a start for the same sequence must agree in length: with t templates and s
  // starts, sequence i pairs template i mod t with start i mod s.
  if (!templates_.empty() && !starts_.empty()) {
    const std::size_t period = std::lcm(templates_.size(), starts_.size());
    for (std::size_t i = 0; i < period; ++i) {
      const auto& t = templates_[i % templates_.size()];
      const auto& s = starts_[i % starts_.size()];
      if (t.size() != s.size())
        throw std::invalid_argument("--template / --start: the template has " +
                                    std::to_string(t.size()) + " letters, the start sequence " +
                                    std::to_string(s.size()) + " (sequence " +
                                    std::to_string(i + 1) + ")");
    }
  }
  conditioning_.hold = options.fixed_hold;
  conditioning_.start_time = options.start_time;
  if (!options.constraints.omit.empty()) {
    conditioning_.allowed.assign(alphabet.size(), 1);
    for (const char c : options.constraints.omit)
      if (const int idx = alphabet.index_of(c); idx >= 0) conditioning_.allowed[idx] = 0;
  }
}

std::size_t design_length(const DesignOptions& o, std::size_t i) {
  if (!o.templates.empty()) return o.templates[i % o.templates.size()].size();
  if (!o.starts.empty()) return o.starts[i % o.starts.size()].size();
  return 0;
}

std::size_t Design::length_of(std::size_t i) const { return design_length(options_, i); }

const engine::FixedLetters* Design::fixed_of(std::size_t i) const {
  if (i < first_ || i - first_ >= fixed_by_sequence_.size()) return nullptr;
  return fixed_by_sequence_[i - first_];
}

const std::vector<std::uint8_t>* Design::start_of(std::size_t i) const {
  return starts_.empty() ? nullptr : &starts_[i % starts_.size()];
}

void Design::prepare(std::size_t first, const std::vector<std::size_t>& lengths) {
  first_ = first;
  fixed_by_sequence_.assign(lengths.size(), nullptr);
  std::set<std::tuple<long, std::size_t, long>> checked;  // (template, length, start)
  for (std::size_t j = 0; j < lengths.size(); ++j) {
    const std::size_t i = first + j, len = lengths[j];
    const long t = templates_.empty() ? -1 : static_cast<long>(i % templates_.size());
    if (options_.has_fixed()) {
      auto [it, fresh] = fixed_.try_emplace({t, len});
      if (fresh) {
        it->second = t < 0 ? engine::FixedLetters(len, engine::kFree) : templates_[t];
        if (it->second.size() != len)
          throw std::invalid_argument("--template: " + std::to_string(it->second.size()) +
                                      " letters, but the sequence has " + std::to_string(len));
        for (const auto& motif : motifs_) engine::apply_fixed_motif(it->second, motif, *alphabet_);
      }
      fixed_by_sequence_[j] = &it->second;
    }
    const long s = starts_.empty() ? -1 : static_cast<long>(i % starts_.size());
    if (!options_.constraints.active() && options_.max_edits == engine::kNoEditBudget) continue;
    if (!checked.insert({t, len, s}).second) continue;
    const auto* fixed = fixed_by_sequence_[j];
    const auto* start = start_of(i);
    if (start && start->size() != len)
      throw std::invalid_argument("--start: " + std::to_string(start->size()) +
                                  " letters, but the sequence has " + std::to_string(len));
    engine::check_satisfiable(constraints_, len,
                              fixed ? std::span<const std::int16_t>(*fixed)
                                    : std::span<const std::int16_t>(),
                              start ? std::span<const std::uint8_t>(*start)
                                    : std::span<const std::uint8_t>(),
                              options_.max_edits);
  }
  conditioning_.fixed = {};
  conditioning_.start = {};
  if (options_.has_fixed())
    conditioning_.fixed = [this](std::size_t i) {
      const auto* f = fixed_of(i);
      return f ? std::span<const std::int16_t>(*f) : std::span<const std::int16_t>();
    };
  if (!starts_.empty())
    conditioning_.start = [this](std::size_t i) {
      return std::span<const std::uint8_t>(*start_of(i));
    };
}

DesignNote Design::finish(std::size_t i, std::vector<std::uint8_t>& letters,
                          engine::ConstRows preference) const {
  DesignNote note;
  const auto* start = start_of(i);
  const auto* fixed = fixed_of(i);
  note.constrained =
      options_.constraints.active() || (start && options_.max_edits != engine::kNoEditBudget);
  if (note.constrained) {
    engine::RepairInput in;
    in.design = letters;
    in.preference = preference;
    if (fixed) in.fixed = *fixed;
    if (start) in.start = *start;
    in.max_edits = start ? options_.max_edits : engine::kNoEditBudget;
    engine::RepairResult r = engine::repair(constraints_, in);
    note.repaired = r.changed;
    note.met = r.met;
    note.unmet = std::move(r.unmet);
    letters = std::move(r.letters);
  }
  if (start) {
    note.from_start = true;
    note.start = i % starts_.size();
    for (std::size_t p = 0; p < letters.size() && p < start->size(); ++p)
      note.edits += letters[p] != (*start)[p];
  }
  return note;
}

void add_design_scores(const DesignNote& note, std::map<std::string, double>& scores) {
  if (note.from_start) {
    scores["start"] = static_cast<double>(note.start + 1);
    scores["edits"] = static_cast<double>(note.edits);
  }
  if (note.constrained) {
    scores["repaired"] = static_cast<double>(note.repaired);
    scores["constraints_met"] = note.met ? 1.0 : 0.0;
  }
}

}  // namespace gsflow::pipeline
