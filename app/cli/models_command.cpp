// `gsflow models list` and `gsflow models delete NAME`: the generators and guidance classifiers
// found by name (models::model_folders(): bundled ones, then the user models folder), with their
// alphabet, lengths, training data and metrics; deleting removes a user model and its card.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "gsflow/engine/sampler.hpp"
#include "gsflow/models/catalog.hpp"
#include "gsflow/models/classifier.hpp"
#include "gsflow/models/model.hpp"
#include "model_commands.hpp"

namespace gsflow::app {

namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

struct Entry {
  std::string name, kind, origin, alphabet, length, data, file, error;
  std::map<std::string, double> metrics;
};

bool under(const fs::path& file, const fs::path& folder) {
  std::error_code ec;
  const auto f = fs::weakly_canonical(file, ec), d = fs::weakly_canonical(folder, ec);
  const auto rel = f.lexically_relative(d);
  return !rel.empty() && *rel.begin() != "..";
}

// The metrics worth a column: held-out figures first.
std::string metrics_text(const std::map<std::string, double>& m) {
  std::string s;
  for (const char* key : {"test_auroc", "validation_auroc", "test_spearman", "validation_spearman",
                          "validation_rmse", "best_val_loss", "val_loss"}) {
    const auto it = m.find(key);
    if (it == m.end()) continue;
    std::string k = key;
    for (const char* from : {"validation_", "test_"})
      if (k.rfind(from, 0) == 0) k = std::string(from[0] == 'v' ? "val " : "test ") + k.substr(std::string(from).size());
    s += fmt::format("{}{} {:.3f}", s.empty() ? "" : ", ", k, it->second);
  }
  return s.empty() ? "-" : s;
}

std::vector<Entry> list_models() {
  const std::string user = models::user_models_folder();
  std::vector<Entry> out;
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
      Entry e;
      e.name = f.stem().string();
      e.origin = origin;
      e.file = f.string();
      if (!seen.insert({classifier ? "c" : "g", e.name}).second) continue;  // shadowed
      try {
        if (classifier) {
          const auto c = models::Classifier::load(e.file);
          const auto& i = c.info();
          e.kind = i.kind == "torchscript" ? "classifier (torchscript)"
                   : i.output == "score"    ? "regressor"
                                            : "classifier";
          e.alphabet = i.alphabet;
          e.length = i.min_length == i.max_length
                         ? std::to_string(i.max_length)
                         : fmt::format("{}..{}", i.min_length, i.max_length);
          const auto n = i.metrics.find("train_sequences");
          e.data = i.data_hash.empty() ? "-"
                                       : fmt::format("{}{}", i.data_hash,
                                                     n == i.metrics.end()
                                                         ? ""
                                                         : fmt::format(" ({} train)", n->second));
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

void run_list(bool json) {
  const auto entries = list_models();
  if (json) {
    ordered_json a = ordered_json::array();
    for (const auto& e : entries) {
      ordered_json j = {{"name", e.name},     {"kind", e.kind},     {"origin", e.origin},
                        {"alphabet", e.alphabet}, {"length", e.length}, {"data", e.data},
                        {"metrics", e.metrics}, {"file", e.file}};
      if (!e.error.empty()) j["error"] = e.error;
      a.push_back(j);
    }
    std::cout << a.dump(2) << "\n";
    return;
  }
  std::vector<std::array<std::string, 8>> rows = {
      {"name", "kind", "origin", "alphabet", "length", "data", "metrics", "file"}};
  for (const auto& e : entries)
    rows.push_back({e.name, e.kind, e.origin, e.alphabet.empty() ? "-" : e.alphabet,
                    e.length.empty() ? "-" : e.length, e.data.empty() ? "-" : e.data,
                    e.error.empty() ? metrics_text(e.metrics) : "unreadable: " + e.error, e.file});
  std::array<std::size_t, 8> width{};
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t c = 0; c < r.size(); ++c)
      line += c + 1 == r.size() ? r[c] : fmt::format("{:<{}}  ", r[c], width[c]);
    std::cout << line << "\n";
  }
  std::cout << fmt::format("user models folder: {}\n", models::user_models_folder());
}

void run_delete(const std::string& name) {
  const fs::path user = models::user_models_folder();
  std::vector<fs::path> removed;
  std::error_code ec;
  for (const fs::path& stem : {user / "classifiers" / name, user / name}) {
    for (const char* ext : {".ckpt", ".json"}) {
      fs::path f = stem;
      f += ext;
      if (!fs::is_regular_file(f, ec)) continue;
      if (std::string(ext) == ".json" && stem.parent_path() == user) continue;  // not a model
      removed.push_back(f);
      for (const char* extra : {".md", ".profile.json"}) {
        fs::path side = stem;
        side += extra;
        if (fs::is_regular_file(side, ec)) removed.push_back(side);
      }
    }
  }
  if (removed.empty()) {
    // Bundled models are part of the installation: refuse, naming where they are.
    for (const auto& bundled : models::bundled_classifiers())
      if (bundled == name)
        throw std::invalid_argument("models delete " + name + ": " +
                                    models::resolve_classifier(name) +
                                    " is a bundled classifier; only user models (" +
                                    user.string() + ") can be deleted");
    for (const auto& bundled : models::bundled_models())
      if (bundled == name)
        throw std::invalid_argument("models delete " + name + ": " + models::resolve_model(name) +
                                    " is a bundled model; only user models (" + user.string() +
                                    ") can be deleted");
    throw std::invalid_argument("models delete " + name + ": no user model of that name in " +
                                user.string() + " (gsflow models list)");
  }
  for (const auto& f : removed) {
    fs::remove(f, ec);
    if (ec) throw std::runtime_error(f.string() + ": cannot delete (" + ec.message() + ")");
    std::cerr << "models delete: removed " << f.string() << "\n";
  }
}

}  // namespace

void add_models_command(CLI::App& app) {
  auto* models = app.add_subcommand(
      "models", "List the models found by name (bundled and the user's), delete user models");
  models->require_subcommand(1);
  auto json = std::make_shared<bool>(false);
  auto* list = models->add_subcommand(
      "list", "Generators and classifiers by name: kind, alphabet, length, data, metrics, file");
  list->add_flag("--json", *json, "JSON array on stdout");
  list->callback([json] { run_list(*json); });
  auto name = std::make_shared<std::string>();
  auto* del = models->add_subcommand(
      "delete", "Delete a user model (its checkpoint and card); bundled models are refused");
  del->add_option("name", *name, "The model's name")->required();
  del->callback([name] { run_delete(*name); });
}

}  // namespace gsflow::app
