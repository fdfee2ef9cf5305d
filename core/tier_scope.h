#pragma once
// Which tiers a command covers (build, verify, compress, stats): every tier up to a
// piece count, with all the tiers they depend on, or only the tiers the game's start
// position needs (the closure of its tier's children).
namespace gs {

struct TierScope {
  // Every tier up to this many pieces (the game's tiers(pieces) and their children).
  // Implicit, so that a piece count names its scope.
  TierScope(int up_to = 4) : pieces(up_to) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] static TierScope start() {
    TierScope scope;
    scope.from_start = true;
    return scope;
  }

  int pieces = 4;
  // Only the start position's tier and its descendants; `pieces` is not used.
  bool from_start = false;
};

}  // namespace gs
