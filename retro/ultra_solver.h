#pragma once
// Multi-valued retrograde analysis of one tier (Gévay & Danner's ultra-strong solutions;
// values in retro/ultra_value.h, the method in docs/ULTRA.md).
//
// Working memory per index: a 32-bit cell (a packed value, or "counting" with the number
// of distinct in-tier successors not yet processed) and the best value the moves out of
// the tier give (child tiers and terminal positions, adjusted to this tier's sectors).
//
// 1. Scan (in parallel): each position gets the best value of its moves out of the tier.
//    A positive one is stored at once (an in-tier successor may still better it);
//    otherwise the cell counts its distinct in-tier successors (none: the outside value
//    is final). Where the game has the retrograde hooks of core/game.h, moves that keep
//    the tier are counted without being played, the scan steps with unrank_next and
//    predecessors are ranked by unmove_indices, as in retro/tier_solver.h.
// 2. Values are processed in order of decreasing |key|, and for equal |key| of
//    increasing depth (a queue of buckets): a key -k at q makes each undecided
//    predecessor +k at depth + 1 (or betters a pending positive value); a key +k counts
//    each undecided predecessor down, and the last count decides it: -k at depth + 1, or
//    its outside value where that is better. Keys 0 are not processed.
// 3. Cells still counting are stable draws: key 0.
//
// Successors and predecessors are counted as distinct indices, as in retro/tier_solver.h.
// The values do not depend on the order of the entries within a bucket (each entry only
// makes values of later buckets), so the propagation and the scan give the same cells on any number of
// threads. Large buckets are propagated in parallel, their cells changed by compare-and-swap.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/page_memory.h"
#include "core/parallel.h"
#include "core/progress.h"
#include "core/small_vector.h"
#include "core/tier_walk.h"
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

  // The bytes of values held for tiers outside `reading`.
  [[nodiscard]] std::uint64_t bytes_besides(const std::set<Tier>& reading) const {
    std::uint64_t bytes = 0;
    for (const auto& [tier, values] : tiers_)
      bytes += reading.contains(tier) ? 0 : values.cells.size() * sizeof(std::uint32_t);
    return bytes;
  }
  // Lets go of every tier outside `reading` (loaded again from its file when needed).
  void keep_only(const std::set<Tier>& reading) {
    std::erase_if(tiers_, [&](const auto& entry) { return !reading.contains(entry.first); });
  }

 private:
  std::map<Tier, UltraTier> tiers_;
};

template <Game G>
requires HasSectors<G>
class UltraSolver {
 public:
  using Position = typename G::Position;

  UltraSolver(const G& game, const UltraTables& tables, Tier tier, const SectorRanks& ranks, bool quiet,
              int threads = 1)
      : game_(game), tier_(tier), ranks_(ranks), quiet_(quiet), threads_(std::max(threads, 1)) {
    sectors_ = TierSectors::of(game, tier, ranks);
    check_sectors();
    for (const Tier child : game.children(tier)) {
      const UltraTier* values = tables.find(child);
      if (values == nullptr)
        fail("tier {} needs the ultra values of tier {}, which are not there", game.tier_name(tier),
             game.tier_name(child));
      children_.push_back({child, values});
    }
    std::sort(children_.begin(), children_.end(),
              [](const Child& a, const Child& b) { return a.tier < b.tier; });
  }

  // Bytes of working memory per index (cells, outside values, a queue entry at most).
  static constexpr std::uint64_t kBytesPerIndex = 2 * sizeof(std::uint32_t) + 16;

