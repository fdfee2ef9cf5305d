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
//   alphabeta, df-pn  the back end's answer is searched again by another algorithm
//              (df-pn for alpha-beta's, alpha-beta then PNS for df-pn's) within a node
//              budget: a contrary answer is an error, one not settled within the budget
//              is counted as unconfirmed.
// Every problem is listed (up to a limit) rather than stopping at the first.
#include <fmt/format.h>

#include <cstdint>
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
        const Question o = q == kWin ? kDraw : kWin;
        MoveList<G> moves;
        game.moves(pos, moves);
        bool some_no = false;
        bool all_yes = !moves.empty();
        std::string missing;
        for (const auto& move : moves) {
          const Position next = game.play(pos, move);
          Answer a = kUnknown;
          if (const auto over = game.terminal(next)) {
            a = answers_of(*over)[o];
          } else if (const auto it = by_key.find(search::key_of(game.rank(next))); it != by_key.end()) {
            const StoredNode& child = nodes[it->second];
            if (child.seq[o] < node.seq[q]) a = child.answer[o];
          } else if (missing.empty()) {
            missing = game.move_text(pos, move);
          }
          some_no = some_no || a == kNo;
          all_yes = all_yes && a == kYes;
        }
        if (claimed == kYes && !some_no) wrong("no child found earlier refutes its question");
        if (claimed == kNo && !all_yes) {
          wrong(missing.empty() ? "not every child found earlier answers its question yes"
                                : fmt::format("the child after {} is not in the store", missing));
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
