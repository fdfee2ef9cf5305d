#pragma once
// Retrograde analysis of one tier with exact depths (docs/DESIGN.md).
//
// Working memory is one 16-bit cell per index:
//
//   code < kCodeLimit          a value (core/value.h); a win may still be lowered
//                              while its depth is above the level being processed
//   kCounting | o << 7 | n     not yet decided; n (< 128) distinct in-tier successors
//                              unknown; o summarizes the best value of the moves out
//                              of the tier (see Summary), kept so that deciding the
//                              position needs no second look at its moves
//
// 1. Scan: each position gets the best value its moves out of the tier give (terminal
//    positions and child tiers, already solved): a win is stored at once, pending
//    shorter in-tier wins; without one, the cell counts its distinct in-tier successors.
// 2. Levels d = 0, 1, 2, ...: every cell holding a win or loss of depth exactly d is
//    final. A loss in d makes each undecided in-tier predecessor a win in d+1 (or
//    lowers a longer pending win); a win in d decrements each undecided predecessor's
//    count, and the decrement that reaches zero decides the predecessor: a loss in
//    1 + d, or what its moves out of the tier give if that is better (a longer loss or a
//    draw), recomputed then rather than stored.
// 3. Cells still undecided are draws.
//
// A tier without a move that stays in it (a mill game's placement tiers: every move
// places a stone) is decided whole by the scan: the levels are skipped, since they
// could neither lower a win nor decide a cell. Where the game offers a walk of such a
// tier for its children (core/game.h, WalksForChildren), the scan follows it.
//
// The cells of a level are found in per-thread lists of the indices decided at each
// depth (fast, 4 bytes per decided position; tiers of up to 2^32 indices), or, where
// the memory budget or the tier's size does not allow the lists, by rescanning every
// cell at every level (no extra memory).
//
// Successors and predecessors are counted as distinct indices: a position whose two
// moves reach symmetric positions has one successor index, and that index lists it once
// among its predecessors. Updates within a level use atomic compare-and-swap on the
// cells; every outcome is independent of thread timing, so files are byte-identical for
// any thread count.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/block_list.h"
#include "core/distinct.h"
#include "core/error.h"
#include "core/game.h"
#include "core/page_memory.h"
#include "core/parallel.h"
#include "core/progress.h"
#include "core/radix_sort.h"
#include "core/tier_walk.h"
#include "db/database.h"
#include "db/tier_values.h"

namespace gs::retro {

inline constexpr ValueCode kCounting = kCodeLimit;

// The best value of a position's moves out of its tier while the position is
// undecided: no such move, a draw, or a loss in up to 252 plies; anything else (a
// deeper loss) is recomputed when needed. A position may have up to 127 in-tier
// successors (a flying mill player has 4 x 20).
struct Summary {
  static constexpr ValueCode kNone = 0;
  static constexpr ValueCode kDraw = 1;
  static constexpr ValueCode kRecompute = 255;
  static constexpr ValueCode kCountMask = 127;
  static constexpr int kShift = 7;

  static ValueCode encode(const std::optional<Value>& best, std::size_t count) {
    ValueCode summary = kRecompute;
    if (!best) {
      summary = kNone;
    } else if (best->is_draw()) {
      summary = kDraw;
    } else if (best->is_loss() && best->depth() + 2 < kRecompute) {
      summary = static_cast<ValueCode>(best->depth() + 2);
    }
    if (count > kCountMask) fail("a position has {} successors in its tier, more than {}", count, kCountMask);
    return static_cast<ValueCode>(kCounting | summary << kShift | count);
  }
  static ValueCode count(ValueCode cell) { return cell & kCountMask; }
  static ValueCode summary(ValueCode cell) { return static_cast<ValueCode>((cell & ~kCounting) >> kShift); }
  static std::optional<Value> best(ValueCode summary) {
    if (summary == kNone) return std::nullopt;
    if (summary == kDraw) return Value::draw();
    return Value::loss(static_cast<Depth>(summary - 2));
  }
};

struct SolveOptions {
  int threads = default_threads();
  bool quiet = false;
  bool level_lists = true;  // false: find each level's cells by a rescan
};

template <Game G>
class TierSolver {
 public:
  using Position = typename G::Position;

