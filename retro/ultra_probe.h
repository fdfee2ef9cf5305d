#pragma once
// Reading ultra values of single positions (probe, play, the explorer and the match
// harness; docs/ULTRA.md). A tier's file is read whole into memory the first time one of
// its positions is asked for.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/error.h"
#include "core/game.h"
#include "db/database.h"
#include "db/ultra_file.h"
#include "retro/ultra_build.h"
#include "retro/ultra_heuristic.h"
#include "retro/ultra_value.h"

namespace gs::retro {

// The heuristic whose ultra databases are beside the strong ones: ratio where both are.
inline std::optional<UltraHeuristic> ultra_available(const db::Location& location) {
  for (const UltraHeuristic h : {UltraHeuristic::kRatio, UltraHeuristic::kStones}) {
    std::error_code ignored;
    if (std::filesystem::exists(ultra_directory(location, h) / "ranks.txt", ignored)) return h;
  }
  return std::nullopt;
}

template <Game G>
requires HasSectors<G>
class UltraProber {
 public:
  using Position = typename G::Position;

  UltraProber(const G& game, db::Location location, UltraHeuristic heuristic)
      : game_(game), location_(std::move(location)), heuristic_(heuristic) {
    directory_ = ultra_directory(location_, heuristic);
    std::string text;
    int pieces = 0;
    ranks_ = read_ranks(directory_, text, pieces);
    checksum_ = db::ultra_text_checksum(text);
  }

  [[nodiscard]] const SectorRanks& ranks() const { return ranks_; }
  [[nodiscard]] UltraHeuristic heuristic() const { return heuristic_; }

  // A position's stored (relative) value and its sector's rank; a terminal position's
  // value with rank 0 (its key absolute). nullopt: its tier has no ultra file.
  struct Lookup {
    UltraValue value;
    std::int32_t rank = 0;
  };
  std::optional<Lookup> lookup(const Position& pos) {
    if (const std::optional<Value> over = game_.terminal(pos))
      return Lookup{{ultra_absolute(*over, ranks_.win), 0}, 0};
    const Ranked ranked = game_.rank(pos);
    const UltraTier* tier = load(ranked.tier);
    if (tier == nullptr) return std::nullopt;
    const std::uint32_t cell = tier->cells.at(ranked.index);
    if (cell == kUltraHole)
      fail("tier {} index {} is a hole in its ultra file", game_.tier_name(ranked.tier), ranked.index);
    return Lookup{UltraValue::unpack(cell), tier->sectors.rank(ranked.index)};
  }

  // The value at pos (not terminal) of the move leading to next, relative to pos's sector.
  std::optional<UltraValue> move_value(const Position& pos, const Position& next) {
    const std::optional<Lookup> self = lookup(pos);
    const std::optional<Lookup> after = lookup(next);
    if (!self || !after) return std::nullopt;
    return ultra_before_move(after->value, after->rank, self->rank);
  }

  // "draw of rank 3 (sector 6-3-0-0), depth -2", or the strong text of a win or loss.
  [[nodiscard]] std::string text(UltraValue value, std::int32_t rank) const {
    return ultra_text(game_, value, rank, ranks_);
  }

 private:
  const UltraTier* load(Tier tier) {
    const std::lock_guard lock(mutex_);
    if (const UltraTier* found = tables_.find(tier)) return found;
    const std::filesystem::path path = directory_ / (game_.tier_name(tier) + std::string(db::kUltraSuffix));
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) return nullptr;
    load_ultra_tier(game_, directory_, location_, tier, ranks_, checksum_, tables_);
    return tables_.find(tier);
  }

  const G& game_;
  db::Location location_;
  UltraHeuristic heuristic_;
  std::filesystem::path directory_;
  SectorRanks ranks_;
  std::uint64_t checksum_ = 0;
  std::mutex mutex_;
  UltraTables tables_;
};

}  // namespace gs::retro
