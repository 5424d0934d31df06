// BatchShards: shards of a batch on the engine's thread pool, LibTorch single-threaded in each.
#include "batch_shards.hpp"

#include <ATen/Parallel.h>
#include <omp.h>

#include <algorithm>
#include <exception>
#include <vector>

namespace gsflow::models {

namespace {
// This thread's OpenMP team size for LibTorch's operations set to one for a scope. ATen sets the
// size on a thread's first parallel operation from the process-wide count, so that is done first.
class OneOpenMpThread {
 public:
  OneOpenMpThread() {
    at::internal::lazy_init_num_threads();
    before_ = omp_get_max_threads();
    omp_set_num_threads(1);
  }
  ~OneOpenMpThread() { omp_set_num_threads(before_); }
  OneOpenMpThread(const OneOpenMpThread&) = delete;
  OneOpenMpThread& operator=(const OneOpenMpThread&) = delete;

 private:
  int before_ = 1;
};
}  // namespace

BatchShards::BatchShards(int threads, std::size_t shard_positions)
    : shard_positions_(std::max<std::size_t>(shard_positions, 1)),
      pool_(std::make_unique<engine::ThreadPool>(threads)) {}

std::size_t BatchShards::shards_for(std::size_t items, std::size_t length) const {
  const std::size_t by_size =
      (items * std::max<std::size_t>(length, 1) + shard_positions_ - 1) / shard_positions_;
  return std::min(items, (by_size + 3) / 4 * 4);
}

void BatchShards::run(std::size_t items, std::size_t length,
                      const std::function<void(std::size_t, std::size_t)>& fn) {
  const std::size_t parts = shards_for(items, length);
  std::vector<std::exception_ptr> errors(parts);
  pool_->run(static_cast<int>(parts), [&](int i) {
    const auto part = static_cast<std::size_t>(i);
    const std::size_t first = items * part / parts, end = items * (part + 1) / parts;
    try {
      const OneOpenMpThread one;
      fn(first, end - first);
    } catch (...) {
      errors[part] = std::current_exception();
    }
  });
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace gsflow::models
