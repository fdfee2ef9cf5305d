#pragma once
// Verification of ultra values (docs/ULTRA.md), by a code path of its own: every stored
// value is re-derived forwards from the stored values of its successors (the solve goes
// backwards, by unmoves and counts). A position's value must be the best its moves give
// under the ordering of retro/ultra_value.h: the largest key, and among the moves giving
// it the smallest depth (a positive key) or the largest (a negative key); key 0 with
// depth 0 where the best key is 0. Terminal positions and positions without a move hold
// their ending's value.
//
// With depths this check is not merely local: along the moves that realize a non-zero
// value the depth strictly falls, so no cycle of positions can hold a consistent wrong
// value, and the zeros are then forced by their successors.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/parallel.h"
#include "core/small_vector.h"
#include "retro/ultra_solver.h"
#include "retro/ultra_value.h"

namespace gs::retro {

struct UltraInconsistency {
  Index index = 0;
  std::string position;
  UltraValue stored;
  UltraValue expected;
};

struct UltraVerification {
  std::uint64_t checked = 0;
  std::uint64_t inconsistent = 0;
  std::vector<UltraInconsistency> first;  // the lowest inconsistent indices, up to `keep`
};

// The value the successors of pos (at `index` of `tier`) give it.
template <Game G>
requires HasSectors<G> UltraValue ultra_expected(const G& game, const UltraTables& tables, Tier tier,
                                                 Index index, const typename G::Position& pos,
                                                 const SectorRanks& ranks) {
  const UltraTier* self = tables.find(tier);
  if (self == nullptr) fail("tier {} has no ultra values", game.tier_name(tier));
  const std::int32_t h = self->sectors.rank(index);
  if (const std::optional<Value> over = game.terminal(pos)) return ultra_terminal(*over, h, ranks.win);
  MoveList<G> moves;
  game.moves(pos, moves);
  if (moves.empty()) return ultra_terminal(game.no_move_value(), h, ranks.win);
  std::optional<std::int32_t> key;
  SmallVector<UltraValue, G::kMaxMoves> given;
  for (const auto& move : moves) {
    const typename G::Position next = game.play(pos, move);
    UltraValue v;
    if (const std::optional<Value> over = game.terminal(next)) {
      v = ultra_before_move({ultra_absolute(*over, ranks.win), 0}, 0, h);
    } else {
      const Ranked ranked = game.rank(next);
      const UltraTier* target = tables.find(ranked.tier);
      if (target == nullptr) fail("tier {} has no ultra values", game.tier_name(ranked.tier));
      const std::uint32_t cell = target->cells.at(ranked.index);
      if (cell == kUltraHole)
        fail("tier {} index {}: a move leads to a hole", game.tier_name(ranked.tier), ranked.index);
      v = ultra_before_move(UltraValue::unpack(cell), target->sectors.rank(ranked.index), h);
    }
    given.push_back(v);
    if (!key || v.key > *key) key = v.key;
  }
  UltraValue best{*key, 0};
  if (best.key == 0) return best;
  bool first = true;
  for (const UltraValue& v : given) {
    if (v.key != best.key) continue;
    if (first || (best.key > 0 ? v.depth < best.depth : v.depth > best.depth)) best.depth = v.depth;
    first = false;
  }
  return best;
}

// Checks every index of a tier, on `threads` threads; holes must be exactly the indices
// without a position. Each index is unranked on its own (no stepping hook).
template <Game G>
requires HasSectors<G> UltraVerification verify_ultra_tier(const G& game, const UltraTables& tables,
                                                           Tier tier, const SectorRanks& ranks,
                                                           std::size_t keep = 1, int threads = 1) {
  const UltraTier* self = tables.find(tier);
  if (self == nullptr) fail("tier {} has no ultra values", game.tier_name(tier));
  if (self->cells.size() != game.size(tier))
    fail("tier {} has {} ultra values for {} indices", game.tier_name(tier), self->cells.size(),
         game.size(tier));
  // A thread's chunks come in increasing order: its first `keep` findings are its lowest.
  std::vector<UltraVerification> found(static_cast<std::size_t>(std::max(threads, 1)));
  parallel_for(0, self->cells.size(), threads, Index{1} << 14, [&](Index begin, Index end, int thread) {
    UltraVerification& mine = found[static_cast<std::size_t>(thread)];
    for (Index i = begin; i < end; ++i) {
      const std::optional<typename G::Position> pos = game.unrank(tier, i);
      const std::uint32_t cell = self->cells[i];
      UltraValue stored = UltraValue::unpack(cell);
      UltraValue expected;
      bool good = false;
      if (!pos) {
        good = cell == kUltraHole;
        expected = UltraValue::unpack(kUltraHole);
      } else {
        expected = ultra_expected(game, tables, tier, i, *pos, ranks);
        good = cell != kUltraHole && stored == expected;
      }
      ++mine.checked;
      if (good) continue;
      ++mine.inconsistent;
      if (mine.first.size() < keep)
        mine.first.push_back({i, pos ? game.position_text(*pos) : std::string("(hole)"), stored, expected});
    }
  });
  UltraVerification result;
  for (UltraVerification& part : found) {
    result.checked += part.checked;
    result.inconsistent += part.inconsistent;
    for (UltraInconsistency& bad : part.first) result.first.push_back(std::move(bad));
  }
  std::sort(result.first.begin(), result.first.end(),
            [](const UltraInconsistency& a, const UltraInconsistency& b) { return a.index < b.index; });
  if (result.first.size() > keep) result.first.resize(keep);
  return result;
}

}  // namespace gs::retro
