// Sequence properties stored as scores (see properties.hpp).
#include "gsflow/guidance/properties.hpp"

#include <array>

namespace gsflow::guidance {

namespace {
// Kyte & Doolittle (1982) hydropathy, in the protein alphabet's order ACDEFGHIKLMNPQRSTVWY.
constexpr std::array<double, 20> kKyteDoolittle = {1.8,  2.5,  -3.5, -3.5, 2.8,  -0.4, -3.2,
                                                   4.5,  -3.9, 3.8,  1.9,  -3.5, -1.6, -3.5,
                                                   -4.5, -0.8, -0.7, 4.2,  -0.9, -1.3};
}  // namespace

std::map<std::string, double> property_scores(const std::string& alphabet,
                                              std::span<const std::uint8_t> letters) {
  if (letters.empty()) return {};
  const double n = static_cast<double>(letters.size());
  if (alphabet == "dna") {  // ACGT: C = 1, G = 2
    double gc = 0;
    for (const auto l : letters) gc += (l == 1 || l == 2) ? 1.0 : 0.0;
    return {{"gc", gc / n}};
  }
  if (alphabet == "protein") {
    double sum = 0;
    for (const auto l : letters) sum += l < kKyteDoolittle.size() ? kKyteDoolittle[l] : 0.0;
    return {{"gravy", sum / n}};
  }
  return {};
}

}  // namespace gsflow::guidance
