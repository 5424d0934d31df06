// One mapping between a closed set (an enum) and its names, for every enum that is written to
// JSON, read from the command line or shown in the studio: name(), parse() and the list of names
// come from one table, so they cannot disagree.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gsflow::engine {

template <typename E, std::size_t N>
struct EnumNames {
  const char* what;                              // what the set is ("method"), for errors
  std::array<std::pair<E, const char*>, N> all;  // every value with its name, in display order

  const char* name(E value) const {
    for (const auto& [v, n] : all)
      if (v == value) return n;
    return "?";
  }

  // "gsfm, gssm or linear".
  std::string expected() const {
    std::string s;
    for (std::size_t i = 0; i < N; ++i)
      s += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(all[i].second);
    return s;
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : all) out.emplace_back(entry.second);
    return out;
  }

  // The value named `text`; otherwise throws Error "FIELD: unknown WHAT 'TEXT' (expected ...)".
  template <typename Error = std::invalid_argument>
  E parse(std::string_view text, const std::string& field) const {
    for (const auto& [v, n] : all)
      if (text == n) return v;
    throw Error(field + ": unknown " + what + " '" + std::string(text) + "' (expected " +
                expected() + ")");
  }
};

}  // namespace gsflow::engine
