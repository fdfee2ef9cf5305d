#pragma once
// Games from and to PDN files (core/pdn.h) for any game: the tags that set the start
// ([SetUp "1"] with [FEN "<position text>"]) and name the game ([GameType "21"] for
// English checkers, [Game "<name>"] for the others), and the moves in the game's own
// move text, replayed with its parse_move so that an illegal move is reported at its
// line and column with the legal ones.
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/pdn.h"
#include "core/quote.h"

namespace gs::app {

// PDN's GameType of the game (HasPdnGameType), or empty.
template <Game G>
std::string pdn_game_type() {
  if constexpr (HasPdnGameType<G>) {
    return std::string(G::kPdnGameType);
  } else {
    return {};
  }
}

template <Game G>
struct PlayedGame {
  typename G::Position start;
  std::vector<typename G::Move> moves;
  std::vector<typename G::Position> positions;  // before each move, then the last one
  std::vector<std::string> move_texts;          // as the game writes them
  // Whether the first move is the second of its move pair: the side that moves second
  // in the game's start position is to move at `start`.
  bool second_half = false;
  pdn::Game record;  // the tags and result as read (or to be written)

  // The move number of ply i (0-based), "3." or "3...".
  [[nodiscard]] std::string number(std::size_t ply) const {
    const std::size_t half = ply + (second_half ? 1 : 0);
    return fmt::format("{}{}", half / 2 + 1, half % 2 == 0 ? "." : "...");
  }
};

// Replays a game of a PDN file; errors name the file, line and column.
template <Game G>
PlayedGame<G> replay(const G& game, const pdn::Game& record, const std::string& source) {
  const std::string game_type = pdn_game_type<G>();
  using Position = typename G::Position;
  auto at = [&](const pdn::Place& place) {
    return fmt::format("{}:{}:{}", source, place.line, place.column);
  };
  if (const pdn::Tag* type = record.tag("GameType")) {
    const std::string number = type->value.substr(0, type->value.find(','));
    if (game_type.empty()) {
      fail("{}: bad tag: [GameType {}] names a draughts game, and {} has no PDN game type", at(type->place),
           quote_input(type->value, kQuoteLimit, '"'), G::kName);
    }
    if (number != game_type) {
      fail("{}: bad tag: [GameType {}] is not {} (GameType {})", at(type->place),
           quote_input(type->value, kQuoteLimit, '"'), G::kName, game_type);
    }
  }
  if (const pdn::Tag* name = record.tag("Game"); name != nullptr && name->value != G::kName) {
    fail("{}: bad tag: [Game {}]: this is {}", at(name->place), quote_input(name->value, kQuoteLimit, '"'),
         G::kName);
  }
  if (const pdn::Tag* variant = record.tag("Variant");
      variant != nullptr && variant->value != game.variant()) {
    fail("{}: bad tag: [Variant {}]: the variant is {} (pass --variant {})", at(variant->place),
         quote_input(variant->value, kQuoteLimit, '"'), game.variant(), quote_input(variant->value));
  }
  const pdn::Tag* setup = record.tag("SetUp");
  const pdn::Tag* fen = record.tag("FEN");
  if (setup != nullptr && setup->value != "0" && setup->value != "1") {
    fail("{}: bad tag: [SetUp {}] must be \"0\" (the start position) or \"1\" (the FEN tag's)",
         at(setup->place), quote_input(setup->value, kQuoteLimit, '"'));
  }
  if (setup != nullptr && setup->value == "1" && fen == nullptr)
    fail("{}: bad tag: [SetUp \"1\"] without a FEN tag giving the position", at(setup->place));
  if (setup != nullptr && setup->value == "0" && fen != nullptr)
    fail("{}: bad tag: [FEN] with [SetUp \"0\"] (the start position)", at(fen->place));

  PlayedGame<G> played;
  played.record = record;
  Position pos = game.start();
  if (fen != nullptr) {
    try {
      pos = game.parse_position(fen->value);
    } catch (const Error& error) {
      fail("{}: bad tag: [FEN]: {}", at(fen->place), error.what());
    }
  }
  played.start = pos;
  played.second_half = side_to_move<G>(pos) != side_to_move<G>(game.start());
  for (const pdn::MoveToken& token : record.moves) {
    const std::string number = played.number(played.moves.size());
    if (const auto over = game.terminal(pos)) {
      fail("{}: illegal move {} {}: the game is over ({} for the side to move in {})", at(token.place),
           number, token.text, over->to_string(), game.position_text(pos));
    }
    typename G::Move move;
    try {
      move = game.parse_move(pos, token.text);
    } catch (const Error& error) {
      fail("{}: illegal move {} {} in {}: {}", at(token.place), number, token.text, game.position_text(pos),
           error.what());
    }
    played.positions.push_back(pos);
    played.moves.push_back(move);
    played.move_texts.push_back(game.move_text(pos, move));
    pos = game.play(pos, move);
  }
  played.positions.push_back(pos);
  return played;
}

// The game of a PDN file, numbered from 1.
inline const pdn::Game& game_in(const std::vector<pdn::Game>& games, int number, const std::string& source) {
  if (number < 1 || static_cast<std::size_t>(number) > games.size())
    fail("{}: there is no game {}: the file holds {} game{}", source, number, games.size(),
         games.size() == 1 ? "" : "s");
  return games[static_cast<std::size_t>(number) - 1];
}

// The result marker of a finished game (1-0: the side that moves first in the start
// position won), or "*" while it goes on.
template <Game G>
std::string result_of(const G& game, const typename G::Position& pos) {
  std::optional<Value> value = game.terminal(pos);
  if (!value) {
    MoveList<G> moves;
    game.moves(pos, moves);
    if (!moves.empty()) return "*";
    value = game.no_move_value();
  }
  if (value->is_draw()) return "1/2-1/2";
  const bool first_to_move = side_to_move<G>(pos) == side_to_move<G>(game.start());
  return value->is_win() == first_to_move ? "1-0" : "0-1";
}

// The PDN record of a game: the tags it was read with (or Event and Date), the game's
// name, the start position when it is not the game's start, the moves and the result.
template <Game G>
pdn::Game record_of(const G& game, const PlayedGame<G>& played) {
  const std::string game_type = pdn_game_type<G>();
  pdn::Game record = played.record;
  if (record.tags.empty()) {
    record.set_tag("Event", "gamesolver play");
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    record.set_tag("Date", fmt::format("{:04}.{:02}.{:02}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday));
  }
  if (!game_type.empty()) {
    if (record.tag("GameType") == nullptr) record.set_tag("GameType", game_type);
  } else {
    record.set_tag("Game", std::string(G::kName));
    record.set_tag("Variant", game.variant());
  }
  if (game.position_text(played.start) != game.position_text(game.start())) {
    record.set_tag("SetUp", "1");
    record.set_tag("FEN", game.position_text(played.start));
  } else {
    record.erase_tag("SetUp");
    record.erase_tag("FEN");
  }
  record.result = result_of(game, played.positions.back());
  // A game that ended by agreement or adjudication keeps the result it was read with.
  if (record.result == "*" && !played.record.moves.empty() &&
      played.moves.size() == played.record.moves.size())
    record.result = played.record.result;
  record.set_tag("Result", record.result);
  record.moves.clear();
  for (const std::string& text : played.move_texts) record.moves.push_back({text, {}});
  return record;
}

template <Game G>
std::string pdn_text(const G& game, const PlayedGame<G>& played) {
  return pdn::write(record_of(game, played), 1, played.second_half);
}

}  // namespace gs::app
