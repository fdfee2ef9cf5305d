#pragma once
// Tic-tac-toe, a game for the tests only: small enough to check every database value
// against a brute-force search, and added through the steps of docs/ADDING_A_GAME.md to
// show that they suffice. X moves first; a player who completes a row, column or
// diagonal of three wins; a full board without one is a draw.
//
// Tiers are the number of empty squares (`e0` .. `e9`): every move fills one, so a move
// always leaves its tier and the tier graph is a chain. `--pieces N` means the positions
// with at most N empty squares: the last N plies of every game.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/game.h"
#include "core/value.h"

namespace gs::tictactoe {

struct Position {
  std::uint16_t x = 0;    // squares 0..8 (a1 = 0, b1 = 1, ..., c3 = 8) holding an X
  std::uint16_t o = 0;    // ... an O
  std::uint8_t side = 0;  // 0: X to move, 1: O
  bool operator==(const Position&) const = default;
};

struct Move {
  std::uint8_t square = 0;
  bool operator==(const Move&) const = default;
};

class TicTacToe {
 public:
  using Position = tictactoe::Position;
  using Move = tictactoe::Move;
  static constexpr std::string_view kName = "tictactoe";
  static constexpr std::string_view kDescription =
      "tic-tac-toe, a game for the tests (tests/games/tictactoe)";
  static constexpr std::size_t kMaxMoves = 9;
  static constexpr std::size_t kMaxUnmoves = 1;
  static constexpr std::array<std::string_view, 2> kSideNames = {"x", "o"};

  static TicTacToe from_options(std::string_view variant, const std::vector<std::string>& rules);
  [[nodiscard]] static std::string variant() { return "standard"; }
  [[nodiscard]] static std::string rule_text() { return {}; }

  [[nodiscard]] static Position start() { return {}; }
  static void moves(const Position& pos, MoveList<TicTacToe>& out);
  [[nodiscard]] static Position play(const Position& pos, const Move& move);
  [[nodiscard]] static std::optional<Value> terminal(const Position& pos);
  [[nodiscard]] static Value no_move_value() { return Value::draw(); }
  [[nodiscard]] static std::string position_text(const Position& pos);
  [[nodiscard]] static Position parse_position(std::string_view text);
  [[nodiscard]] static std::string move_text(const Position& pos, const Move& move);
  [[nodiscard]] static Move parse_move(const Position& pos, std::string_view text);
  [[nodiscard]] static std::string board_text(const Position& pos);

  [[nodiscard]] static std::vector<Tier> tiers(int max_empty);
  [[nodiscard]] static std::vector<Tier> children(Tier tier);
  [[nodiscard]] static Index size(Tier tier);
  [[nodiscard]] static std::string tier_name(Tier tier);
  [[nodiscard]] static Tier parse_tier(std::string_view text);
  [[nodiscard]] static int tier_pieces(Tier tier) { return static_cast<int>(tier); }
  [[nodiscard]] static Ranked rank(const Position& pos);
  [[nodiscard]] static std::optional<Position> unrank(Tier tier, Index index);
  static void unmoves(const Position& pos, UnmoveList<TicTacToe>& out) {
    (void)pos;
    out.clear();  // every move fills a square: none keeps the tier
  }
  // No symmetry is used: each position is its own class.
  static void symmetric(const Position& pos, std::vector<Position>& out) { out.assign(1, pos); }

  // Whether `stones` holds a row, column or diagonal.
  [[nodiscard]] static bool has_line(std::uint16_t stones);
};

}  // namespace gs::tictactoe
