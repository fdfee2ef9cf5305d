#pragma once
// Multi-valued retrograde analysis of one tier (Gévay & Danner's ultra-strong solutions;
// values in retro/ultra_value.h, the method in docs/ULTRA.md).
//
// Working memory per index: a 32-bit cell (a packed value, or "counting" with the number
// of distinct in-tier successors not yet processed) and the best value the moves out of
// the tier give (child tiers and terminal positions, adjusted to this tier's sectors).
//
// 1. Scan: each position gets the best value of its moves out of the tier. A positive
//    one is stored at once (an in-tier successor may still better it); otherwise the cell
//    counts its distinct in-tier successors (none: the outside value is final).
// 2. Values are processed in order of decreasing |key|, and for equal |key| of
//    increasing depth (a queue of buckets): a key -k at q makes each undecided
//    predecessor +k at depth + 1 (or betters a pending positive value); a key +k counts
//    each undecided predecessor down, and the last count decides it: -k at depth + 1, or
//    its outside value where that is better. Keys 0 are not processed.
// 3. Cells still counting are stable draws: key 0.
//
// Successors and predecessors are counted as distinct indices, as in retro/tier_solver.h.
// The solve is single-threaded and deterministic.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/progress.h"
#include "retro/ultra_value.h"

namespace gs::retro {

// A packed cell that is no position (a hole).
inline constexpr std::uint32_t kUltraHole = 0x80000000U;

// The values of solved tiers, kept in memory by tier.
struct UltraTier {
  std::vector<std::uint32_t> cells;  // packed UltraValue, kUltraHole for holes
  TierSectors sectors;
};

class UltraTables {
 public:
  [[nodiscard]] const UltraTier* find(Tier tier) const {
    const auto it = tiers_.find(tier);
    return it == tiers_.end() ? nullptr : &it->second;
  }
  void put(Tier tier, UltraTier values) { tiers_[tier] = std::move(values); }
  void drop(Tier tier) { tiers_.erase(tier); }

 private:
  std::map<Tier, UltraTier> tiers_;
};

template <Game G>
requires HasSectors<G>
class UltraSolver {
 public:
  using Position = typename G::Position;

  UltraSolver(const G& game, const UltraTables& tables, Tier tier, const SectorRanks& ranks, bool quiet)
      : game_(game), tables_(tables), tier_(tier), ranks_(ranks), quiet_(quiet) {
    sectors_ = TierSectors::of(game, tier, ranks);
    check_sectors();
    for (const Tier child : game.children(tier)) {
      if (tables.find(child) == nullptr)
        fail("tier {} needs the ultra values of tier {}, which are not there", game.tier_name(tier),
             game.tier_name(child));
    }
  }

  // Bytes of working memory per index (cells, outside values, a queue entry at most).
  static constexpr std::uint64_t kBytesPerIndex = 2 * sizeof(std::uint32_t) + 16;

  // Solves the tier: a packed value per index (kUltraHole for holes).
  std::vector<std::uint32_t> solve() {
    const Index size = game_.size(tier_);
    cells_.assign(size, kUltraHole);
    outside_.assign(size, kNoOutside);
    Progress progress(game_.tier_name(tier_) + " ultra", size, quiet_);
    progress.set_stage("scan");
    for (Index i = 0; i < size; ++i) {
      if (const std::optional<Position> pos = game_.unrank(tier_, i)) scan(i, *pos);
      if ((i & 0xFFFF) == 0xFFFF) progress.add(0x10000);
    }
    progress.add(size & 0xFFFF);
    progress.set_stage("propagate");
    while (!queue_.empty()) {
      auto bucket = queue_.begin();
      std::vector<Entry> entries = std::move(bucket->second);
      queue_.erase(bucket);
      for (const Entry& entry : entries) {
        if (cells_[entry.index] != entry.packed) continue;  // bettered since
        propagate(entry.index, UltraValue::unpack(entry.packed));
      }
    }
    for (std::uint32_t& cell : cells_) {
      if (counting(cell)) cell = UltraValue{}.packed();
    }
    outside_.clear();
    return std::move(cells_);
  }

 private:
  struct Entry {
    Index index = 0;
    std::uint32_t packed = 0;
  };
  // A counting cell: the key's half holds 0x8001, the depth's half the count.
  static constexpr std::uint32_t kCounting = 0x80010000U;
  static constexpr std::uint32_t kNoOutside = 0x80020000U;
  static bool counting(std::uint32_t cell) { return (cell & 0xFFFF0000U) == kCounting; }

  void check_sectors() const {
    const auto& ranges = sectors_.ranges;
    if (ranges.empty() || ranges.size() > 2 || ranges.front().begin != 0 ||
        ranges.back().end != game_.size(tier_))
      fail("tier {}: its sectors do not cover its indices", game_.tier_name(tier_));
    if (ranges.size() == 2) {
      if (ranges[0].end != ranges[1].begin)
        fail("tier {}: its sectors are not contiguous", game_.tier_name(tier_));
      if (sectors_.ranks[0] != -sectors_.ranks[1])
        fail("tier {}: the twin sectors {} and {} have ranks {} and {}, not opposite", game_.tier_name(tier_),
             game_.sector_name(ranges[0].code), game_.sector_name(ranges[1].code), sectors_.ranks[0],
             sectors_.ranks[1]);
    } else if (!ranges[0].transient && sectors_.ranks[0] != 0) {
      fail("tier {}: a symmetric sector must have rank 0, not {}", game_.tier_name(tier_), sectors_.ranks[0]);
    }
  }

