// CLI11 checks the command line applies where CLI11's own conversion is too lenient.
#pragma once

#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdint>
#include <regex>
#include <string>

namespace gsflow::app {

// A whole number from 0 to 2^64 - 1. CLI11 reads "-1" into an unsigned field as 2^64 - 1 and
// saturates values beyond it (strtoull); seeds and counts must refuse both.
inline const CLI::Validator kUnsigned64(
    [](std::string& text) -> std::string {
      std::uint64_t value = 0;
      const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
      if (!text.empty() && text[0] == '-') return "'" + text + "' is negative";
      if (r.ec == std::errc::result_out_of_range) return "'" + text + "' is above 2^64 - 1";
      if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
        return "'" + text + "' is not a whole number";
      return "";
    },
    "UINT64");

// A date or date and time as the run store writes them (ISO 8601, UTC): 2026-12-01,
// 2026-12-01T13, 2026-12-01T13:05 or 2026-12-01T13:05:09.
inline const CLI::Validator kIsoDate(
    [](std::string& text) -> std::string {
      static const std::regex iso(R"(\d{4}-\d{2}-\d{2}([T ]\d{2}(:\d{2}(:\d{2})?)?)?)");
      return std::regex_match(text, iso) ? ""
                                         : "'" + text + "' is not a date (YYYY-MM-DD[THH[:MM[:SS]]])";
    },
    "DATE");

}  // namespace gsflow::app
