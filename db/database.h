#pragma once
// The databases of one game variant under a data directory (db/location.h), opened on
// first use and kept open, for the retrograde engine and verification (TierReader::code
// reads a child tier at random), and a Prober over the same files for probing positions
// with bounded caches. Safe to call from many threads.
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/error.h"
#include "core/game.h"
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
    auto reader = open_tier(path, location_.expected(tier, game.size(tier)), check_values_);
    return open_.emplace(tier, std::move(reader)).first->second.get();
  }

  // Drops an open reader (and the blocks it decompressed), so that a rebuilt file is read
  // afresh. No other thread may be using the reader.
  void forget(Tier tier) {
    const std::lock_guard lock(mutex_);
    open_.erase(tier);
  }

 private:
  Location location_;
  bool check_values_;
  std::mutex mutex_;
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