  TierSolver(const G& game, db::Database& database, Tier tier, SolveOptions options)
      : game_(game), tier_(tier), options_(options) {
    for (const Tier child : game.children(tier)) {
      const db::TierReader* reader = database.find(game, child);
      if (reader == nullptr) {
        fail("tier {} needs tier {}, which is not built", game.tier_name(tier), game.tier_name(child));
      }
      if (!reader->header().depths()) {
        fail("tier {} needs the depths of tier {}, but {} keeps wins, draws and losses only",
             game.tier_name(tier), game.tier_name(child), reader->path());
      }
      children_.push_back({db::TierValues::load(child, *reader, std::max(options_.threads, 1))});
    }
    // Looked up by tier for every move that leaves the tier.
    std::sort(children_.begin(), children_.end(),
              [](const Child& a, const Child& b) { return a.tier < b.tier; });
  }

  // Memory the solve needs beyond the child tiers' mapped files, at most: with level
  // lists, each index is listed once, and the level being sorted is listed twice.
  static std::uint64_t working_bytes(const G& game, Tier tier, bool level_lists) {
    return game.size(tier) * (sizeof(ValueCode) + (level_lists ? 2 * sizeof(ListedIndex) : 0));
  }
  // Whether level lists can hold the tier's indices.
  static bool lists_fit(const G& game, Tier tier) {
    return game.size(tier) <= std::numeric_limits<ListedIndex>::max();
  }

  // Solves the tier; returns one value code per index (kHoleCode for holes).
  std::vector<ValueCode> solve() {
    const Index size = game_.size(tier_);
    assign_on_huge_pages(cells_, size, kHoleCode);  // updated at random places
    const auto threads = static_cast<std::size_t>(std::max(options_.threads, 1));
    decided_.clear();
    decided_.resize(threads);
    // Blocks of about a 4096th of the tier (4 KiB to 64 KiB): few blocks a list, and
    // little held in the part-filled last block of each depth's list.
    const std::size_t block_keys = std::clamp<std::size_t>(std::bit_ceil(size / 4096 + 1), 1024, 16384);
    pools_.clear();
    for (std::size_t t = 0; t < threads; ++t) pools_.emplace_back(block_keys);
    scratch_ = std::vector<Scratch>(threads);
    Index walk = 0;  // the length of the game's walk for the children, if it has one
    if constexpr (WalksForChildren<G>) walk = game_.child_walk_size(tier_);
    walk_stays_ = false;
    if constexpr (WalkMayStay<G>) walk_stays_ = walk > 0 && game_.child_walk_stays(tier_);
    lists_ = options_.level_lists && (walk == 0 || walk_stays_);
    alone_ = options_.threads <= 1;
    walking_ = walk > 0;
    Progress progress(game_.tier_name(tier_), walk > 0 ? walk : size, options_.quiet);
    progress.set_stage("scan");
    if (walk > 0) {
      // The scan follows the order the game gives, where successive positions read
      // their children's values from nearby cells instead of from all over the child
      // tiers. Where no move stays in the tier, it decides every cell: no level follows,
      // so nothing is listed.
      if constexpr (WalksForChildren<G>) {
        parallel_for(0, walk, options_.threads, kChunk, [&](Index begin, Index end, int thread) {
          auto visit = [&](Index i, const Position& pos) { begin_scan(i, pos, thread); };
          if constexpr (SolvesWalk<G>) {
            // The game solves what it can of the walk from the child tiers' values.
            game_.solve_walk(
                tier_, begin, end, [this](Tier t) { return ChildReader{&child_of(t)}; },
                WalkSolved{this, thread}, visit);
          } else {
            game_.child_walk(tier_, begin, end, visit);
          }
          finish_scan(thread);
          progress.add(end - begin);
        });
      }
      if (stays_.load() && !walk_stays_)
        fail("tier {}: a move stays in the tier, which the game walks as one no move stays in",
             game_.tier_name(tier_));
    } else {
      parallel_for(0, size, options_.threads, kChunk, [&](Index begin, Index end, int thread) {
        for_each_position(game_, tier_, begin, end,
                          [&](Index i, const Position& pos) { begin_scan(i, pos, thread); });
        finish_scan(thread);
        progress.add(end - begin);
      });
    }
    // Without an in-tier move, every cell is decided and no win can be lowered.
    const bool levels = stays_.load();
    for (Depth level = 0; levels && level <= max_depth_.load(); ++level) {
      progress.set_stage(fmt::format("depth {}", level));
      const ValueCode win = Value::win(level).code();
      const ValueCode loss = Value::loss(level).code();
      if (lists_) {
        // The level's cells, gathered before the threads add to the lists again. An
        // index listed for a win that was lowered since holds another code: skipped.
        // In index order, neighbouring cells are near in the tier, and so are their
        // predecessors' (those reached by a king's step share the men's part of the index),
        // and a game may reuse what it decoded of the previous position. Each thread's
        // list is sorted into place from its blocks on a thread of its own: done in one
        // piece, the gathering and sorting held the other threads idle at every level.
        const std::size_t parts = decided_.size();
        std::vector<std::size_t> offset(parts + 1, 0);
        for (std::size_t t = 0; t < parts; ++t)
          offset[t + 1] = offset[t] + (decided_[t].size() > level ? decided_[t][level].size() : 0);
        // Not zeroed: every entry is sorted in. Each list's blocks go back to its thread's
        // pool once read (reused by the lists that grow next, without a trip to the
        // kernel), and each part's sorting buffer is freed once sorted, so the level is
        // held at most twice over.
        const auto current = std::make_unique_for_overwrite<ListedIndex[]>(offset[parts]);
        const int bits = key_bits(size);
        parallel_for(0, parts, options_.threads, 1, [&](Index begin, Index end, int) {
          for (Index t = begin; t < end; ++t) {
            auto& lists = decided_[t];
            if (lists.size() <= level) continue;
            radix_sort_into(lists[level], pools_[t],
                            std::span(current.get() + offset[t], offset[t + 1] - offset[t]), bits,
                            kRadixDigit);
          }
        });
        parallel_for(
            0, offset[parts], options_.threads, kChunk / 16, [&](Index begin, Index end, int thread) {
              for (Index k = begin; k < end; ++k) {
                // The listed cells are scattered over the tier: load a few ahead.
                if (k + kLookAhead < end) __builtin_prefetch(&cells_[current[k + kLookAhead]]);
                const ValueCode code = std::atomic_ref(cells_[current[k]]).load(std::memory_order_relaxed);
                if (code == win || code == loss) gather(current[k], code == loss, thread);
                if (batch_full(thread)) propagate(level, thread);
              }
              propagate(level, thread);
            });
        continue;
      }
      parallel_for(0, size, options_.threads, kChunk, [&](Index begin, Index end, int thread) {
        for (Index block = begin; block < end; block += kBlock) {
          const Index block_end = std::min(end, block + kBlock);
          // Most blocks hold no cell of this level: test a block at once (vectorized)
          // before looking at its cells one by one. The cells of this level do not
          // change during the level, so the racy read finds them all.
          if (!holds_level(block, block_end, win, loss)) continue;
          for (Index i = block; i < block_end; ++i) {
            const ValueCode code = std::atomic_ref(cells_[i]).load(std::memory_order_relaxed);
            if (code == win || code == loss) gather(i, code == loss, thread);
          }
          if (batch_full(thread)) propagate(level, thread);
        }
        propagate(level, thread);
      });
    }
    decided_.clear();
    pools_.clear();
    scratch_.clear();
    for (ValueCode& cell : cells_) {
      if (cell >= kCounting) cell = kDrawCode;
    }
    return std::move(cells_);
  }

