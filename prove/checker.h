#pragma once
// The checker of a proof store: a pass that shares nothing with the manager
// (prove/manager.h) but the store's reader, and re-derives every answer the store holds
// from the rules, the databases and other answers of the store.
//
// For each node: its text must parse into a position that is not over and whose key is
// the node's key. For each answer, by its source:
//   rules      the position has no legal move, and the rules' value gives the answer;
//   database   the databases hold the position, with a value that gives the answer;
//   implied    the node's other answer implies it (a win is at least a draw; what is not
//              at least a draw is no win), and was found first;
//   tree       the moves are generated again: "win?" yes needs a child that answers "at
//              least a draw?" no, no needs every child to answer it yes (and the same
//              with the questions swapped); the children's answers must have been found
//              before it (lower sequence numbers), so that no answer rests on itself
//              round a cycle;
//   cycle      only "win?" no and "at least a draw?" yes (the answers that endless play
//              gives): "win?" no needs every child to answer "at least a draw?" yes,
//              "at least a draw?" yes needs a child that answers "win?" no, each in the
//              store whatever its sequence number. Such answers may support each other
//              round a cycle: every answer of these two kinds in the store is checked on
//              its own, so a set of them that all pass holds (the opponent of the side to
//              move keeps the game among them, or leads it to one that a database, the
//              rules or a search settles, and endless play is a draw); the answers "win?"
//              yes and "at least a draw?" no, which need the game to end, are the ones
//              the sequence numbers keep from resting on themselves;
//   closure    the positions reachable from it through positions neither over nor in
//              the databases are listed again, within the budget (in positions), and
//              solved by value iteration (region_outcome), not by the closure prover's
//              counting: another answer is an error, a region over the budget leaves it
//              unconfirmed;
//   alphabeta, df-pn  the back end's answer is searched again by another algorithm
//              (df-pn for alpha-beta's, alpha-beta then PNS for df-pn's) within a node
//              budget: a contrary answer is an error, one not settled within the budget
//              is counted as unconfirmed.
// Every problem is listed (up to a limit) rather than stopping at the first.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/game.h"
#include "db/database.h"
#include "prove/report.h"
#include "prove/store.h"
#include "search/solve.h"

namespace gs::prove {

// The outcome of `root` for its side to move by value iteration over the positions
// reachable through positions neither over nor in the databases, or none where there are
// more than `budget` of them: the check of the closure prover's answers
// (prove/closure.h), by another algorithm on code of its own. Passes over the region mark
// a position won when a move leads to one lost for the opponent, lost when every move
// leads to one won for the opponent, until a pass changes nothing; what is left is drawn.
template <Game G>
std::optional<Outcome> region_outcome(const G& game, db::Database* database, const typename G::Position& root,
                                      std::uint64_t budget) {
  using Position = typename G::Position;
  struct Place {
    std::vector<std::uint32_t> next;  // into the region
    bool wins_now = false;  // a move ends the game or reaches a database position lost for the opponent
    bool holds = false;     // a move reaches a draw outside the region
    std::optional<Outcome> rules;  // no legal move: the rules' outcome
  };
  std::map<std::pair<Tier, Index>, std::uint32_t> seen;
  std::vector<Position> todo{root};
  std::vector<Place> places;
  const Ranked at_root = game.rank(root);
  seen.emplace(std::pair{at_root.tier, at_root.index}, 0);
  for (std::size_t i = 0; i < todo.size(); ++i) {
    if (todo.size() > budget) return std::nullopt;
    const Position pos = todo[i];
    Place place;
    MoveList<G> moves;
    game.moves(pos, moves);
    if (moves.empty()) place.rules = game.no_move_value().outcome();
    for (const auto& move : moves) {
      const Position next = game.play(pos, move);
      std::optional<Outcome> outside;
      if (const auto over = game.terminal(next)) {
        outside = over->outcome();
      } else if (const auto value = database == nullptr ? std::nullopt : db::probe(game, *database, next)) {
        outside = value->outcome();
      }
      if (outside) {
        place.wins_now = place.wins_now || *outside == Outcome::kLoss;
        place.holds = place.holds || *outside == Outcome::kDraw;
        continue;
      }
      const Ranked r = game.rank(next);
      const auto [it, added] =
          seen.emplace(std::pair{r.tier, r.index}, static_cast<std::uint32_t>(todo.size()));
      if (added) todo.push_back(next);
      place.next.push_back(it->second);
    }
    places.push_back(std::move(place));
  }
  std::vector<std::optional<Outcome>> outcome(places.size());
  for (std::size_t i = 0; i < places.size(); ++i) {
    if (places[i].rules) outcome[i] = places[i].rules;
    if (places[i].wins_now) outcome[i] = Outcome::kWin;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < places.size(); ++i) {
      if (outcome[i]) continue;
      bool wins = false;
      bool loses = !places[i].holds;
      for (const std::uint32_t n : places[i].next) {
        wins = wins || outcome[n] == Outcome::kLoss;
        loses = loses && outcome[n] == Outcome::kWin;
      }
      if (wins || loses) {
        outcome[i] = wins ? Outcome::kWin : Outcome::kLoss;
        changed = true;
      }
    }
  }
  return outcome[0].value_or(Outcome::kDraw);
}

