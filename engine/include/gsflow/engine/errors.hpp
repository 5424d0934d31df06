// InputError: the exception for bad user input (files, sequences), carrying the file and line so
// that what() reads "FILE:LINE: message" like a compiler diagnostic.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace gsflow::engine {

// what() is "FILE:LINE: message"; the parts that are unknown are left out: "FILE: message" when
// line is 0, "line LINE: message" when file is empty, just "message" when both are.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::size_t line, std::string message)
      : std::runtime_error(format(file, line, message)),
        file_(std::move(file)),
        line_(line),
        message_(std::move(message)) {}

  // Path of the offending file as the caller gave it; empty when not from a file.
  const std::string& file() const noexcept { return file_; }
  // 1-based line number; 0 when it does not apply (e.g. the file could not be opened).
  std::size_t line() const noexcept { return line_; }
  // The message without the location prefix.
  const std::string& message() const noexcept { return message_; }

 private:
  static std::string format(const std::string& file, std::size_t line, const std::string& message) {
    std::string out;
    if (!file.empty()) {
      out = file;
      if (line > 0) out += ':' + std::to_string(line);
      out += ": ";
    } else if (line > 0) {
      out = "line " + std::to_string(line) + ": ";
    }
    return out + message;
  }

  std::string file_;
  std::size_t line_ = 0;
  std::string message_;
};

}  // namespace gsflow::engine
