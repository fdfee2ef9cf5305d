#pragma once
// Walks for the retrograde scans: the positions of a range of a tier's indices in index
// order, holes left out, stepping from position to position with unrank_next where the
// game has it (UnranksInOrder) and unranking each index otherwise; and the moves of a
// position that must be played, those that keep the tier counted instead where the
// game's hooks allow (KnowsTierMoves, CountsTierMoves); and the distinct in-tier
// predecessors of a position, for the propagation.
#include <algorithm>
#include <cstddef>
#include <optional>

#include "core/distinct.h"
#include "core/game.h"
#include "core/small_vector.h"

namespace gs {

// Calls visit(index, pos) for each index of [begin, end) of `tier` that is a position.
template <Game G, class Visit>
void for_each_position(const G& game, Tier tier, Index begin, Index end, Visit&& visit) {
  if constexpr (UnranksInOrder<G>) {
    typename G::Position pos{};
    bool valid = false;  // pos is unrank(tier, i - 1)
    for (Index i = begin; i < end; ++i) {
      if (valid) {
        valid = game.unrank_next(tier, i, pos);
      } else if (const std::optional<typename G::Position> first = game.unrank(tier, i)) {
        pos = *first;
        valid = true;
      }
      if (valid) visit(i, pos);
    }
  } else {
    for (Index i = begin; i < end; ++i) {
      if (const std::optional<typename G::Position> pos = game.unrank(tier, i)) visit(i, *pos);
    }
  }
}

// Calls visit(move) for each move of pos that must be played and returns how many moves
// were counted instead: where pos has no symmetry (has_symmetry false), the moves that
// keep its tier lead to distinct indices of it, so they need neither play nor rank.
// `moves` is left holding the moves listed (all of them, or only those leaving the tier).
template <Game G, class Visit>
std::size_t for_each_move_to_play(const G& game, const typename G::Position& pos, MoveList<G>& moves,
                                  Visit&& visit) {
  std::size_t counted = 0;
  bool plain = false;
  if constexpr (KnowsTierMoves<G>) plain = !game.has_symmetry(pos);
  bool leaving = false;  // moves holds only the moves leaving the tier
  if constexpr (CountsTierMoves<G>) {
    if (plain) {
      counted = game.moves_leaving_tier(pos, moves);
      leaving = true;
    }
  }
  if (!leaving) game.moves(pos, moves);
  for (const auto& move : moves) {
    if constexpr (KnowsTierMoves<G>) {
      if (!leaving && plain && game.keeps_tier(pos, move)) {
        ++counted;
        continue;
      }
    }
    visit(move);
  }
  return counted;
}

// The indices of pos's predecessors in its tier, each once, in indices up to the returned
// end (unmoves is scratch space for games without unmove_indices). The cells of those
// indices (cells: one per index of the tier) are prefetched for writing, since they lie
// scattered over the tier. Where the game promises distinct indices
// (predecessors_may_meet false, core/game.h) they are taken as they are; the others
// are deduplicated (core/distinct.h).
// With Open, where the game can tell (RanksOpenUnmoves), the predecessors that win at
// once by a move ending the game are left out: values of the retrograde solver's scan
// that no level changes.
template <bool Open = false, Game G, class Cell>
const Index* distinct_predecessors(const G& game, Tier tier, const typename G::Position& pos,
                                   SmallVector<Index, G::kMaxUnmoves>& indices, UnmoveList<G>& unmoves,
                                   const Cell* cells) {
  if constexpr (Open && RanksOpenUnmoves<G>) {
    game.open_unmove_indices(tier, pos, indices);
  } else if constexpr (RanksUnmoves<G>) {
    game.unmove_indices(tier, pos, indices);
  } else {
    game.unmoves(pos, unmoves);
    indices.clear();
    for (const typename G::Position& p : unmoves) indices.push_back(game.rank(p).index);
  }
  for (const Index q : indices) __builtin_prefetch(cells + q, 1);
  if (!predecessors_may_meet(game, pos)) return indices.end();
  return unique_short(indices.begin(), indices.end());
}

}  // namespace gs
