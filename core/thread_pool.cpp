#include "core/thread_pool.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace gs {

namespace {
thread_local ThreadPool* current_pool = nullptr;
}  // namespace

struct ThreadPool::Team {
  const std::function<void(int)>* work = nullptr;
  int offered = 0;
  int taken = 0;
  int returned = 0;
  std::exception_ptr error;
};

ThreadPool::ThreadPool(int threads) {
  const int count = std::max(threads, 1);
  threads_.reserve(static_cast<std::size_t>(count));
  try {
    for (int t = 0; t < count; ++t) threads_.emplace_back([this] { run(); });
  } catch (...) {
    // A thread could not start: end those that did.
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& thread : threads_) thread.join();
    throw;
  }
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

ThreadPool* ThreadPool::current() { return current_pool; }

void ThreadPool::submit(std::function<void()> task) {
  {
    const std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
  }
  wake_.notify_one();
}

void ThreadPool::team(int helpers, const std::function<void(int)>& work) {
  if (helpers <= 0) {
    work(0);
    return;
  }
  Team team;
  team.work = &work;
  team.offered = helpers;
  {
    const std::lock_guard lock(mutex_);
    teams_.push_back(&team);
  }
  wake_.notify_all();
  std::exception_ptr error;
  try {
    work(0);
  } catch (...) {
    error = std::current_exception();
  }
  std::unique_lock lock(mutex_);
  std::erase(teams_, &team);  // the offers no thread took
  team_done_.wait(lock, [&] { return team.returned == team.taken; });
  if (!error) error = team.error;
  lock.unlock();
  if (error) std::rethrow_exception(error);
}

void ThreadPool::run() {
  current_pool = this;
  std::unique_lock lock(mutex_);
  while (true) {
    if (!tasks_.empty()) {
      std::function<void()> task = std::move(tasks_.front());
      tasks_.pop_front();
      lock.unlock();
      [&]() noexcept { task(); }();
      task = nullptr;  // what it holds goes before the lock is taken again
      lock.lock();
      continue;
    }
    if (!teams_.empty()) {
      Team* team = teams_.front();
      const int slot = ++team->taken;
      if (team->taken == team->offered) teams_.pop_front();
      lock.unlock();
      std::exception_ptr error;
      try {
        (*team->work)(slot);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      if (error && !team->error) team->error = error;
      ++team->returned;
      team_done_.notify_all();
      continue;
    }
    if (stopping_) return;
    wake_.wait(lock);
  }
}

}  // namespace gs
