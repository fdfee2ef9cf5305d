#pragma once
// The databases of one game variant under a data directory:
// <data>/<game>/<variant>[,<rule options>]/<tier name>.gsdb, opened on first use and
// kept open. Safe to call from many threads.
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/error.h"
#include "core/game.h"
#include "db/tier_file.h"

namespace gs::db {

struct Location {
  std::filesystem::path data;
  std::string game;
  std::string variant;
  std::string rules;

  template <Game G>
  static Location of(const G& game, const std::filesystem::path& data) {
    return {data, std::string(G::kName), game.variant(), game.rule_text()};
  }
  [[nodiscard]] std::filesystem::path directory() const {
    return data / game / (rules.empty() ? variant : variant + "," + rules);
  }
  [[nodiscard]] std::filesystem::path file(const std::string& tier_name) const {
    return directory() / (tier_name + std::string(kFileSuffix));
  }
  [[nodiscard]] Expected expected(Tier tier, std::uint64_t positions) const {
    return {game, variant, rules, tier, positions};
  }
};

class Database {
 public:
  explicit Database(Location location, bool check_values = true)
      : location_(std::move(location)), check_values_(check_values) {}

  [[nodiscard]] const Location& location() const { return location_; }

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

  // Drops an open reader, so that a rebuilt file is read afresh.
  void forget(Tier tier) {
    const std::lock_guard lock(mutex_);
    open_.erase(tier);
  }

 private:
  Location location_;
  bool check_values_;
  std::mutex mutex_;
  std::unordered_map<Tier, std::unique_ptr<TierReader>> open_;
};

// The value of a position from the databases: the rules' value if the game is over,
// nullopt if the position's tier has no database.
template <Game G>
std::optional<Value> probe(const G& game, Database& database, const typename G::Position& pos) {
  if (auto value = game.terminal(pos)) return value;
  const Ranked ranked = game.rank(pos);
  const TierReader* reader = database.find(game, ranked.tier);
  if (reader == nullptr) return std::nullopt;
  const ValueCode code = reader->code(ranked.index);
  if (code == kHoleCode || code >= kCodeLimit) {
    fail("{}: index {} of tier {} holds no value (corrupt file?)",
         database.location().file(game.tier_name(ranked.tier)).string(), ranked.index,
         game.tier_name(ranked.tier));
  }
  return Value::from_code(code);
}

}  // namespace gs::db
