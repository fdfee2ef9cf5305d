#pragma once
// Verification of a built tier: every stored value is re-derived from the stored values
// of its successors, found by forward moves (the build finds predecessors by unmoves and
// counts). A win in d needs a successor lost in d-1 and none lost sooner; a loss in d
// needs every successor won, the longest in d-1; a draw needs no successor lost and one
// drawn (or no move where the rules make that a draw). Where a file keeps holes
// (format v1, or v2 without filled holes) they must be exactly the indices without a
// position; filled holes may hold anything.
//
// Where the tier or a child keeps wins, draws and losses only (no depths), outcomes are
// checked alone. That check is local: unlike the check of depths it cannot tell a
// consistent but wrong labelling of a cycle of positions from the truth.
//
// Every index is checked: the inconsistent ones are all counted, and the first few (by
// index) described.
//
// The tier's values and its children's are each decompressed whole before the check
// (their successors are read at random): a tier whose files and images together exceed
// the memory budget is refused with an error, before anything is loaded.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/bytes.h"
#include "core/error.h"
#include "core/game.h"
#include "core/parallel.h"
#include "core/progress.h"
#include "db/database.h"
#include "db/tier_values.h"

namespace gs::retro {

// Positions verified together: their successors' values are prefetched before any is read.
inline constexpr Index kVerifyBatch = 16;

struct Inconsistency {
  Index index = 0;
  std::string position;
  std::string stored;
  std::string expected;
};

// What verify_tier found in a tier.
struct TierVerification {
  std::uint64_t inconsistent = 0;    // indices whose stored value their successors contradict
  std::vector<Inconsistency> first;  // the lowest of them by index, as many as asked for

