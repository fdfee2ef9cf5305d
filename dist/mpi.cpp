#include "dist/mpi.h"

#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "core/error.h"
#include "dist/mpi_wire.h"
#include "retro/tier_schedule.h"

namespace gs::dist {
namespace {

using wire::check;
using wire::kAlive;
using wire::kDone;
using wire::kFailed;
using wire::kHello;
using wire::kStop;
using wire::kToManager;
using wire::kToWorker;
using wire::kWork;
using wire::Message;
using wire::receive;
using wire::receive_text;
using wire::send;
using wire::send_text;

// The words of a tier's messages: kind, tier, built, positions, microseconds, and pid
// (kHello) or whether a text follows (kDone: why the tier's file was rebuilt).

// Appends a line to the progress log and syncs it, so a line read back is on disk.
void append_line(const std::filesystem::path& path, const std::string& line) {
  std::FILE* file = std::fopen(path.c_str(), "a");
  if (!file) fail("{}: cannot open the progress log for appending", path.string());
  const bool ok =
      std::fputs(line.c_str(), file) >= 0 && std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
  if (std::fclose(file) != 0 || !ok) fail("{}: cannot write the progress log (disk full?)", path.string());
}

}  // namespace

Session::Session() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) fail("MPI is already initialized in this process");
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  // Errors come back as codes (turned into gs::Error), so that a manager whose worker died
  // can go on.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  MPI_Comm local = MPI_COMM_NULL;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local) ==
      MPI_SUCCESS) {
    MPI_Comm_size(local, &local_ranks_);
    MPI_Comm_free(&local);
  }
}

Session::~Session() { MPI_Finalize(); }

void Session::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

std::vector<std::string> read_progress_log(const std::filesystem::path& path) {
  std::vector<std::string> names;
  std::ifstream in(path);
  std::string line;
  // A line is "done <tier> ..."; a line cut short by a crash (no newline) is ignored.
  while (std::getline(in, line)) {
    if (in.eof()) break;
    if (!line.starts_with("done ")) continue;
    const std::size_t end = line.find(' ', 5);
    names.push_back(line.substr(5, end == std::string::npos ? std::string::npos : end - 5));
  }
  return names;
}

