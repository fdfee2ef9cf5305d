#pragma once
// What the proof-tree manager is asked (prove/manager.h) and what it reports.
#include <cstdint>
#include <string>
#include <vector>

namespace gs::prove {

struct ProveOptions {
  int workers = 1;              // back-end provers side by side (threads)
  std::int32_t threshold = 20;  // the first heuristic threshold
  std::int32_t threshold_step = 20;
  double prover_seconds = 1;       // each back-end job's time (0: none)
  std::uint64_t prover_nodes = 0;  // each back-end job's nodes (0: none; set it for reproducible runs)
  int retries = 2;  // jobs on a leaf inside the threshold after its first failed, before it is expanded
  std::uint64_t job_memory = std::uint64_t{64} << 20;  // each job's search tables
  bool keep_tables = false;    // a worker keeps its tables from job to job (prove/backend.h)
  bool search_numbers = true;  // leaves start with their jobs' df-pn numbers (false: 1 and 1)
  double seconds = 0;          // the whole run (0: until the root is solved)
  std::uint64_t passes = 0;    // the most passes of the run (0: no limit)
  int eval_depth = 2;          // the heuristic search's depth
  // Lines of moves from the root (--seed, --seed-file): their positions are worked on
  // deepest first, the root last.
  std::vector<std::vector<std::string>> seeds;
  bool quiet = true;
};

// The state of a proof, read from its store (and, after a run, what the run did).
struct ProveSummary {
  std::string position;            // the root
  std::string answer = "unknown";  // "win", "draw", "loss", "at least a draw", "at most a draw", "unknown"
  int win = -1;                    // the root's answers (-1 unknown, 0 no, 1 yes)
  int draw = -1;
  std::uint64_t nodes = 0;       // in the store
  std::uint64_t proven = 0;      // with both answers known (the outcome)
  std::uint64_t open = 0;        // with an answer unknown
  std::uint64_t likely = 0;      // open, with a heuristic score outside the threshold
  std::uint64_t root_proof = 0;  // the root's proof and disproof numbers for its open question
  std::uint64_t root_disproof = 0;
  std::int32_t threshold = 0;
  std::uint64_t store_bytes = 0;
  // The run (zeros for --status).
  std::uint64_t passes = 0;
  std::uint64_t jobs = 0;
  std::uint64_t job_nodes = 0;
  double job_seconds = 0;  // summed over the jobs
  double seconds = 0;
  int workers = 0;
  double utilization = 0;  // job seconds / (seconds of passes x workers)
  std::string stopped;     // why a run stopped before the root was solved
  // Under MPI: the worker ranks, and those given up (dead or silent) and never heard from again.
  int worker_ranks = 0;
  std::vector<int> lost_ranks;
};

// A position of a proof tree's best line (Manager::best_line).
struct LineStep {
  std::string move;      // the move that led here from the step before (empty at the root)
  std::string position;  // the position after it
  int win = -1;          // the answers for the side to move there (-1 unknown, 0 no, 1 yes)
  int draw = -1;
  std::string answer;     // as ProveSummary::answer
  std::string source[2];  // where each answer came from (empty while unknown)
  bool over = false;      // the game is over here (no node of the tree)
  bool expanded = false;  // its children are in the tree
  bool repeated = false;  // a position of the line before it: the line ends
  bool scored = false;    // score is its heuristic score
  std::int32_t score = 0;
  std::uint64_t proof = 0;  // while open: the proof and disproof numbers of its open question
  std::uint64_t disproof = 0;
};

// What the checker found.
struct CheckSummary {
  std::uint64_t nodes = 0;
  std::uint64_t answers = 0;      // answers checked
  std::uint64_t confirmed = 0;    // back-end answers proven again by another search
  std::uint64_t unconfirmed = 0;  // back-end answers the other search did not settle within its budget
  std::vector<std::string> errors;
  [[nodiscard]] bool ok() const { return errors.empty(); }
};

}  // namespace gs::prove
