// Checkpoint container reading and writing (see checkpoint.hpp). Layout, little-endian:
//   "GSFLOWCK" | u32 format | u64 n | n x (u64 name_len, name, u64 size, bytes) | u64 fnv1a64
// where section "metadata" holds the JSON text.
#include "checkpoint.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "gsflow/engine/hash.hpp"
#include "gsflow/models/model.hpp"

namespace gsflow::models {

namespace {
constexpr char kMagic[8] = {'G', 'S', 'F', 'L', 'O', 'W', 'C', 'K'};

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

class Reader {
 public:
  Reader(std::string_view bytes, const std::string& file) : b_(bytes), file_(file) {}
  std::uint64_t u64(const char* what) {
    need(8, what);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(b_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return v;
  }
  std::string bytes(std::uint64_t n, const char* what) {
    need(n, what);
    std::string s(b_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  std::size_t pos() const { return pos_; }

 private:
  void need(std::uint64_t n, const char* what) const {
    if (n > b_.size() - pos_)
      throw ModelError(file_ + ": truncated checkpoint (file ends inside " + what + " at byte " +
                       std::to_string(pos_) + " of " + std::to_string(b_.size()) + ")");
  }
  std::string_view b_;
  const std::string& file_;
  std::size_t pos_ = 0;
};
}  // namespace

std::string checkpoint_bytes(const CheckpointData& data) {
  std::string out(kMagic, sizeof kMagic);
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>((kCheckpointFormat >> (8 * i)) & 0xff));
  put_u64(out, data.sections.size() + 1);
  const auto section = [&](const std::string& name, const std::string& bytes) {
    put_u64(out, name.size());
    out += name;
    put_u64(out, bytes.size());
    out += bytes;
  };
  section("metadata", data.metadata);
  for (const auto& [name, bytes] : data.sections) section(name, bytes);
  put_u64(out, engine::fnv1a64(out.data(), out.size()));
  return out;
}

void write_checkpoint(const std::string& file, const CheckpointData& data) {
  const std::string out = checkpoint_bytes(data);
  const std::string tmp = file + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw ModelError(file + ": cannot write checkpoint (" + std::strerror(errno) + ")");
    f.write(out.data(), static_cast<std::streamsize>(out.size()));
    f.flush();
    if (!f) throw ModelError(file + ": write failed (" + std::strerror(errno) + ")");
  }
  if (std::rename(tmp.c_str(), file.c_str()) != 0)
    throw ModelError(file + ": cannot replace checkpoint (" + std::strerror(errno) + ")");
}

CheckpointData read_checkpoint(const std::string& file) {
  std::ifstream f(file, std::ios::binary);
  if (!f) throw ModelError(file + ": cannot open checkpoint (" + std::strerror(errno) + ")");
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return read_checkpoint_bytes(bytes, file);
}

CheckpointData read_checkpoint_bytes(std::string_view bytes, const std::string& file) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw ModelError(file + ": not a gsflow checkpoint (missing GSFLOWCK header)");
  Reader r(bytes, file);
  r.bytes(sizeof kMagic, "header");
  const std::string v = r.bytes(4, "format version");
  std::uint32_t format = 0;
  for (int i = 0; i < 4; ++i)
    format |= static_cast<std::uint32_t>(static_cast<unsigned char>(v[i])) << (8 * i);
  if (format > kCheckpointFormat)
    throw ModelError(file + ": checkpoint format " + std::to_string(format) +
                     " is newer than this gsflow reads (" + std::to_string(kCheckpointFormat) +
                     "); upgrade gsflow");
  if (format == 0) throw ModelError(file + ": invalid checkpoint format 0");
  CheckpointData data;
  const std::uint64_t n = r.u64("section count");
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string name = r.bytes(r.u64("section name length"), "section name");
    std::string body = r.bytes(r.u64("section size"), "section data");
    if (name == "metadata") {
      data.metadata = std::move(body);
    } else {
      data.sections[name] = std::move(body);
    }
  }
  const std::size_t end = r.pos();
  const std::uint64_t stored = r.u64("checksum");
  if (stored != engine::fnv1a64(bytes.data(), end))
    throw ModelError(file + ": corrupt checkpoint (checksum mismatch)");
  if (r.pos() != bytes.size())
    throw ModelError(file + ": trailing bytes after the checkpoint checksum");
  return data;
}

}  // namespace gsflow::models
