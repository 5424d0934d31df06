// Each kernel path's output bits are pinned to the revision in its kernel names ("_r1"), so that
// a stored run's kernel names say which bits computed it (gsflow rerun compares them).
//
// The test runs every operation of a path over fixed inputs (every layout: K = 4 and 20, dense and
// strided, the lanes widths, the wide rows with both algorithms), hashes the output bits, and looks
// the hash up under the path's name and revision. A change that moves any output bit fails here
// until the path's revision is raised (engine/src/kernels/table_*.cpp, reference.cpp) and the new
// hash recorded below (a raised revision needs its hash recorded as well). Correctness is checked
// elsewhere (test_kernels.cpp, against a long-double oracle); this checks traceability.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gsflow/engine/hash.hpp"
#include "kernel_test_util.hpp"

namespace gsflow::engine {
namespace {

using kt::Batch;

// Hash of each path's outputs, by path and revision. Add a line when a revision is raised; keep
// the old ones (they document what each revision computed).
const std::map<std::string, std::uint64_t> kRecordedHashes = {
    {"ref_r1", 0x0eed63e2502c842d},
    {"avx2_r1", 0x42e1e43cc1a7b848},
    {"avx512_r1", 0x0f1f4884d56eb232},
};

// FNV-1a over the floats of each row in order.
struct Hash {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void add_bytes(const void* p, std::size_t bytes) { h = fnv1a64(p, bytes, h); }
  void add(const float* v, std::size_t n) { add_bytes(v, n * sizeof(float)); }
  void add(const Batch& b) {
    for (std::size_t r = 0; r < b.rows; ++r) add(b.row(r), b.k);
  }
};

// Inputs from splitmix64, scaled exactly, so that they are the same bits on any toolchain:
// uniform in [lo, lo + span) on a grid of span / 2^24.
float grid(std::uint64_t& counter, float lo, float span) {
  return lo + static_cast<float>(mix64(counter++) >> 40) * (span * 0x1p-24f);
}

// Logits in [-6, 6], with hostile rows: row 1 near 95 (overflow unless shifted), row 2 all equal,
// row 4 -inf in every other column, row 6 one NaN (the row's outputs are NaN).
Batch logits(std::size_t rows, std::size_t k, std::size_t stride, std::uint64_t counter) {
  Batch x(rows, k, stride);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < k; ++c) {
      float v = grid(counter, -6.0f, 12.0f);
      if (r == 1) v += 95.0f;
      if (r == 2) v = 3.25f;
      if (r == 4 && c % 2 == 1) v = kt::kNegInf;
      if (r == 6 && c == k / 2) v = std::numeric_limits<float>::quiet_NaN();
      x.at(r, c) = v;
    }
  return x;
}

// Flow-step state: non-negative, about one in eight entries exactly 0 (never a whole row).
Batch state(std::size_t rows, std::size_t k, std::size_t stride, std::uint64_t counter) {
  Batch x(rows, k, stride);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < k; ++c) {
      const std::uint64_t h = mix64(counter++);
      x.at(r, c) = c > 0 && (h & 7) == 0 ? 0.0f : static_cast<float>(h >> 40) * 0x1p-24f + 1e-3f;
    }
  return x;
}

struct Case {
  std::size_t rows, k, stride_in, stride_out;
};

// Every layout: lanes widths dense (K = 4 and 20 have their own code) and strided, other lanes
// widths, and wide rows (masked tails, several registers, a row larger than L1).
const Case kCases[] = {{37, 4, 4, 4},           {37, 4, 7, 5},      {37, 20, 20, 20},
                       {37, 20, 23, 21},        {37, 1, 1, 1},      {37, 3, 3, 3},
                       {37, 8, 8, 8},           {37, 12, 12, 12},   {37, 64, 64, 64},
                       {37, 33, 33, 33},        {9, 100, 100, 100}, {9, 1000, 1003, 1001},
                       {3, 20000, 20000, 20000}};

// Hash of every operation's outputs over every case on one path.
std::uint64_t outputs_hash(const KernelOptions& options) {
  const Kernels kern(options);
  Hash hash;
  std::uint64_t stream = 0;  // each input batch draws from its own counter range
  auto counter = [&stream] { return stream++ << 32; };
  for (const Case& c : kCases) {
    const Batch x = logits(c.rows, c.k, c.stride_in, counter());
    const Batch s = state(c.rows, c.k, c.stride_in, counter());
    const Batch p = state(c.rows, c.k, c.stride_in, counter());
    const NoiseKey key{7, 11, 1000};
    Batch y = kt::make_output(c.rows, c.k, c.stride_out);
    kern.softmax(x.in(), y.out());
    hash.add(y);
    kern.log_softmax(x.in(), y.out());
    hash.add(y);
    std::vector<float> lse(c.rows);
    kern.logsumexp(x.in(), lse.data());
    hash.add(lse.data(), lse.size());
    kern.gumbel_softmax(x.in(), y.out(), 0.7f, key);
    hash.add(y);
    kern.interpolant(x.in(), y.out(), 0.5f, 3.0f, key);
    hash.add(y);
    kern.flow_step(s.in(), p.in(), y.out(), 0.35f);
    hash.add(y);
  }
  return hash.h;
}

class KernelRevision : public ::testing::TestWithParam<kt::PathSpec> {
 protected:
  void SetUp() override {
    if (!isa_supported(GetParam().isa))
      GTEST_SKIP() << GetParam().name << " is not supported on this CPU";
  }
};

TEST_P(KernelRevision, OutputBitsAreThoseRecordedForTheRevision) {
  const Kernels kern(GetParam().options);
  const std::string name = kern.kernel_name(KernelOp::softmax, 4);
  const std::optional<int> revision = kernel_name_revision(name);
  ASSERT_TRUE(revision) << name << " names no revision";
  const std::string key = std::string(isa_name(GetParam().isa)) + "_r" + std::to_string(*revision);
  // Both wide algorithms: the revision covers the forced one too.
  KernelOptions two_pass = GetParam().options;
  two_pass.wide = WideAlgorithm::two_pass;
  KernelOptions three_pass = GetParam().options;
  three_pass.wide = WideAlgorithm::three_pass;
  Hash hash;
  for (const std::uint64_t h : {outputs_hash(two_pass), outputs_hash(three_pass)})
    hash.add_bytes(&h, sizeof h);
  const auto it = kRecordedHashes.find(key);
  ASSERT_NE(it, kRecordedHashes.end()) << "no hash recorded for " << key << ": record {\"" << key
                                       << "\", 0x" << std::hex << hash.h << "} in kRecordedHashes";
  EXPECT_EQ(hash.h, it->second)
      << std::hex << "the " << key << " kernels' output bits changed (hash 0x" << hash.h
      << ", recorded 0x" << it->second
      << "): raise the path's revision (engine/src/kernels/table_*.cpp or reference.cpp) and "
         "record the new hash here, so that runs made with the new bits carry a new name";
}

INSTANTIATE_TEST_SUITE_P(Paths, KernelRevision, ::testing::ValuesIn(kt::base_paths()),
                         kt::path_param_name);

}  // namespace
}  // namespace gsflow::engine
