// Runs LibTorch inference on a batch of sequences in shards of a fixed number of positions (about
// a thousand for the denoisers): the shards run side by side on the threads given, LibTorch
// single-threaded inside each. The networks' tensors are small, and LibTorch's own threads split
// each operation too finely to pay; shards on two cores made `gsflow generate` 1.3x (DNA) to 2x
// (peptides) faster (docs/benchmarks.md, "Real models"). The shards depend only on the batch, never
// on the thread count, so the output has the same bits for every thread count (LibTorch's result
// for a sequence differs in the last bits between batch sizes, so it would not otherwise).
// Internal to models/.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "gsflow/engine/thread_pool.hpp"

namespace gsflow::models {

class BatchShards {
 public:
  // threads >= 1: the most shards run at once (the caller's thread counts as one).
  // shard_positions: the positions a shard aims at.
  explicit BatchShards(int threads, std::size_t shard_positions = 1024);

  // Number of shards for `items` sequences of `length` positions: about shard_positions positions
  // each, rounded up to a multiple of 4 (so that 1, 2 or 4 threads share them evenly), at most one
  // per sequence.
  std::size_t shards_for(std::size_t items, std::size_t length) const;

  // Calls fn(first, count) once for each shard [first, first + count) of [0, items), contiguous
  // and of near-equal size, side by side on the threads, each with one LibTorch thread (autograd
  // mode is per thread: fn sets it). Several callers may share the object; their calls run one
  // after another. fn's exceptions are rethrown here (the first shard's) once every shard ended.
  void run(std::size_t items, std::size_t length,
           const std::function<void(std::size_t, std::size_t)>& fn);

 private:
  std::size_t shard_positions_;
  std::unique_ptr<engine::ThreadPool> pool_;
};

}  // namespace gsflow::models
