// Finding models by name: the bundled defaults (models/pretrained/NAME.ckpt) and user files.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gsflow/engine/sampler.hpp"

namespace gsflow::models {

// Folders searched for NAME.ckpt, in order: $GSFLOW_MODELS (if set), the pretrained folder of the
// source tree this binary was built from, and <prefix>/share/gsflow/models next to the binary.
std::vector<std::string> model_folders();

// The checkpoint file for `name`: `name` itself when it is an existing file, otherwise
// NAME.ckpt; a `method` picks the variant of the base name (gsfm: BASE.ckpt, gssm:
// BASE-gssm.ckpt, linear: BASE-linear.ckpt, where BASE is NAME without such a suffix)
// in the first folder of model_folders() that holds it. Throws ModelError listing the folders
// searched and the bundled names when nothing is found.
std::string resolve_model(const std::string& name, const std::string& method = "");

// Identity of a model file: FNV-1a 64 of its bytes, 16 hex digits (what the run store records, and
// what a rerun checks). Throws ModelError naming an unreadable file.
std::string model_hash(const std::string& file);
// FNV-1a 64 of `bytes` as 16 hex digits (same hash as checkpoints' data hashes).
std::string content_hash(std::string_view bytes);

// Names (file stems) of the checkpoints in model_folders(), sorted, without duplicates.
std::vector<std::string> bundled_models();

}  // namespace gsflow::models
