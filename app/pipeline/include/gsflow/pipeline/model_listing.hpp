// The models found by name, as `gsflow models list` shows them and gsflow-studio's Models view
// lists them: generators, guidance classifiers and independent judges of models::model_folders()
// (bundled ones, then the user models folder) with kind, alphabet, lengths, training data and
// metrics; and deleting a user model with its card.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gsflow::pipeline {

struct ListedModel {
  std::string name;    // what generate --model / --guide take
  std::string kind;    // "generator (gsfm)", "classifier", "regressor", "classifier (torchscript)",
                       // "judge" (a k-mer judge, judges/NAME.json: score and eval-* --judge NAME)
  std::string origin;  // "bundled" or "user" (in models::user_models_folder())
  std::string alphabet;  // "dna", "protein"; "" when unreadable
  std::string length;    // "256", "10..100" (classifiers), "...100" (variable-length generators),
                         // "any" (judges)
  std::string features;  // judges: "k-mers 1..4" or "k-mers 1..2 + length"; "" for other kinds
  std::string data;      // training data hash (and "(N train)" for classifiers), "-" when none
  std::string file;      // the checkpoint (or classifier / judge .json)
  std::string card;      // NAME.md beside the file when it exists, else ""
  std::string error;     // why the file could not be read ("" when it could)
  std::map<std::string, double> metrics;  // as recorded in the checkpoint

  bool generator() const { return kind.find("generator") == 0; }
  bool judge() const { return kind == "judge"; }
  // "generator", "classifier" (regressors too) or "judge": what delete_user_model's `kind` takes.
  std::string kind_group() const {
    return generator() ? "generator" : judge() ? "judge" : "classifier";
  }
  bool user() const { return origin == "user"; }
};

// Every model found by name, in the folders' order; within a folder generators and classifiers
// (files sorted), then judges (sorted). A name already found in an earlier folder for the same
// kind group (generator, classifier, judge) is left out (it is shadowed); a classifier and a judge
// may share a name (the bundled promoter and amp are both). Unreadable files are listed with
// `error` set. Never throws for a missing folder.
std::vector<ListedModel> list_models();

// The metrics worth a column, held-out figures first: "test auroc 0.959, val auroc 0.974"
// (judges: "test auroc 0.797, cv auroc 0.784"), "-" when there are none.
std::string metrics_text(const std::map<std::string, double>& metrics);

// Deletes user model `name` (generator, classifier or judge) with its card and profile; returns
// the files removed. `kind` "" takes any kind, else "generator", "classifier" (regressors too) or
// "judge" only that one. Throws std::invalid_argument for another `kind`, when `name` is bundled
// (naming its file), when no user model of that name (and kind) exists, and when `kind` is "" and
// user models of several kinds have that name (naming them; nothing is deleted);
// std::runtime_error when a file cannot be removed.
std::vector<std::string> delete_user_model(const std::string& name, const std::string& kind = "");

}  // namespace gsflow::pipeline
