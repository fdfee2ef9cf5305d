#pragma once
// Game-theoretic values, always from the point of view of the side to move (negamax).
//
// A value is a win, a loss or a draw; wins and losses carry their depth in plies to the
// end of the game under perfect play (shortest win, longest loss). Values are stored in
// databases and in the retrograde working cells as a 16-bit code:
//
//   code 0          no position at this index (a hole) or "don't care"
//   code 1          draw
//   code 2 + 2*d    win in d plies
//   code 3 + 2*d    loss in d plies
//
// Codes below kCodeLimit are values; the retrograde engine uses the codes at and above
// it for its own working states.
#include <compare>
#include <cstdint>
#include <string>

namespace gs {

using Depth = std::uint16_t;
using Index = std::uint64_t;
using Tier = std::uint64_t;
using ValueCode = std::uint16_t;

inline constexpr ValueCode kCodeLimit = 0x8000;
inline constexpr Depth kMaxDepth = (kCodeLimit - 4) / 2;

enum class Outcome : std::uint8_t { kLoss, kDraw, kWin };

// "win", "draw" or "loss": the one spelling of outcomes in text and JSON.
const char* outcome_name(Outcome outcome);

class Value {
 public:
  constexpr Value() = default;
  static constexpr Value win(Depth depth) { return {Outcome::kWin, depth}; }
  static constexpr Value loss(Depth depth) { return {Outcome::kLoss, depth}; }
  static constexpr Value draw() { return {Outcome::kDraw, 0}; }

  [[nodiscard]] constexpr Outcome outcome() const { return outcome_; }
  [[nodiscard]] constexpr Depth depth() const { return depth_; }
  [[nodiscard]] constexpr bool is_win() const { return outcome_ == Outcome::kWin; }
  [[nodiscard]] constexpr bool is_loss() const { return outcome_ == Outcome::kLoss; }
  [[nodiscard]] constexpr bool is_draw() const { return outcome_ == Outcome::kDraw; }

  // The value of the position before a move that led to a position of this value:
  // the opponent's loss in d is our win in d+1, and so on.
  [[nodiscard]] constexpr Value before_move() const {
    switch (outcome_) {
      case Outcome::kWin: return loss(static_cast<Depth>(depth_ + 1));
      case Outcome::kLoss: return win(static_cast<Depth>(depth_ + 1));
      case Outcome::kDraw: break;
    }
    return draw();
  }

  // Total order by preference of the side to move: longer losses, then draws, then
  // shorter wins are better.
  [[nodiscard]] constexpr int preference() const {
    switch (outcome_) {
      case Outcome::kWin: return 0x20000 - depth_;
      case Outcome::kLoss: return depth_;
      case Outcome::kDraw: break;
    }
    return 0x10000;
  }
  [[nodiscard]] constexpr bool better_than(Value other) const { return preference() > other.preference(); }

  [[nodiscard]] constexpr ValueCode code() const {
    switch (outcome_) {
      case Outcome::kWin: return static_cast<ValueCode>(2 + 2 * depth_);
      case Outcome::kLoss: return static_cast<ValueCode>(3 + 2 * depth_);
      case Outcome::kDraw: break;
    }
    return 1;
  }
  // Precondition: 1 <= code < kCodeLimit.
  static constexpr Value from_code(ValueCode code) {
    if (code == 1) return draw();
    const auto depth = static_cast<Depth>((code - 2) / 2);
    return (code & 1) != 0 ? loss(depth) : win(depth);
  }

  constexpr bool operator==(const Value&) const = default;

  [[nodiscard]] std::string to_string() const;  // "win in 5", "draw", "loss in 0"

 private:
  constexpr Value(Outcome outcome, Depth depth) : outcome_(outcome), depth_(depth) {}
  Outcome outcome_ = Outcome::kDraw;
  Depth depth_ = 0;
};

inline constexpr ValueCode kHoleCode = 0;
inline constexpr ValueCode kDrawCode = 1;

// A move as the side to move ranks it, from the code of the position it leads to: the
// smaller, the better (quicker wins, then a draw, then longer losses), so that a
// position's moves are combined by taking the least, with no decoding. Where a child's
// code is a loss in d, the choice is d + 1; a draw 0x4000; a win in d, 0xBFFF - d.
// kNoMoveChoice stands for no move at all.
inline constexpr std::uint16_t kNoMoveChoice = 0xFFFF;
// Precondition: 1 <= code < kCodeLimit.
constexpr std::uint16_t move_choice(ValueCode code) {
  if (code == kDrawCode) return 0x4000;
  return static_cast<std::uint16_t>((code & 1U) != 0 ? code >> 1 : 0xBFFF - ((code - 2) >> 1));
}
// The value of a position whose best move has this choice (not kNoMoveChoice):
// Value::before_move of the position that move leads to.
constexpr Value chosen_value(std::uint16_t choice) {
  if (choice < 0x4000) return Value::win(choice);
  if (choice == 0x4000) return Value::draw();
  return Value::loss(static_cast<Depth>(0xC000 - choice));
}

}  // namespace gs
