#pragma once
// The back-end prover of the proof-tree manager (prove/manager.h): one job, run from a
// position with an empty history, so that its answers are properties of the position
// alone. Used by the manager's worker threads and by worker ranks under MPI
// (prove/mpi_prove.h) alike: the same job with a budget in nodes only gives the same
// answer wherever it runs.
//
// A full job runs a proving alpha-beta with half the budget, then (where that does not
// settle the node) df-pn with the other half on the easy question, "win?" where the
// heuristic score is positive, "at least a draw?" otherwise, and where one answer was
// found without settling the outcome, df-pn on the other question too. An easy job runs
// df-pn on the question the stored score makes easy; a retry job on the job's question; a
// stuck job the closure prover (prove/closure.h) with its budget in positions, and where
// the region does not close within it, df-pn on the job's question (df-pn alone where the
// manager says an earlier closure of the position ran out of the memory this one has).
//
// A worker may keep its search tables from job to job (Tables): what one job proved, the
// next finds, so the work of a job that ends unanswered is not lost to its children's.
// The answers stay properties of the position (the tables hold results true anywhere,
// and df-pn's results for a line from the root they were found on, which no other root
// has), but they then depend on which jobs the worker ran before: a run meant to be
// reproducible keeps none.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "core/game.h"
#include "db/database.h"
#include "prove/closure.h"
#include "prove/job.h"
#include "prove/report.h"
#include "search/alpha_beta.h"
#include "search/bound_table.h"
#include "search/databases.h"
#include "search/df_pn.h"
#include "search/proof_table.h"
#include "search/report.h"
#include "search/score.h"

