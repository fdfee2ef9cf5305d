#pragma once
// Database probes at the leaves of a search, through the Prober every other reader uses
// (db/prober.h). A position whose tier has a database is a leaf with its exact value;
// one from a win/draw/loss file (no depths) is a leaf with its outcome only, as bounds.
//
// Whether a tier has a file is decided once per search: the Prober looks for a missing
// file again at every probe, which would cost a file-system call per leaf.
#include <optional>
#include <unordered_map>

#include "core/error.h"
#include "core/game.h"
#include "db/database.h"
#include "search/score.h"

namespace gs::search {

template <Game G>
class Databases {
 public:
  Databases(const G& game, db::Database* database) : game_(game), database_(database) {}

  // Bounds on the value of a position that is not over, from its tier's database, or
  // nullopt where the tier has none.
  std::optional<Bounds> probe(const Ranked& ranked) {
    if (database_ == nullptr) return std::nullopt;
    const Kind tier_kind = kind(ranked.tier);
    if (tier_kind == Kind::kNone) return std::nullopt;
    const std::optional<ValueCode> code = database_->prober().value_code(game_, ranked.tier, ranked.index);
    if (!code) return std::nullopt;
    if (*code == kHoleCode || *code >= kCodeLimit) {
      fail("database of tier {}: index {} holds no value (corrupt file?)", game_.tier_name(ranked.tier),
           ranked.index);
    }
    const Value value = Value::from_code(*code);
    return tier_kind == Kind::kDepth ? Bounds::of(value) : Bounds::outcome(value.outcome());
  }

 private:
  enum class Kind : std::uint8_t { kNone, kOutcome, kDepth };

  Kind kind(Tier tier) {
    if (has_last_ && tier == last_tier_) return last_kind_;
    auto it = kinds_.find(tier);
    if (it == kinds_.end()) {
      const db::TierHeader* header = database_->prober().header(game_, tier);
      const Kind found = header == nullptr ? Kind::kNone : header->depths() ? Kind::kDepth : Kind::kOutcome;
      it = kinds_.emplace(tier, found).first;
    }
    has_last_ = true;
    last_tier_ = tier;
    last_kind_ = it->second;
    return last_kind_;
  }

  const G& game_;
  db::Database* database_;
  std::unordered_map<Tier, Kind> kinds_;
  bool has_last_ = false;
  Tier last_tier_ = 0;
  Kind last_kind_ = Kind::kNone;
};

}  // namespace gs::search
