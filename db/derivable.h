#pragma once
// Derivable don't-cares (docs/FORMAT.md): positions a game marks as derivable
// (core/game.h; checkers: the side to move can capture) may hold any value in a file,
// chosen to compress well. Readers answer them by a search over their moves: each child
// is a terminal position or lies in another tier (the game's promise), whose value is
// read again, itself derived where it is a don't-care of its own; the tier graph is
// acyclic, so the search ends (checkers: every capture removes a piece).
//
// Values combine exactly as in the retrograde solver (retro/tier_solver.h, examine):
// the best of the children's values seen from before the move (Value::before_move: a
// child lost in d is a win in d+1), the rules' value of a terminal position, and
// no_move_value() for a position without moves.
#include <functional>
#include <optional>

#include "core/game.h"
#include "core/value.h"

namespace gs::db {

template <Game G>
bool derivable(const G& game, const typename G::Position& pos) {
  if constexpr (HasDerivable<G>) {
    return game.derivable(pos);
  } else {
    (void)game;
    (void)pos;
    return false;
  }
}

// The value of pos from its moves; child(next) gives the value of a non-terminal
// child, or nullopt when it is unknown (then the result is nullopt too).
template <Game G, class ChildValue>
std::optional<Value> derive_value(const G& game, const typename G::Position& pos, ChildValue&& child) {
  if (auto value = game.terminal(pos)) return value;
  MoveList<G> moves;
  game.moves(pos, moves);
  if (moves.empty()) return game.no_move_value();
  std::optional<Value> best;
  for (const auto& move : moves) {
    const typename G::Position next = game.play(pos, move);
    std::optional<Value> value = game.terminal(next);
    if (!value) value = child(next);
    if (!value) return std::nullopt;
    const Value mine = value->before_move();
    if (!best || mine.better_than(*best)) best = mine;
  }
  return best;
}

// The derivable positions of a game by tier and index (WriteOptions::derivable), or an
// empty function for a game that derives none.
template <Game G>
std::function<bool(Tier, Index)> derivable_positions(const G& game) {
  if constexpr (HasDerivable<G>) {
    return [game](Tier tier, Index index) {
      const auto pos = game.unrank(tier, index);
      return pos && game.derivable(*pos);
    };
  } else {
    (void)game;
    return {};
  }
}

// A value as a file of that encoding holds it: without depths, wins and losses in 0.
inline Value without_depth(Value value) {
  if (value.is_win()) return Value::win(0);
  if (value.is_loss()) return Value::loss(0);
  return value;
}

}  // namespace gs::db
