#pragma once
// `gamesolver build --mpi` on every rank of an mpirun job: rank 0 hands out ready tiers
// (dist/mpi.h's manager), the other ranks build them one at a time and keep nothing
// between tiers. With a single rank there is nobody to hand tiers to: the caller builds
// alone. Threads and memory are per rank; without a thread count the ranks on a machine
// share its cores. Rank 0 holds the lock of the database directory (db/directory_lock.h)
// while the job runs.
#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/parallel.h"
#include "db/database.h"
#include "db/directory_lock.h"
#include "db/tier_file.h"
#include "dist/job_end.h"
#include "dist/mpi.h"
#include "retro/build.h"

namespace gs::dist {

struct MpiBuildOptions {
  int threads = 0;  // per rank; 0: the machine's cores shared by its ranks
  double timeout_seconds = 60;
  bool quiet = false;
};

struct MpiBuildSummary {
  ManagerSummary manager;
  double seconds = 0;
  int worker_ranks = 0;
  int threads = 0;  // per rank
  std::string directory;
};

// On rank 0: started once, before anything else; logged for each tier an earlier run's
// progress log shows finished (its file complete), before any tier is handed out; tier
// as workers finish tiers; summary at the end.
struct MpiBuildEvents {
  std::function<void()> started;
  std::function<void(const Job&)> logged;
  std::function<void(const Job&, const JobResult&)> tier;
  std::function<void(const MpiBuildSummary&)> summary;
};

// Runs this rank's part of the build. Returns the threads for the caller's own build when
// this is the only rank (the caller then builds alone), nullopt when the part is done.
// The manager reports through `events` before it ends hung ranks; on an error it ends
// every rank (workers may be building) after printing the message to stderr.
template <Game G>
std::optional<int> build_with_mpi(const G& game, const db::Location& location, const TierScope& scope,
                                  retro::BuildOptions build_options, const MpiBuildOptions& options,
                                  const MpiBuildEvents& events) {
  Session session;
  const int rank_threads =
      options.threads > 0 ? options.threads : std::max(1, default_threads() / session.local_ranks());
  if (session.ranks() == 1) return rank_threads;
  db::Database database(location);
  build_options.solve.threads = rank_threads;
  if (!session.manager()) {
    run_worker(session, {}, [&](Tier tier) {
      retro::require_memory(game, database, tier, build_options, rank_threads);
      const retro::TierReport report =
          retro::build_tier(game, database, tier, build_options, rank_threads, true);
      // Nothing is kept between tiers: a rank's memory is that of one tier at a time.
      for (const Tier child : game.children(tier)) database.forget(child);
      database.forget(tier);
      JobResult result;
      result.built = report.built;
      result.rebuilt_because = report.rebuilt_because;
      result.positions = report.header.positions;
      result.seconds = report.seconds;
      return result;
    });
    return std::nullopt;
  }
  try {
    std::vector<Job> jobs;
    for (const Tier tier : retro::tiers_in_order(game, scope))
      jobs.push_back({tier, game.tier_name(tier), game.size(tier), game.children(tier)});
    if (events.started) events.started();
    // The manager holds the directory's lock for the whole run (the workers write tier
    // files there, and only while it runs); it makes the directory.
    const db::DirectoryLock lock(location.directory(), "build --mpi");
    // What killed writers of an earlier run left behind (this machine's only).
    db::remove_stale_temporaries_in(location.directory());
    ManagerOptions manager;
    manager.timeout_seconds = options.timeout_seconds;
    manager.progress_log = location.directory() / "build-progress.log";
    manager.quiet = options.quiet;
    const auto start = std::chrono::steady_clock::now();
    MpiBuildSummary summary;
    summary.manager = run_manager(
        session, jobs, manager,
        [&](const Job& job) {
          return db::tier_file_good(location.file(job.name), location.expected(job.tier, job.size));
        },
        [&](const Job& job, const JobResult& result) {
          if (events.tier) events.tier(job, result);
        },
        [&](const Job& job) {
          if (events.logged) events.logged(job);
        });
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    summary.worker_ranks = session.ranks() - 1;
    summary.threads = rank_threads;
    summary.directory = location.directory().string();
    if (events.summary) events.summary(summary);
    if (!summary.manager.lost_ranks.empty()) {
      // Every tier is complete, but after a process failure MPI_Finalize has no defined
      // behaviour: the job ends here, with exit status 0.
      end_job_after_losses(summary.manager.lost_ranks, summary.manager.hung_ranks);
    }
  } catch (const std::exception& error) {
    // The workers may be building: end them all rather than wait in MPI_Finalize.
    end_job_with_error(error);
  }
  return std::nullopt;
}

}  // namespace gs::dist
