// Small helpers shared by the `gsflow data` commands (data_commands.cpp, data_leaks.cpp,
// data_windows.cpp): summary JSON in and out, the key=value fields of the pipeline's FASTA headers,
// the seeded hash of every selection and small sequence helpers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gsflow/engine/alphabet.hpp"
#include "gsflow/engine/errors.hpp"
#include "gsflow/engine/fasta.hpp"
#include "gsflow/engine/hash.hpp"

namespace gsflow::app::data_files {

// The seeded hash every random-looking choice uses: mix64(FNV-1a-64(text) ^ mix64(seed)). Fixed
// here so that a seed recorded in a manifest reproduces the same selection on any machine.
inline std::uint64_t seeded_hash(std::uint64_t seed, std::string_view text) {
  return engine::mix64(engine::fnv1a64(text.data(), text.size()) ^ engine::mix64(seed));
}

// True when every letter is one of the 20 standard amino acids.
inline bool standard_only(const std::string& s) {
  const auto& protein = engine::protein_alphabet();
  for (const char c : s)
    if (!protein.contains(c)) return false;
  return true;
}

// The sequences of FASTA records, in order.
inline std::vector<std::string> sequences_of(const std::vector<engine::FastaRecord>& records) {
  std::vector<std::string> out;
  out.reserve(records.size());
  for (const auto& r : records) out.push_back(r.sequence);
  return out;
}

inline void write_json(const std::filesystem::path& path, const nlohmann::ordered_json& j) {
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
}

inline nlohmann::ordered_json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw engine::InputError(path.string(), 0, "cannot open file");
  try {
    return nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw engine::InputError(path.string(), 0, std::string("not valid JSON: ") + e.what());
  }
}

// Parses "amp=1 ribosomal=0 len=12" into its fields.
inline std::map<std::string, std::string> parse_fields(const std::string& description) {
  std::map<std::string, std::string> out;
  std::size_t pos = 0;
  while (pos < description.size()) {
    auto sp = description.find(' ', pos);
    if (sp == std::string::npos) sp = description.size();
    const std::string tok = description.substr(pos, sp - pos);
    const auto eq = tok.find('=');
    if (eq != std::string::npos) out[tok.substr(0, eq)] = tok.substr(eq + 1);
    pos = sp + 1;
  }
  return out;
}

}  // namespace gsflow::app::data_files
