// dist/mpi.h and dist/job_farm.h in a build without MPI (cmake -DGAMESOLVER_MPI=OFF): a
// session cannot start, so `build --mpi` and `prove --mpi` say how this binary was built
// instead of running.
#include <cstdlib>

#include "core/error.h"
#include "dist/job_farm.h"
#include "dist/mpi.h"

namespace gs::dist {

namespace {

[[noreturn]] void unavailable() {
  fail("this gamesolver was built without MPI (cmake -DGAMESOLVER_MPI=OFF): --mpi is not available");
}

}  // namespace

Session::Session() { unavailable(); }

Session::~Session() = default;

void Session::abort(int code) { std::_Exit(code); }

ManagerSummary run_manager(const Session& /*session*/, const std::vector<Job>& /*jobs*/,
                           const ManagerOptions& /*options*/,
                           const std::function<bool(const Job&)>& /*finished*/,
                           const std::function<void(const Job&, const JobResult&)>& /*on_done*/,
                           const std::function<void(const Job&)>& /*on_logged*/) {
  unavailable();
}

void run_worker(const Session& /*session*/, const WorkerOptions& /*options*/,
                const std::function<JobResult(Tier)>& /*build*/) {
  unavailable();
}

struct JobFarm::Impl {};

JobFarm::JobFarm(const Session& /*session*/, const FarmOptions& /*options*/) { unavailable(); }

JobFarm::~JobFarm() = default;

std::vector<std::string> JobFarm::run(const std::vector<std::string>& /*jobs*/,
                                      const std::vector<double>& /*limits*/,
                                      const std::vector<double>& /*weights*/) {
  unavailable();
}

void JobFarm::stop() { unavailable(); }

int JobFarm::workers() const { unavailable(); }

const std::vector<int>& JobFarm::lost_ranks() const { unavailable(); }

const std::vector<int>& JobFarm::hung_ranks() const { unavailable(); }

void serve_jobs(const Session& /*session*/, const FarmOptions& /*options*/,
                const std::function<std::string(const std::string&)>& /*run*/) {
  unavailable();
}

}  // namespace gs::dist
