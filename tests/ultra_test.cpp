// The multi-valued retrograde analysis (retro/ultra_solver.h) against an independent
// brute force over the same ordering, its strong projection against the strong
// databases, the heuristics' ranks, and the verifier catching a corrupted value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/ultra_file.h"
#include "games/morris/morris.h"
#include "retro/ultra_build.h"
#include "retro/ultra_heuristic.h"
#include "retro/ultra_solver.h"
#include "retro/ultra_verify.h"
#include "tests/brute_force.h"
#include "tests/retro_util.h"
#include "tests/test_util.h"

namespace gs {
namespace {

using morris::Morris;
using retro::SectorRanks;
using retro::UltraTables;
using retro::UltraTier;
using retro::UltraValue;
using test::Failures;
using test::TempDir;

Morris variant(std::string_view name, const std::vector<std::string>& rules = {}) {
  return Morris::from_options(name, rules);
}

// Solves the tiers (children first) with the engine, its scan on two threads.
UltraTables ultra_solve(const Morris& game, const std::vector<Tier>& order, const SectorRanks& ranks) {
  UltraTables tables;
  for (const Tier tier : order) {
    retro::UltraSolver<Morris> solver(game, tables, tier, ranks, true, 2);
    UltraTier values;
    values.cells = solver.solve();
    values.sectors = retro::TierSectors::of(game, tier, ranks);
    tables.put(tier, std::move(values));
  }
  return tables;
}

// ---------------------------------------------------------------------------------
// The brute force: per tier (children first), the first keys by attractors per
// threshold, then the depths by iteration from "unknown" to the fixpoint. It shares
// only the definition of a move's value (retro::ultra_before_move) with the engine: no
// unmoves, counts or queue.

constexpr std::int32_t kUnknownDepth = std::numeric_limits<std::int32_t>::max();

struct BruteTier {
  std::vector<std::optional<UltraValue>> value;  // nullopt: a hole
};

BruteTier brute_tier(const Morris& game, Tier tier, const SectorRanks& ranks,
                     const std::map<Tier, BruteTier>& solved) {
  const Index size = game.size(tier);
  const retro::TierSectors sectors = retro::TierSectors::of(game, tier, ranks);
  struct Node {
    bool hole = true;
    std::optional<UltraValue> fixed;  // terminal or without a move
    std::vector<UltraValue> exits;    // values of moves that leave the tier
    std::vector<Index> inside;        // successors in the tier (with repeats)
  };
  std::vector<Node> nodes(size);
  std::set<std::int32_t> thresholds;
  MoveList<Morris> moves;
  for (Index i = 0; i < size; ++i) {
    const auto pos = game.unrank(tier, i);
    if (!pos) continue;
    Node& node = nodes[i];
    node.hole = false;
    const std::int32_t h = sectors.rank(i);
    if (const auto over = game.terminal(*pos)) {
      node.fixed = retro::ultra_terminal(*over, h, ranks.win);
    } else {
      game.moves(*pos, moves);
      if (moves.empty()) node.fixed = retro::ultra_terminal(game.no_move_value(), h, ranks.win);
      for (const auto& move : moves) {
        const auto next = game.play(*pos, move);
        if (const auto ended = game.terminal(next)) {
          node.exits.push_back(retro::ultra_before_move({retro::ultra_absolute(*ended, ranks.win), 0}, 0, h));
          continue;
        }
        const Ranked ranked = game.rank(next);
        if (ranked.tier == tier) {
          node.inside.push_back(ranked.index);
          continue;
        }
        const BruteTier& child = solved.at(ranked.tier);
        const retro::TierSectors child_sectors = retro::TierSectors::of(game, ranked.tier, ranks);
        node.exits.push_back(
            retro::ultra_before_move(*child.value.at(ranked.index), child_sectors.rank(ranked.index), h));
      }
    }
    if (node.fixed && node.fixed->key != 0) thresholds.insert(std::abs(node.fixed->key));
    for (const UltraValue& v : node.exits) {
      if (v.key != 0) thresholds.insert(std::abs(v.key));
    }
  }
  // First keys: for each threshold t, from the largest down, the positions whose side
  // to move can force a key >= t (win set) or cannot avoid one <= -t (loss set).
  std::vector<std::int32_t> key(size, 0);
  std::vector<bool> keyed(size, false);
  const std::vector<std::int32_t> descending(thresholds.rbegin(), thresholds.rend());
  for (const std::int32_t t : descending) {
    std::vector<bool> win(size, false);
    std::vector<bool> loss(size, false);
    for (bool changed = true; changed;) {
      changed = false;
      for (Index i = 0; i < size; ++i) {
        const Node& node = nodes[i];
        if (node.hole || win[i] || loss[i]) continue;
        bool w = false;
        bool l = false;
        if (node.fixed) {
          w = node.fixed->key >= t;
          l = node.fixed->key <= -t;
        } else {
          l = true;
          for (const UltraValue& v : node.exits) {
            w = w || v.key >= t;
            l = l && v.key <= -t;
          }
          for (const Index q : node.inside) {
            w = w || loss[q];
            l = l && win[q];
          }
        }
        if (w || l) {
          win[i] = w;
          loss[i] = !w && l;
          changed = true;
        }
      }
    }
    for (Index i = 0; i < size; ++i) {
      if (keyed[i]) continue;
      if (win[i]) {
        key[i] = t;
        keyed[i] = true;
      }
    }
    // Thresholds go from the largest down: a position first met in a loss set is -t.
    for (Index i = 0; i < size; ++i) {
      if (!keyed[i] && loss[i]) {
        key[i] = -t;
        keyed[i] = true;
      }
    }
  }
  // Depths: from unknown (infinite) down to the fixpoint, over the moves that give the
  // position its key.
  std::vector<std::int32_t> depth(size, kUnknownDepth);
  for (Index i = 0; i < size; ++i) {
    if (!nodes[i].hole && nodes[i].fixed) depth[i] = nodes[i].fixed->depth;
    if (!nodes[i].hole && key[i] == 0) depth[i] = 0;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (Index i = 0; i < size; ++i) {
      const Node& node = nodes[i];
      if (node.hole || node.fixed || key[i] == 0) continue;
      const bool minimize = key[i] > 0;
      std::int32_t best = kUnknownDepth;
      bool unknown = false;  // a candidate of a maximizing position still unknown
      bool any = false;
      auto take = [&](std::int32_t d) {
        if (!any) {
          best = d;
          any = true;
        } else {
          best = minimize ? std::min(best, d) : std::max(best, d);
        }
      };
      for (const UltraValue& v : node.exits) {
        if (v.key == key[i]) take(v.depth);
      }
      for (const Index q : node.inside) {
        if (key[q] != -key[i]) continue;
        if (depth[q] == kUnknownDepth) {
          unknown = true;
          continue;
        }
        take(depth[q] + 1);
      }
      const std::int32_t d = (!any || (!minimize && unknown)) ? kUnknownDepth : best;
      if (d != depth[i]) {
        depth[i] = d;
        changed = true;
      }
    }
  }
  BruteTier result;
  result.value.resize(size);
  for (Index i = 0; i < size; ++i) {
    if (nodes[i].hole) continue;
    if (nodes[i].fixed) {
      result.value[i] = nodes[i].fixed;
      continue;
    }
    if (depth[i] == kUnknownDepth) throw std::logic_error("brute force: a depth stayed unknown");
    result.value[i] = UltraValue{key[i], depth[i]};
  }
  return result;
}

std::string text(const std::optional<UltraValue>& v) {
  if (!v) return "hole";
  return "(" + std::to_string(v->key) + ", " + std::to_string(v->depth) + ")";
}

// Ranks for a test: pseudo-random in [-spread, spread], twins opposite, symmetric
// sectors 0, so that adjustments flip signs often.
SectorRanks scrambled_ranks(const Morris& game, const std::vector<Tier>& tiers, std::int32_t spread) {
  SectorRanks ranks;
  ranks.heuristic = "scrambled";
  for (const Tier tier : tiers) {
    const auto ranges = game.sectors(tier);
    const std::uint64_t mixed = (ranges[0].code * 0x9E3779B97F4A7C15ULL) >> 40;
    const auto r = static_cast<std::int32_t>(mixed % static_cast<std::uint64_t>(2 * spread + 1)) - spread;
    if (ranges.size() == 2) {
      ranks.rank[ranges[0].code] = r;
      ranks.rank[ranges[1].code] = -r;
    } else {
      ranks.rank[ranges[0].code] = ranges[0].transient ? r : 0;
    }
  }
  ranks.finish();
  return ranks;
}

// told_apart: some draws must have a final sector other than their own (the test then
// exercises the ranks; with 3 stones a side and the stones heuristic every draw is stable).
void expect_engine_equals_brute_force(const Morris& game, int stones, const SectorRanks& ranks,
                                      bool told_apart = true) {
  const std::vector<Tier> order = test::closure(game, game.tiers(stones));
  const UltraTables tables = ultra_solve(game, order, ranks);
  std::map<Tier, BruteTier> brute;
  Failures failures;
  std::uint64_t compared = 0;
  std::uint64_t nonzero_draws = 0;
  for (const Tier tier : order) {
    brute[tier] = brute_tier(game, tier, ranks, brute);
    const UltraTier* engine = tables.find(tier);
    ASSERT_NE(engine, nullptr);
    const auto& expected = brute[tier].value;
    ASSERT_EQ(engine->cells.size(), expected.size());
    for (Index i = 0; i < expected.size(); ++i) {
      ++compared;
      const std::uint32_t cell = engine->cells[i];
      const std::optional<UltraValue> got =
          cell == retro::kUltraHole ? std::nullopt : std::optional(UltraValue::unpack(cell));
      if (got && expected[i]) {
        const std::int32_t absolute = got->key + engine->sectors.rank(i);
        if (absolute != ranks.win && absolute != -ranks.win && got->key != 0) ++nonzero_draws;
      }
      if (got == expected[i]) continue;
      failures.add(game.tier_name(tier) + " index " + std::to_string(i) + " " +
                   game.position_text(*game.unrank(tier, i)) + ": engine " + text(got) + ", brute force " +
                   text(expected[i]));
    }
  }
  EXPECT_GT(compared, 1000U);
  if (told_apart) {
    EXPECT_GT(nonzero_draws, 0U) << ranks.heuristic;
  }
  GS_EXPECT_NO_FAILURES(failures) << game.variant() << " " << ranks.heuristic;
}

// The strong values of the tiers, from a strong build.
std::map<Tier, std::vector<ValueCode>> strong_values(const Morris& game, const std::filesystem::path& data,
                                                     const std::vector<Tier>& order) {
  db::Database database(db::Location::of(game, data));
  std::map<Tier, std::vector<ValueCode>> result;
  for (const Tier tier : order) {
    const db::TierReader* reader = database.find(game, tier);
    if (reader == nullptr) throw std::logic_error("not built: " + game.tier_name(tier));
    std::vector<ValueCode>& codes = result[tier];
    codes.resize(game.size(tier));
    for (Index i = 0; i < codes.size(); ++i) codes[i] = game.unrank(tier, i) ? reader->code(i) : kHoleCode;
  }
  return result;
}

SectorRanks ratio_ranks(const Morris& game, const std::vector<Tier>& order,
                        const std::map<Tier, std::vector<ValueCode>>& strong) {
  std::map<Tier, retro::SectorCounts> counts;
  for (const Tier tier : order) counts.merge(retro::sector_counts(game, tier, strong.at(tier)));
  return retro::sector_ranks(game, order, retro::UltraHeuristic::kRatio, counts);
}

// Ultra and strong agree on every value's outcome and on the depths of wins and losses.
void expect_strong_projection(const Morris& game, int stones) {
  const std::vector<Tier> order = test::closure(game, game.tiers(stones));
  TempDir dir;
  test::build(game, dir.path(), stones, 2);
  const auto strong = strong_values(game, dir.path(), order);
  for (const SectorRanks& ranks :
       {retro::sector_ranks(game, order, retro::UltraHeuristic::kStones), ratio_ranks(game, order, strong)}) {
    const UltraTables tables = ultra_solve(game, order, ranks);
    Failures failures;
    std::uint64_t wins = 0;
    for (const Tier tier : order) {
      const UltraTier& ultra = *tables.find(tier);
      const auto& codes = strong.at(tier);
      for (Index i = 0; i < codes.size(); ++i) {
        if (codes[i] == kHoleCode) {
          if (ultra.cells[i] != retro::kUltraHole)
            failures.add(game.tier_name(tier) + ": a hole holds a value");
          continue;
        }
        const Value projected =
            retro::ultra_strong(UltraValue::unpack(ultra.cells[i]), ultra.sectors.rank(i), ranks.win);
        wins += projected.is_win() ? 1 : 0;
        if (projected.code() == codes[i]) continue;
        failures.add(game.tier_name(tier) + " index " + std::to_string(i) + ": ultra " +
                     projected.to_string() + ", strong " + Value::from_code(codes[i]).to_string());
      }
    }
    EXPECT_GT(wins, 0U);
    GS_EXPECT_NO_FAILURES(failures) << game.variant() << " " << ranks.heuristic;
  }
}

TEST(UltraEngine, EqualsBruteForceOnSmallBoards) {
  for (const Morris& game : {variant("six"), variant("seven"), variant("six", {"lasker=on"})}) {
    const std::vector<Tier> order = test::closure(game, game.tiers(3));
    expect_engine_equals_brute_force(game, 3,
                                     retro::sector_ranks(game, order, retro::UltraHeuristic::kStones), false);
    expect_engine_equals_brute_force(game, 3, scrambled_ranks(game, order, 4));
  }
}

TEST(UltraEngineSlow, EqualsBruteForceFourStones) {
  for (const Morris& game :
       {variant("five"), variant("six"), variant("seven"), variant("six", {"lasker=on"})}) {
    const std::vector<Tier> order = test::closure(game, game.tiers(4));
    expect_engine_equals_brute_force(game, 4,
                                     retro::sector_ranks(game, order, retro::UltraHeuristic::kStones));
    expect_engine_equals_brute_force(game, 4, scrambled_ranks(game, order, 7));
    TempDir dir;
    test::build(game, dir.path(), 4, 2);
    expect_engine_equals_brute_force(game, 4,
                                     ratio_ranks(game, order, strong_values(game, dir.path(), order)));
  }
}

TEST(UltraEngine, AgreesWithStrongOnWinsAndLosses) {
  expect_strong_projection(variant("six"), 3);
  expect_strong_projection(variant("seven"), 3);
  expect_strong_projection(variant("six", {"lasker=on"}), 3);
}

TEST(UltraEngineSlow, AgreesWithStrongFourStones) {
  expect_strong_projection(variant("five"), 4);
  expect_strong_projection(variant("six"), 4);
  expect_strong_projection(variant("seven"), 4);
}

TEST(UltraHeuristic, RanksAreCentredOrderedAndTwinsOpposite) {
  const std::map<Tier, std::int32_t> ranks =
      retro::centred_ranks({{1, 0.5}, {2, -0.5}, {3, 0.25}, {4, 0}, {5, -0.75}});
  EXPECT_EQ(ranks, (std::map<Tier, std::int32_t>{{1, 2}, {2, -2}, {3, 1}, {4, 0}, {5, -3}}));
  const Morris game = variant("six");
  const std::vector<Tier> order = test::closure(game, game.tiers(4));
  const SectorRanks stones = retro::sector_ranks(game, order, retro::UltraHeuristic::kStones);
  // 4-3-0-0: White to move has one stone more.
  EXPECT_EQ(stones.of(morris::Sector{4, 3, 0, 0}.code()), 1);
  EXPECT_EQ(stones.of(morris::Sector{3, 4, 0, 0}.code()), -1);
  EXPECT_EQ(stones.win, 2);
  TempDir dir;
  test::build(game, dir.path(), 4, 2);
  const SectorRanks ratio = ratio_ranks(game, order, strong_values(game, dir.path(), order));
  for (const Tier tier : order) {
    const auto ranges = game.sectors(tier);
    if (ranges.size() == 2) {
      EXPECT_EQ(ratio.of(ranges[0].code), -ratio.of(ranges[1].code)) << game.tier_name(tier);
    } else if (!ranges[0].transient) {
      EXPECT_EQ(ratio.of(ranges[0].code), 0) << game.tier_name(tier);
    }
  }
  EXPECT_GT(ratio.win, 3);
}

TEST(UltraVerify, AcceptsTheEngineAndCatchesACorruptedValue) {
  const Morris game = variant("six");
  const std::vector<Tier> order = test::closure(game, game.tiers(3));
  const SectorRanks ranks = scrambled_ranks(game, order, 4);
  UltraTables tables = ultra_solve(game, order, ranks);
  for (const Tier tier : order) {
    const retro::UltraVerification check = retro::verify_ultra_tier(game, tables, tier, ranks);
    EXPECT_EQ(check.inconsistent, 0U) << game.tier_name(tier);
    EXPECT_EQ(check.checked, game.size(tier));
  }
  // Corrupt one value of the last tier of each kind: a draw's depth, a key, a hole.
  const Tier tier = order.back();
  UltraTier corrupted = *tables.find(tier);
  std::optional<Index> changed;
  for (Index i = 0; i < corrupted.cells.size() && !changed; ++i) {
    if (corrupted.cells[i] == retro::kUltraHole) continue;
    const UltraValue v = UltraValue::unpack(corrupted.cells[i]);
    if (v.key != 0) {
      corrupted.cells[i] = UltraValue{v.key, v.depth + 2}.packed();
      changed = i;
    }
  }
  ASSERT_TRUE(changed);
  tables.put(tier, corrupted);
  for (const int threads : {1, 3}) {
    const retro::UltraVerification check = retro::verify_ultra_tier(game, tables, tier, ranks, 2, threads);
    EXPECT_GE(check.inconsistent, 1U);
    ASSERT_FALSE(check.first.empty());
    EXPECT_EQ(check.first.front().index, *changed);
    EXPECT_EQ(check.checked, game.size(tier));
  }
}

// The files: build, verify, a corrupted value caught by verify, a damaged file refused.
TEST(UltraFiles, BuildVerifyAndCatchCorruption) {
  const Morris game = variant("five");
  TempDir dir;
  test::build(game, dir.path(), 4, 2);
  db::Database database(db::Location::of(game, dir.path()));
  retro::UltraBuildOptions options;
  options.heuristic = retro::UltraHeuristic::kStones;
  options.quiet = true;
  options.threads = 2;
  const auto reports = retro::build_ultra(game, database, 4, options);
  ASSERT_FALSE(reports.empty());
  for (const auto& report : reports) EXPECT_TRUE(report.built) << report.name;
  const std::filesystem::path directory = retro::ultra_directory(database.location(), options.heuristic);
  {
    // One thread writes the same files.
    TempDir single;
    test::build(game, single.path(), 4, 2);
    db::Database other(db::Location::of(game, single.path()));
    retro::UltraBuildOptions alone = options;
    alone.threads = 1;
    (void)retro::build_ultra(game, other, 4, alone);
    const std::filesystem::path there = retro::ultra_directory(other.location(), options.heuristic);
    std::size_t compared = 0;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
      EXPECT_EQ(test::read_file(entry.path()), test::read_file(there / entry.path().filename()))
          << entry.path().filename();
      ++compared;
    }
    EXPECT_EQ(compared, reports.size() + 1);  // the tiers and ranks.txt
  }
  // A second build finds every file good.
  for (const auto& report : retro::build_ultra(game, database, 4, options)) EXPECT_FALSE(report.built);
  auto inconsistent = [&] {
    std::uint64_t total = 0;
    for (const auto& row : retro::verify_ultra(game, database, 4, options.heuristic, 5, 2)) {
      EXPECT_TRUE(row.failure.empty()) << row.failure;
      total += row.inconsistent + row.strong_differs;
    }
    return total;
  };
  EXPECT_EQ(inconsistent(), 0U);
  // Another --pieces would need other ranks: refused.
  EXPECT_THROW(retro::build_ultra(game, database, 3, options), Error);
  // A budget too small for a tier's solve: refused before it starts.
  retro::UltraBuildOptions tight = options;
  tight.heuristic = retro::UltraHeuristic::kRatio;
  tight.memory_bytes = 1024;
  EXPECT_THROW(retro::build_ultra(game, database, 4, tight), Error);