 private:
  static constexpr Index kChunk = 1 << 14;
  using ListedIndex = std::uint32_t;
  static constexpr Index kBlock = 64;
  static constexpr Index kLookAhead = 8;
  // Predecessors gathered before a batch is propagated: enough cells in flight to hide the
  // memory's latency, few enough to stay in the first-level cache.
  static constexpr std::size_t kBatchPredecessors = 256;
  // Positions scanned before their successors' values are read (begin_scan).
  static constexpr std::size_t kScanBatch = 16;

  bool holds_level(Index begin, Index end, ValueCode win, ValueCode loss) const {
    unsigned found = 0;
    for (Index i = begin; i < end; ++i) {
      const ValueCode code = std::atomic_ref(cells_[i]).load(std::memory_order_relaxed);
      found |= static_cast<unsigned>(code == win) | static_cast<unsigned>(code == loss);
    }
    return found != 0;
  }

  // A child tier's values (db/tier_values.h), which must all be there.
  struct Child : db::TierValues {
    [[nodiscard]] Value value(Index index) const { return Value::from_code(value_code(index)); }
    [[nodiscard]] ValueCode value_code(Index index) const {
      const ValueCode stored = code(index);
      if (stored == kHoleCode || stored >= kCodeLimit) {
        fail("{}: index {} holds no value (corrupt file?)", reader->path(), index);
      }
      return stored;
    }
  };

  // A child tier's values as the game reads them in solve_walk.
  struct ChildReader {
    const Child* child;
    ValueCode operator()(Index index) const { return child->value_code(index); }
    void prefetch(Index index) const { child->prefetch(index); }
  };