  static UltraValue checked(UltraValue v, const G& game, Tier tier) {
    if (v.key > kUltraLimit || v.key < -kUltraLimit || v.depth > kUltraLimit || v.depth < -kUltraLimit)
      fail("tier {}: an ultra value ({}, {}) is out of the stored range", game.tier_name(tier), v.key,
           v.depth);
    return v;
  }

  void enqueue(Index index, UltraValue v) {
    if (v.key == 0) return;
    const std::int32_t level = v.key < 0 ? -v.key : v.key;
    queue_[{-level, v.depth}].push_back({index, v.packed()});
  }

  // The value of a move's successor, for the position at `index`; in-tier successors
  // are listed in `inside` instead.
  std::optional<UltraValue> successor(const Position& next, std::int32_t h,
                                      std::vector<Index>& inside) const {
    if (const std::optional<Value> over = game_.terminal(next)) {
      return ultra_before_move(UltraValue{ultra_absolute(*over, ranks_.win), 0}, 0, h);
    }
    const Ranked ranked = game_.rank(next);
    if (ranked.tier == tier_) {
      inside.push_back(ranked.index);
      return std::nullopt;
    }
    const UltraTier* child = tables_.find(ranked.tier);
    if (child == nullptr)
      fail("a move from tier {} leads to tier {}, which is not among its children", game_.tier_name(tier_),
           game_.tier_name(ranked.tier));
    const std::uint32_t cell = child->cells.at(ranked.index);
    if (cell == kUltraHole)
      fail("tier {} index {} holds no value (corrupt?)", game_.tier_name(ranked.tier), ranked.index);
    return ultra_before_move(UltraValue::unpack(cell), child->sectors.rank(ranked.index), h);
  }

  void scan(Index index, const Position& pos) {
    const std::int32_t h = sectors_.rank(index);
    if (const std::optional<Value> over = game_.terminal(pos)) {
      set(index, ultra_terminal(*over, h, ranks_.win));
      return;
    }
    game_.moves(pos, moves_);
    if (moves_.empty()) {
      set(index, ultra_terminal(game_.no_move_value(), h, ranks_.win));
      return;
    }
    inside_.clear();
    std::optional<UltraValue> best;
    for (const auto& move : moves_) {
      const std::optional<UltraValue> v = successor(game_.play(pos, move), h, inside_);
      if (v && (!best || v->better_than(*best))) best = v;
    }
    if (!inside_.empty() && sectors_.ranges[sectors_.sector(index)].transient)
      fail("tier {}: a move keeps the tier, whose sector says no move does", game_.tier_name(tier_));
    std::sort(inside_.begin(), inside_.end());
    const auto count =
        static_cast<std::size_t>(std::unique(inside_.begin(), inside_.end()) - inside_.begin());
    if (count == 0 || (best && best->key > 0)) {
      set(index, *best);
      return;
    }
    if (count > 0xFFFF)
      fail("tier {}: a position has {} successors in its tier", game_.tier_name(tier_), count);
    cells_[index] = kCounting | static_cast<std::uint32_t>(count);
    if (best) outside_[index] = checked(*best, game_, tier_).packed();
  }

  void set(Index index, UltraValue v) {
    cells_[index] = checked(v, game_, tier_).packed();
    enqueue(index, v);
  }

  void predecessors(Index index, std::vector<Index>& out) {
    const Position pos = *game_.unrank(tier_, index);
    out.clear();
    game_.unmoves(pos, unmoves_);
    for (const Position& p : unmoves_) out.push_back(game_.rank(p).index);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }

  void propagate(Index index, UltraValue v) {
    // Within the tier a move leads into the twin sector: the key is negated.
    const UltraValue before{-v.key, v.depth + 1};
    predecessors(index, preds_);
    for (const Index p : preds_) {
      std::uint32_t& cell = cells_[p];
      if (cell == kUltraHole) fail("tier {}: an unmove leads to hole {}", game_.tier_name(tier_), p);
      if (before.key > 0) {
        // A win-like value: better the predecessor where it is undecided or pending.
        if (counting(cell)) {
          set(p, before);
        } else {
          const UltraValue current = UltraValue::unpack(cell);
          if (current.key > 0 && before.better_than(current)) set(p, before);
        }
        continue;
      }
      if (!counting(cell)) continue;
      if ((cell & 0xFFFFU) > 1) {
        --cell;
        continue;
      }
      // The last unprocessed successor: every in-tier move gives `before` or worse.
      UltraValue value = before;
      if (outside_[p] != kNoOutside) {
        const UltraValue out = UltraValue::unpack(outside_[p]);
        if (out.better_than(value)) value = out;
      }
      if (value.key == 0) {
        cell = UltraValue{}.packed();
      } else {
        set(p, value);
      }
    }
  }

  const G& game_;
  const UltraTables& tables_;
  Tier tier_;
  const SectorRanks& ranks_;
  bool quiet_;
  TierSectors sectors_;
  std::vector<std::uint32_t> cells_;
  std::vector<std::uint32_t> outside_;
  std::map<std::pair<std::int32_t, std::int32_t>, std::vector<Entry>> queue_;
  MoveList<G> moves_;
  UnmoveList<G> unmoves_;
  std::vector<Index> inside_;
  std::vector<Index> preds_;
};

}  // namespace gs::retro
