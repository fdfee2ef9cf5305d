#pragma once
// Jobs as texts, farmed out to the worker ranks of an MPI job: the proof-tree manager's
// back-end jobs under `prove --mpi` (prove/mpi_prove.h). Game-independent.
//
// Rank 0 hands one job at a time to each idle worker rank and collects the answers of a
// batch; a worker runs its job on a second thread and sends a heartbeat meanwhile. A rank
// that stays silent longer than the timeout while it has a job (it died, or hangs) is
// given up and its job handed to another rank; so is a rank that still beats but has not
// answered a job within the job's time limit (its job runs away or is stuck): the
// caller's, or else, where the caller gives each job a weight (its size in any unit) and
// the options a factor, one learnt from the answers: the factor times the most seconds
// per unit of weight an answered job took, times the job's weight, plus the timeout.
// If it speaks again (answers) it is taken back, and an answer to a job answered
// meanwhile is ignored. Surviving the death of a rank needs `mpirun --enable-recovery`.
// The messages are dist/mpi_wire.h's: kWork (the job's number, then its text), kDone
// (the number, then the answer's text), kFailed (the number, then the error), kAlive,
// kHello, kStop.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dist/mpi.h"

namespace gs::dist {

struct FarmOptions {
  double timeout_seconds = 60;     // a working rank silent this long is given up
  double heartbeat_seconds = 0.5;  // a worker's heartbeat while it works
  double learned_limit = 0;        // with weights: the factor of a learnt time limit (0: none)
  bool quiet = false;              // no line per worker's hello
};

// The manager's side (rank 0).
class JobFarm {
 public:
  JobFarm(const Session& session, const FarmOptions& options);
  ~JobFarm();
  JobFarm(const JobFarm&) = delete;
  JobFarm& operator=(const JobFarm&) = delete;

  // Runs every job on the worker ranks and returns their answers in the same order.
  // `limits`: seconds each job may take on a rank before the rank is given up and the job
  // handed to another (empty, or 0 for a job: none, or the learnt limit where `weights`
  // gives the job a weight above 0 and options.learned_limit is set). Throws gs::Error
  // when a worker fails a job (its error text) or every worker is lost.
  std::vector<std::string> run(const std::vector<std::string>& jobs, const std::vector<double>& limits = {},
                               const std::vector<double>& weights = {});
  // Stops the workers that answer and ends given-up ranks still running on this machine;
  // then lost_ranks() and hung_ranks() are final.
  void stop();
  [[nodiscard]] int workers() const;
  // Given up and never heard from again; hung: those not known to be dead.
  [[nodiscard]] const std::vector<int>& lost_ranks() const;
  [[nodiscard]] const std::vector<int>& hung_ranks() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A worker's side (ranks 1..P-1): answers the jobs the manager sends with `run` until
// told to stop. An exception from `run` is reported to the manager, which ends the job.
//
// Test hook, for tests/mpi_prove_test.sh only: with the environment variable
// GAMESOLVER_TEST_HANG_RANK set to this rank's number R, or to R:N, the rank takes its
// first job (its N-th) and never answers it (its job thread sleeps forever while the
// heartbeats go on), as a runaway or deadlocked job would.
void serve_jobs(const Session& session, const FarmOptions& options,
                const std::function<std::string(const std::string&)>& run);

}  // namespace gs::dist
