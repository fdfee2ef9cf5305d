#pragma once
// The two heuristics that give sectors their ranks for the ultra-strong solutions
// (docs/ULTRA.md), after Gévay & Danner:
//
//   stones  the side to move's material minus the opponent's (SectorRange::balance).
//   ratio   from the strong database's wins W, draws D and losses L among the N positions
//           of each sector: a transient sector scores (W - L) / N; a sector A with twin B
//           (the same positions with the sides swapped, in the same tier) scores
//           ((W_A - L_A) / N_A + (L_B - W_B) / N_B) / 2, so that twins score opposite
//           and a symmetric sector scores 0. Draws count through N: a drawish sector
//           scores near 0.
//
// Scores become centred ranks: the distinct non-zero magnitudes |score| are numbered
// 1, 2, ... in increasing order and a sector's rank is its magnitude's number with its
// score's sign. The ranks keep the order of the scores, twins get opposite ranks, and
// symmetric sectors 0; ranks no sector takes are holes in the range.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/value.h"
#include "retro/ultra_value.h"

namespace gs::retro {

enum class UltraHeuristic : std::uint8_t { kRatio, kStones };

inline std::string_view heuristic_name(UltraHeuristic heuristic) {
  return heuristic == UltraHeuristic::kRatio ? "ratio" : "stones";
}
inline UltraHeuristic parse_heuristic(std::string_view text) {
  if (text == "ratio") return UltraHeuristic::kRatio;
  if (text == "stones") return UltraHeuristic::kStones;
  fail("unknown ultra heuristic '{}': expected ratio or stones", text);
}

// A sector's outcomes in the strong database (positions: indices that are not holes).
struct SectorCounts {
  std::uint64_t wins = 0;
  std::uint64_t draws = 0;
  std::uint64_t losses = 0;
  [[nodiscard]] std::uint64_t positions() const { return wins + draws + losses; }
};

// The outcomes per sector of a tier from its strong value codes (holes skipped; `hole`
// tells a hole where the codes fill holes).
template <Game G>
requires HasSectors<G> std::map<Tier, SectorCounts> sector_counts(const G& game, Tier tier,
                                                                  const std::vector<ValueCode>& codes) {
  std::map<Tier, SectorCounts> result;
  for (const SectorRange& range : game.sectors(tier)) {
    SectorCounts& counts = result[range.code];
    for (Index i = range.begin; i < range.end; ++i) {
      const ValueCode code = codes.at(i);
      if (code == kHoleCode || code >= kCodeLimit) continue;
      const Value v = Value::from_code(code);
      if (v.is_win()) {
        ++counts.wins;
      } else if (v.is_loss()) {
        ++counts.losses;
      } else {
        ++counts.draws;
      }
    }
  }
  return result;
}

// Centred ranks of scores (see above), by sector code.
inline std::map<Tier, std::int32_t> centred_ranks(const std::map<Tier, double>& scores) {
  std::vector<double> magnitudes;
  for (const auto& [code, score] : scores) {
    if (score != 0) magnitudes.push_back(std::fabs(score));
  }
  std::sort(magnitudes.begin(), magnitudes.end());
  magnitudes.erase(std::unique(magnitudes.begin(), magnitudes.end()), magnitudes.end());
  std::map<Tier, std::int32_t> ranks;
  for (const auto& [code, score] : scores) {
    if (score == 0) {
      ranks[code] = 0;
      continue;
    }
    const auto place =
        std::lower_bound(magnitudes.begin(), magnitudes.end(), std::fabs(score)) - magnitudes.begin();
    const auto magnitude = static_cast<std::int32_t>(place + 1);
    ranks[code] = score > 0 ? magnitude : -magnitude;
  }
  return ranks;
}

// The ranks of every sector of the given tiers. For the ratio heuristic, counts holds
// each sector's outcomes (sector_counts); the stones heuristic needs none.
template <Game G>
requires HasSectors<G> SectorRanks sector_ranks(const G& game, const std::vector<Tier>& tiers,
                                                UltraHeuristic heuristic,
                                                const std::map<Tier, SectorCounts>& counts = {}) {
  SectorRanks ranks;
  ranks.heuristic = std::string(heuristic_name(heuristic));
  if (heuristic == UltraHeuristic::kStones) {
    for (const Tier tier : tiers) {
      for (const SectorRange& range : game.sectors(tier)) ranks.rank[range.code] = range.balance;
    }
    ranks.finish();
    return ranks;
  }
  auto balance = [&](Tier sector) {
    const auto it = counts.find(sector);
    if (it == counts.end()) fail("sector {} has no outcome counts", game.sector_name(sector));
    const SectorCounts& c = it->second;
    if (c.positions() == 0) return 0.0;
    return (static_cast<double>(c.wins) - static_cast<double>(c.losses)) / static_cast<double>(c.positions());
  };
  std::map<Tier, double> scores;
  for (const Tier tier : tiers) {
    const std::vector<SectorRange> ranges = game.sectors(tier);
    if (ranges.size() == 2) {
      // Computed once and negated, so that the twins' scores are exactly opposite.
      const double score = (balance(ranges[0].code) - balance(ranges[1].code)) / 2;
      scores[ranges[0].code] = score;
      scores[ranges[1].code] = -score;
    } else if (ranges.front().transient) {
      scores[ranges.front().code] = balance(ranges.front().code);
    } else {
      scores[ranges.front().code] = 0;  // its own twin
    }
  }
  ranks.rank = centred_ranks(scores);
  ranks.finish();
  return ranks;
}

}  // namespace gs::retro
