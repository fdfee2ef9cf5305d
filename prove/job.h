#pragma once
// A back-end job of the proof-tree manager (prove/manager.h) apart from the game: what a
// worker is asked (the position's text, the kind of job, its question and budget) and
// what it answers, with a text form for sending jobs to other processes (MPI ranks,
// prove/mpi_prove.h). The same job gives the same answer wherever it runs when the budget
// is in nodes only (--prover-time 0).
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "prove/store.h"

namespace gs::prove {

struct JobSpec {
  // kFull: alpha-beta, then df-pn on the easy question (the node was never tried);
  // kEasy: df-pn on the question its heuristic score makes easy; kStuck: the closure
  // prover, then df-pn on the target's open question (a cycle of the tree keeps it
  // open); kRetry: df-pn on the question the front end asks of a leaf whose earlier jobs
  // failed, with a budget that doubles each time.
  enum Kind : std::uint8_t { kFull = 0, kEasy = 1, kStuck = 2, kRetry = 3 };
  Kind kind = kFull;
  Question question = kWin;
  std::uint64_t budget = 1;  // a multiple of the prover's budget
  std::int32_t score = 0;    // the node's heuristic score (kEasy)
  // kStuck: an earlier stuck job's closure of this position ran out of memory with this
  // many bytes (0: none did); a worker whose closure may have no more skips it.
  std::uint64_t closure_failed_bytes = 0;
  // The run's time left when the job was sent (0: no limit): the job ends by then, whatever
  // its budget.
  double seconds_left = 0;
  std::string position;
};

struct JobAnswer {
  Answer answer[2] = {kUnknown, kUnknown};
  std::string source[2];  // "alphabeta" or "df-pn" where answered
  bool scored = false;    // score is the node's heuristic score
  std::int32_t score = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::uint64_t closure_failed_bytes = 0;  // a stuck job's closure ran out of this much memory
  // Where df-pn ended with a question open: the root's proof and disproof numbers for it
  // (0 and 0: none), and, for the last such question, each child's numbers for the
  // child's question, in the order of the game's moves, from the search's table. The
  // front end starts the node and, when it expands it, its children with these.
  std::uint32_t proof[2] = {0, 0};
  std::uint32_t disproof[2] = {0, 0};
  Question children_question = kWin;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> children;
};

// Runs a batch of jobs and returns their answers in the same order (on other processes,
// for the manager under MPI).
using JobRunner = std::function<std::vector<JobAnswer>(const std::vector<JobSpec>&)>;

// Text forms; decoding throws gs::Error for text that is not one.
std::string encode(const JobSpec& job);
std::string encode(const JobAnswer& answer);
JobSpec decode_job(const std::string& text);
JobAnswer decode_answer(const std::string& text);

}  // namespace gs::prove