  // Verify under a budget: the hungriest tier's need passes every tier; a byte less
  // reports the tiers that need that much, and only them.
  std::uint64_t largest = 0;
  Tier hungriest = 0;
  std::map<Tier, std::uint64_t> needs;
  for (const Tier tier : retro::tiers_in_order(game, 4)) {
    const std::uint64_t need =
        retro::ultra_verify_bytes(game, tier) + database.find(game, tier)->memory_bytes();
    database.forget_all();
    needs[tier] = need;
    if (need > largest) {
      largest = need;
      hungriest = tier;
    }
  }
  std::vector<std::string> hungriest_tiers;
  for (const Tier tier : retro::tiers_in_order(game, 4))
    if (needs[tier] == largest) hungriest_tiers.push_back(game.tier_name(tier));
  auto under = [&](std::uint64_t budget) {
    std::vector<std::string> refused;
    std::uint64_t total = 0;
    for (const auto& row : retro::verify_ultra(game, database, 4, options.heuristic, 5, 2, budget)) {
      if (!row.failure.empty()) {
        refused.push_back(row.name);
        EXPECT_NE(row.failure.find("over the budget of"), std::string::npos) << row.failure;
      }
      total += row.inconsistent + row.strong_differs;
    }
    EXPECT_EQ(total, 0U);
    return refused;
  };
  EXPECT_TRUE(under(largest).empty());
  EXPECT_EQ(under(largest - 1), hungriest_tiers);