  // Where the game's solve_walk puts the values it finds: the cells, written at
  // scattered places, so the game hints at each index a little before it is solved.
  struct WalkSolved {
    TierSolver* solver;
    int thread;
    void operator()(Index index, Value value) const {
      solver->cells_[index] = value.code();
      solver->decided(index, value, thread);
    }
    void prefetch(Index index) const { __builtin_prefetch(&solver->cells_[index], 1); }
  };

  // What examine learns of a position before reading its successors' values in the child
  // tiers: the best value of the moves that end the game (or of having no move), the
  // count, and where the position's successors in child tiers end in the thread's list.
  struct Examined {
    ValueCode best_code = kHoleCode;
    std::size_t count = 0;
    std::size_t outside_end = 0;
  };

  // The lists of the inner loops, one set per thread: made once, since a list's
  // construction zeroes all of its capacity (several KiB for a move list).
  struct Scratch {
    MoveList<G> moves;
    SmallVector<Index, G::kMaxMoves> inside;  // ranked in-tier successors
    // Successors in child tiers, read after all of a batch of positions are ranked and
    // their cells prefetched: the reads are scattered over large tiers, so they are
    // started together.
    std::vector<std::pair<const Child*, Index>> outside;
    // The batch of positions being scanned: index, and what examine learnt before reading.
    std::vector<std::pair<Index, Examined>> scanned;
    SuccessorList<G> successors;  // where the game ranks them (RanksMovesLeavingTier)
    UnmoveList<G> unmoves;
    SmallVector<Index, G::kMaxUnmoves> predecessors;
    // The batch being propagated: the predecessors of its cells, and per cell where its
    // predecessors end and whether it is a loss.
    std::vector<Index> batch;
    std::vector<std::pair<std::size_t, bool>> batch_ends;
  };

  // The best value the moves leaving the tier give (terminal positions and child
  // tiers), and the number of distinct in-tier successors.
  // (The best value travels as its code, kHoleCode for none: an optional<Value>
  // returned in a register is put together from parts stored a byte at a time, which the
  // processor cannot forward to the load that reads them back.)
  struct Outside {
    ValueCode best_code = kHoleCode;
    std::size_t count = 0;
    [[nodiscard]] std::optional<Value> best() const {
      return best_code == kHoleCode ? std::nullopt : std::optional<Value>(Value::from_code(best_code));
    }
  };

  Outside examine(const Position& pos, int thread) {
    scratch_[static_cast<std::size_t>(thread)].outside.clear();
    return finish_examine(begin_examine(pos, thread), 0, thread);
  }

  // Ranks pos's successors: those in child tiers are appended to the thread's list and
  // their values prefetched, to be read by finish_examine.
  Examined begin_examine(const Position& pos, int thread) {
    std::optional<Value> best;
    Scratch& scratch = scratch_[static_cast<std::size_t>(thread)];
    SmallVector<Index, G::kMaxMoves>& inside = scratch.inside;
    inside.clear();
    auto& outside = scratch.outside;
    const Child* child = nullptr;  // the last child tier reached
    Tier child_tier = tier_;
    auto reached = [&](const Ranked& ranked) {
      if (ranked.tier == tier_) {
        inside.push_back(ranked.index);
        return;
      }
      if (ranked.tier != child_tier) {
        child = &child_of(ranked.tier);
        child_tier = ranked.tier;
      }
      child->prefetch(ranked.index);
      outside.push_back({child, ranked.index});
    };
    auto ended = [&](Value value) {
      const Value mine = value.before_move();
      if (!best || mine.better_than(*best)) best = mine;
    };
    // Where the game can tell, moves that stay in the tier from a position without
    // symmetry lead to distinct indices: they are counted without ranking.
    std::size_t unranked = 0;
    bool no_move = false;
    bool played = true;
    if constexpr (RanksMovesLeavingTier<G>) {
      SuccessorList<G>& successors = scratch.successors;
      auto take = [&] {
        played = false;
        for (const Successor& next : successors) {
          if (next.terminal == kHoleCode) {
            reached(next.ranked);
          } else {
            ended(Value::from_code(next.terminal));
          }
        }
        no_move = successors.empty();
      };
      // A position of a tier walked with no move that stays in it has no two moves
      // that meet in the tier, so its symmetry does not matter.
      if ((walking_ && !walk_stays_) || !game_.has_symmetry(pos)) {
        unranked = game_.rank_moves_leaving_tier(pos, successors);
        take();
      } else if constexpr (RanksMoves<G>) {
        // Moves that stay may meet: every one ranked, the duplicates removed below.
        game_.rank_moves(pos, successors);
        take();
      }
    }
    if (played) {
      MoveList<G>& moves = scratch.moves;
      unranked = for_each_move_to_play(game_, pos, moves, [&](const auto& move) {
        const Position next = game_.play(pos, move);
        const std::optional<Value> value = game_.terminal(next);
        if (value) {
          ended(*value);
        } else {
          reached(game_.rank(next));
        }
      });
      no_move = moves.empty();
    }
    Examined result;
    result.count =
        unranked + static_cast<std::size_t>(unique_short(inside.begin(), inside.end()) - inside.begin());
    // Without a move, no successor was reached either.
    if (no_move && unranked == 0) best = game_.no_move_value();
    if (best) result.best_code = best->code();
    result.outside_end = outside.size();
    return result;
  }

