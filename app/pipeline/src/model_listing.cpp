// The models found by name and deleting user models (model_listing.hpp); the command line's
// `models list` / `models delete` and gsflow-studio's Models view both call these.
#include "gsflow/pipeline/model_listing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "gsflow/engine/sampler.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/classifier.hpp"
#include "gsflow/models/model.hpp"

namespace gsflow::pipeline {

namespace {

namespace fs = std::filesystem;

bool under(const fs::path& file, const fs::path& folder) {
  std::error_code ec;
  const auto f = fs::weakly_canonical(file, ec), d = fs::weakly_canonical(folder, ec);
  const auto rel = f.lexically_relative(d);
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

std::string metrics_text(const std::map<std::string, double>& m) {
  std::string s;
  for (const char* key : {"test_auroc", "validation_auroc", "test_spearman", "validation_spearman",
                          "validation_rmse", "best_val_loss", "val_loss"}) {
    const auto it = m.find(key);
    if (it == m.end()) continue;
    std::string k = key;
    for (const char* from : {"validation_", "test_"})
      if (k.rfind(from, 0) == 0)
        k = std::string(from[0] == 'v' ? "val " : "test ") + k.substr(std::string(from).size());
    s += fmt::format("{}{} {:.3f}", s.empty() ? "" : ", ", k, it->second);
  }
  return s.empty() ? "-" : s;
}

std::vector<ListedModel> list_models() {
  const std::string user = models::user_models_folder();
  std::vector<ListedModel> out;
  std::set<std::pair<std::string, std::string>> seen;  // (kind group, name): first folder wins
  for (const auto& folder : models::model_folders()) {
    const std::string origin = under(folder, user) ? "user" : "bundled";
    std::error_code ec;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".ckpt") files.push_back(it->path());
    for (fs::directory_iterator it(fs::path(folder) / "classifiers", ec), end; !ec && it != end;
         it.increment(ec))
      if (it->path().extension() == ".ckpt" || it->path().extension() == ".json")
        files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      const bool classifier = f.parent_path().filename() == "classifiers";
      ListedModel e;
      e.name = f.stem().string();
      e.origin = origin;
      e.file = f.string();
      if (!seen.insert({classifier ? "c" : "g", e.name}).second) continue;  // shadowed
      if (const auto card = fs::path(f).replace_extension(".md"); fs::is_regular_file(card, ec))
        e.card = card.string();
      try {
        if (classifier) {
          const auto c = models::Classifier::load(e.file);
          const auto& i = c.info();
          e.kind = i.kind == "torchscript" ? "classifier (torchscript)"
                   : i.output == "score"   ? "regressor"
                                           : "classifier";
          e.alphabet = i.alphabet;
          e.length = i.min_length == i.max_length
                         ? std::to_string(i.max_length)
                         : fmt::format("{}..{}", i.min_length, i.max_length);
          const auto n = i.metrics.find("train_sequences");
          e.data =
              i.data_hash.empty()
                  ? "-"
                  : fmt::format("{}{}", i.data_hash,
                                n == i.metrics.end() ? "" : fmt::format(" ({} train)", n->second));
          e.metrics = i.metrics;
        } else {
          const auto m = models::Model::load(e.file);
          e.kind = std::string("generator (") + engine::method_name(m.spec().method) + ")";
          e.alphabet = m.spec().alphabet.empty() ? "-" : m.spec().alphabet;
          e.length = (m.spec().variable_length() ? "..." : "") + std::to_string(m.spec().length);
          e.data = m.record().data_hash.empty() ? "-" : m.record().data_hash;
          e.metrics = m.record().metrics;
        }
      } catch (const std::exception& err) {
        e.kind = classifier ? "classifier" : "generator";
        e.error = err.what();
      }
      out.push_back(std::move(e));
    }
  }
  return out;
}

std::vector<std::string> delete_user_model(const std::string& name) {
  const fs::path user = models::user_models_folder();
  std::vector<fs::path> found;
  std::error_code ec;
  for (const fs::path& stem : {user / "classifiers" / name, user / name}) {
    for (const char* ext : {".ckpt", ".json"}) {
      fs::path f = stem;
      f += ext;
      if (!fs::is_regular_file(f, ec)) continue;
      if (std::string(ext) == ".json" && stem.parent_path() == user) continue;  // not a model
      found.push_back(f);
      for (const char* extra : {".md", ".profile.json"}) {
        fs::path side = stem;
        side += extra;
        if (fs::is_regular_file(side, ec)) found.push_back(side);
      }
    }
  }
  if (found.empty()) {
    // Bundled models are part of the installation: refuse, naming where they are.
    for (const auto& bundled : models::bundled_classifiers())
      if (bundled == name)
        throw std::invalid_argument(
            "models delete " + name + ": " + models::resolve_classifier(name) +
            " is a bundled classifier; only user models (" + user.string() + ") can be deleted");
    for (const auto& bundled : models::bundled_models())
      if (bundled == name)
        throw std::invalid_argument("models delete " + name + ": " + models::resolve_model(name) +
                                    " is a bundled model; only user models (" + user.string() +
                                    ") can be deleted");
    throw std::invalid_argument("models delete " + name + ": no user model of that name in " +
                                user.string() + " (gsflow models list)");
  }
  std::vector<std::string> removed;
  for (const auto& f : found) {
    fs::remove(f, ec);
    if (ec) throw std::runtime_error(f.string() + ": cannot delete (" + ec.message() + ")");
    removed.push_back(f.string());
  }
  return removed;
}

}  // namespace gsflow::pipeline
