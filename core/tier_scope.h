#pragma once
// Which tiers a command covers (build, verify, compress, stats): every tier up to a
// piece count, with all the tiers they depend on, or only the tiers the game's start
// position needs (the closure of its tier's children), or named tiers with the tiers
// they depend on.
#include <string>
#include <utility>
#include <vector>

namespace gs {

struct TierScope {
  // Every tier up to this many pieces (the game's tiers(pieces) and their children).
  // Implicit, so that a piece count names its scope.
  TierScope(int up_to = 4) : pieces(up_to) {}  // NOLINT(google-explicit-constructor)

  // The start position's tier and its descendants.
  [[nodiscard]] static TierScope start() { return of(4, true); }
  // Up to `up_to` pieces, or (from_start_only) the start's tiers, as the command line says.
  [[nodiscard]] static TierScope of(int up_to, bool from_start_only) {
    TierScope scope(up_to);
    scope.from_start = from_start_only;
    return scope;
  }
  // The named tiers and their descendants (names as the game writes them); none: as of().
  [[nodiscard]] static TierScope of(int up_to, bool from_start_only, std::vector<std::string> tier_names) {
    TierScope scope = of(up_to, from_start_only);
    scope.named = std::move(tier_names);
    return scope;
  }

  int pieces;
  // Only the start position's tier and its descendants; `pieces` is not used.
  bool from_start = false;
  // Where not empty: only these tiers and their descendants; `pieces` is not used.
  std::vector<std::string> named;
};

}  // namespace gs
