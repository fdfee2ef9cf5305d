#pragma once
// Walks the positions of a range of a tier's indices in index order, holes left out,
// stepping from position to position with unrank_next where the game has it
// (UnranksInOrder) and unranking each index otherwise.
#include <optional>

#include "core/game.h"

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

}  // namespace gs
