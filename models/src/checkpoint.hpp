// The checkpoint container: a magic, a format version, JSON metadata and named binary sections,
// closed by a checksum, so that wrong, newer, truncated and corrupt files are told apart.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

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

// The bytes write_checkpoint() puts in the file. Does not throw except std::bad_alloc.
std::string checkpoint_bytes(const CheckpointData& data);
// Parses the bytes of a whole checkpoint file (read_checkpoint() reads the file and calls this).
// Throws ModelError whose message starts with `name` + ": " for a missing header, a newer or zero
// format, truncation, a checksum mismatch or trailing bytes; nothing else (std::bad_alloc aside).
// A section named "metadata" goes to CheckpointData::metadata; of repeated names the last wins.
CheckpointData read_checkpoint_bytes(std::string_view bytes, const std::string& name);

}  // namespace gsflow::models
