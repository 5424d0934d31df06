// The checkpoint container: a magic, a format version, JSON metadata and named binary sections,
// closed by a checksum, so that wrong, newer, truncated and corrupt files are told apart.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace gsflow::models {

inline constexpr std::uint32_t kCheckpointFormat = 1;

struct CheckpointData {
  std::string metadata;                         // JSON text
  std::map<std::string, std::string> sections;  // name -> bytes
};

// Writes to FILE.tmp and renames over FILE. Throws ModelError naming the file.
void write_checkpoint(const std::string& file, const CheckpointData& data);
// Throws ModelError naming the file and what is wrong with it.
CheckpointData read_checkpoint(const std::string& file);

// FNV-1a 64 (also used for data hashes).
std::uint64_t fnv1a64(const void* data, std::size_t size,
                      std::uint64_t hash = 0xcbf29ce484222325ull);

}  // namespace gsflow::models
