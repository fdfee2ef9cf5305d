#pragma once
// Building databases on many processes with MPI (Open MPI): one manager rank hands ready
// tiers (every child built) to worker ranks, largest first; workers build a tier with all
// their threads and write its file atomically into the shared data directory.
//
// The manager records every finished tier in a progress log in the data directory, so a
// restarted run never hands out a finished tier again. A worker sends a heartbeat while it
// builds; one that stays silent longer than the timeout (it died, or it hangs) is given up
// and its tier goes back on the queue for another rank. Surviving the death of a rank
// needs `mpirun --enable-recovery` (without it Open MPI ends the whole job, and a restart
// resumes from the log). docs/DISTRIBUTED.md describes the protocol.
//
// This file is game-independent; dist/mpi_build.h binds it to a game and retro/build.h.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/game.h"
#include "retro/tier_schedule.h"

namespace gs::dist {

// MPI for the life of the object (MPI_Init_thread with MPI_THREAD_FUNNELED: only the
// thread that made it calls MPI). One per process.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int ranks() const { return ranks_; }
  // Ranks on this machine (sharing its memory), this one included.
  [[nodiscard]] int local_ranks() const { return local_ranks_; }
  [[nodiscard]] bool manager() const { return rank_ == 0; }
  // Ends every rank's process with `code` (MPI_Abort): for a manager that cannot wait for
  // a rank that hangs.
  [[noreturn]] static void abort(int code);

 private:
  int rank_ = 0;
  int ranks_ = 1;
  int local_ranks_ = 1;
};

// One unit of work: a tier, its size and the tiers it reads, as the local build's
// schedule has it.
using Job = retro::TierNode;

// What a worker reports for a job.
struct JobResult {
  bool built = false;           // false: its file was already complete
  std::string rebuilt_because;  // built over a damaged file: what was wrong with it
  std::uint64_t positions = 0;
  double seconds = 0;
  int rank = 0;
};

struct ManagerOptions {
  // A working rank silent for longer than this is given up and its tier reassigned.
  double timeout_seconds = 60;
  // The progress log: a line per finished tier, appended and synced.
  std::filesystem::path progress_log;
  bool quiet = false;
};

struct WorkerOptions {
  double heartbeat_seconds = 0.5;
};

struct ManagerSummary {
  int built = 0;                // tiers built by workers
  int present = 0;              // tiers workers found complete
  int skipped = 0;              // tiers the progress log showed finished (not handed out)
  std::vector<int> lost_ranks;  // given up and never heard from again
  std::vector<int> hung_ranks;  // of those, the ones not known to be dead
  std::uint64_t built_positions = 0;
};

// The manager's side (rank 0). `jobs` lists every tier, children before parents;
// `finished` tells whether a tier the progress log names still has its complete file;
// `on_done` is called for each tier a worker finishes, `on_logged` for each tier the
// log shows finished (before any is handed out). Throws gs::Error when a worker fails a
// tier (after stopping every worker) or when every worker is lost.
ManagerSummary run_manager(const Session& session, const std::vector<Job>& jobs,
                           const ManagerOptions& options, const std::function<bool(const Job&)>& finished,
                           const std::function<void(const Job&, const JobResult&)>& on_done,
                           const std::function<void(const Job&)>& on_logged = {});

// A worker's side (ranks 1..P-1): builds the tiers the manager hands it with `build`,
// until told to stop. An exception from `build` is reported to the manager, which ends
// the run with it.
void run_worker(const Session& session, const WorkerOptions& options,
                const std::function<JobResult(Tier)>& build);

// The progress log: the names of the tiers it records as finished.
std::vector<std::string> read_progress_log(const std::filesystem::path& path);

}  // namespace gs::dist
