#pragma once
// The ready queue of a tier graph: which tiers may be built now. A tier is ready when
// every tier it reads (its children) is done; ready tiers are handed out largest first,
// ties in the order the tiers were given, so the same completions give the same order.
// A failure stops the handing out. One implementation serves the single-process build
// (retro::build, tiers on a fixed pool of threads) and the MPI manager (dist/mpi.cpp,
// tiers to worker ranks).
//
// Not synchronized: a build whose threads share one locks it themselves. Game- and
// MPI-independent (dist/ includes it; it includes core/ only).
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "core/value.h"

namespace gs::retro {

// A tier of the graph: its size orders the ready tiers, its children are the tiers it
// reads (each of them must be in the graph too); the name is for errors.
struct TierNode {
  Tier tier = 0;
  std::string name;
  std::uint64_t size = 0;
  std::vector<Tier> children;
};

class TierSchedule {
 public:
  // kWaiting: a child is not done; kReady: handed out by next(); kRunning: started;
  // kDone: finished; kFailed: it failed.
  enum class State { kWaiting, kReady, kRunning, kDone, kFailed };

  // `nodes`: every tier once, in any order; a tier is named by its position there (its
  // job number), which also breaks ties between ready tiers of one size. Throws
  // gs::Error when a tier reads one outside the graph or is given twice, or when the
  // graph has a cycle.
  explicit TierSchedule(std::vector<TierNode> nodes) : nodes_(std::move(nodes)) {
    const std::size_t count = nodes_.size();
    state_.assign(count, State::kWaiting);
    waiting_.assign(count, 0);
    parents_.assign(count, {});
    for (std::size_t job = 0; job < count; ++job) {
      if (!job_.emplace(nodes_[job].tier, job).second)
        fail("tier {} is in the build twice", nodes_[job].name);
    }
    for (std::size_t job = 0; job < count; ++job) {
      for (const Tier child : nodes_[job].children) {
        const auto it = job_.find(child);
        if (it == job_.end()) fail("tier {} reads a tier outside the build", nodes_[job].name);
        ++waiting_[job];
        parents_[it->second].push_back(job);
      }
    }
    // Every tier must become ready once its children are done: no cycle.
    std::vector<int> left = waiting_;
    std::vector<std::size_t> free;
    for (std::size_t job = 0; job < count; ++job) {
      if (left[job] == 0) free.push_back(job);
    }
    for (std::size_t next = 0; next < free.size(); ++next) {
      for (const std::size_t parent : parents_[free[next]]) {
        if (--left[parent] == 0) free.push_back(parent);
      }
    }
    if (free.size() != count) {
      for (std::size_t job = 0; job < count; ++job) {
        if (left[job] > 0) fail("the tier graph has a cycle through {}", nodes_[job].name);
      }
    }
    remaining_ = count;
    for (std::size_t job = 0; job < count; ++job) {
      if (waiting_[job] == 0) make_ready(job);
    }
  }

  [[nodiscard]] std::size_t size() const { return nodes_.size(); }
  [[nodiscard]] const TierNode& node(std::size_t job) const { return nodes_.at(job); }
  [[nodiscard]] std::optional<std::size_t> job_of(Tier tier) const {
    const auto it = job_.find(tier);
    return it == job_.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  }
  [[nodiscard]] State state(std::size_t job) const { return state_.at(job); }

  // The ready tier to start next: the largest, then the first given. None when no tier
  // is ready, and after a failure.
  [[nodiscard]] std::optional<std::size_t> next() const {
    if (error_ || ready_.empty()) return std::nullopt;
    return ready_.begin()->second;
  }
  // The ready tiers, in the order next() gives them (after a failure too).
  [[nodiscard]] std::vector<std::size_t> ready() const {
    std::vector<std::size_t> jobs;
    for (const auto& entry : ready_) jobs.push_back(entry.second);
    return jobs;
  }
  // A ready tier is started: next() gives it no more.
  void start(std::size_t job) {
    expect(job, State::kReady, "start");
    ready_.erase(key(job));
    state_[job] = State::kRunning;
    ++running_;
  }
  // next(), started; none when next() gives none.
  std::optional<std::size_t> take() {
    const std::optional<std::size_t> job = next();
    if (job) start(*job);
    return job;
  }
  // A started tier is ready again (whoever built it was given up).
  void put_back(std::size_t job) {
    expect(job, State::kRunning, "put back");
    --running_;
    make_ready(job);
  }
  // A ready or started tier is done: each parent whose children are now all done
  // becomes ready.
  void finish(std::size_t job) {
    const State state = state_.at(job);
    if (state == State::kReady) {
      ready_.erase(key(job));
    } else if (state == State::kRunning) {
      --running_;
    } else {
      expect(job, State::kRunning, "finish");
    }
    state_[job] = State::kDone;
    --remaining_;
    for (const std::size_t parent : parents_[job]) {
      if (--waiting_[parent] == 0) make_ready(parent);
    }
  }
  // A tier failed: a ready or started one is kFailed (its parents never become ready),
  // any other keeps its state. The first error is kept, and nothing is handed out any
  // more.
  void fail_tier(std::size_t job, std::exception_ptr error) {
    const State state = state_.at(job);
    if (state == State::kReady) ready_.erase(key(job));
    if (state == State::kRunning) --running_;
    if (state == State::kReady || state == State::kRunning) state_[job] = State::kFailed;
    fail_build(std::move(error));
  }
  // The build failed (not in a tier): the first error is kept, and nothing is handed
  // out any more.
  void fail_build(std::exception_ptr error) {
    if (!error_) error_ = std::move(error);
  }

  [[nodiscard]] bool failed() const { return error_ != nullptr; }
  [[nodiscard]] std::exception_ptr error() const { return error_; }
  void rethrow_if_failed() const {
    if (error_) std::rethrow_exception(error_);
  }
  [[nodiscard]] bool done(std::size_t job) const { return state_.at(job) == State::kDone; }
  // Tiers started and neither finished, failed nor put back.
  [[nodiscard]] std::size_t running() const { return running_; }
  // Tiers not done.
  [[nodiscard]] std::size_t remaining() const { return remaining_; }
  // Every tier done.
  [[nodiscard]] bool finished() const { return remaining_ == 0; }

 private:
  // Largest first, then the first given.
  struct Order {
    bool operator()(const std::pair<std::uint64_t, std::size_t>& a,
                    const std::pair<std::uint64_t, std::size_t>& b) const {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    }
  };
  [[nodiscard]] std::pair<std::uint64_t, std::size_t> key(std::size_t job) const {
    return {nodes_[job].size, job};
  }
  void make_ready(std::size_t job) {
    state_[job] = State::kReady;
    ready_.insert(key(job));
  }
  void expect(std::size_t job, State state, const char* what) const {
    if (state_.at(job) != state) {
      throw std::logic_error(fmt::format("TierSchedule: cannot {} tier {} in state {}", what,
                                         nodes_[job].name, static_cast<int>(state_[job])));
    }
  }

  std::vector<TierNode> nodes_;
  std::map<Tier, std::size_t> job_;
  std::vector<State> state_;
  std::vector<int> waiting_;  // children not done
  std::vector<std::vector<std::size_t>> parents_;
  std::set<std::pair<std::uint64_t, std::size_t>, Order> ready_;
  std::size_t running_ = 0;
  std::size_t remaining_ = 0;
  std::exception_ptr error_;
};

}  // namespace gs::retro
