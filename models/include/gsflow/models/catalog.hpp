// Finding models by name: the bundled defaults (models/pretrained/NAME.ckpt) and user files.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gsflow/engine/sampler.hpp"

namespace gsflow::models {

// Folders searched for NAME.ckpt, in order: $GSFLOW_MODELS (if set), then for an installed binary
// <prefix>/share/gsflow/models (the bin/ folder's sibling, when it exists) alone; for a binary in
// a build tree the pretrained folder of the source tree it was built from; last the user models
// folder (user_models_folder()), so that a user's model never shadows a bundled one.
std::vector<std::string> model_folders();

// Where the user's own models go (`gsflow train-classifier --name`, listed by `gsflow models
// list`): $GSFLOW_USER_MODELS, else $XDG_DATA_HOME/gsflow/models, else
// $HOME/.local/share/gsflow/models (the XDG default, beside the run store). Classifiers live in
// its classifiers/ subfolder, as the bundled ones do. The folder need not exist.
std::string user_models_folder();

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

// A kind of file kept beside the models and found by name (classifiers, judges): in `subfolder`
// of each of model_folders(), as NAME + one of `extensions` (tried in order).
struct FileKind {
  std::string what;                     // for messages: "classifier", "judge"
  std::string subfolder;                // e.g. "classifiers"
  std::vector<std::string> extensions;  // e.g. {".ckpt", ".json"}
};
// The folders searched for `kind`, in order.
std::vector<std::string> kind_folders(const FileKind& kind);
// `name` itself when it is an existing file, else the first NAME + extension in kind_folders().
// Throws ModelError listing the folders searched and the names available.
std::string resolve_file(const FileKind& kind, const std::string& name);
// Names (file stems) of the files of `kind` in those folders, sorted, without duplicates.
std::vector<std::string> file_names(const FileKind& kind);

}  // namespace gsflow::models
