#pragma once
// perft: the number of leaves of the move tree to a depth, the classic check of a move
// generator against published counts. A terminal position ends its line (it has no
// leaves below it at a greater depth).
#include <cstdint>
#include <string>
#include <vector>

#include "core/game.h"

namespace gs {

template <Game G>
std::uint64_t perft(const G& game, const typename G::Position& pos, int depth) {
  if (depth == 0) return 1;
  if (game.terminal(pos)) return 0;
  MoveList<G> moves;
  game.moves(pos, moves);
  if (depth == 1) return moves.size();
  std::uint64_t total = 0;
  for (const typename G::Move& move : moves) total += perft(game, game.play(pos, move), depth - 1);
  return total;
}

struct PerftDivision {
  struct Row {
    std::string move;
    std::uint64_t nodes = 0;
  };
  std::uint64_t nodes = 0;
  std::vector<Row> moves;  // per first move, in the order moves() gives them
};

// perft below each first move; an empty division where pos is terminal or depth is 0.
template <Game G>
PerftDivision perft_divide(const G& game, const typename G::Position& pos, int depth) {
  PerftDivision out;
  if (depth == 0 || game.terminal(pos)) {
    out.nodes = perft(game, pos, depth);
    return out;
  }
  MoveList<G> moves;
  game.moves(pos, moves);
  for (const typename G::Move& move : moves) {
    const std::uint64_t count = perft(game, game.play(pos, move), depth - 1);
    out.nodes += count;
    out.moves.push_back({game.move_text(pos, move), count});
  }
  return out;
}

}  // namespace gs
