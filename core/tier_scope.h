#pragma once
// Which tiers a command covers (build, verify, compress, stats): every tier up to a
// piece count, with all the tiers they depend on, or only the tiers the game's start
// position needs (the closure of its tier's children).
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

  int pieces;
  // Only the start position's tier and its descendants; `pieces` is not used.
  bool from_start = false;
};

}  // namespace gs
