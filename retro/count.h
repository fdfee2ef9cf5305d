#pragma once
// Counting positions from the rules, without databases: every canonical index of every
// tier stands for the positions of its symmetry class, so a pass over the indices counts
// positions, end positions, positions without a legal move and symmetry classes, per
// piece count, per tier and (for games with HasMaterials) per material; with the size
// of each tier's index and, where the game names one, a published index's.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/parallel.h"
#include "core/progress.h"

namespace gs::retro {

struct PositionCounts {
  std::uint64_t positions = 0;   // positions the classes stand for
  std::uint64_t stalemates = 0;  // non-terminal positions without a legal move
  std::uint64_t terminal = 0;    // positions the rules end (in a tier)
  std::uint64_t classes = 0;     // symmetry classes: indices that are not holes
  std::uint64_t indices = 0;     // the size of the index
  std::uint64_t baseline = 0;    // the size of the published index it is compared with
  void add(const PositionCounts& other) {
    positions += other.positions;
    stalemates += other.stalemates;
    terminal += other.terminal;
    classes += other.classes;
    indices += other.indices;
    baseline += other.baseline;
  }
  // add(other), or false (and this unchanged) where a count would pass 2^64 - 1: the
  // totals of a piece count may (checkers from 19 pieces on).
  [[nodiscard]] bool add_checked(const PositionCounts& other) {
    PositionCounts sum;
    const bool overflow = __builtin_add_overflow(positions, other.positions, &sum.positions) ||
                          __builtin_add_overflow(stalemates, other.stalemates, &sum.stalemates) ||
                          __builtin_add_overflow(terminal, other.terminal, &sum.terminal) ||
                          __builtin_add_overflow(classes, other.classes, &sum.classes) ||
                          __builtin_add_overflow(indices, other.indices, &sum.indices) ||
                          __builtin_add_overflow(baseline, other.baseline, &sum.baseline);
    if (!overflow) *this = sum;
    return !overflow;
  }
};

struct CountOptions {
  int threads = 1;
  bool quiet = false;
  bool per_material = false;  // rows per material (HasMaterials)
  bool sizes_only = false;    // index sizes only: nothing enumerated
};

struct CountResult {
  struct PiecesRow {
    int pieces = 0;
    PositionCounts counts;
    std::uint64_t end_positions = 0;  // in tiers, and those in no tier (end_positions())
  };
  struct TierRow {
    std::string tier;
    PositionCounts counts;
  };
  struct MaterialRow {
    int pieces = 0;
    std::string material;
    PositionCounts counts;
    std::uint64_t end_positions = 0;
  };
  std::optional<std::string> baseline;  // whose index the baseline is (HasBaselineSize)
  std::vector<PiecesRow> pieces;
  std::vector<TierRow> tiers;
  std::vector<MaterialRow> materials;  // with CountOptions::per_material
};

template <Game G>
CountResult count_positions(const G& game, int pieces, const CountOptions& options) {
  static_assert(HasSymmetries<G>, "counting needs the game's symmetries");
  using Position = typename G::Position;
  if (options.per_material && !HasMaterials<G>)
    fail("{} groups no positions by material: its tiers are its materials (use --tiers)", G::kName);
  if (options.per_material && options.sizes_only)
    fail("--materials counts positions: it does not go with --sizes");
  // Per material: its code and counts, a short list per thread (a tier holds few).
  using MaterialCounts = std::vector<std::pair<std::uint32_t, PositionCounts>>;
  auto material_entry = [](MaterialCounts& list, std::uint32_t code) -> PositionCounts& {
    for (auto& [key, counts] : list) {
      if (key == code) return counts;
    }
    return list.emplace_back(code, PositionCounts{}).second;
  };
  std::map<int, PositionCounts> by_pieces;
  CountResult result;
  std::map<std::pair<int, std::uint32_t>, PositionCounts> by_material;
  for (const Tier tier : game.tiers(pieces)) {
    const Index size = game.size(tier);
    const int workers = options.sizes_only ? 1 : options.threads;
    std::vector<PositionCounts> partial(static_cast<std::size_t>(workers));
    std::vector<MaterialCounts> partial_materials(static_cast<std::size_t>(workers));
    Progress progress("count " + game.tier_name(tier), size, options.quiet || options.sizes_only);
    parallel_for(0, options.sizes_only ? 0 : size, workers, 1 << 14, [&](Index begin, Index end, int thread) {
      PositionCounts& c = partial[static_cast<std::size_t>(thread)];
      MaterialCounts& materials = partial_materials[static_cast<std::size_t>(thread)];
      std::vector<Position> symmetric;
      MoveList<G> moves;
      for (Index i = begin; i < end; ++i) {
        const auto pos = game.unrank(tier, i);
        if (!pos) continue;
        game.symmetric(*pos, symmetric);
        PositionCounts one;
        const auto orbit = static_cast<std::uint64_t>(symmetric.size());
        one.classes = 1;
        one.positions = orbit;
        if (game.terminal(*pos)) {
          one.terminal = orbit;
        } else {
          game.moves(*pos, moves);
          if (moves.empty()) one.stalemates = orbit;
        }
        c.add(one);
        if constexpr (HasMaterials<G>) {
          if (options.per_material) material_entry(materials, G::material(*pos)).add(one);
        }
      }
      progress.add(end - begin);
    });
    PositionCounts sum;
    for (const PositionCounts& c : partial) sum.add(c);
    sum.indices = size;
    if constexpr (HasBaselineSize<G>) sum.baseline = game.baseline_size(tier);
    if (!by_pieces[game.tier_pieces(tier)].add_checked(sum)) {
      fail(
          "count: the {}-piece tiers hold more than 2^64 - 1 indices, more than a count can say: count up to "
          "fewer pieces",
          game.tier_pieces(tier));
    }
    result.tiers.push_back({game.tier_name(tier), sum});
    for (const MaterialCounts& list : partial_materials) {
      for (const auto& [code, counts] : list) by_material[{game.tier_pieces(tier), code}].add(counts);
    }
  }
  for (const auto& [n, c] : by_pieces) {
    std::uint64_t end_positions = c.terminal;
    if constexpr (HasEndPositionCount<G>) end_positions += game.end_positions(n);
    result.pieces.push_back({n, c, end_positions});
  }
  if constexpr (HasBaselineSize<G>) result.baseline = G::baseline_name();
  if constexpr (HasMaterials<G>) {
    if (options.per_material) {
      // The end positions (in no tier) of each material.
      std::map<std::pair<int, std::uint32_t>, std::uint64_t> material_ends;
      for (int n = 1; n <= pieces; ++n) {
        for (const auto& [code, count] : G::end_positions_by_material(n)) {
          material_ends[{n, code}] += count;
          by_material[{n, code}];  // a row even where no tier holds the material
        }
      }
      for (const auto& [key, c] : by_material) {
        const auto ends = material_ends.find(key);
        result.materials.push_back({key.first, G::material_name(key.second), c,
                                    c.terminal + (ends == material_ends.end() ? 0 : ends->second)});
      }
    }
  }
  return result;
}

}  // namespace gs::retro
