// Classifier lookup by name: bundled classifiers (models/pretrained/classifiers/) and user files
// (see classifier.hpp), through the shared FileKind lookup of catalog.hpp. Torch-free.
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/classifier.hpp"

namespace gsflow::models {

namespace {
const FileKind& classifiers() {
  static const FileKind kind{"classifier", "classifiers", {".ckpt", ".json"}};
  return kind;
}
}  // namespace

std::vector<std::string> classifier_folders() { return kind_folders(classifiers()); }
std::string resolve_classifier(const std::string& name) { return resolve_file(classifiers(), name); }
std::vector<std::string> bundled_classifiers() { return file_names(classifiers()); }

}  // namespace gsflow::models