  // The values kept for later tiers are let go only when they would not fit beside a
  // tier's work.
  {
    std::string text;
    int pieces = 0;
    const SectorRanks ranks = retro::read_ranks(directory, text, pieces);
    const std::uint64_t checksum = db::ultra_text_checksum(text);
    UltraTables tables;
    std::uint64_t all = 0;
    for (const Tier tier : retro::tiers_in_order(game, 4)) {
      retro::load_ultra_tier(game, directory, database.location(), tier, ranks, checksum, tables);
      all += game.size(tier) * sizeof(std::uint32_t);
    }
    EXPECT_EQ(tables.bytes_besides({}), all);
    std::set<Tier> reading{hungriest};
    for (const Tier child : game.children(hungriest)) reading.insert(child);
    const std::uint64_t others = tables.bytes_besides(reading);
    ASSERT_GT(others, 0U);
    retro::make_room_for_ultra(game, tables, hungriest, 1000, others + 1000);
    EXPECT_EQ(tables.bytes_besides({}), all);
    retro::make_room_for_ultra(game, tables, hungriest, 1001, others + 1000);
    EXPECT_EQ(tables.bytes_besides(reading), 0U);
    for (const Tier t : reading) EXPECT_NE(tables.find(t), nullptr) << game.tier_name(t);
  }

