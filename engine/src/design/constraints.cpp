// Hard constraints on designed sequences (constraints.hpp): the bundled restriction enzymes,
// resolving the options for an alphabet (IUPAC sites expanded on both strands into an
// Aho-Corasick automaton), and violations().
#include "gsflow/engine/design/constraints.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "design/constraint_automaton.hpp"

namespace gsflow::engine {

const std::vector<std::pair<std::string, std::string>>& restriction_enzymes() {
  // Common Type II enzymes (REBASE recognition sites). AarI and PaqCI are isoschizomers: both
  // names are kept because kits name either.
  static const std::vector<std::pair<std::string, std::string>> enzymes = {
      {"EcoRI", "GAATTC"},  {"BamHI", "GGATCC"},  {"HindIII", "AAGCTT"},     {"XhoI", "CTCGAG"},
      {"NdeI", "CATATG"},   {"XbaI", "TCTAGA"},   {"SpeI", "ACTAGT"},        {"PstI", "CTGCAG"},
      {"SalI", "GTCGAC"},   {"NotI", "GCGGCCGC"}, {"KpnI", "GGTACC"},        {"SacI", "GAGCTC"},
      {"NcoI", "CCATGG"},   {"NheI", "GCTAGC"},   {"BglII", "AGATCT"},       {"EcoRV", "GATATC"},
      {"SmaI", "CCCGGG"},   {"BsaI", "GGTCTC"},   {"BsmBI", "CGTCTC"},       {"BbsI", "GAAGAC"},
      {"SapI", "GCTCTTC"},  {"AarI", "CACCTGC"},  {"PaqCI", "CACCTGC"},      {"MluI", "ACGCGT"},
      {"AscI", "GGCGCGCC"}, {"PacI", "TTAATTAA"}, {"SfiI", "GGCCNNNNNGGCC"},
  };
  return enzymes;
}

namespace design_detail {
namespace {

constexpr std::size_t kMaxWordsPerMotif = 4096;

// Letter mask of one IUPAC code over A=1 C=2 G=4 T=8 (upper case); 0 for anything else.
std::uint8_t iupac_mask(char c) {
  static const std::string codes = "ACGTRYSWKMBDHVN";
  static const std::uint8_t masks[] = {1, 2, 4, 8, 5, 10, 6, 9, 12, 3, 14, 13, 11, 7, 15};
  const auto i = codes.find(c);
  return i == std::string::npos ? 0 : masks[i];
}

// Complement of a mask: A<->T (bit 0 <-> 3), C<->G (bit 1 <-> 2).
std::uint8_t complement(std::uint8_t m) {
  return static_cast<std::uint8_t>(((m & 1) << 3) | ((m & 2) << 1) | ((m & 4) >> 1) |
                                   ((m & 8) >> 3));
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// Every concrete word (letter indices) that `masks` matches; appended to `out`.
void expand(const std::vector<std::uint8_t>& masks, std::vector<std::vector<std::uint8_t>>& out) {
  std::vector<std::uint8_t> word(masks.size());
  const auto rec = [&](auto& self, std::size_t j) -> void {
    if (j == masks.size()) {
      out.push_back(word);
      return;
    }
    for (std::uint8_t c = 0; c < 4; ++c)
      if ((masks[j] >> c) & 1u) {
        word[j] = c;
        self(self, j + 1);
      }
  };
  rec(rec, 0);
}

std::string enzyme_names() {
  std::string names;
  for (const auto& [name, site] : restriction_enzymes())
    names += (names.empty() ? "" : ", ") + name;
  return names;
}

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Resolves one --avoid entry: a bundled enzyme name or an IUPAC motif.
Site resolve_site(const std::string& entry) {
  Site site;
  site.entry = entry;
  const std::string up = upper(entry);
  std::string motif;
  for (const auto& [name, sequence] : restriction_enzymes())
    if (upper(name) == up) {
      motif = sequence;
      site.label = name + " (" + sequence + ")";
    }
  if (motif.empty()) {
    if (up.empty())
      throw std::invalid_argument("--avoid: empty entry (an enzyme name or an IUPAC motif)");
    for (std::size_t i = 0; i < up.size(); ++i)
      if (iupac_mask(up[i]) == 0)
        throw std::invalid_argument("--avoid " + entry + ": not an enzyme of the bundled list (" +
                                    enzyme_names() + ") nor an IUPAC motif ('" +
                                    std::string(1, entry[i]) + "' at " + std::to_string(i + 1) +
                                    " is not an IUPAC DNA letter ACGTRYSWKMBDHVN)");
    motif = up;
    site.label = up;
  }
  double count = 1.0;
  for (char c : motif) {
    const std::uint8_t m = iupac_mask(c);
    site.forward.push_back(m);
    count *= std::popcount(m);
  }
  if (count > static_cast<double>(kMaxWordsPerMotif))
    throw std::invalid_argument("--avoid " + entry + ": expands to " + format_number(count) +
                                " words (at most " + std::to_string(kMaxWordsPerMotif) + ")");
  for (auto it = site.forward.rbegin(); it != site.forward.rend(); ++it)
    site.reverse.push_back(complement(*it));
  site.palindrome = site.reverse == site.forward;
  expand(site.forward, site.words);
  if (!site.palindrome) expand(site.reverse, site.words);
  return site;
}

std::string format_fraction(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", f);
  return buf;
}

// The fraction count/n, with a third decimal when two would read the same as `bound`.
std::string format_gc(long count, std::size_t n, double bound) {
  const double f = static_cast<double>(count) / static_cast<double>(n);
  std::string s = format_fraction(f);
  if (s == format_fraction(bound)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", f);
    s = buf;
  }
  return s;
}

}  // namespace

Automaton Automaton::build(std::size_t k, const std::vector<std::vector<std::uint8_t>>& words) {
  Automaton a;
  a.k = k;
  a.next.assign(k, -1);
  a.bad.push_back(0);
  a.last.push_back(0);
  a.trail.push_back(0);
  a.homopolymer.push_back(1);
  const auto insert = [&a, k](std::span<const std::uint8_t> word) {
    std::int32_t node = 0;
    for (std::uint8_t c : word) {
      const std::size_t slot = static_cast<std::size_t>(node) * k + c;
      if (a.next[slot] < 0) {
        const auto parent = static_cast<std::size_t>(node);
        const bool same = parent != 0 && a.last[parent] == c;
        a.next[slot] = static_cast<std::int32_t>(a.bad.size());
        a.next.resize(a.next.size() + k, -1);
        a.bad.push_back(0);
        a.last.push_back(c);
        a.trail.push_back(same ? a.trail[parent] + 1 : 1);
        a.homopolymer.push_back(parent == 0 || (same && a.homopolymer[parent]));
      }
      node = a.next[slot];
    }
    return node;
  };
  for (std::uint8_t c = 0; c < k; ++c) insert(std::span<const std::uint8_t>(&c, 1));
  for (const auto& w : words) {
    a.bad[static_cast<std::size_t>(insert(w))] = 1;
    a.longest = std::max(a.longest, w.size());
  }
  // Breadth-first: failure links, inherited "a word ends here", and the missing transitions.
  std::vector<std::int32_t> fail(a.nodes(), 0), queue;
  for (std::uint8_t c = 0; c < k; ++c) queue.push_back(a.next[c]);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::int32_t n = queue[head];
    a.bad[static_cast<std::size_t>(n)] |=
        a.bad[static_cast<std::size_t>(fail[static_cast<std::size_t>(n)])];
    for (std::uint8_t c = 0; c < k; ++c) {
      std::int32_t& slot = a.next[static_cast<std::size_t>(n) * k + c];
      const std::int32_t via_fail = a.go(fail[static_cast<std::size_t>(n)], c);
      if (slot >= 0) {
        fail[static_cast<std::size_t>(slot)] = via_fail;
        queue.push_back(slot);
      } else {
        slot = via_fail;
      }
    }
  }
  return a;
}

namespace {

// The same machine with the states no walk can tell apart merged (Moore's partition refinement:
// start from classes by letter, split by the classes the transitions lead to until stable). A
// trie of a motif with N's (SfiI: 1024 branches) shrinks by an order of magnitude.
Machine minimize(const Machine& m) {
  const std::size_t S = m.states, K = m.k, W = K + 1;
  std::vector<std::int32_t> cls(S), fresh(S), sig(S * W), table;
  std::vector<std::int32_t> by_letter(K, -1);
  std::size_t count = 0;
  for (std::size_t s = 0; s < S; ++s) {
    if (by_letter[m.letter[s]] < 0) by_letter[m.letter[s]] = static_cast<std::int32_t>(count++);
    cls[s] = by_letter[m.letter[s]];
  }
  std::size_t size = 1;
  while (size < 2 * S) size *= 2;
  for (;;) {
    for (std::size_t s = 0; s < S; ++s) {
      sig[s * W] = cls[s];
      for (std::size_t c = 0; c < K; ++c) {
        const std::int32_t t = m.next[s * K + c];
        sig[s * W + 1 + c] = t < 0 ? -1 : cls[static_cast<std::size_t>(t)];
      }
    }
    // Number the distinct signatures (open addressing over state indices).
    table.assign(size, -1);
    std::size_t next_count = 0;
    for (std::size_t s = 0; s < S; ++s) {
      const std::int32_t* row = sig.data() + s * W;
      std::uint64_t h = 1469598103934665603ull;
      for (std::size_t j = 0; j < W; ++j)
        h = (h ^ static_cast<std::uint32_t>(row[j])) * 1099511628211ull;
      std::size_t i = h & (size - 1);
      while (table[i] >= 0 &&
             !std::equal(row, row + W, sig.data() + static_cast<std::size_t>(table[i]) * W))
        i = (i + 1) & (size - 1);
      if (table[i] < 0) {
        table[i] = static_cast<std::int32_t>(s);
        fresh[s] = static_cast<std::int32_t>(next_count++);
      } else {
        fresh[s] = fresh[static_cast<std::size_t>(table[i])];
      }
    }
    if (next_count == count) break;  // each round refines the last: same count, same classes
    cls.swap(fresh);
    count = next_count;
  }
  Machine out;
  out.k = K;
  out.states = count;
  out.next.assign(count * K, -1);
  out.letter.resize(count);
  for (std::size_t s = 0; s < S; ++s) {
    const auto c = static_cast<std::size_t>(cls[s]);
    out.letter[c] = m.letter[s];
    for (std::size_t l = 0; l < K; ++l) out.next[c * K + l] = sig[s * W + 1 + l];
  }
  for (std::int32_t f : m.first) out.first.push_back(f < 0 ? -1 : cls[static_cast<std::size_t>(f)]);
  return out;
}

}  // namespace

Machine make_machine(const Automaton& a, std::size_t max_run) {
  // States of each node: one (its run is trail[node]) or, for a homopolymer, one per run
  // trail..max_run; none when trail alone exceeds max_run. Without max_run: one per node.
  const std::size_t N = a.nodes(), K = a.k;
  std::vector<std::int32_t> offset(N, -1);
  Machine m;
  m.k = K;
  for (std::size_t n = 1; n < N; ++n) {
    if (max_run > 0 && a.trail[n] > max_run) continue;
    offset[n] = static_cast<std::int32_t>(m.states);
    const std::size_t runs = max_run > 0 && a.homopolymer[n] ? max_run - a.trail[n] + 1 : 1;
    for (std::size_t r = 0; r < runs; ++r) m.letter.push_back(a.last[n]);
    m.states += runs;
  }
  // The state for reading c from node n with the current run `run`; -1 when forbidden.
  const auto target = [&](std::size_t n, std::size_t run, std::uint8_t c) -> std::int32_t {
    const auto n2 = static_cast<std::size_t>(a.go(static_cast<std::int32_t>(n), c));
    const std::size_t run2 = n != 0 && a.last[n] == c ? run + 1 : 1;
    if (a.bad[n2] || (max_run > 0 && run2 > max_run)) return -1;
    return offset[n2] +
           (max_run > 0 && a.homopolymer[n2] ? static_cast<std::int32_t>(run2 - a.trail[n2]) : 0);
  };
  m.next.assign(m.states * K, -1);
  for (std::uint8_t c = 0; c < K; ++c) m.first.push_back(target(0, 0, c));
  for (std::size_t n = 1; n < N; ++n) {
    if (offset[n] < 0) continue;
    const std::size_t runs = max_run > 0 && a.homopolymer[n] ? max_run - a.trail[n] + 1 : 1;
    for (std::size_t r = 0; r < runs; ++r)
      for (std::uint8_t c = 0; c < K; ++c)
        m.next[(static_cast<std::size_t>(offset[n]) + r) * K + c] = target(n, a.trail[n] + r, c);
  }
  return minimize(m);
}

bool Site::matches(std::span<const std::uint8_t> seq, std::size_t at, bool reverse_strand) const {
  const auto& masks = reverse_strand ? reverse : forward;
  if (at + masks.size() > seq.size()) return false;
  for (std::size_t j = 0; j < masks.size(); ++j)
    if (!((masks[j] >> seq[at + j]) & 1u)) return false;
  return true;
}

}  // namespace design_detail

std::vector<design_detail::GcSpan> ConstraintSet::Impl::gc_spans(std::size_t length) const {
  std::vector<design_detail::GcSpan> spans;
  if (!gc || length == 0) return spans;
  const auto range = [this](std::size_t begin, std::size_t n, bool whole) {
    const double dn = static_cast<double>(n);
    return design_detail::GcSpan{begin, n, static_cast<long>(std::ceil(gc_min * dn - 1e-9)),
                                 static_cast<long>(std::floor(gc_max * dn + 1e-9)), whole};
  };
  spans.push_back(range(0, length, true));
  if (gc_window > 0 && gc_window < length)
    for (std::size_t b = 0; b + gc_window <= length; ++b)
      spans.push_back(range(b, gc_window, false));
  return spans;
}

ConstraintSet::ConstraintSet(const Constraints& constraints, const Alphabet& alphabet)
    : constraints_(constraints), alphabet_(&alphabet) {
  auto impl = std::make_shared<Impl>();
  impl->k = alphabet.size();
  impl->dna = alphabet.name() == "dna";
  const Constraints& c = constraints;
  const auto refuse_non_dna = [&](bool used, const char* option) {
    if (used && !impl->dna)
      throw std::invalid_argument(std::string(option) + ": DNA only (the alphabet is " +
                                  alphabet.name() + ")");
  };
  refuse_non_dna(!c.avoid.empty(), "--avoid");
  refuse_non_dna(c.gc_min > 0.0, "--gc-min");
  refuse_non_dna(c.gc_max < 1.0, "--gc-max");
  refuse_non_dna(c.gc_window > 0, "--gc-window");
  const auto unit = [](double v, const char* option) {
    if (!(v >= 0.0 && v <= 1.0))
      throw std::invalid_argument(std::string(option) + " " + design_detail::format_number(v) +
                                  ": a GC fraction must lie in 0..1");
  };
  unit(c.gc_min, "--gc-min");
  unit(c.gc_max, "--gc-max");
  if (c.gc_min > c.gc_max)
    throw std::invalid_argument("--gc-min " + design_detail::format_number(c.gc_min) +
                                " is above --gc-max " + design_detail::format_number(c.gc_max));
  impl->gc = c.gc_min > 0.0 || c.gc_max < 1.0;
  impl->gc_min = c.gc_min;
  impl->gc_max = c.gc_max;
  impl->gc_window = c.gc_window;
  impl->max_run = c.max_run;

  impl->allowed.assign(impl->k, 1);
  for (char letter : c.omit) {
    const int i = alphabet.index_of(letter);
    if (i < 0)
      throw std::invalid_argument("--omit " + c.omit + ": '" + std::string(1, letter) +
                                  "' is not a letter of the " + alphabet.name() + " alphabet (" +
                                  alphabet.letters() + ")");
    impl->allowed[static_cast<std::size_t>(i)] = 0;
  }
  for (std::size_t i = 0; i < impl->k; ++i)
    if (!impl->allowed[i]) impl->omitted += alphabet.letters()[i];
  if (impl->omitted.size() == impl->k)
    throw std::invalid_argument("--omit " + c.omit + ": omits every letter of the " +
                                alphabet.name() + " alphabet");

  std::vector<std::vector<std::uint8_t>> words;
  for (const std::string& entry : c.avoid) {
    impl->sites.push_back(design_detail::resolve_site(entry));
    const auto& w = impl->sites.back().words;
    words.insert(words.end(), w.begin(), w.end());
  }
  impl->automaton = design_detail::Automaton::build(impl->k, words);
  impl->machine = design_detail::make_machine(impl->automaton, impl->max_run);
  impl_ = std::move(impl);
}

std::vector<std::string> ConstraintSet::violations(std::span<const std::uint8_t> seq) const {
  const Impl& im = *impl_;
  for (std::size_t p = 0; p < seq.size(); ++p)
    if (seq[p] >= im.k)
      throw std::invalid_argument("violations: letter index " + std::to_string(seq[p]) + " at " +
                                  std::to_string(p + 1) + " is outside the " + alphabet_->name() +
                                  " alphabet");
  std::vector<std::string> out;
  for (const auto& site : im.sites)
    for (std::size_t p = 0; p + site.forward.size() <= seq.size(); ++p) {
      if (site.matches(seq, p, false))
        out.push_back("avoid " + site.label + " at " + std::to_string(p + 1));
      else if (!site.palindrome && site.matches(seq, p, true))
        out.push_back("avoid " + site.label + " (reverse strand) at " + std::to_string(p + 1));
    }
  if (im.max_run > 0)
    for (std::size_t p = 0, q; p < seq.size(); p = q) {
      for (q = p + 1; q < seq.size() && seq[q] == seq[p];) ++q;
      if (q - p > im.max_run)
        out.push_back("run of " + std::to_string(q - p) + " " + alphabet_->decode(seq[p]) + " at " +
                      std::to_string(p + 1) + " (max " + std::to_string(im.max_run) + ")");
    }
  for (std::size_t p = 0; p < seq.size(); ++p)
    if (!im.allowed[seq[p]])
      out.push_back(std::string("omitted ") + alphabet_->decode(seq[p]) + " at " +
                    std::to_string(p + 1));

  // GC: the whole sequence, then the worst window (and how many others fail).
  const auto spans = im.gc_spans(seq.size());
  std::vector<long> prefix(seq.size() + 1, 0);
  for (std::size_t p = 0; p < seq.size(); ++p)
    prefix[p + 1] = prefix[p] + design_detail::is_gc(seq[p]);
  const design_detail::GcSpan* worst = nullptr;
  long worst_distance = 0, failing = 0;
  for (const auto& s : spans) {
    const long count = prefix[s.begin + s.size] - prefix[s.begin];
    const long distance = std::max(s.lo - count, count - s.hi);
    if (distance <= 0) continue;
    if (s.whole) {
      out.push_back(count < s.lo ? "GC " + design_detail::format_gc(count, s.size, im.gc_min) +
                                       " below " + design_detail::format_fraction(im.gc_min)
                                 : "GC " + design_detail::format_gc(count, s.size, im.gc_max) +
                                       " above " + design_detail::format_fraction(im.gc_max));
      continue;
    }
    ++failing;
    if (distance > worst_distance) worst = &s, worst_distance = distance;
  }
  if (worst) {
    const long count = prefix[worst->begin + worst->size] - prefix[worst->begin];
    std::string line =
        "GC " +
        design_detail::format_gc(count, worst->size, count < worst->lo ? im.gc_min : im.gc_max) +
        " in window " + std::to_string(worst->begin + 1) + ".." +
        std::to_string(worst->begin + worst->size) + " (" +
        design_detail::format_fraction(im.gc_min) + ".." +
        design_detail::format_fraction(im.gc_max) + ")";
    if (failing > 1) line += ", and " + std::to_string(failing - 1) + " more windows";
    out.push_back(line);
  }
  return out;
}

}  // namespace gsflow::engine
