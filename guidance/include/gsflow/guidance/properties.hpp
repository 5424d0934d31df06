// Simple sequence properties stored with every generated sequence as scores: GC fraction for
// DNA, GRAVY hydropathy (Kyte & Doolittle 1982) for peptides.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>

namespace gsflow::guidance {

// Scores by name for a sequence of letter indices in the alphabet named `alphabet` ("dna":
// {"gc"}, "protein": {"gravy"}, anything else: none).
std::map<std::string, double> property_scores(const std::string& alphabet,
                                              std::span<const std::uint8_t> letters);

}  // namespace gsflow::guidance
