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

namespace gsflow::guidance {

void write_band(const std::string& file, const engine::CompositionBand& band);
// Throws engine::InputError naming the file and field for an unreadable or malformed one.
engine::CompositionBand read_band(const std::string& file);
// The band file for `name`: the file itself when it exists, else NAME.json in the bands folders.
// Throws models::ModelError listing the folders searched and the bands available.
std::string resolve_band(const std::string& name);

// The objective for the spec `natural:ARG` (ARG: a band name or file) for `alphabet`. Throws
// std::invalid_argument naming the spec for a missing argument or a band of another alphabet.
std::shared_ptr<const Objective> make_natural_objective(const std::string& spec,
                                                        const std::string& arg,
                                                        const std::string& alphabet);

}  // namespace gsflow::guidance
