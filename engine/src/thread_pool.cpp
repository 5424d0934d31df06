// Persistent worker pool used by the kernels' row-parallel dispatch.
#include "gsflow/engine/thread_pool.hpp"

#include <stdexcept>

namespace gsflow::engine {

ThreadPool::ThreadPool(int threads) {
  if (threads < 1)
    throw std::invalid_argument("thread count must be >= 1, got " + std::to_string(threads));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::drain() {
  std::unique_lock lock(mutex_);
  while (job_ && next_ < total_) {
    const int i = next_++;
    const auto* job = job_;
    lock.unlock();
    (*job)(i);
    lock.lock();
    if (--unfinished_ == 0) done_.notify_all();
  }
}

void ThreadPool::worker_loop() {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain();
  }
}

void ThreadPool::run(int tasks, const std::function<void(int)>& fn) {
  if (tasks <= 0) return;
  if (workers_.empty() || tasks == 1) {
    for (int i = 0; i < tasks; ++i) fn(i);
    return;
  }
  std::lock_guard run_lock(run_mutex_);
  {
    std::lock_guard lock(mutex_);
    job_ = &fn;
    next_ = 0;
    total_ = tasks;
    unfinished_ = tasks;
    ++generation_;
  }
  wake_.notify_all();
  drain();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return unfinished_ == 0; });
  job_ = nullptr;
}

}  // namespace gsflow::engine
