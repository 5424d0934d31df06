// 8-bit quantised, optionally zlib-compressed probability frames (see frame_codec.hpp).
#include "gsflow/storage/frame_codec.hpp"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gsflow::storage {

namespace {
constexpr char kRaw = 0, kZlib = 1;
}

std::string encode_probabilities(std::span<const float> p) {
  std::string q(p.size() + 1, '\0');
  q[0] = kRaw;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const float v = p[i];
    if (!(v >= -1e-6f && v <= 1.0f + 1e-6f))
      throw std::invalid_argument("trajectory frame: probability " + std::to_string(v) +
                                  " outside [0, 1]");
    q[i + 1] = static_cast<char>(static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)));
  }
  // Level 1: near-one-hot late frames shrink ~10x at a fraction of level 6's time.
  uLongf size = compressBound(static_cast<uLong>(p.size()));
  std::string z(size + 1, '\0');
  z[0] = kZlib;
  if (compress2(reinterpret_cast<Bytef*>(z.data() + 1), &size,
                reinterpret_cast<const Bytef*>(q.data() + 1), static_cast<uLong>(p.size()),
                1) == Z_OK &&
      size + 1 < q.size()) {
    z.resize(size + 1);
    return z;
  }
  return q;
}

std::vector<float> decode_probabilities(std::string_view blob, std::size_t count, std::size_t k) {
  if (blob.empty() || k == 0 || count % k != 0)
    throw std::runtime_error("trajectory frame: empty blob or bad shape");
  std::string raw;
  std::string_view q;
  if (blob[0] == kRaw) {
    q = blob.substr(1);
  } else if (blob[0] == kZlib) {
    raw.resize(count);
    uLongf size = static_cast<uLongf>(count);
    if (uncompress(reinterpret_cast<Bytef*>(raw.data()), &size,
                   reinterpret_cast<const Bytef*>(blob.data() + 1),
                   static_cast<uLong>(blob.size() - 1)) != Z_OK)
      throw std::runtime_error("trajectory frame: corrupt compressed data");
    raw.resize(size);
    q = raw;
  } else {
    throw std::runtime_error("trajectory frame: unknown codec " +
                             std::to_string(static_cast<int>(blob[0])));
  }
  if (q.size() != count)
    throw std::runtime_error("trajectory frame: " + std::to_string(q.size()) + " values, expected " +
                             std::to_string(count));
  std::vector<float> p(count);
  for (std::size_t row = 0; row < count; row += k) {
    unsigned sum = 0;
    for (std::size_t j = 0; j < k; ++j) sum += static_cast<std::uint8_t>(q[row + j]);
    for (std::size_t j = 0; j < k; ++j)
      p[row + j] = sum ? static_cast<float>(static_cast<std::uint8_t>(q[row + j])) /
                             static_cast<float>(sum)
                       : 1.0f / static_cast<float>(k);
  }
  return p;
}

}  // namespace gsflow::storage
