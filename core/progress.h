#pragma once
// Progress of long work on stderr: how much is done, the rate and the time left. One
// line, rewritten in place at most twice a second by a background thread; nothing at
// all when quiet. Workers only add to an atomic counter.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace gs {

class Progress {
 public:
  Progress(std::string label, std::uint64_t total, bool quiet);  // total 0: not known
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add(std::uint64_t amount) { done_.fetch_add(amount, std::memory_order_relaxed); }
  void set_stage(const std::string& stage);

 private:
  void report(bool final_line);
  void run();

  std::string label_;
  std::string stage_;
  std::uint64_t total_;
  bool quiet_;
  std::atomic<std::uint64_t> done_{0};
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  std::thread thread_;
};

}  // namespace gs
