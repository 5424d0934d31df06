// Sequence properties stored as scores (see properties.hpp).
#include "gsflow/guidance/properties.hpp"

namespace gsflow::guidance {

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
