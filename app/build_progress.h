#pragma once
// The overall progress of a build, told as each tier finishes: how many tiers and indices
// are finished of all the build covers, and the time left at the rate indices have been
// built so far (wall time since the build started; tiers found complete count as
// finished but add nothing to the rate).
#include <chrono>
#include <cstdint>
#include <optional>

#include "app/results.h"

namespace gs::app {

class BuildProgressMeter {
 public:
  using Clock = std::chrono::steady_clock;

  BuildProgressMeter(int tiers, std::uint64_t indices, Clock::time_point start = Clock::now())
      : start_(start) {
    progress_.tiers = tiers;
    progress_.indices = indices;
  }

  // A tier of `indices` indices finished: built (counted in the rate) or found complete.
  BuildProgress finished(std::uint64_t indices, bool built, Clock::time_point now = Clock::now()) {
    progress_.tiers_done += 1;
    progress_.indices_done += indices;
    if (built) built_indices_ += indices;
    const std::uint64_t left =
        progress_.indices > progress_.indices_done ? progress_.indices - progress_.indices_done : 0;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (progress_.tiers_done >= progress_.tiers || left == 0) {
      progress_.eta_seconds = 0.0;
    } else if (built_indices_ > 0 && elapsed > 0) {
      progress_.eta_seconds = static_cast<double>(left) * elapsed / static_cast<double>(built_indices_);
    } else {
      progress_.eta_seconds.reset();
    }
    return progress_;
  }

 private:
  Clock::time_point start_;
  BuildProgress progress_;
  std::uint64_t built_indices_ = 0;
};

}  // namespace gs::app
