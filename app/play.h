#pragma once
// A game played against the perfect player: the position so far, the moves made, and the
// perfect move, which is the report's best row (app/position_report.h) so that `play`,
// `probe` and the explorer choose alike.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "app/input_error.h"
#include "app/pdn_game.h"
#include "app/position_report.h"
#include "app/requests.h"
#include "core/game.h"
#include "core/pdn.h"
#include "db/database.h"

namespace gs::app {

// What the command line needs of a game in play, whatever the game.
class PlaySession {
 public:
  virtual ~PlaySession() = default;
  // The report of the position to move from.
  virtual PositionReport report() = 0;
  [[nodiscard]] virtual int side_to_move() const = 0;
  // Plays a move given as text; throws InputError for bad text or an illegal move.
  virtual void play(const std::string& move) = 0;
  // The moves replayed from a PDN file before play began (PlayRequest::pdn).
  [[nodiscard]] virtual std::size_t replayed() const = 0;
  // The game from its start (or the PDN game's) to now, as a PDN file's text.
  [[nodiscard]] virtual std::string pdn_text() const = 0;
};

template <Game G>
class PlaySessionOf final : public PlaySession {
 public:
  PlaySessionOf(const G& game, const db::Location& location, const PlayRequest& request)
      : game_(game), database_(location) {
    if (request.from && request.pdn) fail("play: give --from or --pdn, not both");
    if (request.pdn) {
      const std::string source = request.pdn->string();
      played_ = replay(game_, game_in(pdn::read_file(*request.pdn), request.game, source), source);
      replayed_ = played_.moves.size();
    } else {
      played_.start = request.from ? game_.parse_position(*request.from) : game_.start();
      played_.positions.push_back(played_.start);
      played_.second_half = gs::side_to_move<G>(played_.start) != gs::side_to_move<G>(game_.start());
    }
  }

  PositionReport report() override { return report_position(game_, database_, played_.positions.back()); }
  [[nodiscard]] int side_to_move() const override { return gs::side_to_move<G>(played_.positions.back()); }
  void play(const std::string& text) override {
    const typename G::Position from = played_.positions.back();
    if (game_.terminal(from)) throw InputError("no move can be played: the game is over");
    typename G::Move move;
    try {
      move = game_.parse_move(from, text);
    } catch (const Error& error) {
      throw InputError(error.what());
    }
    played_.moves.push_back(move);
    played_.move_texts.push_back(game_.move_text(from, move));
    played_.positions.push_back(game_.play(from, move));
  }
  [[nodiscard]] std::size_t replayed() const override { return replayed_; }
  [[nodiscard]] std::string pdn_text() const override { return app::pdn_text(game_, played_); }

 private:
  G game_;
  db::Database database_;
  PlayedGame<G> played_;
  std::size_t replayed_ = 0;
};

}  // namespace gs::app