  [[nodiscard]] bool consistent() const { return inconsistent == 0; }
};

// The tiers verify_tier reads for a tier: the tier itself, then its children.
template <Game G>
std::vector<Tier> tiers_verified_with(const G& game, Tier tier) {
  std::vector<Tier> tiers{tier};
  for (const Tier child : game.children(tier)) tiers.push_back(child);
  return tiers;
}

// Checks every index of a tier against its successors; describes the `keep` lowest
// inconsistent indices. Throws gs::Error where the tier's file or a child's is missing
// or damaged, or where their files and images need more than `memory_bytes`.
template <Game G>
TierVerification verify_tier(const G& game, db::Database& database, Tier tier, int threads, bool quiet,
                             std::size_t keep = 1,
                             std::uint64_t memory_bytes = std::numeric_limits<std::uint64_t>::max()) {
  std::vector<std::pair<Tier, const db::TierReader*>> readers;
  std::uint64_t need = 0;
  for (const Tier t : tiers_verified_with(game, tier)) {
    const db::TierReader* reader = database.find(game, t);
    if (reader == nullptr) {
      if (t == tier) fail("tier {} is not built", game.tier_name(tier));
      fail("tier {} needs tier {}, which is not built", game.tier_name(tier), game.tier_name(t));
    }
    readers.emplace_back(t, reader);
    need += reader->memory_bytes();
  }
  if (need > memory_bytes) {
    fail(
        "verifying tier {} needs {} of memory (its file and its children's, each decompressed whole), over "
        "the budget of {} (--memory)",
        game.tier_name(tier), bytes_text(need), bytes_text(memory_bytes));
  }
  const db::TierReader* self = readers.front().second;
  bool depths = true;
  for (const auto& [t, reader] : readers) depths = depths && reader->header().depths();
  const bool exact_holes = !self->header().holes_filled;
  auto matches = [&](ValueCode stored, const Value& expected) {
    if (depths) return stored == expected.code();
    return stored != kHoleCode && stored < kCodeLimit &&
           Value::from_code(stored).outcome() == expected.outcome();
  };
  auto text = [&](const Value& value) {
    if (depths) return value.to_string();
    return std::string(outcome_name(value.outcome()));
  };
  // Every block of the tier and its children decompressed first, on every thread: the
  // successors' values are then read in place (db/tier_values.h), at random, each
  // prefetched a batch ahead.
  std::vector<db::TierValues> sources;
  for (const auto& [t, reader] : readers)
    sources.push_back(db::TierValues::load(t, *reader, std::max(threads, 1)));
  auto source_of = [&](Tier child) -> const db::TierValues& {
    for (const db::TierValues& source : sources) {
      if (source.tier == child) return source;
    }
    fail("a move from tier {} leads to tier {}, which is not among its children", game.tier_name(tier),
         game.tier_name(child));
  };

  const Index size = game.size(tier);
  // Per thread: a count, and the first `keep` it found (a thread's chunks come in
  // increasing order, so these are its lowest); merged at the end.
  struct Found {
    std::uint64_t count = 0;
    std::vector<Inconsistency> first;
  };
  std::vector<Found> found(static_cast<std::size_t>(std::max(threads, 1)));
  Progress progress("verify " + game.tier_name(tier), size, quiet);
  parallel_for(0, size, threads, 1 << 14, [&](Index begin, Index end, int thread) {
    Found& here = found[static_cast<std::size_t>(thread)];
    // Positions in batches: every successor of a batch is ranked and its value
    // prefetched before any is read.
    struct Pending {
      std::optional<typename G::Position> pos;
      std::optional<Value> expected;    // the best so far (the rules' value, or from successors)
      bool missing = false;             // a successor holds no value
      std::size_t first = 0, last = 0;  // its successors' reads
    };
    std::array<Pending, kVerifyBatch> batch;
    std::vector<std::pair<const db::TierValues*, Index>> reads;
    MoveList<G> moves;
    auto fold = [](Pending& p, const Value& value) {
      const Value mine = value.before_move();
      if (!p.expected || mine.better_than(*p.expected)) p.expected = mine;
    };
    for (Index batch_begin = begin; batch_begin < end; batch_begin += kVerifyBatch) {
      const Index batch_end = std::min<Index>(end, batch_begin + kVerifyBatch);
      reads.clear();
      for (Index i = batch_begin; i < batch_end; ++i) {
        Pending& p = batch[i - batch_begin];
        p = Pending{};
        p.pos = game.unrank(tier, i);
        p.first = p.last = reads.size();
        if (!p.pos) continue;
        p.expected = game.terminal(*p.pos);
        if (p.expected) continue;
        moves.clear();
        game.moves(*p.pos, moves);
        if (moves.empty()) p.expected = game.no_move_value();
        for (const auto& move : moves) {
          const auto next = game.play(*p.pos, move);
          if (const std::optional<Value> value = game.terminal(next)) {
            fold(p, *value);
            continue;
          }
          const Ranked ranked = game.rank(next);
          const db::TierValues& source = source_of(ranked.tier);
          source.prefetch(ranked.index);
          reads.emplace_back(&source, ranked.index);
        }
        p.last = reads.size();
      }
      for (Index i = batch_begin; i < batch_end; ++i) {
        Pending& p = batch[i - batch_begin];
        for (std::size_t r = p.first; r < p.last && !p.missing; ++r) {
          const ValueCode code = reads[r].first->code(reads[r].second);
          if (code == kHoleCode || code >= kCodeLimit) {
            p.missing = true;  // reported below
          } else {
            fold(p, Value::from_code(code));
          }
        }
        if (p.missing) p.expected.reset();
        const ValueCode stored = self->code(i);
        const bool good =
            p.pos ? (p.expected && matches(stored, *p.expected)) : (!exact_holes || stored == kHoleCode);
        if (good) continue;
        ++here.count;
        if (here.first.size() >= keep) continue;
        here.first.push_back(Inconsistency{
            i, p.pos ? game.position_text(*p.pos) : "(no position: a hole)",
            stored == kHoleCode ? "no value"
                                : (stored >= kCodeLimit ? "invalid code" : text(Value::from_code(stored))),
            !p.pos ? "no value" : (p.expected ? text(*p.expected) : "(a successor holds no value)")});
      }
    }
    progress.add(end - begin);
  });
  TierVerification result;
  for (Found& thread_found : found) {
    result.inconsistent += thread_found.count;
    for (Inconsistency& bad : thread_found.first) result.first.push_back(std::move(bad));
  }
  std::sort(result.first.begin(), result.first.end(),
            [](const Inconsistency& a, const Inconsistency& b) { return a.index < b.index; });
  if (result.first.size() > keep) result.first.resize(keep);
  return result;
}

}  // namespace gs::retro
