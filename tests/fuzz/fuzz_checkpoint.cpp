// libFuzzer target for the checkpoint container (models/src/checkpoint.hpp): the input is a whole
// checkpoint file. Expected failures are ModelError naming the file; a file that reads must write
// back to bytes that read to the same data. No LibTorch: only checkpoint.cpp is linked.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "checkpoint.hpp"
#include "fuzz_check.hpp"
#include "gsflow/engine/hash.hpp"
#include "gsflow/models/model.hpp"

namespace {

using gsflow::models::CheckpointData;
using gsflow::models::ModelError;

const std::string kName = "fuzz.ckpt";

void check(std::string_view bytes) {
  CheckpointData data;
  try {
    data = gsflow::models::read_checkpoint_bytes(bytes, kName);
  } catch (const ModelError& e) {
    FUZZ_CHECK(std::string_view(e.what()).starts_with(kName + ": "));
    return;
  }
  const std::string encoded = gsflow::models::checkpoint_bytes(data);
  const CheckpointData back = gsflow::models::read_checkpoint_bytes(encoded, kName);
  FUZZ_CHECK(back.metadata == data.metadata);
  FUZZ_CHECK(back.sections == data.sections);
  FUZZ_CHECK(back.sections.count("metadata") == 0);
  // The writer's layout is canonical, so writing what was read from it gives the same bytes.
  FUZZ_CHECK(gsflow::models::checkpoint_bytes(back) == encoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  check(bytes);
  // A mutated file almost never carries a matching checksum, which would leave the success path
  // unexplored: read it a second time with its last 8 bytes set to the checksum of the rest.
  if (size >= 8) {
    std::string fixed(bytes);
    std::uint64_t sum = gsflow::engine::fnv1a64(fixed.data(), size - 8);
    for (std::size_t i = 0; i < 8; ++i) {
      fixed[size - 8 + i] = static_cast<char>(sum & 0xff);
      sum >>= 8;
    }
    if (fixed != bytes) check(fixed);
  }
  return 0;
}
