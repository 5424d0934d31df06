// libFuzzer target for the run-parameter JSON (guidance/run_params.hpp): the input is the JSON
// text. Expected failures are std::invalid_argument; what parses must keep every given field's
// value, satisfy the documented limits and survive run_params_json() unchanged.
#include "fuzz_check.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "gsflow/pipeline/run_params.hpp"

namespace {

using gsflow::pipeline::RunParams;

// The shards of a request tile [0, n) in order, with sizes that differ by at most one.
void check_shards(std::size_t n, std::size_t shards) {
  std::size_t next = 0;
  std::size_t smallest = n;
  std::size_t largest = 0;
  for (std::size_t i = 0; i < shards; ++i) {
    const auto [first, count] = gsflow::pipeline::shard_range(n, i, shards);
    FUZZ_CHECK(first == next);
    next = first + count;
    smallest = std::min(smallest, count);
    largest = std::max(largest, count);
  }
  FUZZ_CHECK(next == n);
  FUZZ_CHECK(largest - smallest <= 1);
}

// parse_shard on the raw text: "I/N" with 0 <= I < N, or std::invalid_argument.
void check_parse_shard(std::string_view text) {
  std::pair<std::size_t, std::size_t> shard;
  try {
    shard = gsflow::pipeline::parse_shard(std::string(text));
  } catch (const std::invalid_argument&) {
    return;
  }
  FUZZ_CHECK(shard.first < shard.second);
  const std::string again = std::to_string(shard.first) + "/" + std::to_string(shard.second);
  FUZZ_CHECK(gsflow::pipeline::parse_shard(again) == shard);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_parse_shard(text);

  RunParams p;
  try {
    p = gsflow::pipeline::parse_run_params(text);
  } catch (const std::invalid_argument& e) {
    FUZZ_CHECK(e.what()[0] != '\0');
    return 0;
  }

  // The limits parse_run_params promises to enforce.
  const auto& s = p.sampler;
  FUZZ_CHECK(!p.model.empty());
  FUZZ_CHECK(p.n >= 1 && p.shards >= 1 && p.shard < p.shards);
  FUZZ_CHECK(p.threads >= 1 && s.steps >= 0 && s.batch >= 1);  // steps 0 = auto
  FUZZ_CHECK(gsflow::pipeline::resolved_steps(p) >= 1);
  FUZZ_CHECK(s.temperature > 0 && s.start_scale > 0 && s.reinject >= 0 && s.snr > 0);
  FUZZ_CHECK(s.corrector_steps >= 0 && s.frames_every >= 0);

  // Round trip: parse_run_params(run_params_json(p)) == p (compared through the JSON text).
  const std::string json = gsflow::pipeline::run_params_json(p);
  const RunParams back = gsflow::pipeline::parse_run_params(json);  // throwing here is a finding
  FUZZ_CHECK(gsflow::pipeline::run_params_json(back) == json);

  // Every field the input gives keeps its value (no silent narrowing or wrapping); the input is
  // an object since it parsed, and nlohmann compares 2 and 2.0 as equal.
  const nlohmann::json given = nlohmann::json::parse(text);
  const nlohmann::json kept = nlohmann::json::parse(json);
  for (const auto& [key, value] : given.items()) {
    FUZZ_CHECK(kept.contains(key));
    if (kept[key] != value) {
      std::fprintf(stderr, "field %s: given %s, kept %s\n", key.c_str(), value.dump().c_str(),
                   kept[key].dump().c_str());
      FUZZ_CHECK(kept[key] == value);
    }
  }

  // The request of this shard is its slice of [0, n).
  const auto request = gsflow::pipeline::to_request(p);
  FUZZ_CHECK(request.first + request.n <= p.n && request.n >= p.n / p.shards);
  if (p.shards <= 4096) check_shards(p.n, p.shards);
  return 0;
}
