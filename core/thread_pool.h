#pragma once
// A fixed set of threads, started with the pool and joined when it ends: they run the
// tasks submitted to it, and they help the parallel loops (core/parallel.h) that run on
// one of them, so that work on a pool starts no thread of its own. retro::build runs
// ready tiers on one: the threads alive at once are the pool's and the caller's.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gs {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);  // at least one
  // Runs the tasks still queued, then joins every thread.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  [[nodiscard]] int size() const { return static_cast<int>(threads_.size()); }

  // Runs the task on one of the threads when one is free, in the order submitted. A task
  // must not throw (an exception that leaves it ends the program).
  void submit(std::function<void()> task);

  // The pool whose thread calls this, or null.
  static ThreadPool* current();

  // A team: runs work(0) on the calling thread and offers work(1), ..., work(helpers)
  // to the pool's threads, each taken by a thread as it comes free with no task queued
  // (a task runs on its own thread with no one to wait for, so it goes first: a build's
  // tiers keep a thread each while enough are ready, and only idle threads help);
  // returns when work(0) has returned and each offer taken has. Offers not taken by
  // then are withdrawn: the calls of `work` must share the work among whoever comes
  // (parallel_for's draw chunks from one counter), so that work(0) alone does it all.
  // Offers of several teams are taken oldest first. The first exception of the calls
  // made is rethrown.
  void team(int helpers, const std::function<void(int)>& work);

 private:
  struct Team;
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;       // for the threads: a task, an offer, or the end
  std::condition_variable team_done_;  // for a team's caller: an offer's call returned
  std::deque<std::function<void()>> tasks_;
  std::deque<Team*> teams_;  // teams with offers not taken yet
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace gs
