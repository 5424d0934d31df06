// Position weight matrices from JASPAR files, as log-odds scores for the motif objective.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace gsflow::guidance {

struct Pwm {
  std::string id, name;                         // e.g. "MA0108.2", "TBP"
  std::vector<std::array<double, 4>> counts;    // per motif position, A C G T
  std::vector<std::array<double, 4>> log_odds;  // log2(p / 0.25), p = (count + 0.25) / (N + 1)
};

// Reads a JASPAR count matrix: the ">ID NAME" header followed by four rows A, C, G, T, either as
// plain numbers (JASPAR "pfm", pscan's .wil) or as "A [ 1 2 3 ]" (JASPAR format). A file with
// several matrices gives the one named `id`, or the first when `id` is empty. Throws
// engine::InputError naming the file and line for anything else (rows of different widths,
// non-numbers, negative counts, a missing id).
Pwm read_jaspar(const std::string& path, const std::string& id = "");

// The bundled TBP matrix (JASPAR MA0108.2, from Debian's pscan-chip-data), found like the
// bundled models (models::model_folders(), subfolder motifs/).
std::string bundled_motif_file();

}  // namespace gsflow::guidance
