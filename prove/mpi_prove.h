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
#include <cstdint>
#include <exception>
#include <functional>
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
  if (!session.manager()) {
    dist::serve_jobs(session, farm_options, [&](const std::string& text) {
      const JobSpec job = decode_job(text);
      return encode(run_job(game, database, options, game.parse_position(job.position), job));
    });
    return true;
  }
  try {
    dist::JobFarm farm(session, farm_options);
    ProveSummary summary = manage(options, [&](const std::vector<JobSpec>& jobs) {
      std::vector<std::string> texts;
      texts.reserve(jobs.size());
      for (const JobSpec& job : jobs) texts.push_back(encode(job));
      std::vector<JobAnswer> answers;
      for (const std::string& text : farm.run(texts)) answers.push_back(decode_answer(text));
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
