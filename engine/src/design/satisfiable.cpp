// check_satisfiable() (repair.hpp): the exact walk of repair.cpp with no preference, then, when no
// sequence exists, which options conflict: each constraint alone and in small groups, so that the
// message names the fewest options that already fail together.
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "design/constraint_automaton.hpp"
#include "gsflow/engine/design/repair.hpp"

namespace gsflow::engine {

namespace {

using design_detail::Automaton;
using design_detail::GcSpan;
using design_detail::is_gc;

std::string fraction(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", f);
  return buf;
}

std::string option_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string span_text(std::size_t begin, std::size_t size) {
  return std::to_string(begin + 1) + ".." + std::to_string(begin + size);
}

class Checker {
 public:
  Checker(const ConstraintSet& cs, std::size_t length, std::span<const std::int16_t> fixed,
          std::span<const std::uint8_t> start, std::size_t max_edits)
      : cs_(cs), im_(cs.impl()), L_(length), fixed_(fixed), start_(start), max_edits_(max_edits) {}

  void check() const {
    if (L_ == 0) return;
    for (std::size_t p = 0; p < L_; ++p)
      if (is_fixed(p) && !im_.allowed[static_cast<std::size_t>(fixed_[p])])
        fail("--omit " + cs_.constraints().omit + " conflicts with the fixed letter " +
             letter(static_cast<std::uint8_t>(fixed_[p])) + " at " + std::to_string(p + 1));
    const auto edits = min_edits(im_.machine, true, true);
    if (!edits) explain_exact();
    const bool budget = !start_.empty() && max_edits_ < L_;
    if (budget && *edits > max_edits_) explain_budget(*edits);
    check_gc();
  }

 private:
  [[noreturn]] static void fail(const std::string& message) {
    throw std::invalid_argument(message);
  }
  bool is_fixed(std::size_t p) const { return !fixed_.empty() && fixed_[p] >= 0; }
  std::string letter(std::uint8_t c) const { return std::string(1, cs_.alphabet().decode(c)); }
  std::string omit_option() const { return "--omit " + cs_.constraints().omit; }
  std::string run_option() const { return "--max-run " + std::to_string(im_.max_run); }

  // Fewest positions that differ from the start (0 without a start) over the sequences that
  // meet `a`, max_run, (omit) and (fixed); std::nullopt when there is none.
  std::optional<std::size_t> min_edits(const Automaton& a, std::size_t max_run, bool omit,
                                       bool fixed) const {
    return min_edits(design_detail::make_machine(a, max_run), omit, fixed);
  }
  std::optional<std::size_t> min_edits(const design_detail::Machine& machine, bool omit,
                                       bool fixed) const {
    const std::size_t K = im_.k;
    std::vector<std::uint8_t> options(L_ * K), count(L_, 0);
    std::vector<std::int64_t> cost(L_ * K, 0);
    for (std::size_t p = 0; p < L_; ++p)
      for (std::uint8_t c = 0; c < K; ++c) {
        if (!start_.empty()) cost[p * K + c] = c != start_[p];
        if ((!omit || im_.allowed[c]) && (!fixed || !is_fixed(p) || fixed_[p] == c))
          options[p * K + count[p]++] = c;
      }
    const auto walk = design_detail::run_walk(machine, {L_, options, count, cost});
    if (!walk) return std::nullopt;
    return static_cast<std::size_t>(walk->cost);
  }

  Automaton site_automaton(const design_detail::Site& site) const {
    return Automaton::build(im_.k, site.words);
  }

  std::string avoid_options() const {
    std::string s;
    for (const auto& site : im_.sites) s += (s.empty() ? "--avoid " : ", ") + site.entry;
    return s;
  }

  // No sequence meets sites + runs + omit + fixed: find the smallest group that already fails.
  [[noreturn]] void explain_exact() const {
    const Automaton none = Automaton::build(im_.k, {});
    const bool any_fixed =
        std::any_of(fixed_.begin(), fixed_.end(), [](std::int16_t f) { return f >= 0; });
    const std::string with_fixed = any_fixed ? " with the fixed letters" : "";
    const std::string length = " of length " + std::to_string(L_);
    for (const auto& site : im_.sites) {
      if (min_edits(site_automaton(site), 0, false, true)) continue;
      // A hit lying wholly on fixed letters?
      for (std::size_t p = 0; p + site.forward.size() <= L_; ++p) {
        bool all_fixed = true;
        std::vector<std::uint8_t> seq(site.forward.size());
        for (std::size_t j = 0; j < seq.size() && all_fixed; ++j)
          if ((all_fixed = is_fixed(p + j))) seq[j] = static_cast<std::uint8_t>(fixed_[p + j]);
        if (all_fixed && (site.matches(seq, 0, false) || site.matches(seq, 0, true)))
          fail("--avoid " + site.entry + " conflicts with the fixed letters at " +
               span_text(p, site.forward.size()));
      }
      fail("--avoid " + site.entry + " leaves no sequence" + length + with_fixed);
    }
    if (im_.max_run > 0) {
      if (!min_edits(none, im_.max_run, false, true)) {
        for (std::size_t p = 0, q; p < L_; p = q) {
          for (q = p + 1; q < L_ && is_fixed(p) && is_fixed(q) && fixed_[q] == fixed_[p];) ++q;
          if (q - p > im_.max_run)
            fail(run_option() + " conflicts with the fixed letters at " + span_text(p, q - p));
        }
        fail(run_option() + " leaves no sequence" + length + with_fixed);
      }
      if (!min_edits(none, im_.max_run, true, false))
        fail(run_option() + " cannot be met with " + omit_option() +
             (im_.omitted.size() + 1 == im_.k ? " (one letter left)" : ""));
      if (!min_edits(none, im_.max_run, true, true))
        fail(run_option() + " cannot be met with " + omit_option() + " and the fixed letters");
    }
    if (!im_.sites.empty()) {
      if (!im_.omitted.empty() && !min_edits(im_.automaton, 0, true, false))
        fail(avoid_options() + " cannot be met with " + omit_option());
      if (!min_edits(im_.automaton, 0, false, true))
        fail(avoid_options() + " together leave no sequence" + length + with_fixed);
      if (im_.max_run > 0 && !min_edits(im_.automaton, im_.max_run, false, false))
        fail(avoid_options() + " and " + run_option() + " leave no sequence" + length);
    }
    std::string all = avoid_options();
    if (im_.max_run > 0) all += (all.empty() ? "" : ", ") + run_option();
    if (!im_.omitted.empty()) all += (all.empty() ? "" : ", ") + omit_option();
    fail(all + (any_fixed ? " and the fixed letters" : "") + " leave no sequence" + length);
  }

