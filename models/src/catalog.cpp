// Model lookup by name (see catalog.hpp).
#include "gsflow/models/catalog.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "checkpoint.hpp"
#include "gsflow/engine/hash.hpp"
#include "gsflow/models/model.hpp"

namespace gsflow::models {

namespace fs = std::filesystem;

std::vector<std::string> model_folders() {
  std::vector<std::string> folders;
  if (const char* env = std::getenv("GSFLOW_MODELS"); env && *env) folders.emplace_back(env);
  // An installed binary (cmake --install, the .deb) has its models in <prefix>/share/gsflow/models
  // and never looks at the source tree it was built from: that path belongs to the build machine
  // and may hold other (retrained) models. A binary in a build tree has no such folder.
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path installed =
      ec ? fs::path() : exe.parent_path().parent_path() / "share" / "gsflow" / "models";
  if (!installed.empty() && fs::is_directory(installed, ec)) {
    folders.push_back(installed.string());
  } else {
    folders.emplace_back(GSFLOW_SOURCE_DIR "/models/pretrained");
    if (!installed.empty()) folders.push_back(installed.string());
  }
  folders.push_back(user_models_folder());
  return folders;
}

std::string user_models_folder() {
  if (const char* env = std::getenv("GSFLOW_USER_MODELS"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
    return (fs::path(xdg) / "gsflow" / "models").string();
  const char* home = std::getenv("HOME");
  return (fs::path(home && *home ? home : ".") / ".local" / "share" / "gsflow" / "models").string();
}

std::string resolve_model(const std::string& name, const std::string& method) {
  std::error_code ec;
  if (fs::is_regular_file(name, ec)) return name;
  // A method picks the variant of the base name: dna-promoter-gssm with --method linear is
  // dna-promoter-linear, with --method gsfm dna-promoter.
  std::string stem = name;
  if (!method.empty()) {
    for (const std::string variant : {"-gssm", "-linear"})
      if (stem.size() > variant.size() &&
          stem.compare(stem.size() - variant.size(), variant.size(), variant) == 0)
        stem.resize(stem.size() - variant.size());
    if (method != "gsfm") stem += "-" + method;
  }
  for (const auto& folder : model_folders()) {
    const fs::path file = fs::path(folder) / (stem + ".ckpt");
    if (fs::is_regular_file(file, ec)) return file.string();
  }
  std::string msg = "model '" + stem + "' not found: not a file, and no " + stem + ".ckpt in";
  for (const auto& folder : model_folders()) msg += " " + folder;
  msg += " (available:";
  const auto names = bundled_models();
  if (names.empty()) msg += " none";
  for (const auto& n : names) msg += " " + n;
  throw ModelError(msg + ")");
}

std::string content_hash(std::string_view bytes) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx",
                static_cast<unsigned long long>(engine::fnv1a64(bytes.data(), bytes.size())));
  return buf;
}

std::string model_hash(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) throw ModelError(file + ": cannot read the model file");
  return content_hash(bytes.view());
}

namespace {
// Stems of the files in `folders` whose extension is one of `extensions`, sorted, unique.
std::vector<std::string> stems_in(const std::vector<std::string>& folders,
                                  const std::vector<std::string>& extensions) {
  std::set<std::string> names;
  for (const auto& folder : folders) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const auto ext = it->path().extension().string();
      if (std::find(extensions.begin(), extensions.end(), ext) != extensions.end())
        names.insert(it->path().stem().string());
    }
  }
  return {names.begin(), names.end()};
}
}  // namespace

std::vector<std::string> bundled_models() { return stems_in(model_folders(), {".ckpt"}); }

std::vector<std::string> kind_folders(const FileKind& kind) {
  std::vector<std::string> folders;
  for (const auto& folder : model_folders())
    folders.push_back((fs::path(folder) / kind.subfolder).string());
  return folders;
}

std::string resolve_file(const FileKind& kind, const std::string& name) {
  std::error_code ec;
  if (fs::is_regular_file(name, ec)) return name;
  const auto folders = kind_folders(kind);
  for (const auto& folder : folders)
    for (const auto& ext : kind.extensions) {
      const fs::path file = fs::path(folder) / (name + ext);
      if (fs::is_regular_file(file, ec)) return file.string();
    }
  std::string msg = kind.what + " '" + name + "' not found: not a file, and no";
  for (std::size_t i = 0; i < kind.extensions.size(); ++i)
    msg += (i ? " or " : " ") + name + kind.extensions[i];
  msg += " in";
  for (const auto& folder : folders) msg += " " + folder;
  msg += " (available:";
  const auto names = stems_in(folders, kind.extensions);
  if (names.empty()) msg += " none";
  for (const auto& n : names) msg += " " + n;
  throw ModelError(msg + ")");
}

std::vector<std::string> file_names(const FileKind& kind) {
  return stems_in(kind_folders(kind), kind.extensions);
}

}  // namespace gsflow::models
