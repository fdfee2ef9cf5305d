#pragma once
// Values of the multi-valued retrograde analysis (ultra-strong solutions, docs/ULTRA.md).
//
// Every sector (core/game.h, HasSectors) has a heuristic rank h, for the side to move,
// with twins at opposite ranks. The absolute first key of a position, for the side to
// move, is +M for a win, -M for a loss (M: one more than the largest |h|), and for a
// draw the rank of the sector that perfect play finally stays in (0 for a draw the rules
// declare). What is stored is relative: key = absolute - h(position's sector), so a
// "stable" draw, one that perfect play can keep inside its tier, has key 0 and needs no
// value of its own (a count-state). The second key, depth, is the generalized depth:
// with a positive key the side to move minimizes it, with a negative key maximizes it;
// key 0 has none (stored 0).
//
// Moving from p to q (q's sector h_q, p's sector h_p): q's key k_q is made absolute
// (k_q + h_q), negated (the other side moves at q) and made relative to p
// (-(k_q + h_q) - h_p). A move that keeps the tier leads into the twin sector, so this
// is plain negation there. The depth is q's depth plus one, after negating q's depth
// when the adjustment (not the negation) flips the sign of the key.
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/value.h"

namespace gs::retro {

struct UltraValue {
  std::int32_t key = 0;    // relative first key
  std::int32_t depth = 0;  // generalized depth (0 where key is 0)
  bool operator==(const UltraValue&) const = default;

  // Whether the side to move prefers this value to other (both relative to the same sector).
  [[nodiscard]] constexpr bool better_than(const UltraValue& other) const {
    if (key != other.key) return key > other.key;
    if (key > 0) return depth < other.depth;
    if (key < 0) return depth > other.depth;
    return false;
  }

  // Packed in 32 bits: the key in the high half, the depth in the low half.
  [[nodiscard]] constexpr std::uint32_t packed() const {
    return static_cast<std::uint32_t>(static_cast<std::uint16_t>(key)) << 16 |
           static_cast<std::uint16_t>(depth);
  }
  static constexpr UltraValue unpack(std::uint32_t bits) {
    return {static_cast<std::int16_t>(bits >> 16), static_cast<std::int16_t>(bits & 0xFFFFU)};
  }
};

// The largest |key| and |depth| a packed value holds; beyond them a solve fails.
inline constexpr std::int32_t kUltraLimit = std::numeric_limits<std::int16_t>::max() - 1;

constexpr int sign_of(std::int32_t x) { return (x > 0) - (x < 0); }

// The value at p (sector rank h_p) of a move into q (sector rank h_q) whose value is v.
constexpr UltraValue ultra_before_move(UltraValue v, std::int32_t h_q, std::int32_t h_p) {
  const std::int32_t key = -(v.key + h_q) - h_p;
  if (key == 0) return {};
  std::int32_t depth = v.depth;
  if (v.key != 0 && sign_of(-v.key) != sign_of(key)) depth = -depth;
  return {key, depth + 1};
}

// The heuristic ranks of sectors, by sector code, and the win key M.
struct SectorRanks {
  std::string heuristic;              // "ratio", "stones" or a test's name
  std::map<Tier, std::int32_t> rank;  // by sector code
  std::int32_t win = 1;               // M: one more than the largest |rank|

  [[nodiscard]] std::int32_t of(Tier sector) const {
    const auto it = rank.find(sector);
    if (it == rank.end()) fail("sector {} has no heuristic rank", sector);
    return it->second;
  }
  // Sets M from the ranks.
  void finish() {
    win = 1;
    for (const auto& [code, r] : rank) win = std::max(win, (r < 0 ? -r : r) + 1);
    if (2 * win >= kUltraLimit) fail("sector ranks up to {} are too large for the stored keys", win - 1);
  }
};

// The absolute first key of a terminal value (a loss: -M; a draw: 0; a win: M).
inline std::int32_t ultra_absolute(Value value, std::int32_t win) {
  if (value.is_loss()) return -win;
  if (value.is_win()) return win;
  return 0;
}

// The relative value of a position (sector rank h) whose game ended with `value` (a
// terminal position, or one without a legal move): depth 0.
inline UltraValue ultra_terminal(Value value, std::int32_t h, std::int32_t win) {
  const std::int32_t key = ultra_absolute(value, win) - h;
  return {key, 0};
}

// The strong value an ultra value projects to: wins and losses with their depths,
// every other key a draw.
inline Value ultra_strong(UltraValue v, std::int32_t h, std::int32_t win) {
  const std::int32_t absolute = v.key + h;
  if (absolute == win) return Value::win(static_cast<Depth>(v.depth));
  if (absolute == -win) return Value::loss(static_cast<Depth>(v.depth));
  return Value::draw();
}

// A tier's sectors with their ranks, for lookups by index.
struct TierSectors {
  std::vector<SectorRange> ranges;
  std::vector<std::int32_t> ranks;

  template <Game G>
  static TierSectors of(const G& game, Tier tier, const SectorRanks& ranks) {
    TierSectors result;
    result.ranges = game.sectors(tier);
    for (const SectorRange& range : result.ranges) result.ranks.push_back(ranks.of(range.code));
    return result;
  }
  [[nodiscard]] std::size_t sector(Index index) const {
    std::size_t s = 0;
    while (s + 1 < ranges.size() && index >= ranges[s].end) ++s;
    return s;
  }
  [[nodiscard]] std::int32_t rank(Index index) const { return ranks[sector(index)]; }
};

// A text for a value: "win in 5", "loss in 8", or for a draw the rank of its final
// sector (for the side to move) with the sectors of that rank and the generalized depth:
// "draw, rank 112 (sector 6-3-0-0), depth -3".
template <Game G>
std::string ultra_text(const G& game, UltraValue v, std::int32_t h, const SectorRanks& ranks) {
  const Value strong = ultra_strong(v, h, ranks.win);
  if (!strong.is_draw()) return strong.to_string();
  const std::int32_t absolute = v.key + h;
  std::vector<std::string> sectors;
  for (const auto& [code, r] : ranks.rank) {
    if (r == absolute) sectors.push_back(game.sector_name(code));
  }
  std::string where;
  if (sectors.empty()) {
    where = "no sector: a draw by the rules";
  } else if (sectors.size() <= 2) {
    where = "sector " + sectors.front() + (sectors.size() == 2 ? " or " + sectors.back() : "");
  } else {
    where = std::to_string(sectors.size()) + " sectors";
  }
  return "draw, rank " + std::to_string(absolute) + " (" + where + "), depth " + std::to_string(v.depth);
}

}  // namespace gs::retro
