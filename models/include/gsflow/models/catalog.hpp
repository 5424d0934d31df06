// Finding models by name: the bundled defaults (models/pretrained/NAME.ckpt) and user files.
#pragma once

#include <string>
#include <vector>

#include "gsflow/engine/sampler.hpp"

namespace gsflow::models {

// Folders searched for NAME.ckpt, in order: $GSFLOW_MODELS (if set), the pretrained folder of the
// source tree this binary was built from, and <prefix>/share/gsflow/models next to the binary.
std::vector<std::string> model_folders();

// The checkpoint file for `name`: `name` itself when it is an existing file, otherwise
// NAME.ckpt (or NAME-gssm.ckpt / NAME-linear.ckpt when `method` asks for a variant of a GSFM name)
// in the first folder of model_folders() that holds it. Throws ModelError listing the folders
// searched and the bundled names when nothing is found.
std::string resolve_model(const std::string& name, const std::string& method = "");

// Names (file stems) of the checkpoints in model_folders(), sorted, without duplicates.
std::vector<std::string> bundled_models();

}  // namespace gsflow::models
