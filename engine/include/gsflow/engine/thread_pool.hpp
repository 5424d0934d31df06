// A small persistent pool for row-parallel work: run(n, fn) calls fn(0..n-1) on the caller and
// threads-1 workers and returns when all are done. Threads are created once, not per call.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gsflow::engine {

class ThreadPool {
 public:
  // threads >= 1 (the caller counts as one); throws std::invalid_argument otherwise.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  // Calls fn(i) once for each i in [0, tasks). fn must not throw. Concurrent calls are serialised.
  void run(int tasks, const std::function<void(int)>& fn);

 private:
  void worker_loop();
  void drain();  // takes and runs tasks of the current job until none is left

  std::mutex run_mutex_;  // one job at a time
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int)>* job_ = nullptr;
  int next_ = 0;
  int total_ = 0;
  int unfinished_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace gsflow::engine