  // Reads the values of the successors in child tiers that begin_examine listed from
  // `outside_begin` on, and completes what it learnt.
  Outside finish_examine(const Examined& examined, std::size_t outside_begin, int thread) const {
    const auto& outside = scratch_[static_cast<std::size_t>(thread)].outside;
    Outside result{examined.best_code, examined.count};
    std::optional<Value> best = result.best();
    for (std::size_t k = outside_begin; k < examined.outside_end; ++k) {
      const Value mine = outside[k].first->value(outside[k].second).before_move();
      if (!best || mine.better_than(*best)) best = mine;
    }
    if (best) result.best_code = best->code();
    return result;
  }

  // A child tier; fails for a tier that is not a child.
  const Child& child_of(Tier tier) const {
    const auto child = std::lower_bound(children_.begin(), children_.end(), tier,
                                        [](const Child& c, Tier t) { return c.tier < t; });
    if (child != children_.end() && child->tier == tier) return *child;
    fail("a move from tier {} leads to tier {}, which is not among its children", game_.tier_name(tier_),
         game_.tier_name(tier));
  }

  // The scan runs in batches of positions: each position's successors in child tiers
  // are ranked and prefetched (begin_scan), and read once the batch is full
  // (finish_scan), so that the scattered reads of many positions are on their way at once.
  void begin_scan(Index index, const Position& pos, int thread) {
    // A walk writes its cells at scattered places: the line comes in while the moves
    // are examined.
    if (walking_) __builtin_prefetch(&cells_[index], 1);
    Scratch& scratch = scratch_[static_cast<std::size_t>(thread)];
    if (const std::optional<Value> value = game_.terminal(pos)) {
      cells_[index] = value->code();
      decided(index, *value, thread);
      return;
    }
    if constexpr (KnowsWinsAtOnce<G>) {
      // The shortest win, which no move of the tier changes: its moves are not examined.
      if (game_.wins_at_once(pos)) {
        const Value win = Value::loss(0).before_move();
        cells_[index] = win.code();
        decided(index, win, thread);
        return;
      }
    }
    scratch.scanned.push_back({index, begin_examine(pos, thread)});
    if (scratch.scanned.size() == kScanBatch) finish_scan(thread);
  }

  void finish_scan(int thread) {
    Scratch& scratch = scratch_[static_cast<std::size_t>(thread)];
    std::size_t outside_begin = 0;
    for (const auto& [index, examined] : scratch.scanned) {
      const Outside outside = finish_examine(examined, outside_begin, thread);
      outside_begin = examined.outside_end;
      if (outside.count > 0 && !stays_.load(std::memory_order_relaxed))
        stays_.store(true, std::memory_order_relaxed);
      const std::optional<Value> best = outside.best();
      if (!best || (!best->is_win() && outside.count > 0)) {
        cells_[index] = Summary::encode(best, outside.count);
        continue;
      }
      cells_[index] = best->code();
      decided(index, *best, thread);
    }
    scratch.scanned.clear();
    scratch.outside.clear();
  }

  // Notes a win or loss set in a cell: the level of its depth must process it.
  void decided(Index index, Value value, int thread) {
    if (value.is_draw()) return;
    const Depth depth = value.depth();
    if (depth > kMaxDepth)
      fail("tier {}: depth {} exceeds the limit {}", game_.tier_name(tier_), depth, kMaxDepth);
    Depth seen = max_depth_.load(std::memory_order_relaxed);
    while (seen < depth && !max_depth_.compare_exchange_weak(seen, depth)) {
    }
    if (!lists_) return;
    auto& lists = decided_[static_cast<std::size_t>(thread)];
    if (lists.size() <= depth) lists.resize(depth + 1U);
    lists[depth].push_back(static_cast<ListedIndex>(index), pools_[static_cast<std::size_t>(thread)]);
  }

