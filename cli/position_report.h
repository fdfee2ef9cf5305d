#pragma once
// The report of one position from the databases: its value, tier and index, every legal
// move with the position it leads to and that position's value, and the move of the
// perfect player. `gamesolver probe` prints it and the server (server/) sends it as
// JSON; both go through here so that they cannot disagree.
#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/value.h"
#include "db/database.h"

namespace gs::cli {

template <Game G>
struct PositionReport {
  struct Row {
    std::string move;
    std::string position;
    std::optional<Value> value;  // for the side making the move; nullopt: not in the databases
    bool depth = true;           // false: the databases keep win/draw/loss only there
  };
  typename G::Position position;
  std::optional<Value> value;    // nullopt: not in the databases
  bool depth = true;             // false: the value's tier keeps win/draw/loss only (depth 0)
  std::optional<Ranked> ranked;  // nullopt when the game is over
  std::vector<Row> moves;        // best first, moves without a value last
  // The perfect player's move, an index into moves: the shortest win, else a draw, else
  // the longest loss. Only when every move has a value: a move that leaves the databases
  // might be better than all the known ones. Where the databases keep win/draw/loss only,
  // it is a move of the best outcome, not necessarily the shortest win.
  std::optional<std::size_t> best;
};

// Whether the value of pos comes with its depth: not from a tier written with
// win/draw/loss values only (`gamesolver compress --encoding wdl`).
template <Game G>
bool depth_known(const G& game, db::Database& database, const typename G::Position& pos) {
  if (game.terminal(pos)) return true;
  const db::TierHeader* header = database.prober().header(game, game.rank(pos).tier);
  return header == nullptr || header->depths();
}

template <Game G>
PositionReport<G> report_position(const G& game, db::Database& database, const typename G::Position& pos) {
  PositionReport<G> report;
  report.position = pos;
  report.value = db::probe(game, database, pos);
  report.depth = depth_known(game, database, pos);
  if (game.terminal(pos)) return report;
  report.ranked = game.rank(pos);
  MoveList<G> moves;
  game.moves(pos, moves);
  for (const typename G::Move& move : moves) {
    const typename G::Position next = game.play(pos, move);
    const std::optional<Value> child = db::probe(game, database, next);
    report.moves.push_back({game.move_text(pos, move), game.position_text(next),
                            child ? std::optional<Value>(child->before_move()) : std::nullopt,
                            depth_known(game, database, next)});
  }
  using Row = typename PositionReport<G>::Row;
  std::stable_sort(report.moves.begin(), report.moves.end(), [](const Row& a, const Row& b) {
    if (a.value && b.value) return a.value->better_than(*b.value);
    return a.value.has_value() && !b.value.has_value();
  });
  const bool all_known = std::all_of(report.moves.begin(), report.moves.end(),
                                     [](const Row& row) { return row.value.has_value(); });
  if (!report.moves.empty() && all_known) report.best = 0;
  return report;
}

// {"outcome": "win"|"draw"|"loss", "depth": plies} (no depth for a draw, nor where the
// databases keep none), or null.
inline nlohmann::json json_value(const std::optional<Value>& value, bool depth = true) {
  if (!value) return nullptr;
  const char* outcome = value->is_win() ? "win" : value->is_loss() ? "loss" : "draw";
  nlohmann::json out = {{"outcome", outcome}};
  if (!value->is_draw() && depth) out["depth"] = value->depth();
  return out;
}

// As Value::to_string ("win in 5"), "win" or "loss" without a depth, or "not in the
// databases".
inline std::string value_text(const std::optional<Value>& value, bool depth = true) {
  if (!value) return "not in the databases";
  if (!depth && !value->is_draw()) return value->is_win() ? "win" : "loss";
  return value->to_string();
}

template <Game G>
nlohmann::json to_json(const G& game, const PositionReport<G>& report) {
  nlohmann::json out;
  out["game"] = std::string(G::kName);
  out["variant"] = game.variant();
  out["rules"] = game.rule_text();
  out["position"] = game.position_text(report.position);
  if constexpr (requires { report.position.side; }) out["side"] = static_cast<int>(report.position.side);
  out["terminal"] = !report.ranked.has_value();
  out["value"] = json_value(report.value, report.depth);
  if (report.ranked) {
    out["tier"] = game.tier_name(report.ranked->tier);
    out["index"] = report.ranked->index;
  }
  out["moves"] = nlohmann::json::array();
  for (const auto& row : report.moves) {
    out["moves"].push_back(
        {{"move", row.move}, {"position", row.position}, {"value", json_value(row.value, row.depth)}});
  }
  out["best"] = report.best ? nlohmann::json(report.moves[*report.best].move) : nlohmann::json(nullptr);
  return out;
}

}  // namespace gs::cli
