#pragma once
// What a game may offer the search beyond the game interface (core/game.h, OPTIONAL):
//
//   is_capture(pos, move)   true for a move that takes material: alpha-beta tries such
//                           moves first and follows them past its depth limit
//                           (quiescence), where they often reach a database;
//   evaluate(pos)           a heuristic score of pos for the side to move (larger is
//                           better), used only to order moves, never as a value.
#include <concepts>

#include "core/game.h"

namespace gs::search {

template <class G>
concept HasCaptures = requires(const G& game, const typename G::Position& pos, const typename G::Move& move) {
  { game.is_capture(pos, move) } -> std::convertible_to<bool>;
};

template <class G>
concept HasEvaluation = requires(const G& game, const typename G::Position& pos) {
  { game.evaluate(pos) } -> std::convertible_to<int>;
};

}  // namespace gs::search
