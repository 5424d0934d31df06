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
#include "gsflow/models/judge.hpp"
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
  // (key, label): judges record test_split_auroc (bundled, the data's test split) or test_auroc
  // (train-judge --test), and cv_auroc (out-of-fold on their training data).
  static const std::pair<const char*, const char*> shown[] = {
      {"test_auroc", "test auroc"},
      {"test_split_auroc", "test auroc"},
      {"validation_auroc", "val auroc"},
      {"cv_auroc", "cv auroc"},
      {"test_spearman", "test spearman"},
      {"validation_spearman", "val spearman"},
      {"validation_rmse", "val rmse"},
      {"best_val_loss", "best_val_loss"},
      {"val_loss", "val_loss"}};
  std::string s;
  std::set<std::string> labels;
  for (const auto& [key, label] : shown) {
    const auto it = m.find(key);
    if (it == m.end() || !labels.insert(label).second) continue;
    s += fmt::format("{}{} {:.3f}", s.empty() ? "" : ", ", label, it->second);
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
    // Judges last: a classifier and a judge of one name (promoter, amp) list the classifier first.
    std::vector<fs::path> judge_files;
    for (fs::directory_iterator it(fs::path(folder) / "judges", ec), end; !ec && it != end;
         it.increment(ec))
      if (it->path().extension() == ".json") judge_files.push_back(it->path());
    std::sort(judge_files.begin(), judge_files.end());
    files.insert(files.end(), judge_files.begin(), judge_files.end());
    for (const auto& f : files) {
      const auto sub = f.parent_path().filename();
      const bool classifier = sub == "classifiers", judge = sub == "judges";
      ListedModel e;
      e.name = f.stem().string();
      e.origin = origin;
      e.file = f.string();
      if (!seen.insert({judge ? "j" : classifier ? "c" : "g", e.name}).second)
        continue;  // shadowed
      if (const auto card = fs::path(f).replace_extension(".md"); fs::is_regular_file(card, ec))
        e.card = card.string();
      try {
        if (judge) {
          const auto j = models::KmerJudge::load(e.file);
          const auto& i = j.info();
          e.kind = "judge";
          e.alphabet = i.alphabet;
          e.length = "any";
          e.features =
              fmt::format("k-mers 1..{}{}", i.features.kmax, i.features.length ? " + length" : "");
          e.data =
              i.data_hash.empty() ? "-" : fmt::format("{} ({} train)", i.data_hash, i.sequences);
          e.metrics = i.metrics;
        } else if (classifier) {
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
        e.kind = judge ? "judge" : classifier ? "classifier" : "generator";
        e.error = err.what();
      }
      out.push_back(std::move(e));
    }
  }
  return out;
}

std::vector<std::string> delete_user_model(const std::string& name, const std::string& kind) {
  static const char* const kinds[] = {"generator", "classifier", "judge"};
  if (!kind.empty() && std::find(std::begin(kinds), std::end(kinds), kind) == std::end(kinds))
    throw std::invalid_argument("models delete " + name + ": kind '" + kind +
                                "' is none of generator, classifier, judge");
  const fs::path user = models::user_models_folder();
  // Each kind's files of that name in the user folder: the model first, then its card and profile.
  std::vector<std::pair<std::string, std::vector<fs::path>>> found;
  std::error_code ec;
  for (const std::string k : kinds) {
    if (!kind.empty() && kind != k) continue;
    const fs::path stem = k == "generator"    ? user / name
                          : k == "classifier" ? user / "classifiers" / name
                                              : user / "judges" / name;
    std::vector<fs::path> files;
    for (const char* ext : {".ckpt", ".json"}) {
      if ((k == "generator" && std::string(ext) != ".ckpt") ||
          (k == "judge" && std::string(ext) != ".json"))
        continue;  // user/NAME.json is not a model, judges are JSON only
      fs::path f = stem;
      f += ext;
      if (fs::is_regular_file(f, ec)) files.push_back(f);
    }
    if (files.empty()) continue;
    for (const char* extra : {".md", ".profile.json"}) {
      fs::path side = stem;
      side += extra;
      if (fs::is_regular_file(side, ec)) files.push_back(side);
    }
    found.emplace_back(k, std::move(files));
  }
  if (found.size() > 1) {
    std::string which, flags;
    for (const auto& [k, files] : found) {
      which +=
          fmt::format("{}a user {} ({})", which.empty() ? "" : " and ", k, files.front().string());
      flags += (flags.empty() ? "" : "|") + k;
    }
    throw std::invalid_argument("models delete " + name + ": " + name + " is " + which +
                                "; say which with --kind " + flags);
  }
  if (found.empty()) {
    // Bundled models are part of the installation: refuse, naming where they are.
    const auto bundled = [&](const std::vector<std::string>& names) {
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    const std::string only = "; only user models (" + user.string() + ") can be deleted";
    if ((kind.empty() || kind == "classifier") && bundled(models::bundled_classifiers()))
      throw std::invalid_argument("models delete " + name + ": " +
                                  models::resolve_classifier(name) + " is a bundled classifier" +
                                  only);
    if ((kind.empty() || kind == "generator") && bundled(models::bundled_models()))
      throw std::invalid_argument("models delete " + name + ": " + models::resolve_model(name) +
                                  " is a bundled model" + only);
    if ((kind.empty() || kind == "judge") && bundled(models::bundled_judges()))
      throw std::invalid_argument("models delete " + name + ": " + models::resolve_judge(name) +
                                  " is a bundled judge" + only);
    throw std::invalid_argument("models delete " + name + ": no user " +
                                (kind.empty() ? std::string("model") : kind) + " of that name in " +
                                user.string() + " (gsflow models list)");
  }
  std::vector<std::string> removed;
  for (const auto& f : found.front().second) {
    fs::remove(f, ec);
    if (ec) throw std::runtime_error(f.string() + ": cannot delete (" + ec.message() + ")");
    removed.push_back(f.string());
  }
  return removed;
}

}  // namespace gsflow::pipeline