ManagerSummary run_manager(const Session& session, const std::vector<Job>& jobs,
                           const ManagerOptions& options, const std::function<bool(const Job&)>& finished,
                           const std::function<void(const Job&, const JobResult&)>& on_done,
                           const std::function<void(const Job&)>& on_logged) {
  using Clock = std::chrono::steady_clock;
  ManagerSummary summary;
  // Jobs are numbered as given; ready ones go out largest first, then in that order.
  retro::TierSchedule schedule(jobs);

  std::set<std::string> logged;
  for (std::string& name : read_progress_log(options.progress_log)) logged.insert(std::move(name));

  // Tiers the log shows finished, whose files are still complete, are not handed out.
  for (bool changed = true; changed;) {
    changed = false;
    for (const std::size_t job : schedule.ready()) {
      if (logged.contains(jobs[job].name) && finished(jobs[job])) {
        ++summary.skipped;
        schedule.finish(job);
        if (on_logged) on_logged(jobs[job]);
        changed = true;
      }
    }
  }
  if (!options.quiet && summary.skipped > 0) {
    fmt::print(stderr, "manager: {} tiers finished in an earlier run (progress log {})\n", summary.skipped,
               options.progress_log.string());
  }

  struct Worker {
    enum class State { kStarting, kIdle, kWorking, kLost } state = State::kStarting;
    std::size_t job = 0;
    Clock::time_point heard{};
    std::int64_t pid = 0;
    std::string host;
  };
  std::vector<Worker> workers(static_cast<std::size_t>(session.ranks()));
  const auto timeout = std::chrono::duration<double>(options.timeout_seconds);
  const auto start = Clock::now();
  for (Worker& worker : workers) worker.heard = start;

  auto working = [&] {
    return std::count_if(workers.begin() + 1, workers.end(),
                         [](const Worker& w) { return w.state == Worker::State::kWorking; });
  };
  auto alive = [&] {
    return std::count_if(workers.begin() + 1, workers.end(),
                         [](const Worker& w) { return w.state != Worker::State::kLost; });
  };
  auto is_running = [&](std::size_t job) {
    return std::any_of(workers.begin() + 1, workers.end(),
                       [&](const Worker& w) { return w.state == Worker::State::kWorking && w.job == job; });
  };

  while ((!schedule.finished() && !schedule.failed()) || working() > 0) {
    // Hand ready tiers to idle workers, largest first (none after a failure).
    for (int rank = 1; rank < session.ranks() && schedule.next(); ++rank) {
      Worker& worker = workers[static_cast<std::size_t>(rank)];
      if (worker.state != Worker::State::kIdle) continue;
      const std::size_t job = *schedule.take();
      worker.state = Worker::State::kWorking;
      worker.job = job;
      worker.heard = Clock::now();
      if (!options.quiet) {
        fmt::print(stderr, "manager: tier {} ({} indices) to rank {} (pid {})\n", jobs[job].name,
                   jobs[job].size, rank, worker.pid);
      }
      // A send to a dead rank may fail (or not): either way its silence gives it up.
      wire::post({kWork, static_cast<std::int64_t>(jobs[job].tier), 0, 0, 0, 0}, rank, kToWorker);
    }
    const std::optional<int> from = wire::waiting(kToManager);
    if (from) {
      const int rank = *from;
      const Message message = receive(rank, kToManager);
      Worker& worker = workers[static_cast<std::size_t>(rank)];
      worker.heard = Clock::now();
      switch (message[0]) {
        case kHello:
          worker.pid = message[5];
          worker.host = receive_text(rank);
          if (worker.state == Worker::State::kStarting) worker.state = Worker::State::kIdle;
          break;
        case kAlive: break;
        case kDone:
        case kFailed: {
          const std::optional<std::size_t> found = schedule.job_of(static_cast<Tier>(message[1]));
          if (!found) fail("MPI: rank {} reports an unknown tier {}", rank, message[1]);
          const std::size_t job = *found;
          const bool was_lost = worker.state == Worker::State::kLost;
          worker.state = Worker::State::kIdle;
          if (was_lost && !options.quiet) fmt::print(stderr, "manager: rank {} answers again\n", rank);
          // The text of a kDone comes first, even for a result that is ignored.
          const std::string rebuilt_because =
              message[0] == kDone && message[5] != 0 ? receive_text(rank) : "";
          if (message[0] == kFailed) {
            const std::string text = receive_text(rank);
            schedule.fail_tier(job, std::make_exception_ptr(Error(fmt::format("rank {} failed on tier {}: {}",
                                                                              rank, jobs[job].name, text))));
            break;
          }
          if (schedule.done(job)) break;  // a lost rank finished a tier built since by another: same file
          // A tier handed again after its rank was given up may still be running elsewhere;
          // this result counts and the other rank's, when it comes, is ignored above.
          JobResult result;
          result.built = message[2] != 0;
          result.rebuilt_because = rebuilt_because;
          result.positions = static_cast<std::uint64_t>(message[3]);
          result.seconds = static_cast<double>(message[4]) / 1e6;
          result.rank = rank;
          append_line(options.progress_log,
                      fmt::format("done {} positions={} rank={} seconds={:.3f}\n", jobs[job].name,
                                  result.positions, rank, result.seconds));
          if (result.built) {
            ++summary.built;
            summary.built_positions += result.positions;
          } else {
            ++summary.present;
          }
          if (on_done) on_done(jobs[job], result);
          schedule.finish(job);
          break;
        }
        default: fail("MPI: rank {} sent an unknown message kind {}", rank, message[0]);
      }
      continue;
    }
    // Silent workers: give them up and put their tiers back on the queue.
    const auto now = Clock::now();
    for (int rank = 1; rank < session.ranks(); ++rank) {
      Worker& worker = workers[static_cast<std::size_t>(rank)];
      const bool silent = now - worker.heard > timeout;
      if (!silent || (worker.state != Worker::State::kWorking && worker.state != Worker::State::kStarting)) {
        continue;
      }
      const bool had_job = worker.state == Worker::State::kWorking;
      worker.state = Worker::State::kLost;
      summary.lost_ranks.push_back(rank);
      if (had_job && schedule.state(worker.job) == retro::TierSchedule::State::kRunning &&
          !is_running(worker.job)) {
        schedule.put_back(worker.job);
      }
      fmt::print(stderr, "manager: rank {} (pid {}) silent for {:.0f} s: given up{}\n", rank, worker.pid,
                 options.timeout_seconds,
                 had_job ? fmt::format("; tier {} goes to another rank", jobs[worker.job].name) : "");
    }
    if (alive() == 0 && !schedule.finished() && !schedule.failed()) {
      schedule.fail_build(std::make_exception_ptr(Error("every worker rank was lost")));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // Stop the workers that answer; a lost rank is not waited for.
  for (int rank = 1; rank < session.ranks(); ++rank) {
    if (workers[static_cast<std::size_t>(rank)].state != Worker::State::kLost) {
      wire::post({kStop, 0, 0, 0, 0, 0}, rank, kToWorker);
    }
  }
  std::sort(summary.lost_ranks.begin(), summary.lost_ranks.end());
  summary.lost_ranks.erase(std::unique(summary.lost_ranks.begin(), summary.lost_ranks.end()),
                           summary.lost_ranks.end());
  std::erase_if(summary.lost_ranks, [&](int rank) {
    return workers[static_cast<std::size_t>(rank)].state != Worker::State::kLost;
  });
  std::vector<wire::RankProcess> lost;
  for (const int rank : summary.lost_ranks) {
    const Worker& worker = workers[static_cast<std::size_t>(rank)];
    lost.push_back({rank, worker.pid, worker.host});
  }
  summary.hung_ranks = wire::end_lost_ranks(lost);
  schedule.rethrow_if_failed();
  return summary;
}

void run_worker(const Session& session, const WorkerOptions& options,
                const std::function<JobResult(Tier)>& build) {
  (void)session;
  wire::hello();
  while (true) {
    const Message order = receive(0, kToWorker);
    if (order[0] == kStop) return;
    if (order[0] != kWork) fail("MPI: the manager sent an unknown message kind {}", order[0]);
    const Tier tier = static_cast<Tier>(order[1]);
    // The tier is built on another thread; this one (the only one calling MPI) beats.
    JobResult result;
    const std::exception_ptr failure =
        wire::beating(order[1], options.heartbeat_seconds, [&] { result = build(tier); });
    if (failure) {
      send({kFailed, order[1], 0, 0, 0, 0}, 0, kToManager);
      send_text(wire::message_of(failure), 0);
      continue;
    }
    const bool why = !result.rebuilt_because.empty();
    send({kDone, order[1], result.built ? 1 : 0, static_cast<std::int64_t>(result.positions),
          static_cast<std::int64_t>(result.seconds * 1e6), why ? 1 : 0},
         0, kToManager);
    if (why) send_text(result.rebuilt_because, 0);
  }
}

}  // namespace gs::dist
