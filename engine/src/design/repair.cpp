// The exact repair (repair.hpp): a dynamic program over the states of the site-and-run machine
// (constraint_automaton.hpp) [x edits from the start] for sites, runs, omitted and fixed letters
// and the budget, then greedy single changes for the GC ranges. check_satisfiable() is in
// satisfiable.cpp; run_walk() here serves both.
#include "gsflow/engine/design/repair.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "design/constraint_automaton.hpp"

namespace gsflow::engine {

namespace design_detail {

std::optional<Walk> run_walk(const Machine& m, const WalkInput& in) {
  const std::size_t L = in.length, K = m.k, M = m.states;
  if (L == 0) return Walk{{}, 0};
  const std::size_t E = in.start.empty() ? 1 : in.budget + 1;
  // State = edits * M + machine state. Only the states a walk reaches are visited: `cur` and
  // `nxt` are dense costs (kUnreachable elsewhere), `live` lists the states reached at the
  // previous position. Every reached (position, state) is an entry of the trace, numbered from
  // begin[p] on for position p, holding its letter and the entry of its best predecessor.
  std::vector<std::int64_t> cur(E * M, kUnreachable), nxt(E * M, kUnreachable);
  std::vector<std::int32_t> best_pred(E * M), live, fresh, reached;
  std::vector<std::int32_t> trace_pred;
  std::vector<std::uint8_t> trace_letter;
  std::vector<std::size_t> begin{0};
  const auto edit = [&in](std::size_t p, std::uint8_t c) -> std::size_t {
    return !in.start.empty() && c != in.start[p];
  };
  // Moves the states reached at a position from `fresh` to `reached`. With a budget, a state is
  // dropped when the same machine state is reached with fewer edits at no higher cost (it can do
  // nothing the other cannot): in order of edits, a state survives only below the best cost of
  // its machine state so far.
  std::vector<std::int32_t> by_edits;
  std::vector<std::int64_t> best_below(E > 1 ? M : 0, kUnreachable);
  std::vector<std::size_t> bucket(E + 1);
  const auto keep = [&] {
    if (E == 1) {
      reached.swap(fresh);
    } else {
      std::fill(bucket.begin(), bucket.end(), 0);
      for (std::int32_t x : fresh) ++bucket[static_cast<std::size_t>(x) / M + 1];
      for (std::size_t e = 0; e < E; ++e) bucket[e + 1] += bucket[e];
      by_edits.resize(fresh.size());
      for (std::int32_t x : fresh) by_edits[bucket[static_cast<std::size_t>(x) / M]++] = x;
      for (std::int32_t x : by_edits) {
        const auto u = static_cast<std::size_t>(x);
        std::int64_t& best = best_below[u % M];
        if (nxt[u] >= best) {
          nxt[u] = kUnreachable;
        } else {
          best = nxt[u];
          reached.push_back(x);
        }
      }
      for (std::int32_t x : by_edits) best_below[static_cast<std::size_t>(x) % M] = kUnreachable;
    }
    fresh.clear();
  };
  for (std::size_t i = 0; i < in.option_count[0]; ++i) {  // the first letter: distinct states
    const std::uint8_t c = in.options[i];
    const std::int32_t s = m.first[c];
    const std::size_t e = edit(0, c);
    if (s < 0 || e >= E || in.cost[c] > in.cost_limit) continue;
    const std::size_t x = e * M + static_cast<std::size_t>(s);
    cur[x] = in.cost[c];
    live.push_back(static_cast<std::int32_t>(x));
    trace_pred.push_back(-1);
    trace_letter.push_back(c);
  }
  begin.push_back(trace_pred.size());
  for (std::size_t p = 1; p < L && !live.empty(); ++p) {
    const std::uint8_t* options = in.options.data() + p * K;
    const std::size_t count = in.option_count[p];
    const std::int64_t* cost = in.cost.data() + p * K;
    for (std::size_t i = 0; i < live.size(); ++i) {
      const auto x = static_cast<std::size_t>(live[i]);
      const std::size_t e = x / M;
      const std::int32_t* next = m.next.data() + (x % M) * K;
      const std::int64_t here = cur[x];
      for (std::size_t j = 0; j < count; ++j) {
        const std::uint8_t c = options[j];
        const std::int64_t v = here + cost[c];
        const std::size_t e2 = e + edit(p, c);
        if (next[c] < 0 || e2 >= E || v > in.cost_limit) continue;
        const std::size_t x2 = e2 * M + static_cast<std::size_t>(next[c]);
        if (v < nxt[x2]) {
          if (nxt[x2] == kUnreachable) fresh.push_back(static_cast<std::int32_t>(x2));
          nxt[x2] = v;
          best_pred[x2] = static_cast<std::int32_t>(begin[p - 1] + i);
        }
      }
    }
    keep();
    for (std::int32_t x : reached) {
      trace_pred.push_back(best_pred[static_cast<std::size_t>(x)]);
      trace_letter.push_back(m.letter[static_cast<std::size_t>(x) % M]);
    }
    for (std::int32_t x : live) cur[static_cast<std::size_t>(x)] = kUnreachable;
    cur.swap(nxt);
    live.swap(reached);
    reached.clear();
    begin.push_back(trace_pred.size());
  }
  if (live.empty()) return std::nullopt;
  std::size_t best = 0;
  for (std::size_t i = 1; i < live.size(); ++i)
    if (cur[static_cast<std::size_t>(live[i])] < cur[static_cast<std::size_t>(live[best])])
      best = i;
  Walk walk{std::vector<std::uint8_t>(L), cur[static_cast<std::size_t>(live[best])]};
  auto entry = static_cast<std::int32_t>(begin[L - 1] + best);
  for (std::size_t p = L; p-- > 0; entry = trace_pred[static_cast<std::size_t>(entry)])
    walk.letters[p] = trace_letter[static_cast<std::size_t>(entry)];
  return walk;
}

}  // namespace design_detail

namespace {

using design_detail::GcSpan;
using design_detail::is_gc;

constexpr int kChangeShift = 40;  // walk cost = changes << 40 | quantised preference cost

// Does changing seq[p] to c keep every site and run constraint? seq meets them before.
bool change_keeps_sites_and_runs(const ConstraintSet::Impl& im,
                                 const std::vector<std::uint8_t>& seq, std::size_t p,
                                 std::uint8_t c) {
  if (im.max_run > 0) {
    std::size_t run = 1;
    for (std::size_t q = p; q-- > 0 && seq[q] == c && run <= im.max_run;) ++run;
    for (std::size_t q = p + 1; q < seq.size() && seq[q] == c && run <= im.max_run; ++q) ++run;
    if (run > im.max_run) return false;
  }
  if (im.automaton.longest == 0) return true;
  const std::size_t from = p + 1 >= im.automaton.longest ? p + 1 - im.automaton.longest : 0;
  const std::size_t to = std::min(seq.size(), p + im.automaton.longest);
  std::int32_t node = 0;
  for (std::size_t q = from; q < to; ++q) {
    node = im.automaton.go(node, q == p ? c : seq[q]);
    if (q >= p && im.automaton.bad[static_cast<std::size_t>(node)]) return false;
  }
  return true;
}

// Greedy GC fix: repeatedly the single allowed change that lowers the total distance of the GC
// counts from their ranges the most (ties: fewer changes from the design, then the smaller
// preference loss). Returns true when every range is met.
bool fix_gc(const ConstraintSet::Impl& im, const RepairInput& in, const std::vector<double>& loss,
            std::vector<std::uint8_t>& seq) {
  const std::size_t L = seq.size(), K = im.k;
  const auto spans = im.gc_spans(L);
  if (spans.empty()) return true;
  const std::size_t windows = spans.size() - 1, w = windows > 0 ? spans[1].size : 0;
  std::vector<long> count(spans.size()), prefix(L + 1, 0);
  const auto distance = [](const GcSpan& s, long c) {
    return std::max(0L, std::max(s.lo - c, c - s.hi));
  };
  std::size_t edits = 0;
  if (!in.start.empty())
    for (std::size_t p = 0; p < L; ++p) edits += seq[p] != in.start[p];
  struct Candidate {
    long gain;
    int changes;
    double loss;
    std::size_t p;
    std::uint8_t c;
  };
  std::vector<Candidate> candidates;
  std::vector<long> up(windows + 1), down(windows + 1);  // prefix sums over windows of the deltas
  for (;;) {
    long total = 0;
    for (std::size_t p = 0; p < L; ++p) prefix[p + 1] = prefix[p] + is_gc(seq[p]);
    for (std::size_t i = 0; i < spans.size(); ++i) {
      count[i] = prefix[spans[i].begin + spans[i].size] - prefix[spans[i].begin];
      total += distance(spans[i], count[i]);
    }
    if (total == 0) return true;
    for (std::size_t j = 0; j < windows; ++j) {
      const GcSpan& s = spans[j + 1];
      up[j + 1] = up[j] + distance(s, count[j + 1] + 1) - distance(s, count[j + 1]);
      down[j + 1] = down[j] + distance(s, count[j + 1] - 1) - distance(s, count[j + 1]);
    }
    candidates.clear();
    for (std::size_t p = 0; p < L; ++p) {
      if (!in.fixed.empty() && in.fixed[p] >= 0) continue;
      // windows j with j <= p <= j + w - 1
      const std::size_t j0 = windows == 0 ? 0 : (p + 1 >= w ? p + 1 - w : 0),
                        j1 = std::min(p + 1, windows);
      const long d_up =
          distance(spans[0], count[0] + 1) - distance(spans[0], count[0]) + up[j1] - up[j0];
      const long d_down =
          distance(spans[0], count[0] - 1) - distance(spans[0], count[0]) + down[j1] - down[j0];
      for (std::uint8_t c = 0; c < K; ++c) {
        if (!im.allowed[c] || is_gc(c) == is_gc(seq[p])) continue;
        const long gain = -(is_gc(c) ? d_up : d_down);
        if (gain <= 0) continue;
        const int changes = (c != in.design[p]) - (seq[p] != in.design[p]);
        candidates.push_back({gain, changes, loss[p * K + c] - loss[p * K + seq[p]], p, c});
      }
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      return std::tie(b.gain, a.changes, a.loss, a.p, a.c) <
             std::tie(a.gain, b.changes, b.loss, b.p, b.c);
    });
    bool applied = false;
    for (const Candidate& cand : candidates) {
      if (!in.start.empty()) {
        const std::size_t after =
            edits - (seq[cand.p] != in.start[cand.p]) + (cand.c != in.start[cand.p]);
        if (after > in.max_edits) continue;
      }
      if (!change_keeps_sites_and_runs(im, seq, cand.p, cand.c)) continue;
      if (!in.start.empty())
        edits += (cand.c != in.start[cand.p]) - (seq[cand.p] != in.start[cand.p]);
      seq[cand.p] = cand.c;
      applied = true;
      break;
    }
    if (!applied) return false;
  }
}

}  // namespace