  // A level's cells are propagated in batches: the predecessors of a batch of cells are
  // ranked and their cells prefetched (gather), then updated together (propagate), so
  // that the scattered cells of many positions are on their way at once rather than one
  // position's few. Within a level the updates commute, so the batching changes no value.
  void gather(Index index, bool lost, int thread) {
    const Position pos = *game_.unrank(tier_, index);
    Scratch& scratch = scratch_[static_cast<std::size_t>(thread)];
    SmallVector<Index, G::kMaxUnmoves>& indices = scratch.predecessors;
    // A predecessor that wins at once was decided by the scan for good: left out where
    // the game can tell (a win in one is neither lowered nor counted down).
    const Index* last =
        distinct_predecessors<true>(game_, tier_, pos, indices, scratch.unmoves, cells_.data());
    scratch.batch.insert(scratch.batch.end(), static_cast<const Index*>(indices.begin()), last);
    scratch.batch_ends.push_back({scratch.batch.size(), lost});
  }
  [[nodiscard]] bool batch_full(int thread) const {
    return scratch_[static_cast<std::size_t>(thread)].batch.size() >= kBatchPredecessors;
  }
  void propagate(Depth level, int thread) {
    Scratch& scratch = scratch_[static_cast<std::size_t>(thread)];
    std::size_t q = 0;
    for (const auto& [end, lost] : scratch.batch_ends) {
      for (; q < end; ++q) {
        if (lost) {
          make_win(scratch.batch[q], static_cast<Depth>(level + 1), thread);
        } else {
          count_down(scratch.batch[q], level, thread);
        }
      }
    }
    scratch.batch.clear();
    scratch.batch_ends.clear();
  }

  // Replaces a cell's code, read as `code`, by `desired`; false (code reloaded) where
  // another thread changed the cell first. On one thread nothing else writes the cells:
  // a plain store does, where a compare-and-swap would hold back the loads behind it.
  bool replace(Index index, ValueCode& code, ValueCode desired) {
    if (alone_) {
      cells_[index] = desired;
      return true;
    }
    return std::atomic_ref(cells_[index]).compare_exchange_weak(code, desired, std::memory_order_relaxed);
  }

  void make_win(Index index, Depth depth, int thread) {
    const ValueCode target = Value::win(depth).code();
    ValueCode code = std::atomic_ref(cells_[index]).load(std::memory_order_relaxed);
    while (code >= kCounting || (code > target && (code & 1U) == 0)) {
      if (replace(index, code, target)) {
        decided(index, Value::win(depth), thread);
        return;
      }
    }
  }

  void count_down(Index index, Depth level, int thread) {
    ValueCode code = std::atomic_ref(cells_[index]).load(std::memory_order_relaxed);
    while (code >= kCounting) {
      if (Summary::count(code) > 1) {
        if (replace(index, code, static_cast<ValueCode>(code - 1))) return;
        continue;
      }
      // The last unknown successor is a win for the opponent: the position is decided.
      Value value = Value::loss(static_cast<Depth>(level + 1));
      const ValueCode summary = Summary::summary(code);
      const std::optional<Value> best = summary == Summary::kRecompute
                                            ? examine(*game_.unrank(tier_, index), thread).best()
                                            : Summary::best(summary);
      if (best && best->better_than(value)) value = *best;
      // (A spurious failure only examines the position again.)
      if (replace(index, code, value.code())) {
        decided(index, value, thread);
        return;
      }
    }
  }

  const G& game_;
  Tier tier_;
  SolveOptions options_;
  std::vector<Child> children_;
  std::vector<ValueCode> cells_;
  std::atomic<Depth> max_depth_{0};
  std::atomic<bool> stays_{false};  // a position of the tier has a move that stays in it
  bool lists_ = true;               // decided cells are listed for the levels
  bool alone_ = false;              // one thread solves the tier
  bool walking_ = false;            // the scan follows the game's walk for children
  bool walk_stays_ = false;         // a move of the walked tier may stay in it
  // Per thread, per depth: the indices decided at that depth and not yet processed, in
  // blocks from the thread's pool.
  std::vector<std::vector<BlockList>> decided_;
  std::vector<BlockPool> pools_;
  std::vector<Scratch> scratch_;  // per thread
};

}  // namespace gs::retro