  // Solves the tier: a packed value per index (kUltraHole for holes).
  std::vector<std::uint32_t> solve() {
    const Index size = game_.size(tier_);
    assign_on_huge_pages(cells_, size, kUltraHole);  // updated at random places
    outside_.assign(size, kNoOutside);
    scratch_ = std::vector<Scratch>(static_cast<std::size_t>(threads_));
    Progress progress(game_.tier_name(tier_) + " ultra", size, quiet_);
    progress.set_stage("scan");
    parallel_for(0, size, threads_, kChunk, [&](Index begin, Index end, int thread) {
      Scratch& scratch = scratch_[static_cast<std::size_t>(thread)];
      for_each_position(game_, tier_, begin, end,
                        [&](Index i, const Position& pos) { scan(i, pos, scratch); });
      progress.add(end - begin);
    });
    // The decided values enter the queue in index order.
    for (Index i = 0; i < size; ++i) {
      const std::uint32_t cell = cells_[i];
      if (cell != kUltraHole && !counting(cell)) enqueue(i, UltraValue::unpack(cell));
    }
    progress.set_stage("propagate");
    made_ = std::vector<std::vector<Entry>>(static_cast<std::size_t>(threads_));
    while (!queue_.empty()) {
      auto bucket = queue_.begin();
      const std::vector<Entry> entries = std::move(bucket->second);
      queue_.erase(bucket);
      if (threads_ == 1 || entries.size() < 2 * kPropagateChunk) {
        for (const Entry& entry : entries) {
          if (cells_[entry.index] != entry.packed) continue;  // bettered since
          propagate(entry.index, UltraValue::unpack(entry.packed), scratch_.front(), nullptr);
        }
        continue;
      }
      // A bucket's entries change no cell of the bucket (they make values of later
      // buckets only), and what they make does not depend on their order: they are
      // processed in parallel, the values made are queued after.
      parallel_for(0, entries.size(), threads_, kPropagateChunk, [&](Index begin, Index end, int thread) {
        const auto t = static_cast<std::size_t>(thread);
        for (Index e = begin; e < end; ++e) {
          const Entry& entry = entries[e];
          if (cells_[entry.index] != entry.packed) continue;  // bettered before this bucket
          propagate(entry.index, UltraValue::unpack(entry.packed), scratch_[t], &made_[t]);
        }
      });
      for (std::vector<Entry>& made : made_) {
        for (const Entry& entry : made) enqueue(entry.index, UltraValue::unpack(entry.packed));
        made.clear();
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
  struct Child {
    Tier tier = 0;
    const UltraTier* values = nullptr;
  };
  // A move's successor in a child tier, looked up once the moves are all ranked.
  struct Outside {
    const UltraTier* values = nullptr;
    Index index = 0;
  };
  struct Scratch {
    MoveList<G> moves;
    SmallVector<Index, G::kMaxMoves> inside;
    SmallVector<Outside, G::kMaxMoves> outside;
    SmallVector<Index, G::kMaxUnmoves> predecessors;
    UnmoveList<G> unmoves;
  };
  static constexpr Index kChunk = 1 << 12;
  static constexpr Index kPropagateChunk = 256;
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

  // The values of a child tier; fails for a tier that is not a child.
  const UltraTier* child_values(Tier tier) const {
    const auto child = std::lower_bound(children_.begin(), children_.end(), tier,
                                        [](const Child& c, Tier t) { return c.tier < t; });
    if (child != children_.end() && child->tier == tier) return child->values;
    fail("a move from tier {} leads to tier {}, which is not among its children", game_.tier_name(tier_),
         game_.tier_name(tier));
  }

  // The value of each move of pos leaving the tier (the best of them), and the number of
  // distinct in-tier successors.
  std::pair<std::optional<UltraValue>, std::size_t> examine(const Position& pos, std::int32_t h,
                                                            Scratch& scratch) const {
    scratch.inside.clear();
    scratch.outside.clear();
    std::optional<UltraValue> best;
    const std::size_t unranked = for_each_move_to_play(game_, pos, scratch.moves, [&](const auto& move) {
      const Position next = game_.play(pos, move);
      if (const std::optional<Value> over = game_.terminal(next)) {
        const UltraValue v = ultra_before_move(UltraValue{ultra_absolute(*over, ranks_.win), 0}, 0, h);
        if (!best || v.better_than(*best)) best = v;
        return;
      }
      const Ranked ranked = game_.rank(next);
      if (ranked.tier == tier_) {
        scratch.inside.push_back(ranked.index);
        return;
      }
      const UltraTier* child = child_values(ranked.tier);
      if (ranked.index >= child->cells.size())
        fail("tier {} has no index {}", game_.tier_name(ranked.tier), ranked.index);
      __builtin_prefetch(&child->cells[ranked.index]);
      scratch.outside.push_back({child, ranked.index});
    });
    for (const auto& [child, index] : scratch.outside) {
      const std::uint32_t cell = child->cells[index];
      if (cell == kUltraHole) fail("a move from tier {} leads to a hole (corrupt?)", game_.tier_name(tier_));
      const UltraValue v = ultra_before_move(UltraValue::unpack(cell), child->sectors.rank(index), h);
      if (!best || v.better_than(*best)) best = v;
    }
    std::sort(scratch.inside.begin(), scratch.inside.end());
    const auto distinct = static_cast<std::size_t>(std::unique(scratch.inside.begin(), scratch.inside.end()) -
                                                   scratch.inside.begin());
    return {best, unranked + distinct};
  }

  // Sets cells_[index] and outside_[index]; the queue is filled after the scan.
  void scan(Index index, const Position& pos, Scratch& scratch) {
    const std::int32_t h = sectors_.rank(index);
    if (const std::optional<Value> over = game_.terminal(pos)) {
      cells_[index] = checked(ultra_terminal(*over, h, ranks_.win), game_, tier_).packed();
      return;
    }
    const auto [best, count] = examine(pos, h, scratch);
    if (count == 0) {
      // Every move leaves the tier (or there is none): the value is final.
      const UltraValue value = best ? *best : ultra_terminal(game_.no_move_value(), h, ranks_.win);
      cells_[index] = checked(value, game_, tier_).packed();
      return;
    }
    if (sectors_.ranges[sectors_.sector(index)].transient)
      fail("tier {}: a move keeps the tier, whose sector says no move does", game_.tier_name(tier_));
    if (best && best->key > 0) {
      cells_[index] = checked(*best, game_, tier_).packed();
      return;
    }
    if (count > 0xFFFF)
      fail("tier {}: a position has {} successors in its tier", game_.tier_name(tier_), count);
    cells_[index] = kCounting | static_cast<std::uint32_t>(count);
    if (best) outside_[index] = checked(*best, game_, tier_).packed();
  }

  // The distinct in-tier predecessors of the position at `index`, in scratch.predecessors
  // (up to the returned end).
  const Index* predecessors(Index index, Scratch& scratch) const {
    return distinct_predecessors(game_, tier_, *game_.unrank(tier_, index), scratch.predecessors,
                                 scratch.unmoves, cells_.data());
  }

  // Propagates a final value to the predecessors. Sequentially (`made` null) the values
  // made are queued at once; in parallel the cells change by compare-and-swap and the
  // values made are listed in `made`.
  void propagate(Index index, UltraValue v, Scratch& scratch, std::vector<Entry>* made) {
    // Within the tier a move leads into the twin sector: the key is negated.
    const UltraValue before{-v.key, v.depth + 1};
    const Index* last = predecessors(index, scratch);
    for (const Index* q = scratch.predecessors.begin(); q != last; ++q) {
      const Index p = *q;
      std::atomic_ref<std::uint32_t> cell(cells_[p]);
      std::uint32_t current = cell.load(std::memory_order_relaxed);
      if (current == kUltraHole) fail("tier {}: an unmove leads to hole {}", game_.tier_name(tier_), p);
      std::optional<UltraValue> decided;  // a value this update makes
      std::uint32_t next = 0;
      do {
        decided.reset();
        if (before.key > 0) {
          // A win-like value: better the predecessor where it is undecided or pending.
          if (!counting(current)) {
            const UltraValue now = UltraValue::unpack(current);
            if (now.key <= 0 || !before.better_than(now)) break;
          }
          next = checked(before, game_, tier_).packed();
          decided = before;
        } else if (!counting(current)) {
          break;
        } else if ((current & 0xFFFFU) > 1) {
          next = current - 1;
        } else {
          // The last unprocessed successor: every in-tier move gives `before` or worse.
          UltraValue value = before;
          if (outside_[p] != kNoOutside) {
            const UltraValue out = UltraValue::unpack(outside_[p]);
            if (out.better_than(value)) value = out;
          }
          // A draw by the outside moves is stable: key 0, depth 0.
          next = value.key == 0 ? UltraValue{}.packed() : checked(value, game_, tier_).packed();
          if (value.key != 0) decided = value;
        }
      } while (!cell.compare_exchange_weak(current, next, std::memory_order_relaxed));
      if (!decided) continue;
      if (made == nullptr) {
        enqueue(p, *decided);
      } else {
        made->push_back({p, decided->packed()});
      }
    }
  }

  const G& game_;
  Tier tier_;
  const SectorRanks& ranks_;
  bool quiet_;
  int threads_;
  TierSectors sectors_;
  std::vector<Child> children_;
  std::vector<std::uint32_t> cells_;
  std::vector<std::uint32_t> outside_;
  std::map<std::pair<std::int32_t, std::int32_t>, std::vector<Entry>> queue_;
  std::vector<Scratch> scratch_;
  std::vector<std::vector<Entry>> made_;  // per thread
};

}  // namespace gs::retro