namespace gs::prove {

// A heuristic score for a position proven won (lost) in the heuristic search: beyond any
// threshold.
inline constexpr std::int32_t kProvenScore = 1000000;

// Whether two answers settle the outcome: a win, a loss, or no win and at least a draw.
inline bool settled(const Answer (&answer)[2]) {
  return answer[kWin] == kYes || answer[kDraw] == kNo || (answer[kWin] == kNo && answer[kDraw] == kYes);
}

inline std::int32_t score_of_value(Value value) {
  if (value.outcome() == Outcome::kWin) return kProvenScore - static_cast<std::int32_t>(value.depth());
  if (value.outcome() == Outcome::kLoss) return -kProvenScore + static_cast<std::int32_t>(value.depth());
  return 0;
}

// A worker's search tables, kept from job to job, take this part of the job's memory; a
// stuck job's closure (prove/closure.h) has the rest.
inline std::uint64_t kept_tables_bytes(std::uint64_t job_memory) { return job_memory / 2; }

// A worker's search tables, kept from job to job: half of their memory each.
struct Tables {
  explicit Tables(std::uint64_t bytes) : bounds(bytes / 2), proofs(bytes / 2) {}
  search::BoundTable bounds;
  search::ProofTable proofs;
};

template <Game G>
std::int32_t evaluation(const G& game, const typename G::Position& pos) {
  if constexpr (HasEvaluation<G>) {
    return std::clamp<std::int32_t>(static_cast<std::int32_t>(game.evaluate(pos)), -kProvenScore / 2,
                                    kProvenScore / 2);
  } else {
    (void)game;
    (void)pos;
    return 0;
  }
}

// A shallow negamax over the game's evaluation, with the databases and the rules at its
// leaves: a heuristic score, never used as a proof.
template <Game G>
std::int32_t heuristic(const G& game, search::Databases<G>& probes, const typename G::Position& pos,
                       int depth, std::int32_t alpha, std::int32_t beta) {
  if (const auto over = game.terminal(pos)) return score_of_value(*over);
  if (const auto bounds = probes.probe(game.rank(pos)); bounds && bounds->exact()) {
    return score_of_value(search::value_of(bounds->lower));
  }
  if (depth <= 0) return evaluation(game, pos);
  MoveList<G> moves;
  game.moves(pos, moves);
  if (moves.empty()) return score_of_value(game.no_move_value());
  std::int32_t best = -kProvenScore - 1;
  for (const typename G::Move& move : moves) {
    const std::int32_t v =
        -heuristic(game, probes, game.play(pos, move), depth - 1, -beta, -std::max(alpha, best));
    best = std::max(best, v);
    if (best >= beta) break;
  }
  return best;
}

// One back-end job on `pos` (the job's position, parsed), on the worker's kept tables
// where it has them, else on tables of its own.
template <Game G>
JobAnswer run_job(const G& game, db::Database* database, const ProveOptions& prove,
                  const typename G::Position& pos, const JobSpec& job, Tables* tables = nullptr) {
  const auto start = std::chrono::steady_clock::now();
  JobAnswer result;
  // Each search's share of the job's time, cut to what is left of the run's time.
  auto seconds = [&](double share) {
    double limit = prove.prover_seconds * share * static_cast<double>(job.budget);
    if (job.seconds_left > 0) {
      const double left =
          job.seconds_left - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double cap = std::max(left, 1e-3);  // 0 would mean no limit
      limit = limit > 0 ? std::min(limit, cap) : cap;
    }
    return limit;
  };
  auto options = [&](double share) {
    search::SearchOptions o;
    o.seconds = seconds(share);
    o.max_nodes = static_cast<std::uint64_t>(static_cast<double>(prove.prover_nodes) * share) * job.budget;
    o.memory_bytes = prove.job_memory;
    return o;
  };
  auto answer = [&](Question q, bool yes, const char* source) {
    if (result.answer[q] != kUnknown) return;
    result.answer[q] = yes ? kYes : kNo;
    result.source[q] = source;
  };
  auto open = [&] { return result.answer[kWin] == kUnknown && !(result.answer[kDraw] == kNo); };
  // df-pn on one question.
  auto df_pn = [&](Question q, const search::SearchOptions& o) {
    search::SearchStats stats;
    search::Limits limits(o, "prove");
    search::DfPn<G> search(game, database, o, stats, limits, tables != nullptr ? &tables->proofs : nullptr);
    const search::Score t = q == kWin ? search::kWinThreshold : search::kDrawThreshold;
    const search::QuestionReport report = search.prove(pos, t);
    result.nodes += stats.nodes;
    if (report.answer) {
      answer(q, *report.answer, "df-pn");
    } else {
      result.proof[q] = static_cast<std::uint32_t>(report.proof);
      result.disproof[q] = static_cast<std::uint32_t>(report.disproof);
      result.children_question = other(q);
      result.children = search.child_numbers(pos, t);
    }
  };
  if (job.kind == JobSpec::kFull) {
    // A proving alpha-beta first, half the budget.
    const search::SearchOptions o = options(0.5);
    search::SearchStats stats;
    search::Limits limits(o, "prove");
    search::AlphaBeta<G> search(game, database, o, stats, limits,
                                tables != nullptr ? &tables->bounds : nullptr);
    std::vector<search::QuestionReport> reports;
    const search::Bounds bounds = search.solve(pos, search::Question::kValue, reports);
    result.nodes += stats.nodes;
    if (bounds.decides(search::kWinThreshold))
      answer(kWin, bounds.passes(search::kWinThreshold), "alphabeta");
    if (bounds.decides(search::kDrawThreshold))
      answer(kDraw, bounds.passes(search::kDrawThreshold), "alphabeta");
    if (open() || result.answer[kDraw] == kUnknown) {
      search::Databases<G> probes(game, database);
      result.score = heuristic(game, probes, pos, prove.eval_depth, -kProvenScore - 1, kProvenScore + 1);
      result.scored = true;
      // df-pn on the question the score makes easy, the other half of the budget.
      if (open()) df_pn(result.score > 0 || result.answer[kDraw] == kYes ? kWin : kDraw, options(0.5));
      // One answer found ("win?" no, or "at least a draw?" yes): the other, so that the
      // node's value is settled before the front end expands it.
      const bool one = result.answer[kWin] != kUnknown || result.answer[kDraw] != kUnknown;
      if (one && !settled(result.answer)) df_pn(result.answer[kWin] == kUnknown ? kWin : kDraw, options(0.5));
    }
  } else if (job.kind == JobSpec::kEasy) {
    df_pn(job.score > 0 ? kWin : kDraw, options(1.0));
  } else if (job.kind == JobSpec::kStuck) {
    // A cycle of the tree keeps the target open: the region around it closed and solved
    // where it fits the budget (a draw a search cannot reach), else df-pn. Each has the
    // job's nodes (the closure counts positions) and half its time; df-pn has all of it
    // where an earlier closure of the target ran out of as much memory as this one has.
    ClosureLimits limits;
    limits.positions = prove.prover_nodes * job.budget;
    limits.bytes =
        tables != nullptr ? prove.job_memory - kept_tables_bytes(prove.job_memory) : prove.job_memory;
    limits.seconds = seconds(0.5);
    const bool hopeless =
        job.closure_failed_bytes != 0 && limits.bytes != 0 && limits.bytes <= job.closure_failed_bytes;
    ClosureResult closure;
    if (!hopeless) {
      search::Databases<G> probes(game, database);
      closure = close_region(game, probes, pos, limits);
      result.nodes += closure.positions;
      if (closure.out_of_memory) result.closure_failed_bytes = limits.bytes;
    }
    if (closure.outcome) {
      answer(kWin, *closure.outcome == Outcome::kWin, "closure");
      answer(kDraw, *closure.outcome != Outcome::kLoss, "closure");
    } else {
      const double share = hopeless ? 1.0 : 0.5;
      search::SearchOptions o = options(share);
      o.max_nodes = prove.prover_nodes * job.budget;
      df_pn(job.question, o);
    }
  } else {
    df_pn(job.question, options(1.0));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace gs::prove
