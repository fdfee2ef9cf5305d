#pragma once
// The databases of one game variant under a data directory (db/location.h), opened on
// first use and kept open, for the retrograde engine and verification (TierReader::code
// reads a child tier at random), and a Prober over the same files for probing positions
// with bounded caches. Safe to call from many threads.
//
// A file with derivable don't-cares (db/derivable.h) is read with a resolver: each block
// gets the derived values of its don't-cares when it is decompressed, so the readers of
// find() hand out every position's value (the retrograde engine, verify, compress).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "db/derivable.h"
#include "db/location.h"
#include "db/prober.h"
#include "db/tier_file.h"

namespace gs::db {

class Database {
 public:
  explicit Database(Location location, bool check_values = true, ProberOptions prober = {})
      : location_(std::move(location)), check_values_(check_values), prober_(location_, prober) {}

  [[nodiscard]] const Location& location() const { return location_; }
  // Probing positions: block and position caches, files opened separately from find()'s.
  Prober& prober() { return prober_; }

  // The reader of a tier, or nullptr when its file does not exist. A file that exists
  // but is damaged or belongs to other rules throws gs::Error.
  template <Game G>
  const TierReader* find(const G& game, Tier tier) {
    const std::lock_guard lock(mutex_);
    if (auto it = open_.find(tier); it != open_.end()) return it->second.get();
    const std::filesystem::path path = location_.file(game.tier_name(tier));
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) return nullptr;
    Expected expected = location_.expected(tier, game.size(tier));
    expected.tier_name = [&game](Tier named) { return game.tier_name(named); };
    auto reader = open_tier(path, expected, check_values_, resolver(game, tier));
    if (reader->header().derivable_filled && !HasDerivable<G>)
      fail("{}: holds derivable don't-cares, but game {} derives no position", path.string(), G::kName);
    return open_.emplace(tier, std::move(reader)).first->second.get();
  }

  // The open readers' tiers and the memory each may hold (TierReader::memory_bytes).
  [[nodiscard]] std::vector<std::pair<Tier, std::uint64_t>> open_memory() const {
    const std::lock_guard lock(mutex_);
    std::vector<std::pair<Tier, std::uint64_t>> open;
    for (const auto& [tier, reader] : open_) open.emplace_back(tier, reader->memory_bytes());
    return open;
  }

  // Drops an open reader (and the blocks it decompressed), so that a rebuilt file is read
  // afresh. No other thread may be using the reader.
  void forget(Tier tier) {
    const std::lock_guard lock(mutex_);
    open_.erase(tier);
  }
  // Drops every open reader, and so every block they decompressed.
  void forget_all() {
    const std::lock_guard lock(mutex_);
    open_.clear();
  }

 private:
  // Gives the derivable positions of a block of the tier their values, read from the
  // child tiers through find() (each resolved in turn).
  template <Game G>
  Resolver resolver(const G& game, Tier tier) {
    if constexpr (!HasDerivable<G>) {
      return {};
    } else {
      return [this, game, tier](Index first, std::span<ValueCode> codes) {
        for (std::size_t i = 0; i < codes.size(); ++i) {
          const auto pos = game.unrank(tier, first + i);
          if (!pos || !game.derivable(*pos)) continue;
          const auto value = derive_value(game, *pos, [&](const typename G::Position& next) {
            const Ranked ranked = game.rank(next);
            if (ranked.tier == tier)
              fail("tier {}: a move of a derivable position stays in the tier", game.tier_name(tier));
            const TierReader* child = find(game, ranked.tier);
            if (child == nullptr)
              fail("tier {} needs tier {} to derive its don't-care positions, which is not built",
                   game.tier_name(tier), game.tier_name(ranked.tier));
            const ValueCode code = child->code(ranked.index);
            if (code == kHoleCode || code >= kCodeLimit)
              fail("{}: index {} holds no value (corrupt file?)", child->path(), ranked.index);
            return std::optional(Value::from_code(code));
          });
          codes[i] = value->code();
        }
      };
    }
  }

  Location location_;
  bool check_values_;
  mutable std::mutex mutex_;
  std::unordered_map<Tier, std::unique_ptr<TierReader>> open_;
  Prober prober_;
};

// The value of a position from the databases, through the database's Prober: the
// rules' value if the game is over, nullopt if the position's tier has no database.
template <Game G>
std::optional<Value> probe(const G& game, Database& database, const typename G::Position& pos) {
  return database.prober().probe(game, pos);
}

}  // namespace gs::db
