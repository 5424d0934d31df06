// Strict reading of JSON config files: every key read is marked known, and the rest are refused
// with the file and the dotted key (shared by `gsflow train` and `gsflow train-classifier`).
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>

namespace gsflow::app {

// A JSON object whose keys are checked against the ones read: reading marks a key as known, and
// finish() rejects the rest (typos must not be ignored silently).
class Section {
 public:
  Section(const nlohmann::json& j, std::string file, std::string prefix)
      : j_(j), file_(std::move(file)), prefix_(std::move(prefix)) {
    if (!j_.is_object())
      fail(prefix_.empty() ? "the file" : prefix_.substr(0, prefix_.size() - 1),
           "must be a JSON object");
  }
  template <typename T>
  T get(const std::string& key) {
    if (!j_.contains(key)) fail(prefix_ + key, "is required");
    return read<T>(key);
  }
  template <typename T>
  T get(const std::string& key, const T& fallback) {
    return j_.contains(key) ? read<T>(key) : (seen_.insert(key), fallback);
  }
  Section sub(const std::string& key) {
    seen_.insert(key);
    static const nlohmann::json empty = nlohmann::json::object();
    return Section(j_.contains(key) ? j_.at(key) : empty, file_, prefix_ + key + ".");
  }
  void finish() const {
    for (const auto& [key, value] : j_.items())
      if (!seen_.count(key)) fail(prefix_ + key, "is not a known setting");
  }
  std::string where(const std::string& key) const { return file_ + ": " + prefix_ + key; }

 private:
  template <typename T>
  T read(const std::string& key) {
    seen_.insert(key);
    try {
      return j_.at(key).get<T>();
    } catch (const nlohmann::json::exception&) {
      fail(prefix_ + key, "has the wrong type");
    }
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw std::invalid_argument(file_ + ": " + key + " " + what);
  }
  const nlohmann::json& j_;
  std::string file_, prefix_;
  std::set<std::string> seen_;
};

// Parses a config file as JSON; throws std::invalid_argument naming the file when it cannot be
// opened or is not valid JSON.
nlohmann::json read_config_json(const std::string& file);

}  // namespace gsflow::app
