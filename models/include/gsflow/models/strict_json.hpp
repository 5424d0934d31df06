// The one strict reader of JSON configs and descriptors (training configs, classifier
// descriptors and checkpoint metadata): every key read is marked known and finish() refuses the
// rest (typos must not be ignored silently); a value of the wrong JSON type, or an integer that
// does not fit the field, is refused instead of converted. Errors name the file and the key.
#pragma once

#include <nlohmann/json.hpp>

#include <fstream>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace gsflow::models {

// How errors name a key: a config setting ("FILE: train.lr is required") or a file field
// ("FILE: field 'lr' is missing").
enum class JsonNaming { setting, field };

template <typename Error = std::invalid_argument>
class StrictJson {
 public:
  // `prefix` is the dotted path of this object ("train."), empty at the top.
  StrictJson(const nlohmann::json& j, std::string file, std::string prefix = "",
             JsonNaming naming = JsonNaming::setting)
      : j_(j), file_(std::move(file)), prefix_(std::move(prefix)), naming_(naming) {
    if (!j_.is_object())
      throw Error(file_ + ": " +
                  (prefix_.empty() ? std::string("the file")
                                   : prefix_.substr(0, prefix_.size() - 1)) +
                  " must be a JSON object");
  }

  template <typename T>
  T get(const std::string& key) {
    if (!j_.contains(key)) fail(key, naming_ == JsonNaming::setting ? "is required" : "is missing");
    return read<T>(key);
  }
  template <typename T>
  T get(const std::string& key, const T& fallback) {
    seen_.insert(key);
    return j_.contains(key) ? read<T>(key) : fallback;
  }
  bool has(const std::string& key) const { return j_.contains(key); }

  // The object at `key` (an empty one when absent), its keys checked by its own finish().
  StrictJson sub(const std::string& key) {
    seen_.insert(key);
    static const nlohmann::json empty = nlohmann::json::object();
    return StrictJson(j_.contains(key) ? j_.at(key) : empty, file_, prefix_ + key + ".", naming_);
  }

  void finish() const {
    for (const auto& [key, value] : j_.items())
      if (!seen_.count(key))
        fail(key, naming_ == JsonNaming::setting ? "is not a known setting" : "is not a known field");
  }

  // "FILE: train.lr" (for messages of checks made after reading).
  std::string where(const std::string& key) const { return file_ + ": " + prefix_ + key; }

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    if (naming_ == JsonNaming::setting) throw Error(file_ + ": " + prefix_ + key + " " + what);
    throw Error(file_ + ": field '" + prefix_ + key + "' " + what);
  }

 private:
  template <typename T>
  T read(const std::string& key) {
    seen_.insert(key);
    const nlohmann::json& v = j_.at(key);
    bool ok = true;
    if constexpr (std::is_same_v<T, bool>) {
      ok = v.is_boolean();
    } else if constexpr (std::is_integral_v<T>) {
      // get<T>() would narrow silently (4294967396 read as 100).
      using L = std::numeric_limits<T>;
      ok = v.is_number_integer() &&
           (v.is_number_unsigned()
                ? std::cmp_less_equal(v.template get<std::uint64_t>(), L::max())
                : std::cmp_greater_equal(v.template get<std::int64_t>(), L::min()) &&
                      std::cmp_less_equal(v.template get<std::int64_t>(), L::max()));
    } else if constexpr (std::is_floating_point_v<T>) {
      ok = v.is_number();
    } else if constexpr (std::is_same_v<T, std::string>) {
      ok = v.is_string();
    }
    if (!ok) fail(key, "has the wrong type");
    try {
      return v.template get<T>();
    } catch (const nlohmann::json::exception&) {
      fail(key, "has the wrong type");
    }
  }

  const nlohmann::json& j_;
  std::string file_, prefix_;
  JsonNaming naming_;
  std::set<std::string> seen_;
};

// Parses a JSON file; throws Error naming the file ("FILE: cannot open WHAT") when it cannot be
// opened or is not JSON.
template <typename Error = std::invalid_argument>
nlohmann::json read_json_file(const std::string& file, const std::string& what) {
  std::ifstream in(file);
  if (!in) throw Error(file + ": cannot open " + what);
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(file + ": not valid JSON (" + e.what() + ")");
  }
}

}  // namespace gsflow::models