RepairResult repair(const ConstraintSet& constraints, const RepairInput& in) {
  const ConstraintSet::Impl& im = constraints.impl();
  const std::size_t L = in.design.size(), K = im.k;
  const auto refuse = [](const std::string& what) {
    throw std::invalid_argument("repair: " + what);
  };
  if (!in.fixed.empty() && in.fixed.size() != L)
    refuse("fixed letters and design differ in length");
  if (!in.start.empty() && in.start.size() != L) refuse("start and design differ in length");
  if (in.preference.rows != 0 && (in.preference.rows != L || in.preference.k != K))
    refuse("preference must be [length, K] or empty");
  for (std::size_t p = 0; p < L; ++p)
    if (in.design[p] >= K || (!in.start.empty() && in.start[p] >= K) ||
        (!in.fixed.empty() && in.fixed[p] >= static_cast<std::int16_t>(K)))
      refuse("letter index outside the alphabet at " + std::to_string(p + 1));

  // Per position: allowed letters, and the cost of each (changed from the design, then the
  // model's -log preference quantised so that the sum stays below 2^40).
  const double scale = std::min(65536.0, std::floor(static_cast<double>(1LL << kChangeShift) /
                                                    (70.0 * static_cast<double>(L) + 1.0)));
  std::vector<double> loss(L * K, 0.0);
  std::vector<std::int64_t> cost(L * K);
  std::vector<std::uint8_t> options(L * K), option_count(L, 0);
  for (std::size_t p = 0; p < L; ++p)
    for (std::uint8_t c = 0; c < K; ++c) {
      if (in.preference.rows != 0) {
        const double prob = in.preference.data[p * in.preference.stride + c];
        loss[p * K + c] = -std::log(prob > 1e-30 ? std::min(prob, 1.0) : 1e-30);  // NaN: 1e-30
      }
      cost[p * K + c] = (static_cast<std::int64_t>(c != in.design[p]) << kChangeShift) +
                        std::llround(loss[p * K + c] * scale);
      const bool fixed_here = !in.fixed.empty() && in.fixed[p] >= 0;
      if (im.allowed[c] && (!fixed_here || in.fixed[p] == c))
        options[p * K + option_count[p]++] = c;
    }

  RepairResult result;
  const bool budget = !in.start.empty() && in.max_edits < L;
  const auto edits_of = [&](const std::vector<std::uint8_t>& s) {
    std::size_t e = 0;
    for (std::size_t p = 0; p < L && !in.start.empty(); ++p) e += s[p] != in.start[p];
    return e;
  };
  // Fast path: the design already meets the exact part (the walk would return it unchanged).
  // Otherwise count its faults: a lower-bound-like first guess of the changes needed.
  std::size_t faults = 0;
  std::int32_t node = 0;
  for (std::size_t p = 0, run = 0; p < L; ++p) {
    const std::uint8_t c = in.design[p];
    run = p > 0 && in.design[p - 1] == c ? run + 1 : 1;
    node = im.automaton.go(node, c);
    faults += !im.allowed[c] || (!in.fixed.empty() && in.fixed[p] >= 0 && in.fixed[p] != c);
    faults += im.automaton.bad[static_cast<std::size_t>(node)];
    faults += im.max_run > 0 && run % (im.max_run + 1) == 0;  // one change per max_run + 1 letters
  }
  result.letters.assign(in.design.begin(), in.design.end());
  if (budget) faults += edits_of(result.letters) - std::min(edits_of(result.letters), in.max_edits);
  bool solved = faults == 0;
  if (!solved) {
    // The walk, keeping only partial walks with at most `bound` changes; the bound grows until a
    // walk is found (then it is the optimum: the optimum has no more changes) or covers all of L.
    const auto solve = [&](design_detail::WalkInput walk_in) {
      for (std::size_t bound = faults;; bound = std::min(L, 2 * bound + 2)) {
        walk_in.cost_limit = bound >= L
                                 ? design_detail::kUnreachable - 1
                                 : (static_cast<std::int64_t>(bound + 1) << kChangeShift) - 1;
        auto walk = design_detail::run_walk(im.machine, walk_in);
        if (walk || bound >= L) return walk;
      }
    };
    design_detail::WalkInput walk_in{L, options, option_count, cost};
    auto walk = solve(walk_in);
    if (walk && budget && edits_of(walk->letters) > in.max_edits) {  // again, counting edits
      faults = std::max(faults, static_cast<std::size_t>(walk->cost >> kChangeShift));
      walk_in.start = in.start;
      walk_in.budget = in.max_edits;
      walk = solve(walk_in);
    }
    if (walk) result.letters = std::move(walk->letters);
    solved = walk.has_value();
  }
  if (!solved)  // nothing meets the exact part: report the design with its fixed letters
    for (std::size_t p = 0; p < L && !in.fixed.empty(); ++p)
      if (in.fixed[p] >= 0) result.letters[p] = static_cast<std::uint8_t>(in.fixed[p]);
  const bool gc_ok = solved && fix_gc(im, in, loss, result.letters);

  for (std::size_t p = 0; p < L; ++p) result.changed += result.letters[p] != in.design[p];
  result.met = solved && gc_ok;
  if (!result.met) {
    result.unmet = constraints.violations(result.letters);
    for (std::size_t p = 0; p < L && !in.fixed.empty(); ++p)
      if (in.fixed[p] >= 0 && result.letters[p] != in.fixed[p])
        result.unmet.push_back(
            "fixed " +
            std::string(1, constraints.alphabet().decode(static_cast<std::uint8_t>(in.fixed[p]))) +
            " at " + std::to_string(p + 1));
    if (budget && edits_of(result.letters) > in.max_edits)
      result.unmet.push_back("edits " + std::to_string(edits_of(result.letters)) +
                             " from the start (max " + std::to_string(in.max_edits) + ")");
    if (!solved)
      result.unmet.push_back(
          "no sequence meets the sites, runs, omitted and fixed letters and budget together");
  }
  return result;
}

}  // namespace gsflow::engine