  // A value changed in a file whose checksums are right: verify finds it.
  const Tier tier = Morris::from_options("five", {}).tiers(4).back();
  const std::filesystem::path path = directory / (game.tier_name(tier) + std::string(db::kUltraSuffix));
  const db::UltraHeader header = db::read_ultra_header(path);
  db::UltraFile file = db::read_ultra_tier(path, header);
  bool changed = false;
  for (std::uint32_t& cell : file.cells) {
    if (cell == retro::kUltraHole || changed) continue;
    const UltraValue v = UltraValue::unpack(cell);
    cell = UltraValue{v.key + 1, v.depth}.packed();
    changed = true;
  }
  ASSERT_TRUE(changed);
  db::write_ultra_tier(path, header, file.cells);
  EXPECT_GE(inconsistent(), 1U);

  // A damaged byte: the reader refuses the file, verify reports the tier.
  {
    std::fstream bytes(path, std::ios::in | std::ios::out | std::ios::binary);
    bytes.seekg(-1, std::ios::end);
    const int last = bytes.get();
    bytes.seekp(-1, std::ios::end);
    bytes.put(static_cast<char>(last ^ 0xFF));
  }
  EXPECT_THROW((void)db::read_ultra_tier(path, header), Error);
  bool reported = false;
  for (const auto& row : retro::verify_ultra(game, database, 4, options.heuristic, 5))
    reported = reported || !row.failure.empty();
  EXPECT_TRUE(reported);
}

}  // namespace
}  // namespace gs
