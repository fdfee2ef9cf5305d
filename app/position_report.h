#pragma once
// The report of one position from the databases: its value, tier and index, every legal
// move with the position it leads to and that position's value, and the move of the
// perfect player. `probe` prints it, the server sends it as JSON and `play` moves by it,
// so they cannot disagree. The report is plain text and values, whatever the game.
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/tier_listing.h"
#include "core/error.h"
#include "core/game.h"
#include "core/value.h"
#include "db/database.h"
#include "retro/ultra_probe.h"

namespace gs::app {

struct PositionReport {
  struct Row {
    std::string move;
    std::string position;
    std::optional<Value> value;  // for the side making the move; nullopt: not in the databases
    bool depth = true;           // false: the databases keep win/draw/loss only there
    // From the ultra databases (docs/ULTRA.md), where they are: the move's ultra value
    // for the side making it, as text ("draw of rank 3 (sector 6-3-0-0), depth -2").
    std::optional<std::string> ultra;
  };
  std::string game;
  std::string variant;
  std::string rules;
  std::string position;
  std::string board;             // a diagram (HasBoardText), else empty
  std::optional<int> side;       // the side to move, where positions say (HasSideToMove)
  bool terminal = false;         // the game is over by the rules (an end, or no legal move)
  bool no_legal_move = false;    // over because the side to move has no legal move
  std::optional<Value> value;    // nullopt: not in the databases
  bool depth = true;             // false: the value's tier keeps win/draw/loss only (depth 0)
  std::optional<Ranked> ranked;  // nullopt when the game is over
  std::string tier;              // the name of ranked->tier
  std::vector<Row> moves;        // best first, moves without a value last
  // The value the rules give: the game's end, or no legal move (no_move_value()). Where
  // the rules decide, value is this one, whether the position is in the databases or not.
  std::optional<Value> rules_value;
  // The perfect player's move, an index into moves: the shortest win, else a draw, else
  // the longest loss. Only when every move has a value: a move that leaves the databases
  // might be better than all the known ones. Where the databases keep win/draw/loss only,
  // it is a move of the best outcome, not necessarily the shortest win.
  std::optional<std::size_t> best;
  // Why value is nullopt, where asked (explain_missing): the tier has no file while the
  // databases hold tiers of as many pieces (missing_tier names it), or the position has
  // more pieces than any tier built (beyond: that count).
  std::string missing_tier;
  std::optional<int> beyond;
  // The move text given with the position, where the report is of the position after it
  // (the library's probe(position, move), the server's &move=).
  std::optional<std::string> played;
  // From the ultra databases of `ultra_heuristic` (ratio or stones), where they are
  // beside the strong ones (games with sectors): the position's ultra value as text. The
  // moves are then ranked by their ultra values (which order wins and losses as the
  // strong values do, and tell draws apart), so `best` is the ultra-strong player's move.
  std::string ultra_heuristic;
  std::optional<std::string> ultra;
};

// Whether the value of pos comes with its depth: not from a tier written with
// win/draw/loss values only (`gamesolver compress --encoding wdl`).
template <Game G>
bool depth_known(const G& game, db::Database& database, const typename G::Position& pos) {
  if (game.terminal(pos)) return true;
  const db::TierHeader* header = database.prober().header(game, game.rank(pos).tier);
  return header == nullptr || header->depths();
}

// Adds the ultra values of a report's position and moves where the ultra databases are
// beside the strong ones, and ranks the moves by them (see PositionReport).
template <Game G>
requires HasSectors<G>
void add_ultra(const G& game, const db::Location& location, const typename G::Position& pos,
               PositionReport& report, const std::string& ultra) {
  std::optional<retro::UltraHeuristic> heuristic = retro::ultra_available(location);
  if (!ultra.empty()) {
    heuristic = retro::parse_heuristic(ultra);
    std::error_code ignored;
    if (!std::filesystem::exists(retro::ultra_directory(location, *heuristic) / "ranks.txt", ignored))
      fail("no ultra databases of heuristic {} in {}", ultra, location.directory().string());
  }
  if (!heuristic) return;
  retro::UltraProber<G> prober(game, location, *heuristic);
  const auto self = prober.lookup(pos);
  if (!self) return;
  report.ultra_heuristic = std::string(retro::heuristic_name(*heuristic));
  report.ultra = prober.text(self->value, self->rank);
  MoveList<G> moves;
  game.moves(pos, moves);
  // By the move's text: the report's rows are sorted already.
  std::vector<std::pair<std::string, retro::UltraValue>> values;
  for (const typename G::Move& move : moves) {
    const std::optional<retro::UltraValue> v = prober.move_value(pos, game.play(pos, move));
    if (!v) return;  // a move leads out of the ultra databases: no ranking
    values.emplace_back(game.move_text(pos, move), *v);
  }
  auto value_of = [&](const std::string& move) {
    for (const auto& [text, v] : values) {
      if (text == move) return v;
    }
    fail("move {} is not among the position's moves", move);
  };
  for (PositionReport::Row& row : report.moves) row.ultra = prober.text(value_of(row.move), self->rank);
  std::stable_sort(report.moves.begin(), report.moves.end(),
                   [&](const PositionReport::Row& a, const PositionReport::Row& b) {
                     return value_of(a.move).better_than(value_of(b.move));
                   });
}

// `ultra`: the heuristic whose ultra databases to use (ratio or stones); empty: ratio
// where it is built, else stones.
template <Game G>
PositionReport report_position(const G& game, db::Database& database, const typename G::Position& pos,
                               const std::string& ultra = {}) {
  PositionReport report;
  report.game = std::string(G::kName);
  report.variant = game.variant();
  report.rules = game.rule_text();
  report.position = game.position_text(pos);
  if constexpr (HasBoardText<G>) report.board = game.board_text(pos);
  if constexpr (HasSideToMove<G>) report.side = side_to_move<G>(pos);
  // The rules first: a game that is over has the rules' value, databases or not.
  if (const std::optional<Value> over = game.terminal(pos)) {
    report.terminal = true;
    report.value = report.rules_value = over;
    return report;
  }
  report.ranked = game.rank(pos);
  report.tier = game.tier_name(report.ranked->tier);
  MoveList<G> moves;
  game.moves(pos, moves);
  if (moves.empty()) {
    report.terminal = report.no_legal_move = true;
    report.value = report.rules_value = game.no_move_value();
    return report;
  }
  report.value = db::probe(game, database, pos);
  report.depth = depth_known(game, database, pos);
  for (const typename G::Move& move : moves) {
    const typename G::Position next = game.play(pos, move);
    const std::optional<Value> child = db::probe(game, database, next);
    report.moves.push_back({game.move_text(pos, move), game.position_text(next),
                            child ? std::optional<Value>(child->before_move()) : std::nullopt,
                            depth_known(game, database, next), std::nullopt});
  }
  using Row = PositionReport::Row;
  std::stable_sort(report.moves.begin(), report.moves.end(), [](const Row& a, const Row& b) {
    if (a.value && b.value) return a.value->better_than(*b.value);
    return a.value.has_value() && !b.value.has_value();
  });
  if constexpr (HasSectors<G>) add_ultra(game, database.location(), pos, report, ultra);
  const bool all_known = std::all_of(report.moves.begin(), report.moves.end(),
                                     [](const Row& row) { return row.value.has_value(); });
  if (!report.moves.empty() && all_known) report.best = 0;
  return report;
}

// Fills report.missing_tier or report.beyond where the report's position has no value
// and its tier no file in the directory: a tier not built among those of its piece count,
// or a position beyond the databases' largest piece count (from the tiers whose files are
// in the directory, as `listing` keeps them).
template <Game G>
void explain_missing(const G& game, const db::Location& location, PositionReport& report,
                     TierListing& listing) {
  if (report.value || !report.ranked) return;
  std::error_code error;
  if (std::filesystem::exists(location.file(report.tier), error)) return;
  const int most = listing.most_pieces(game, location.directory());
  const int pieces = game.tier_pieces(report.ranked->tier);
  if (pieces <= most) {
    report.missing_tier = report.tier;
  } else {
    report.beyond = std::max(most, 0);
  }
}

// "win", "draw" or "loss".
const char* outcome_name(const Value& value);

// {"outcome": "win"|"draw"|"loss", "depth": plies} (no depth for a draw, nor where the
// databases keep none), or null.
nlohmann::json json_value(const std::optional<Value>& value, bool depth = true);

// As Value::to_string ("win in 5"), "win" or "loss" without a depth, or "not in the
// databases".
std::string value_text(const std::optional<Value>& value, bool depth = true);
// The value of the report's position as value_text, with why it is not in the databases
// where explain_missing said: "not in the databases (tier E-r is not built)".
std::string report_value_text(const PositionReport& report);

// The report as `probe` prints it: the position, its board, tier and index, its value
// and a line per move.
std::string report_text(const PositionReport& report);

// The report as the server sends it and `probe --json` prints it.
nlohmann::json to_json(const PositionReport& report);

}  // namespace gs::app
