#pragma once
// How the manager rank ends an MPI job that cannot end with MPI_Finalize: after an
// error (workers may be busy) and after ranks were lost (the MPI standard leaves
// MPI_Finalize undefined once a process has failed, and Open MPI 4.1 was seen to wait in
// it for a killed rank forever). Shared by `build --mpi` and `prove --mpi`.
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <vector>

#include "dist/mpi.h"

namespace gs::dist {

// Prints the error as the command line does and ends every rank with status 1.
[[noreturn]] inline void end_job_with_error(const std::exception& error) {
  std::fflush(stdout);
  fmt::print(stderr, "gamesolver: error: {}\n", error.what());
  std::fflush(stderr);
  Session::abort(1);
}

// The work is complete but ranks were lost (`hung`: those of them not known to be dead):
// says so and ends the job with status 0.
[[noreturn]] inline void end_job_after_losses(const std::vector<int>& lost, const std::vector<int>& hung) {
  std::fflush(stdout);
  if (!hung.empty()) {
    fmt::print(stderr, "gamesolver: ranks {} stopped answering and may still run: ending the job\n",
               fmt::join(hung, ", "));
  } else {
    fmt::print(stderr, "gamesolver: ranks {} were lost: ending the job without MPI_Finalize\n",
               fmt::join(lost, ", "));
  }
  std::fflush(stderr);
  Session::abort(0);
}

}  // namespace gs::dist
