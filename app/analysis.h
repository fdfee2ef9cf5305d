#pragma once
// `probe --pdn`: a game of a PDN file replayed ply by ply with the databases' value
// before and after each move; a move that lowers its mover's outcome (a win or a draw
// thrown away) is an error.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/pdn_game.h"
#include "app/position_report.h"
#include "app/results.h"
#include "core/game.h"
#include "core/pdn.h"
#include "db/database.h"

namespace gs::app {

// The game's file is read and replayed before the databases are looked for (locate
// gives their location, and may throw): an error in the file is told first.
template <Game G, typename Locate>
GameAnalysis analyse_game(const G& game, const Locate& locate, const std::filesystem::path& file,
                          int number) {
  const std::string source = file.string();
  const std::vector<pdn::Game> games = pdn::read_file(file);
  const PlayedGame<G> played = replay(game, game_in(games, number, source), source);
  db::Database database(locate());
  struct Known {
    std::optional<Value> value;
    bool depth = true;
  };
  std::vector<Known> known;
  for (const auto& pos : played.positions)
    known.push_back({db::probe(game, database, pos), depth_known(game, database, pos)});
  // Outcomes in order of preference.
  auto rank = [](const Value& value) { return value.is_win() ? 2 : value.is_draw() ? 1 : 0; };
  GameAnalysis analysis;
  analysis.game = std::string(G::kName);
  analysis.file = source;
  analysis.number = number;
  for (const pdn::Tag& tag : played.record.tags) analysis.tags.emplace_back(tag.name, tag.value);
  analysis.start = game.position_text(played.start);
  analysis.result = played.record.result;
  for (std::size_t i = 0; i < played.moves.size(); ++i) {
    const Known& before = known[i];
    const Known& after = known[i + 1];
    GameAnalysis::Ply ply;
    ply.number = played.number(i);
    ply.move = played.move_texts[i];
    ply.position = game.position_text(played.positions[i]);
    ply.value = before.value;
    ply.depth = before.depth;
    ply.after = game.position_text(played.positions[i + 1]);
    ply.value_after = after.value;
    ply.depth_after = after.depth;
    if (after.value) ply.mover_value_after = after.value->before_move();
    if (before.value && ply.mover_value_after && rank(*ply.mover_value_after) < rank(*before.value)) {
      ply.change = fmt::format("{} -> {}", outcome_name(*before.value), outcome_name(*ply.mover_value_after));
      analysis.errors.push_back(fmt::format("{} {} ({})", ply.number, ply.move, ply.change));
    }
    analysis.plies.push_back(std::move(ply));
  }
  const auto& last = played.positions.back();
  analysis.last = game.position_text(last);
  analysis.last_terminal = game.terminal(last).has_value();
  analysis.last_value = known.back().value;
  analysis.last_depth = known.back().depth;
  return analysis;
}

}  // namespace gs::app
