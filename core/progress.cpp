#include "core/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "core/duration.h"

namespace gs {

Progress::Progress(std::string label, std::uint64_t total, bool quiet)
    : label_(std::move(label)), total_(total), quiet_(quiet) {
  if (!quiet_) thread_ = std::thread([this] { run(); });
}

Progress::~Progress() {
  if (quiet_) return;
  {
    const std::lock_guard lock(mutex_);
    finished_ = true;
  }
  wake_.notify_all();
  thread_.join();
  report(true);
}

void Progress::set_stage(const std::string& stage) {
  const std::lock_guard lock(mutex_);
  stage_ = stage;
}

void Progress::run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return finished_; })) {
    lock.unlock();
    report(false);
    lock.lock();
  }
}

void Progress::report(bool final_line) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::uint64_t done = done_.load(std::memory_order_relaxed);
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
  std::string stage;
  {
    const std::lock_guard lock(mutex_);
    stage = stage_;
  }
  std::string line = fmt::format("{}{}{}: {}", label_, stage.empty() ? "" : " ", stage, done);
  if (total_ > 0) {  // 0: no known total
    line +=
        fmt::format("/{} ({:.1f}%)", total_, 100.0 * static_cast<double>(done) / static_cast<double>(total_));
  }
  line += fmt::format(", {:.2f}M/s", rate / 1e6);
  if (final_line) {
    line += fmt::format(", {} elapsed", duration_text(elapsed));
  } else if (rate > 0 && total_ > done) {
    line += fmt::format(", ETA {}", duration_text(static_cast<double>(total_ - done) / rate));
  }
  const bool tty = isatty(STDERR_FILENO) != 0;
  if (tty) {
    fmt::print(stderr, "\r\033[K{}{}", line, final_line ? "\n" : "");
  } else if (final_line) {
    fmt::print(stderr, "{}\n", line);
  }
  std::fflush(stderr);
}

}  // namespace gs
