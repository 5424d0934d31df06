// A model's typicality profile (engine/metrics/typicality.hpp) as a JSON file beside its
// checkpoint, NAME.profile.json: the training data's range of each per-sequence statistic, so that
// guided outputs can say how far they are from it without the data at hand.
#pragma once

#include <optional>
#include <string>

#include "gsflow/engine/metrics/typicality.hpp"

namespace gsflow::pipeline {

// DIR/STEM.profile.json for the checkpoint DIR/STEM.ckpt.
std::string profile_path(const std::string& checkpoint);

void write_profile(const std::string& file, const engine::TypicalityProfile& profile);
// Throws engine::InputError naming the file and field for an unreadable or malformed one.
engine::TypicalityProfile read_profile(const std::string& file);
// The checkpoint's profile when its file exists (std::nullopt otherwise).
std::optional<engine::TypicalityProfile> profile_for(const std::string& checkpoint);

}  // namespace gsflow::pipeline
