// Simple sequence properties stored with every generated sequence as scores: GC fraction for
// DNA, GRAVY hydropathy (Kyte & Doolittle 1982) for peptides.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <string>

namespace gsflow::guidance {

// Kyte & Doolittle (1982) hydropathy, in the protein alphabet's order ACDEFGHIKLMNPQRSTVWY.
inline constexpr std::array<double, 20> kKyteDoolittle = {
    1.8, 2.5, -3.5, -3.5, 2.8, -0.4, -3.2, 4.5, -3.9, 3.8,
    1.9, -3.5, -1.6, -3.5, -4.5, -0.8, -0.7, 4.2, -0.9, -1.3};

// Side-chain charges at pH 7: K, R +1; H +0.1 (pKa ~6.0, ~10 % protonated); D, E -1. Termini are
// left out: they cancel for the net charge of a free peptide. Same letter order.
inline constexpr std::array<double, 20> kChargeAtPh7 = {0, 0, -1, -1, 0, 0, 0.1, 0, 1, 0,
                                                        0, 0, 0,  0,  1, 0, 0,   0, 0, 0};

// Scores by name for a sequence of letter indices in the alphabet named `alphabet` ("dna":
// {"gc"}, "protein": {"gravy"}, anything else: none).
std::map<std::string, double> property_scores(const std::string& alphabet,
                                              std::span<const std::uint8_t> letters);

}  // namespace gsflow::guidance