template <Game G>
CheckSummary check_store(const G& game, db::Database* database, const Store& store, std::uint64_t budget,
                         std::size_t max_errors = 50) {
  using Position = typename G::Position;
  CheckSummary summary;
  auto error = [&](const std::string& text) {
    if (summary.errors.size() < max_errors) summary.errors.push_back(text);
  };
  const std::vector<StoredNode> nodes = store.nodes();
  summary.nodes = nodes.size();
  std::unordered_map<std::uint64_t, std::size_t> by_key;
  std::vector<std::optional<Position>> positions(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    by_key.emplace(nodes[i].key, i);
    try {
      const Position pos = game.parse_position(nodes[i].position);
      if (game.terminal(pos)) {
        error(fmt::format("node {}: the game is over there", nodes[i].position));
      } else if (search::key_of(game.rank(pos)) != nodes[i].key) {
        error(fmt::format("node {}: its key {:016x} is not the position's", nodes[i].position, nodes[i].key));
      } else {
        positions[i] = pos;
      }
    } catch (const Error& e) {
      error(fmt::format("node {:016x}: bad position text: {}", nodes[i].key, e.what()));
    }
  }
  // The answers a value gives for its side to move: win? and at least a draw?
  auto answers_of = [](Value value) {
    return std::array<Answer, 2>{value.outcome() == Outcome::kWin ? kYes : kNo,
                                 value.outcome() == Outcome::kLoss ? kNo : kYes};
  };
  // The answers of a position's children to question o, in the order of the moves:
  // unknown for a child not in the store (`missing` names the first such move) or, where
  // `before` is given, answered at or after that sequence number.
  auto child_answers = [&](const Position& pos, Question o, std::optional<std::int64_t> before,
                           std::string& missing) {
    MoveList<G> moves;
    game.moves(pos, moves);
    std::vector<Answer> answers;
    for (const auto& move : moves) {
      const Position next = game.play(pos, move);
      Answer a = kUnknown;
      if (const auto over = game.terminal(next)) {
        a = answers_of(*over)[o];
      } else if (const auto it = by_key.find(search::key_of(game.rank(next))); it != by_key.end()) {
        const StoredNode& child = nodes[it->second];
        if (!before || child.seq[o] < *before) a = child.answer[o];
      } else if (missing.empty()) {
        missing = game.move_text(pos, move);
      }
      answers.push_back(a);
    }
    return answers;
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!positions[i]) continue;
    const StoredNode& node = nodes[i];
    const Position& pos = *positions[i];
    for (const Question q : {kWin, kDraw}) {
      const Answer claimed = node.answer[q];
      if (claimed == kUnknown) continue;
      ++summary.answers;
      const char* name = q == kWin ? "win?" : "at least a draw?";
      const std::string& source = node.source[q];
      const auto wrong = [&](const std::string& why) {
        error(fmt::format("node {}: {} {} ({}): {}", node.position, name, claimed == kYes ? "yes" : "no",
                          source, why));
      };
      if (source == "rules") {
        MoveList<G> moves;
        game.moves(pos, moves);
        if (!moves.empty()) {
          wrong("the position has legal moves");
        } else if (answers_of(game.no_move_value())[q] != claimed) {
          wrong("the rules give the other answer");
        }
      } else if (source == "database") {
        const std::optional<Value> value =
            database == nullptr ? std::nullopt : db::probe(game, *database, pos);
        if (!value) {
          wrong("no database holds the position");
        } else if (answers_of(*value)[q] != claimed) {
          wrong(fmt::format("the database says {}", value->to_string()));
        }
      } else if (source == "implied") {
        const Question o = q == kWin ? kDraw : kWin;
        const Answer needed = q == kWin ? kNo : kYes;  // draw? no implies win? no; win? yes implies draw? yes
        if (claimed != needed || node.answer[o] != needed || node.seq[o] >= node.seq[q]) {
          wrong("the other answer does not imply it");
        }
      } else if (source == "tree") {
        std::string missing;
        const std::vector<Answer> answers =
            child_answers(pos, q == kWin ? kDraw : kWin, node.seq[q], missing);
        const bool some_no = std::find(answers.begin(), answers.end(), kNo) != answers.end();
        const bool all_yes = !answers.empty() &&
                             std::all_of(answers.begin(), answers.end(), [](Answer a) { return a == kYes; });
        if (claimed == kYes && !some_no) wrong("no child found earlier refutes its question");
        if (claimed == kNo && !all_yes) {
          wrong(missing.empty() ? "not every child found earlier answers its question yes"
                                : fmt::format("the child after {} is not in the store", missing));
        }
      } else if (source == "cycle") {
        // win? no: every child's draw? yes; draw? yes: a child's win? no.
        const Answer wanted = q == kWin ? kYes : kNo;
        std::string missing;
        const std::vector<Answer> answers =
            child_answers(pos, q == kWin ? kDraw : kWin, std::nullopt, missing);
        const bool some = std::find(answers.begin(), answers.end(), wanted) != answers.end();
        const bool all = !answers.empty() &&
                         std::all_of(answers.begin(), answers.end(), [&](Answer a) { return a == wanted; });
        if (claimed != (q == kWin ? kNo : kYes)) {
          wrong("a cycle gives only win? no and at least a draw? yes");
        } else if (q == kWin && !all) {
          wrong("not every child answers at least a draw? yes");
        } else if (q == kDraw && !some) {
          wrong("no child answers win? no");
        }
      } else if (source == "closure") {
        const std::optional<Outcome> outcome = region_outcome(game, database, pos, budget);
        if (!outcome) {
          ++summary.unconfirmed;
        } else if (answers_of(*outcome == Outcome::kWin    ? Value::win(0)
                              : *outcome == Outcome::kLoss ? Value::loss(0)
                                                           : Value::draw())[q] != claimed) {
          wrong(fmt::format("the region around it solves to a {}", outcome_name(*outcome)));
        } else {
          ++summary.confirmed;
        }
      } else if (source == "alphabeta" || source == "df-pn") {
        search::SearchOptions options;
        options.max_nodes = budget;
        options.memory_bytes = std::uint64_t{64} << 20;
        const search::Question question = q == kWin ? search::Question::kWin : search::Question::kDraw;
        std::vector<search::Algorithm> others;
        if (source == "alphabeta") {
          others = {search::Algorithm::kDfPn};
        } else {
          others = {search::Algorithm::kAlphaBeta, search::Algorithm::kPns};
        }
        std::optional<bool> found;
        for (const search::Algorithm algorithm : others) {
          const search::SolveReport report = search::solve(game, database, pos, algorithm, question, options);
          const search::Answer& answer = report.answer;
          const Outcome threshold = q == kWin ? Outcome::kWin : Outcome::kDraw;
          if (answer.lowest >= threshold) found = true;
          if (answer.highest < threshold) found = false;
          if (found) break;
        }
        if (!found) {
          ++summary.unconfirmed;
        } else if (*found != (claimed == kYes)) {
          wrong("another search proves the other answer");
        } else {
          ++summary.confirmed;
        }
      } else {
        wrong("unknown source");
      }
    }
  }
  return summary;
}

}  // namespace gs::prove
