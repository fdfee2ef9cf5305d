#pragma once
// One entry point for the three searches: solve(game, databases, position, algorithm,
// question, options) runs the binary questions the question needs, combines their
// answers, and reports a principal variation, the deepest line and the counts.
//
//   question  df-pn and PNS                          alpha-beta
//   win       "is it a win?"                         the same, by iterative deepening
//   draw      "is it at least a draw?"               the same
//   value     "win?", then "at least a draw?"        both, then the exact depth
//             unless the first proved a win          of a win or loss
//             (the other way round where the game's
//             evaluation has the side to move behind,
//             unless the first proved a loss)
#include <string>
#include <vector>

#include "core/game.h"
#include "db/database.h"
#include "search/alpha_beta.h"
#include "search/df_pn.h"
#include "search/key.h"
#include "search/pns.h"
#include "search/report.h"
#include "search/score.h"

namespace gs::search {

// The move texts of a line given as its positions.
template <Game G>
std::vector<std::string> line_text(const G& game, const std::vector<typename G::Position>& positions) {
  std::vector<std::string> moves;
  for (std::size_t i = 0; i + 1 < positions.size(); ++i) {
    MoveList<G> list;
    game.moves(positions[i], list);
    const std::uint64_t next = exact(game, positions[i + 1]);
    for (const auto& move : list) {
      const auto after = game.play(positions[i], move);
      if (exact(game, after) == next && same_position<G>(after, positions[i + 1])) {
        moves.push_back(game.move_text(positions[i], move));
        break;
      }
    }
  }
  return moves;
}

// Applies the answer to "value >= t?" (t binary).
inline void apply(Answer& answer, Score t, bool yes) {
  if (t == kWinThreshold) {
    if (yes) {
      answer.at_least(Outcome::kWin);
    } else {
      answer.at_most(Outcome::kDraw);
    }
  } else if (yes) {
    answer.at_least(Outcome::kDraw);
  } else {
    answer.at_most(Outcome::kLoss);
  }
}

// database may be null: no databases.
template <Game G>
SolveReport solve(const G& game, db::Database* database, const typename G::Position& root,
                  Algorithm algorithm, Question question, const SearchOptions& options) {
  SolveReport report;
  report.algorithm = algorithm_name(algorithm);
  report.question = question_name(question);
  Limits limits(options, "solve " + report.algorithm);
  SearchStats& stats = report.stats;

  if (algorithm == Algorithm::kAlphaBeta) {
    AlphaBeta<G> search(game, database, options, stats, limits);
    report.answer.narrow(search.solve(root, question, report.questions));
    report.principal_variation = search.line(root);
    report.deepest_line = line_text(game, search.deepest());
  } else {
    auto run = [&](auto& search) {
      Score last = kWinThreshold;
      auto ask = [&](Score t) {
        const QuestionReport asked = search.prove(root, t);
        report.questions.push_back(asked);
        if (asked.answer) apply(report.answer, t, *asked.answer);
        last = t;
      };
      // "win?" first, but "at least a draw?" first for the value where the game's
      // evaluation has the side to move behind: a loss answers "no" to both, and that
      // first "no" settles it. The value asks the other question unless the first
      // settled it.
      Score first = question == Question::kDraw ? kDrawThreshold : kWinThreshold;
      if constexpr (HasEvaluation<G>) {
        if (question == Question::kValue && game.evaluate(root) < 0) first = kDrawThreshold;
      }
      ask(first);
      if (question == Question::kValue && !report.answer.known() && !limits.stopped())
        ask(first == kWinThreshold ? kDrawThreshold : kWinThreshold);
      if constexpr (requires { search.line(root, last); }) {
        report.principal_variation = search.line(root, last);
      } else {
        report.principal_variation = search.line();
      }
      report.deepest_line = line_text(game, search.deepest());
    };
    if (algorithm == Algorithm::kDfPn) {
      DfPn<G> search(game, database, options, stats, limits);
      run(search);
    } else {
      Pns<G> search(game, database, options, stats, limits);
      run(search);
    }
  }
  if (const auto over = game.terminal(root)) report.answer.narrow(Bounds::of(*over));
  stats.seconds = limits.elapsed();
  report.stopped = limits.reason();
  return report;
}

}  // namespace gs::search
