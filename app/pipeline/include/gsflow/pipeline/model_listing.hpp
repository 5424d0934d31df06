// The models found by name, as `gsflow models list` shows them and gsflow-studio's Models view
// lists them: generators and guidance classifiers of models::model_folders() (bundled ones, then
// the user models folder) with kind, alphabet, lengths, training data and metrics; and deleting a
// user model with its card.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gsflow::pipeline {

struct ListedModel {
  std::string name;    // what generate --model / --guide take
  std::string kind;    // "generator (gsfm)", "classifier", "regressor", "classifier (torchscript)"
  std::string origin;  // "bundled" or "user" (in models::user_models_folder())
  std::string alphabet;  // "dna", "protein"; "" when unreadable
  std::string length;    // "256", "10..100" (classifiers), "...100" (variable-length generators)
  std::string data;      // training data hash (and "(N train)" for classifiers), "-" when none
  std::string file;      // the checkpoint (or classifier .json)
  std::string card;      // NAME.md beside the file when it exists, else ""
  std::string error;     // why the file could not be read ("" when it could)
  std::map<std::string, double> metrics;  // as recorded in the checkpoint

  bool classifier() const { return kind.find("classifier") == 0 || kind == "regressor"; }
  bool user() const { return origin == "user"; }
};

// Every model found by name, in the folders' order (files sorted within a folder); a name already
// found in an earlier folder is left out (it is shadowed). Unreadable files are listed with
// `error` set. Never throws for a missing folder.
std::vector<ListedModel> list_models();

// The metrics worth a column, held-out figures first: "test auroc 0.959, val auroc 0.974", "-"
// when there are none.
std::string metrics_text(const std::map<std::string, double>& metrics);

// Deletes user model `name` (generator or classifier) with its card and profile; returns the files
// removed. Throws std::invalid_argument when `name` is bundled (naming its file) or no user model
// of that name exists, std::runtime_error when a file cannot be removed.
std::vector<std::string> delete_user_model(const std::string& name);

}  // namespace gsflow::pipeline
