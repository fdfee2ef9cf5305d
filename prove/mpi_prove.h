#pragma once
// `gamesolver prove --mpi` on every rank of an mpirun job: rank 0 runs the proof-tree
// manager (the front end and its store, prove/manager.h) and farms its back-end jobs out
// to the other ranks (dist/job_farm.h), which run them one at a time (prove/backend.h)
// and keep nothing between jobs but the game and the databases. With a single rank there
// is nobody to hand jobs to: the caller proves alone on threads.
//
// A pass hands out 2 x (P-1) jobs, as a run with --workers P-1 does, and each job's
// tables get the --memory of all workers divided by P-1, so that with budgets in nodes
// only (--prover-time 0) an mpirun of P ranks writes the same store as a run with
// --workers P-1, whichever rank answers which job and however many ranks are lost.
//
// A rank is given up when it is silent for the timeout while it has a job, and when it
// has not answered its job within a time limit (its heartbeats only say that the process
// lives, not that the job will end): where the jobs have a time budget (--prover-time),
// job_time_limit(); with budgets in nodes only, one the farm learns from the answers:
// kLearnedLimit times the most seconds per unit of budget a job has taken, times the
// job's budget, plus the timeout (dist/job_farm.h).
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/game.h"
#include "db/database.h"
#include "dist/job_end.h"
#include "dist/job_farm.h"
#include "dist/mpi.h"
#include "prove/backend.h"
#include "prove/job.h"
#include "prove/report.h"

namespace gs::prove {

struct MpiProveOptions {
  double timeout_seconds = 60;  // a rank silent this long while it has a job is given up
  bool quiet = false;
};

// How long a job with a time budget may take on a worker rank before it is presumed lost
// and handed to another: three times its budget (a full job's searches may use one and a
// half, and a rank may be slowed down by others on its core), plus the silence timeout as
// a margin for starting it and sending its answer. 0 (no limit) for budgets in nodes only.
inline double job_time_limit(const ProveOptions& options, const JobSpec& job, double timeout_seconds) {
  if (options.prover_seconds <= 0) return 0;
  return 3 * options.prover_seconds * static_cast<double>(job.budget) + timeout_seconds;
}
// With budgets in nodes only: the factor of the limit learnt from the answers.
inline constexpr double kLearnedLimit = 3;

// Runs this rank's part of the proof. On rank 0, `manage` runs the manager with the jobs
// going through the runner it is given and returns the summary, which `report` gets
// before the job ends (after lost ranks, with MPI_Abort and status 0; after an error,
// printed, with status 1). Returns false when this is the only rank and nothing was done.
template <Game G>
bool prove_with_mpi(const G& game, db::Database* database, ProveOptions options, std::uint64_t memory_bytes,
                    const MpiProveOptions& mpi,
                    const std::function<ProveSummary(const ProveOptions&, const JobRunner&)>& manage,
                    const std::function<void(const ProveSummary&)>& report) {
  dist::Session session;
  if (session.ranks() == 1) return false;
  options.workers = session.ranks() - 1;
  options.job_memory = memory_bytes / static_cast<std::uint64_t>(options.workers);
  dist::FarmOptions farm_options;
  farm_options.timeout_seconds = mpi.timeout_seconds;
  farm_options.quiet = mpi.quiet;
  if (options.prover_seconds <= 0) farm_options.learned_limit = kLearnedLimit;
  if (!session.manager()) {
    std::unique_ptr<Tables> tables;
    if (options.keep_tables) tables = std::make_unique<Tables>(kept_tables_bytes(options.job_memory));
    dist::serve_jobs(session, farm_options, [&](const std::string& text) {
      const JobSpec job = decode_job(text);
      return encode(run_job(game, database, options, game.parse_position(job.position), job, tables.get()));
    });
    return true;
  }
  try {
    dist::JobFarm farm(session, farm_options);
    ProveSummary summary = manage(options, [&](const std::vector<JobSpec>& jobs) {
      std::vector<std::string> texts;
      std::vector<double> limits;
      std::vector<double> weights;  // the budgets: a job's nodes are the budget's multiple
      texts.reserve(jobs.size());
      for (const JobSpec& job : jobs) {
        texts.push_back(encode(job));
        limits.push_back(job_time_limit(options, job, mpi.timeout_seconds));
        weights.push_back(static_cast<double>(job.budget));
      }
      std::vector<JobAnswer> answers;
      for (const std::string& text : farm.run(texts, limits, weights)) answers.push_back(decode_answer(text));
      return answers;
    });
    farm.stop();
    summary.worker_ranks = farm.workers();
    summary.lost_ranks = farm.lost_ranks();
    report(summary);
    // The proof is stored, but after a process failure MPI_Finalize has no defined
    // behaviour: the job ends here, with exit status 0.
    if (!summary.lost_ranks.empty()) dist::end_job_after_losses(farm.lost_ranks(), farm.hung_ranks());
  } catch (const std::exception& error) {
    // The workers may be proving: end them all rather than wait in MPI_Finalize.
    dist::end_job_with_error(error);
  }
  return true;
}

}  // namespace gs::prove
