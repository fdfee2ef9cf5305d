#include "dist/job_farm.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <optional>
#include <thread>

#include "core/error.h"
#include "dist/mpi_wire.h"

namespace gs::dist {

using Clock = std::chrono::steady_clock;

struct JobFarm::Impl {
  struct Worker {
    enum class State { kStarting, kIdle, kWorking, kLost } state = State::kStarting;
    std::int64_t job = -1;      // the number of its job while it works
    Clock::time_point given{};  // when it was given that job
    Clock::time_point heard{};
    std::int64_t pid = 0;
    std::string host;
  };
  Impl(const Session& s, const FarmOptions& o)
      : session(s), options(o), workers(static_cast<std::size_t>(s.ranks())) {
    for (Worker& worker : workers) worker.heard = Clock::now();
  }
  const Session& session;
  FarmOptions options;
  std::vector<Worker> workers;
  std::int64_t next = 0;          // the number of the next job, over every batch
  double seconds_per_weight = 0;  // the most an answered job took, over every batch
  std::vector<int> lost;
  std::vector<int> hung;
  bool stopped = false;
};

JobFarm::JobFarm(const Session& session, const FarmOptions& options)
    : impl_(std::make_unique<Impl>(session, options)) {}

JobFarm::~JobFarm() = default;

int JobFarm::workers() const { return impl_->session.ranks() - 1; }
const std::vector<int>& JobFarm::lost_ranks() const { return impl_->lost; }
const std::vector<int>& JobFarm::hung_ranks() const { return impl_->hung; }

std::vector<std::string> JobFarm::run(const std::vector<std::string>& jobs, const std::vector<double>& limits,
                                      const std::vector<double>& weights) {
  using State = Impl::Worker::State;
  Impl& farm = *impl_;
  const std::int64_t first = farm.next;
  farm.next += static_cast<std::int64_t>(jobs.size());
  std::vector<std::optional<std::string>> answers(jobs.size());
  std::deque<std::size_t> queue;
  for (std::size_t i = 0; i < jobs.size(); ++i) queue.push_back(i);
  std::size_t left = jobs.size();
  const auto timeout = std::chrono::duration<double>(farm.options.timeout_seconds);
  // The index in this batch of a job's number, if it is of this batch.
  auto index_of = [&](std::int64_t number) -> std::optional<std::size_t> {
    if (number < first || number >= farm.next) return std::nullopt;
    return static_cast<std::size_t>(number - first);
  };
  auto weight_of = [&](std::size_t job) { return job < weights.size() ? weights[job] : 0.0; };
  // The time limit of a job of this batch, in seconds (0: none): the caller's, or one
  // learnt from the answers so far.
  auto limit_of = [&](std::int64_t number) {
    const std::optional<std::size_t> job = index_of(number);
    if (!job) return 0.0;
    if (*job < limits.size() && limits[*job] > 0) return limits[*job];
    if (farm.options.learned_limit <= 0 || farm.seconds_per_weight <= 0 || weight_of(*job) <= 0) return 0.0;
    return farm.options.learned_limit * farm.seconds_per_weight * weight_of(*job) +
           farm.options.timeout_seconds;
  };
  auto running = [&](std::int64_t number) {
    return std::any_of(farm.workers.begin() + 1, farm.workers.end(),
                       [&](const Impl::Worker& w) { return w.state == State::kWorking && w.job == number; });
  };
  while (left > 0) {
    // Idle ranks get the next jobs.
    for (int rank = 1; rank < farm.session.ranks() && !queue.empty(); ++rank) {
      Impl::Worker& worker = farm.workers[static_cast<std::size_t>(rank)];
      if (worker.state != State::kIdle) continue;
      const std::size_t job = queue.front();
      queue.pop_front();
      worker.state = State::kWorking;
      worker.job = first + static_cast<std::int64_t>(job);
      worker.heard = Clock::now();
      worker.given = worker.heard;
      // A send to a dead rank may fail (or not): either way its silence gives it up.
      wire::post({wire::kWork, worker.job, 0, 0, 0, 0}, rank, wire::kToWorker);
      wire::post_text(jobs[job], rank);
    }
    if (const std::optional<int> from = wire::waiting(wire::kToManager)) {
      const int rank = *from;
      const wire::Message message = wire::receive(rank, wire::kToManager);
      Impl::Worker& worker = farm.workers[static_cast<std::size_t>(rank)];
      worker.heard = Clock::now();
      switch (message[0]) {
        case wire::kHello:
          worker.pid = message[5];
          worker.host = wire::receive_text(rank);
          if (!farm.options.quiet)
            fmt::print(stderr, "manager: rank {} is pid {} on {}\n", rank, worker.pid, worker.host);
          if (worker.state == State::kStarting || worker.state == State::kLost) {
            std::erase(farm.lost, rank);
            worker.state = State::kIdle;
          }
          break;
        case wire::kAlive: break;
        case wire::kDone:
        case wire::kFailed: {
          const std::string text = wire::receive_text(rank);
          // A job answered in time teaches the learnt limit; one answered after its rank
          // was given up would only stretch it.
          const bool in_time = worker.state == State::kWorking && worker.job == message[1];
          if (worker.state == State::kLost) {
            fmt::print(stderr, "manager: rank {} answers again\n", rank);
            std::erase(farm.lost, rank);
          }
          worker.state = State::kIdle;
          if (message[0] == wire::kFailed) fail("rank {} failed on a back-end job: {}", rank, text);
          // An answer to a job of an earlier batch, or to one answered meanwhile by the
          // rank it was handed to after this one was given up, is not needed.
          const std::optional<std::size_t> job = index_of(message[1]);
          if (job && !answers[*job]) {
            if (in_time && weight_of(*job) > 0) {
              const double took = std::chrono::duration<double>(worker.heard - worker.given).count();
              farm.seconds_per_weight = std::max(farm.seconds_per_weight, took / weight_of(*job));
            }
            answers[*job] = text;
            --left;
            std::erase(queue, *job);
          }
          break;
        }
        default: fail("MPI: rank {} sent an unknown message kind {}", rank, message[0]);
      }
      continue;
    }
    // Silent working ranks, and working ranks past their job's time limit, are given up;
    // their jobs go back to the front of the queue.
    const auto now = Clock::now();
    for (int rank = 1; rank < farm.session.ranks(); ++rank) {
      Impl::Worker& worker = farm.workers[static_cast<std::size_t>(rank)];
      if (worker.state != State::kWorking && worker.state != State::kStarting) continue;
      const bool silent = now - worker.heard > timeout;
      const double limit = worker.state == State::kWorking ? limit_of(worker.job) : 0.0;
      const bool overdue = limit > 0 && now - worker.given > std::chrono::duration<double>(limit);
      if (!silent && !overdue) continue;
      const bool had_job = worker.state == State::kWorking;
      worker.state = State::kLost;
      farm.lost.push_back(rank);
      const std::optional<std::size_t> job = had_job ? index_of(worker.job) : std::nullopt;
      const bool handed_again = job && !answers[*job] && !running(worker.job);
      if (handed_again) queue.push_front(*job);
      const std::string why = silent
                                  ? fmt::format("silent for {:.0f} s", farm.options.timeout_seconds)
                                  : fmt::format("no answer to its job within its limit of {:.1f} s", limit);
      fmt::print(stderr, "manager: rank {} (pid {}) {}: given up{}\n", rank, worker.pid, why,
                 handed_again ? "; its job goes to another rank" : "");
    }
    const bool any = std::any_of(farm.workers.begin() + 1, farm.workers.end(),
                                 [](const Impl::Worker& w) { return w.state != State::kLost; });
    if (!any) fail("every worker rank was lost");
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  std::vector<std::string> out;
  out.reserve(jobs.size());
  for (std::optional<std::string>& answer : answers) out.push_back(std::move(*answer));
  return out;
}

void JobFarm::stop() {
  Impl& farm = *impl_;
  if (farm.stopped) return;
  farm.stopped = true;
  std::vector<wire::RankProcess> lost;
  for (int rank = 1; rank < farm.session.ranks(); ++rank) {
    const Impl::Worker& worker = farm.workers[static_cast<std::size_t>(rank)];
    if (worker.state == Impl::Worker::State::kLost) {
      lost.push_back({rank, worker.pid, worker.host});
    } else {
      wire::post({wire::kStop, 0, 0, 0, 0, 0}, rank, wire::kToWorker);
    }
  }
  std::sort(farm.lost.begin(), farm.lost.end());
  farm.lost.erase(std::unique(farm.lost.begin(), farm.lost.end()), farm.lost.end());
  farm.hung = wire::end_lost_ranks(lost);
}

namespace {

// The test hook of serve_jobs (dist/job_farm.h): the job on which this rank is to hang,
// counting from 1 (0: none).
int job_to_hang_on(const Session& session) {
  const char* value = std::getenv("GAMESOLVER_TEST_HANG_RANK");
  if (value == nullptr) return 0;
  const std::string text(value);
  const std::size_t colon = text.find(':');
  if (text.substr(0, colon) != std::to_string(session.rank())) return 0;
  return colon == std::string::npos ? 1 : std::stoi(text.substr(colon + 1));
}

}  // namespace

void serve_jobs(const Session& session, const FarmOptions& options,
                const std::function<std::string(const std::string&)>& run) {
  const int hang_on = job_to_hang_on(session);
  int taken = 0;
  wire::hello();
  while (true) {
    const wire::Message order = wire::receive(0, wire::kToWorker);
    if (order[0] == wire::kStop) return;
    if (order[0] != wire::kWork) fail("MPI: the manager sent an unknown message kind {}", order[0]);
    const std::string job = wire::receive_text(0);
    std::string answer;
    const bool hang = ++taken == hang_on;
    const std::exception_ptr failure = wire::beating(order[1], options.heartbeat_seconds, [&] {
      if (hang) {
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));  // the test hook
      }
      answer = run(job);
    });
    if (failure) {
      wire::send({wire::kFailed, order[1], 0, 0, 0, 0}, 0, wire::kToManager);
      wire::send_text(wire::message_of(failure), 0);
      continue;
    }
    wire::send({wire::kDone, order[1], 0, 0, 0, 0}, 0, wire::kToManager);
    wire::send_text(answer, 0);
  }
}

}  // namespace gs::dist
