// TATA-box profiles (see metrics/tata.hpp).
#include "gsflow/engine/metrics/tata.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "gsflow/engine/dna_motif.hpp"
#include "metrics/checks.hpp"

namespace gsflow::engine {

using namespace metrics_detail;

// ---- TATA box ----------------------------------------------------------------------------------

bool tata_at(std::span<const std::uint8_t> s, std::size_t start) {
  static const DnaMotif tata(kTataMotif);
  return tata.at(s, start);
}

TataProfile tata_profile(const SequenceSet& seqs, const TataOptions& options) {
  check_dna(seqs, "tata");
  TataProfile prof;
  prof.sequences = seqs.size();
  std::size_t longest = 0;
  for (const Sequence& s : seqs) longest = std::max(longest, s.size());
  prof.start_counts.assign(longest, 0);
  std::size_t in_window = 0;
  for (const Sequence& s : seqs) {
    bool hit = false;
    for (std::size_t start = 0; start + kTataLength <= s.size(); ++start) {
      if (!tata_at(s, start)) continue;
      const std::size_t d = s.size() - 1 - start;  // position -(d + 1) from the 3' end
      ++prof.start_counts[d];
      ++prof.matches;
      const long pos = -static_cast<long>(d) - 1;
      hit = hit || (pos >= options.window_begin && pos <= options.window_end);
    }
    in_window += hit;
  }
  prof.window_fraction = static_cast<double>(in_window) / static_cast<double>(seqs.size());
  return prof;
}

std::vector<double> tata_bin_rates(const TataProfile& p, const TataOptions& options,
                                   std::size_t bins) {
  if (options.bin == 0) throw std::invalid_argument("tata_bin_rates: bin width must be >= 1");
  if (p.sequences == 0) throw std::invalid_argument("tata_bin_rates: the profile has no sequences");
  if (bins == 0) bins = (p.start_counts.size() + options.bin - 1) / options.bin;
  std::vector<double> r(bins, 0.0);
  for (std::size_t d = 0; d < p.start_counts.size() && d / options.bin < bins; ++d)
    r[d / options.bin] += static_cast<double>(p.start_counts[d]);
  for (double& v : r) v /= static_cast<double>(p.sequences);
  return r;
}

TataComparison compare_tata(const TataProfile& a, const TataProfile& b,
                            const TataOptions& options) {
  if (options.bin == 0) throw std::invalid_argument("compare_tata: bin width must be >= 1");
  if (a.sequences == 0 || b.sequences == 0)
    throw std::invalid_argument("compare_tata: a profile has no sequences");
  const std::size_t longest = std::max(a.start_counts.size(), b.start_counts.size());
  const std::size_t bins = (longest + options.bin - 1) / options.bin;
  const std::vector<double> ra = tata_bin_rates(a, options, bins),
                            rb = tata_bin_rates(b, options, bins);
  TataComparison cmp;
  cmp.window_fraction_diff = std::abs(a.window_fraction - b.window_fraction);
  for (std::size_t i = 0; i < bins; ++i) cmp.histogram_l1 += std::abs(ra[i] - rb[i]);
  return cmp;
}

}  // namespace gsflow::engine
