// The set-level k-mer hold (see kmer_hold.hpp).
#include "gsflow/guidance/kmer_hold.hpp"

#include <algorithm>
#include <stdexcept>

#include "gsflow/engine/metrics/kmer_reference.hpp"
#include "gsflow/guidance/natural.hpp"

namespace gsflow::guidance {

namespace {
class KmerHold final : public Objective {
 public:
  KmerHold(std::string spec, engine::KmerReference ref, std::string alphabet)
      : ref_(std::move(ref)) {
    info_.name = std::move(spec);
    info_.alphabet = std::move(alphabet);
    info_.k = ref_.letters.size();
    info_.on_prediction = true;
    info_.extensive = true;
    info_.description = "k-mer use of the set against the reference's (" + std::to_string(ref_.k) +
                        "-mers, " + std::to_string(ref_.bins) +
                        " position bins; 0 as the reference, negative for over-used k-mers)";
  }
  const ObjectiveInfo& info() const override { return info_; }

  void evaluate(const SequenceRows& s, std::span<double> scores,
                const engine::Rows* grad) const override {
    const std::size_t kk = info_.k, k = ref_.k, words = ref_.words();
    engine::SequenceSet set(s.n);
    for (std::size_t i = 0; i < s.n; ++i) {
      set[i].resize(s.length_of(i));
      for (std::size_t p = 0; p < set[i].size(); ++p) {
        const float* row = s.x.data + (i * s.length + p) * s.x.stride;
        set[i][p] = static_cast<std::uint8_t>(std::max_element(row, row + kk) - row);
      }
    }
    const auto ratio = engine::kmer_log_ratio(ref_, set);
    std::size_t top = 1;  // K^(k-1): the place value of a k-mer's first letter
    for (std::size_t j = 1; j < k; ++j) top *= kk;
    for (std::size_t i = 0; i < s.n; ++i) {
      const auto& seq = set[i];
      const std::size_t len = seq.size();
      if (grad != nullptr)
        for (std::size_t p = 0; p < s.length; ++p) {
          float* g = grad->data + (i * s.length + p) * grad->stride;
          std::fill(g, g + kk, 0.0f);
        }
      double sum = 0.0;
      for (std::size_t start = 0; start + k <= len; ++start) {
        std::size_t w = 0;
        for (std::size_t j = 0; j < k; ++j) w = w * kk + seq[start + j];
        const std::size_t row = ref_.bin_of(start, len) * words;
        sum += ratio[row + w];
        if (grad == nullptr) continue;
        std::size_t place = top;
        for (std::size_t j = 0; j < k; ++j, place /= kk) {
          const std::size_t rest = w - seq[start + j] * place;
          float* g = grad->data + (i * s.length + start + j) * grad->stride;
          for (std::size_t c = 0; c < kk; ++c)
            g[c] -= static_cast<float>(ratio[row + rest + c * place]);
        }
      }
      scores[i] = len == 0 ? 0.0 : -sum / static_cast<double>(len);
    }
  }

 private:
  engine::KmerReference ref_;
  ObjectiveInfo info_;
};
}  // namespace

std::shared_ptr<const Objective> make_kmer_hold_objective(const std::string& spec,
                                                          const std::string& arg,
                                                          const std::string& alphabet) {
  if (arg.empty())
    throw std::invalid_argument("--guide " + spec +
                                ": name the real class, kmers:NAME (a band with k-mers in the "
                                "models' bands folder, e.g. kmers:promoter) or kmers:FILE.json");
  const std::string file = resolve_band(arg);
  auto ref = read_band_kmers(file);
  if (!ref)
    throw std::invalid_argument("--guide " + spec + ": the band " + file +
                                " has no k-mer reference (fit one with gsflow profile --band " +
                                arg + " --kmers K)");
  const std::string band_alphabet = ref->letters == "ACGT" ? "dna" : "protein";
  if (!alphabet.empty() && band_alphabet != alphabet)
    throw std::invalid_argument("--guide " + spec + ": the band is for " + band_alphabet +
                                ", the model makes " + alphabet);
  return std::make_shared<KmerHold>(spec, std::move(*ref), band_alphabet);
}

}  // namespace gsflow::guidance