  // A sequence exists but not within max_edits of the start.
  [[noreturn]] void explain_budget(std::size_t needed) const {
    const std::string option = "--max-edits " + std::to_string(max_edits_);
    if (max_edits_ == 0) {
      for (std::size_t p = 0; p < L_; ++p)
        if (is_fixed(p) && fixed_[p] != start_[p])
          fail(option + ": the start sequence has " + letter(start_[p]) + " at " +
               std::to_string(p + 1) + " where the fixed letter is " +
               letter(static_cast<std::uint8_t>(fixed_[p])));
      for (const std::string& v : cs_.violations(start_))
        if (v.rfind("GC ", 0) != 0) fail(option + ": the start sequence breaks " + v);
    }
    fail(option + ": the constraints need at least " + std::to_string(needed) +
         " changes to the start sequence");
  }

  // Each GC span's reachable count range (fixed letters, and letters --omit leaves) against its
  // required range.
  void check_gc() const {
    const auto spans = im_.gc_spans(L_);  // empty unless DNA with a GC range
    if (spans.empty()) return;
    const bool gc_allowed = im_.allowed[1] || im_.allowed[2],
               at_allowed = im_.allowed[0] || im_.allowed[3];
    const Constraints& c = cs_.constraints();
    for (const GcSpan& s : spans) {
      const std::string where = s.whole ? "" : " in window " + span_text(s.begin, s.size);
      if (s.lo > s.hi)
        fail("--gc-min " + option_value(c.gc_min) + " and --gc-max " + option_value(c.gc_max) +
             ": no GC count of " + std::to_string(s.size) + " letters lies in between" +
             (s.whole ? "" : " (--gc-window " + std::to_string(c.gc_window) + ")"));
      long lo = 0, hi = 0;
      bool fixed_limit = false, omit_limit = false;
      for (std::size_t p = s.begin; p < s.begin + s.size; ++p) {
        if (is_fixed(p)) {
          const bool g = is_gc(static_cast<std::uint8_t>(fixed_[p]));
          lo += g, hi += g;
          fixed_limit = true;
        } else {
          lo += !at_allowed, hi += gc_allowed;
          omit_limit |= !at_allowed || !gc_allowed;
        }
      }
      const std::string because = fixed_limit && omit_limit
                                      ? "with the fixed letters and " + omit_option()
                                  : fixed_limit ? "with the fixed letters"
                                                : "with " + omit_option();
      const double n = static_cast<double>(s.size);
      if (hi < s.lo)
        fail("--gc-min " + option_value(c.gc_min) + ": " + because + " at most " +
             fraction(static_cast<double>(hi) / n) + " is possible" + where);
      if (lo > s.hi)
        fail("--gc-max " + option_value(c.gc_max) + ": " + because + " at least " +
             fraction(static_cast<double>(lo) / n) + " is possible" + where);
    }
  }

  const ConstraintSet& cs_;
  const ConstraintSet::Impl& im_;
  std::size_t L_;
  std::span<const std::int16_t> fixed_;
  std::span<const std::uint8_t> start_;
  std::size_t max_edits_;
};

}  // namespace

void check_satisfiable(const ConstraintSet& constraints, std::size_t length,
                       std::span<const std::int16_t> fixed, std::span<const std::uint8_t> start,
                       std::size_t max_edits) {
  const std::size_t K = constraints.impl().k;
  if (!fixed.empty() && fixed.size() != length)
    throw std::invalid_argument("check_satisfiable: " + std::to_string(fixed.size()) +
                                " fixed letters for length " + std::to_string(length));
  if (!start.empty() && start.size() != length)
    throw std::invalid_argument("check_satisfiable: a start sequence of " +
                                std::to_string(start.size()) + " letters for length " +
                                std::to_string(length));
  for (std::size_t p = 0; p < length; ++p)
    if ((!fixed.empty() && fixed[p] >= static_cast<std::int16_t>(K)) ||
        (!start.empty() && start[p] >= K))
      throw std::invalid_argument("check_satisfiable: letter index outside the alphabet at " +
                                  std::to_string(p + 1));
  Checker(constraints, length, fixed, start, max_edits).check();
}

}  // namespace gsflow::engine
