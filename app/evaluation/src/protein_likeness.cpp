// Nearest training hits by parasail's striped Smith-Waterman, their summaries and letter shuffles
// (see protein_likeness.hpp).
#include "gsflow/evaluation/protein_likeness.hpp"

#include <parasail.h>
#include <parasail/matrices/blosum62.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

#include "gsflow/engine/philox.hpp"
#include "gsflow/engine/thread_pool.hpp"

namespace gsflow::evaluation {

namespace {

struct ProfileFree {
  void operator()(parasail_profile_t* p) const { parasail_profile_free(p); }
};
struct ResultFree {
  void operator()(parasail_result_t* r) const { parasail_result_free(r); }
};
using Profile = std::unique_ptr<parasail_profile_t, ProfileFree>;
using Result = std::unique_ptr<parasail_result_t, ResultFree>;

void check_sequences(const std::vector<std::string>& set, const char* what) {
  for (std::size_t i = 0; i < set.size(); ++i) {
    if (set[i].empty())
      throw std::invalid_argument(std::string(what) + " sequence " + std::to_string(i + 1) +
                                  " is empty");
    if (set[i].size() > kMaxAlignedLength)
      throw std::invalid_argument(std::string(what) + " sequence " + std::to_string(i + 1) +
                                  " is longer than " + std::to_string(kMaxAlignedLength));
  }
}

// parasail picks its SIMD implementation on the first call of each function by writing a global
// function pointer; one call of every function used here, on this thread, does that before the
// workers start. 20 W score 220 against themselves, so the 8-bit pass saturates and the 16-bit
// functions are chosen too.
void choose_parasail_implementations(const AlignmentOptions& o) {
  static const bool done = [&o] {
    const std::string w(20, 'W');
    const int n = static_cast<int>(w.size());
    const Profile plain(parasail_profile_create_sat(w.data(), n, &parasail_blosum62));
    const Profile stats(parasail_profile_create_stats_sat(w.data(), n, &parasail_blosum62));
    if (!plain || !stats) throw std::runtime_error("parasail: cannot create a query profile");
    const Result a(
        parasail_sw_striped_profile_sat(plain.get(), w.data(), n, o.gap_open, o.gap_extend));
    const Result b(
        parasail_sw_stats_striped_profile_sat(stats.get(), w.data(), n, o.gap_open, o.gap_extend));
    if (!a || !b) throw std::runtime_error("parasail: alignment failed");
    return true;
  }();
  (void)done;
}

// The two passes for one query: the best score over the training set with the score-only kernel
// (about 4x faster than the one that also counts matches and length: 1.4 against 5.6 us per
// alignment of a validation peptide, measured), then the kernel with statistics on the training
// sequences that reach it. Returns false on a parasail failure.
bool nearest_hit(const std::string& query, const std::vector<std::string>& training,
                 const AlignmentOptions& o, NearestHit& hit) {
  const int qn = static_cast<int>(query.size());
  const Profile plain(parasail_profile_create_sat(query.data(), qn, &parasail_blosum62));
  if (!plain) return false;
  int best = -1;
  std::vector<std::size_t> ties;
  for (std::size_t t = 0; t < training.size(); ++t) {
    const Result r(parasail_sw_striped_profile_sat(plain.get(), training[t].data(),
                                                   static_cast<int>(training[t].size()), o.gap_open,
                                                   o.gap_extend));
    if (!r || parasail_result_is_saturated(r.get())) return false;
    const int score = parasail_result_get_score(r.get());
    if (score > best) {
      best = score;
      ties.clear();
    }
    if (score == best) ties.push_back(t);
  }
  const Profile stats(parasail_profile_create_stats_sat(query.data(), qn, &parasail_blosum62));
  if (!stats) return false;
  hit = NearestHit{.score = best, .training = ties.front()};
  double best_identity = -1.0;
  for (const std::size_t t : ties) {
    const Result r(parasail_sw_stats_striped_profile_sat(stats.get(), training[t].data(),
                                                         static_cast<int>(training[t].size()),
                                                         o.gap_open, o.gap_extend));
    if (!r || parasail_result_is_saturated(r.get()) || parasail_result_get_score(r.get()) != best)
      return false;
    const int matches = parasail_result_get_matches(r.get());
    const int length = parasail_result_get_length(r.get());
    const double identity = length > 0 ? static_cast<double>(matches) / length : 0.0;
    if (identity > best_identity) {
      best_identity = identity;
      hit.training = t;
      hit.matches = matches;
      hit.length = length;
      hit.identity = identity;
    }
  }
  return true;
}

double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  return 0.5 * (upper + *std::max_element(v.begin(), v.begin() + mid));
}

double mean(const std::vector<double>& v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

constexpr std::uint64_t kShuffleStream = 0x5348554646ull;  // "SHUFF": its own Philox stream

}  // namespace

std::vector<NearestHit> nearest_training_hits(const std::vector<std::string>& queries,
                                              const std::vector<std::string>& training,
                                              const AlignmentOptions& options) {
  if (training.empty()) throw std::invalid_argument("alignment: the training set is empty");
  if (options.gap_open <= 0 || options.gap_extend <= 0 || options.gap_extend > options.gap_open)
    throw std::invalid_argument("alignment: gap costs must satisfy 0 < extend <= open, got open " +
                                std::to_string(options.gap_open) + ", extend " +
                                std::to_string(options.gap_extend));
  if (options.threads < 1)
    throw std::invalid_argument("alignment: threads must be >= 1, got " +
                                std::to_string(options.threads));
  check_sequences(queries, "query");
  check_sequences(training, "training");
  choose_parasail_implementations(options);

  std::vector<NearestHit> hits(queries.size());
  std::atomic<bool> failed{false};
  engine::ThreadPool pool(options.threads);
  // One task per query (dynamic: the pool hands the next query to whichever thread is free).
  pool.run(static_cast<int>(queries.size()), [&](int q) {
    if (!nearest_hit(queries[q], training, options, hits[q])) failed = true;
    hits[q].query_length = static_cast<int>(queries[q].size());
  });
  if (failed) throw std::runtime_error("parasail: a Smith-Waterman alignment failed");
  return hits;
}

AlignmentSummary summarize_hits(const std::vector<NearestHit>& hits, double identity_threshold,
                                double coverage_threshold) {
  std::vector<double> scores, identities;
  std::size_t above = 0, copies = 0;
  for (const NearestHit& h : hits) {
    scores.push_back(h.score);
    identities.push_back(h.identity);
    if (h.identity < identity_threshold) continue;
    ++above;
    if (h.length >= coverage_threshold * h.query_length) ++copies;
  }
  AlignmentSummary s;
  s.n = hits.size();
  s.score_median = median(scores);
  s.score_mean = mean(scores);
  s.identity_median = median(identities);
  s.identity_mean = mean(identities);
  const auto share = [&](std::size_t count) {
    return hits.empty() ? std::numeric_limits<double>::quiet_NaN()
                        : static_cast<double>(count) / hits.size();
  };
  s.fraction_identity_at_least = share(above);
  s.fraction_near_copies = share(copies);
  s.identity_threshold = identity_threshold;
  s.coverage_threshold = coverage_threshold;
  return s;
}

std::vector<std::string> shuffle_letters(const std::vector<std::string>& sequences,
                                         std::uint64_t seed) {
  const engine::PhiloxKey key{static_cast<std::uint32_t>(seed),
                              static_cast<std::uint32_t>(seed >> 32)};
  std::vector<std::string> out = sequences;
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::string& s = out[i];
    for (std::size_t j = s.size(); j > 1; --j) {  // Fisher-Yates: swap s[j-1] with s[0..j-1]
      const auto bits = engine::philox4x32_10(
          {static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(i),
           static_cast<std::uint32_t>(i >> 32), static_cast<std::uint32_t>(kShuffleStream)},
          key);
      const std::uint64_t r = (std::uint64_t{bits[0]} << 32) | bits[1];
      // Multiply-shift maps 64 random bits onto 0..j-1 (bias below 2^-50 for peptide lengths).
      const auto pick = static_cast<std::size_t>((static_cast<unsigned __int128>(r) * j) >> 64);
      std::swap(s[j - 1], s[pick]);
    }
  }
  return out;
}

}  // namespace gsflow::evaluation
