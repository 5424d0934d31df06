// Classifier lookup by name: bundled classifiers (models/pretrained/classifiers/) and user files
// (see classifier.hpp). Torch-free.
#include <filesystem>
#include <set>

#include "gsflow/models/catalog.hpp"
#include "gsflow/models/classifier.hpp"
#include "gsflow/models/model.hpp"

namespace gsflow::models {

namespace fs = std::filesystem;

std::vector<std::string> classifier_folders() {
  std::vector<std::string> folders;
  for (const auto& folder : model_folders())
    folders.push_back((fs::path(folder) / "classifiers").string());
  return folders;
}

std::string resolve_classifier(const std::string& name) {
  std::error_code ec;
  if (fs::is_regular_file(name, ec)) return name;
  const auto folders = classifier_folders();
  for (const auto& folder : folders)
    for (const char* ext : {".ckpt", ".json"}) {
      const fs::path file = fs::path(folder) / (name + ext);
      if (fs::is_regular_file(file, ec)) return file.string();
    }
  std::string msg = "classifier '" + name + "' not found: not a file, and no " + name +
                    ".ckpt or " + name + ".json in";
  for (const auto& folder : folders) msg += " " + folder;
  msg += " (available:";
  const auto names = bundled_classifiers();
  if (names.empty()) msg += " none";
  for (const auto& n : names) msg += " " + n;
  throw ModelError(msg + ")");
}

std::vector<std::string> bundled_classifiers() {
  std::set<std::string> names;
  for (const auto& folder : classifier_folders()) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const auto ext = it->path().extension();
      if (ext == ".ckpt" || ext == ".json") names.insert(it->path().stem().string());
    }
  }
  return {names.begin(), names.end()};
}

}  // namespace gsflow::models
