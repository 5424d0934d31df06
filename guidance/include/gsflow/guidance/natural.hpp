// The `natural:NAME` objective: keeps a guided design inside the composition band of a real class
// (engine/metrics/composition_band.hpp), e.g. `--guide amp --guide natural:amp=0.5` steers toward
// antimicrobial peptides while holding letter and letter-pair fractions where real antimicrobial
// peptides have them. Bands are JSON files, found by name in the models' `bands` folder
// (models/pretrained/bands/NAME.json, written by `gsflow profile --band`) or given as a file.
#pragma once

#include <memory>
#include <string>

#include "gsflow/engine/metrics/composition_band.hpp"
#include "gsflow/guidance/objective.hpp"
#include "gsflow/guidance/stgflow.hpp"

namespace gsflow::guidance {

void write_band(const std::string& file, const engine::CompositionBand& band);
// Throws engine::InputError naming the file and field for an unreadable or malformed one.
engine::CompositionBand read_band(const std::string& file);
// The band file for `name`: the file itself when it exists, else NAME.json in the bands folders.
// Throws models::ModelError listing the folders searched and the bands available.
std::string resolve_band(const std::string& name);

// The sums a band holds beside the letters and pairs: DNA GC content; protein GRAVY (Kyte-Doolittle)
// and net charge per residue at pH 7 (a design of 95 % L, I, V and F passes every letter's band).
std::vector<engine::LinearFeature> band_linear_features(const std::string& alphabet);

// The objective for the spec `natural:ARG` (ARG: a band name or file) for `alphabet`. Throws
// std::invalid_argument naming the spec for a missing argument or a band of another alphabet.
std::shared_ptr<const Objective> make_natural_objective(const std::string& spec,
                                                        const std::string& arg,
                                                        const std::string& alphabet);

// Guided designs keep their class's composition by default: `--naturalness W` (the studio's
// Naturalness) adds natural:NAME=W for the first guide term NAME that has a band (the bundled
// classifiers amp and promoter). 16 was chosen on the validation split (n = 100, seed 7, weights
// 0, 1, 4, 16, 64; docs/notes/2026-12-06-naturalness.md): it removes most composition exploits at
// a small cost in the judge's score at equal gamma.
inline constexpr double kDefaultNaturalness = 16.0;

// Appends that term to `terms` unless `weight` is 0, a natural: term is already there, or no term
// has a band. Returns the term's spec ("" when none was added). Throws std::invalid_argument for
// a weight < 0 or not finite.
std::string add_naturalness(std::vector<GuideTerm>& terms, double weight);

}  // namespace gsflow::guidance
