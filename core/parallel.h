#pragma once
// Parallel loops over index ranges on all cores. Work is handed out in chunks from an
// atomic counter, so threads that draw cheap chunks take more of them.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/thread_pool.h"

namespace gs {

// The number of threads to use when the user gives none: every core.
inline int default_threads() { return std::max(1U, std::thread::hardware_concurrency()); }

// Calls body(begin, end, thread) for disjoint chunks covering [first, last), on
// `threads` threads (thread < threads; a thread's calls are one after another). An
// exception thrown by a body stops the loop and is rethrown. Called on a thread of a
// ThreadPool, the loop runs on that thread and on the pool's threads free to help.
template <class Body>
void parallel_for(std::uint64_t first, std::uint64_t last, int threads, std::uint64_t chunk, Body&& body) {
  if (first >= last) return;
  chunk = std::max<std::uint64_t>(chunk, 1);
  const std::uint64_t chunks = (last - first + chunk - 1) / chunk;
  const int workers = static_cast<int>(std::min<std::uint64_t>(std::max(threads, 1), chunks));
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](int thread) {
    try {
      for (std::uint64_t c = next.fetch_add(1); c < chunks && !stop.load(std::memory_order_relaxed);
           c = next.fetch_add(1)) {
        const std::uint64_t begin = first + c * chunk;
        body(begin, std::min(last, begin + chunk), thread);
      }
    } catch (...) {
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      stop = true;
    }
  };
  // On a thread of a ThreadPool the pool's other threads help as they come free, and
  // threads are started only for what the pool is too small to give.
  ThreadPool* const pool = workers > 1 ? ThreadPool::current() : nullptr;
  const int borrowed = pool ? std::min(workers - 1, pool->size() - 1) : 0;
  {
    std::vector<std::jthread> started;
    started.reserve(static_cast<std::size_t>(workers - 1 - borrowed));
    for (int t = borrowed + 1; t < workers; ++t) started.emplace_back(work, t);
    if (borrowed > 0) {
      pool->team(borrowed, work);
    } else {
      work(0);
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace gs
