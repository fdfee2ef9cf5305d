// The mill games: the boards and their symmetry groups, the generic game battery
// (tests/game_battery.h), agreement of the databases with the brute force
// (tests/brute_force.h) on small sectors of every board, the published values of the
// small games, every rule option, and rejection of bad input.
//
// Suites whose name ends in "Slow" build whole games (ctest label "slow").
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "db/database.h"
#include "games/morris/morris.h"
#include "tests/brute_force.h"
#include "tests/game_battery.h"
#include "tests/retro_util.h"
#include "tests/test_util.h"

namespace gs::morris {
namespace {

using test::Failures;
using test::IndexCounts;
using test::TempDir;

constexpr std::uint64_t kSeed = 20261121;

Morris variant(std::string_view name, const std::vector<std::string>& rules = {}) {
  return Morris::from_options(name, rules);
}

// The value of a position from databases under `data`.
Value value_of(const Morris& game, const std::filesystem::path& data, std::string_view position) {
  db::Database database(db::Location::of(game, data));
  const auto value = db::probe(game, database, game.parse_position(position));
  if (!value) throw Error("no database for " + std::string(position));
  return *value;
}

std::set<std::string> names(const Geometry& board, std::uint32_t set) {
  std::set<std::string> result;
  for (; set != 0; set &= set - 1) result.insert(board.point_name(std::countr_zero(set)));
  return result;
}

// ---------------------------------------------------------------------------------
// Boards.

TEST(MorrisBoard, PointsMillsAndSymmetryGroups) {
  struct Expect {
    BoardKind kind;
    int points;
    std::size_t mills;
    int symmetries;
  };
  for (const Expect& e : {Expect{BoardKind::kNine, 24, 16, 16}, Expect{BoardKind::kMorabaraba, 24, 20, 16},
                          Expect{BoardKind::kSix, 16, 8, 16}, Expect{BoardKind::kSeven, 17, 14, 8}}) {
    const Geometry& board = Geometry::of(e.kind);
    EXPECT_EQ(board.points(), e.points) << board.name();
    EXPECT_EQ(board.mills().size(), e.mills) << board.name();
    EXPECT_EQ(board.symmetries(), e.symmetries) << board.name();
    // Every symmetry maps adjacency onto adjacency and mills onto mills.
    for (int op = 0; op < board.symmetries(); ++op) {
      for (int p = 0; p < board.points(); ++p) {
        EXPECT_EQ(board.apply(op, board.neighbours(p)), board.neighbours(board.permutation(op)[p]));
      }
      for (const std::uint32_t mill : board.mills()) {
        EXPECT_NE(std::find(board.mills().begin(), board.mills().end(), board.apply(op, mill)),
                  board.mills().end());
      }
    }
  }
  const Geometry& nine = Geometry::of(BoardKind::kNine);
  EXPECT_EQ(names(nine, nine.neighbours(nine.point("d2"))), (std::set<std::string>{"d1", "d3", "b2", "f2"}));
  EXPECT_EQ(names(nine, nine.neighbours(nine.point("a1"))), (std::set<std::string>{"a4", "d1"}));
  const Geometry& morabaraba = Geometry::of(BoardKind::kMorabaraba);
  EXPECT_EQ(names(morabaraba, morabaraba.neighbours(morabaraba.point("b2"))),
            (std::set<std::string>{"a1", "c3", "d2", "b4"}));
  const Geometry& seven = Geometry::of(BoardKind::kSeven);
  EXPECT_EQ(names(seven, seven.neighbours(seven.point("c3"))),
            (std::set<std::string>{"b3", "d3", "c2", "c4"}));
  // The inner/outer swap: on the three-square board a1 goes to c3 under some symmetry.
  bool swaps = false;
  for (int op = 0; op < nine.symmetries(); ++op)
    swaps |= nine.permutation(op)[nine.point("a1")] == nine.point("c3");
  EXPECT_TRUE(swaps);
}

TEST(MorrisBoard, ClassesPartitionTheSets) {
  // The orbits of the class representatives cover every set of each size exactly once.
  for (const BoardKind kind : {BoardKind::kNine, BoardKind::kSix, BoardKind::kSeven}) {
    const Geometry& board = Geometry::of(kind);
    for (int count = 0; count <= 6; ++count) {
      const Geometry::Classes& classes = board.classes(count);
      std::uint64_t covered = 0;
      for (const std::uint32_t rep : classes.representative) {
        std::set<std::uint32_t> orbit;
        for (int op = 0; op < board.symmetries(); ++op) orbit.insert(board.apply(op, rep));
        EXPECT_EQ(*orbit.begin(), rep);
        covered += orbit.size();
      }
      EXPECT_EQ(covered, binomial(board.points(), count)) << board.name() << " " << count;
      EXPECT_EQ(classes.representative.size(), board.class_count(count));
    }
  }
}

// The tables of classes, once built for every number of stones, hold what the board
// declares as its index tables (Morris::index_table_bytes, counted in --memory): the
// small boards in full here, the 24-point boards by their declared size.
TEST(MorrisBoard, ClassTablesHoldWhatTheBoardDeclares) {
  for (const BoardKind kind : {BoardKind::kSix, BoardKind::kSeven}) {
    const Geometry& board = Geometry::of(kind);
    std::uint64_t bytes = 0;
    for (int count = 0; count <= board.points(); ++count) {
      const Geometry::Classes& classes = board.classes(count);
      bytes +=
          (classes.entry.capacity() + classes.representative.capacity() + classes.stabilizer.capacity()) *
          sizeof(std::uint32_t);
    }
    bytes += (std::uint64_t{1} << board.points()) / 8;  // a bit per set: Geometry::symmetric
    EXPECT_EQ(bytes, board.class_table_bytes()) << board.name();
  }
  EXPECT_EQ(variant("six").index_table_bytes(), Geometry::of(BoardKind::kSix).class_table_bytes());
  const std::uint64_t nine = Morris().index_table_bytes();
  EXPECT_GE(nine, std::uint64_t{64} << 20);  // an entry per set of points: 2^24 of 4 bytes
  EXPECT_LE(nine, std::uint64_t{82} << 20);
}

TEST(MorrisIndex, LargestStandardSectorIsBelowGassersIndex) {
  const Morris game;
  const Tier tier = game.parse_tier("8-8-0-0");
  // 46,879 classes of White's 8 stones x C(16, 8) places for Black's: Gasser's
  // 603,332,730 (docs/games/morris.md), within 2 % of one index per symmetry class.
  EXPECT_EQ(game.geometry().class_count(8), 46879U);
  EXPECT_EQ(game.size(tier), 603332730U);
  EXPECT_EQ(game.baseline_size(tier), 591726690U);
  EXPECT_LT(static_cast<double>(game.size(tier)) / static_cast<double>(game.baseline_size(tier)), 1.02);
}

// ---------------------------------------------------------------------------------
// The battery.

// Every index of every tier of the starts with up to `stones` stones per side.
IndexCounts check_all(const Morris& game, int stones, Failures& failures) {
  IndexCounts total;
  for (const Tier tier : game.tiers(stones)) {
    total += test::check_tier_exhaustive(game, tier, true, default_threads(), failures);
  }
  return total;
}

// Every index of the tiers up to `stones` stones a side: rank and unrank agree, and the
// non-hole indices are exactly the symmetry classes (count's baseline).
void expect_exact_index(const Morris& game, int stones) {
  Failures failures;
  const IndexCounts counts = check_all(game, stones, failures);
  GS_EXPECT_NO_FAILURES(failures) << game.variant();
  std::uint64_t classes = 0;
  for (const Tier tier : game.tiers(stones)) classes += game.baseline_size(tier);
  EXPECT_EQ(counts.indices - counts.holes, classes) << game.variant();
  EXPECT_GT(counts.positions, counts.indices - counts.holes) << game.variant();
}

TEST(MorrisBattery, RankUnrankExhaustiveSmallBoardsThreeStones) {
  expect_exact_index(variant("six"), 3);
  expect_exact_index(variant("seven"), 3);
}

TEST(MorrisBatterySlow, RankUnrankExhaustiveSmallBoardsFourStones) {
  for (const char* name : {"six", "seven"}) {
    const Morris game = variant(name);
    Failures failures;
    const IndexCounts counts = check_all(game, 4, failures);
    GS_EXPECT_NO_FAILURES(failures) << name;
    EXPECT_GT(counts.no_move, 0U) << name;
    expect_exact_index(game, 4);
  }
}

TEST(MorrisBatterySlow, RankUnrankExhaustiveThreeStonesLargeBoards) {
  for (const char* name : {"standard", "morabaraba", "lasker"}) expect_exact_index(variant(name), 3);
}

TEST(MorrisBattery, RankUnrankSampledLargeSectors) {
  for (const char* name : {"standard", "morabaraba", "lasker"}) {
    const Morris game = variant(name);
    Failures failures;
    const auto tiers = game.tiers(9);
    const IndexCounts counts =
        test::check_tiers_sampled(game, tiers, 1000, kSeed, default_threads(), failures);
    GS_EXPECT_NO_FAILURES(failures) << name;
    EXPECT_EQ(counts.indices, 1000U);
  }
}

// Variants and options whose moves differ.
std::vector<Morris> rule_sets() {
  return {variant("standard"),
          variant("lasker"),
          variant("morabaraba"),
          variant("six"),
          variant("seven"),
          variant("standard", {"flying=4"}),
          variant("standard", {"flying=off"}),
          variant("standard", {"removal=not_from_mill"}),
          variant("standard", {"removal=any"}),
          variant("six", {"lasker=on", "removal=not_from_mill"})};
}

TEST(MorrisBattery, MovesAndUnmovesAgreeSampled) {
  for (const Morris& game : rule_sets()) {
    const auto positions = test::sample_positions(game, game.tiers(6), 3, kSeed + 1);
    ASSERT_GT(positions.size(), 300U);
    Failures failures;
    for (const Position& pos : positions) test::check_moves_and_unmoves(game, pos, failures);
    GS_EXPECT_NO_FAILURES(failures) << game.variant() << " " << game.rule_text();
  }
}

// The scan counts slides without removal instead of ranking them, and propagation
// takes predecessors as distinct where predecessors_may_meet allows and ranks them through
// unmove_indices: on every rule set, with
// positions with and without symmetry among the samples.
TEST(MorrisBattery, TierMoveHooksKeepTheirPromises) {
  for (const Morris& game : rule_sets()) {
    const auto positions = test::sample_positions(game, game.tiers(6), 3, kSeed + 3);
    Failures failures;
    std::size_t plain = 0;
    for (const Position& pos : positions) {
      plain += test::check_tier_move_hooks(game, pos, failures) ? 1 : 0;
      test::check_unmove_indices(game, pos, failures);
    }
    GS_EXPECT_NO_FAILURES(failures) << game.variant() << " " << game.rule_text();
    EXPECT_GT(plain, positions.size() / 5) << game.variant();
    EXPECT_LT(plain, positions.size()) << game.variant();
  }
}

// Propagation skips the predecessors that win at once (open_unmove_indices): on every
// rule set, each one left out has a move to a lost end, and in the flying sector 3-3,
// where a mill wins, some are left out wherever three flying stones meet three.
TEST(MorrisBattery, OpenUnmoveIndicesLeaveOutOnlyWinsInOne) {
  for (const Morris& game : rule_sets()) {
    const auto positions = test::sample_positions(game, game.tiers(5), 2, kSeed + 5);
    const auto flying = test::sample_positions(game, {game.parse_tier("3-3-0-0")}, 300, kSeed + 6);
    Failures failures;
    for (const Position& pos : positions) test::check_open_unmove_indices(game, pos, failures);
    std::size_t left_out = 0;
    for (const Position& pos : flying) left_out += test::check_open_unmove_indices(game, pos, failures);
    GS_EXPECT_NO_FAILURES(failures) << game.variant() << " " << game.rule_text();
    if (game.options().flying == 3) {
      EXPECT_GT(left_out, flying.size()) << game.variant() << " " << game.rule_text();
    }
  }
}

// The scan ranks the successors of a position through rank_moves_leaving_tier, and those
// of a position with symmetry through rank_moves: on every rule set, placements and
// slides, mills and the terminal positions they make, positions with and without
// symmetry (the walked tiers use the first for both).
TEST(MorrisBattery, RankedMovesAreThoseOfPlay) {
  for (const Morris& game : rule_sets()) {
    const auto positions = test::sample_positions(game, game.tiers(6), 3, kSeed + 5);
    ASSERT_GT(positions.size(), 300U);
    Failures failures;
    std::size_t symmetric = 0;
    for (const Position& pos : positions) {
      test::check_ranked_moves(game, pos, failures);
      symmetric += game.has_symmetry(pos) ? 1 : 0;
    }
    GS_EXPECT_NO_FAILURES(failures) << game.variant() << " " << game.rule_text();
    EXPECT_GT(symmetric, 0U) << game.variant();
  }
}

// The scan of a placement tier follows child_walk: every tier of up to 4 stones a side
// on the small boards, and those of up to 2 million indices on the large ones, in pieces
// of an odd length so that pieces start inside classes and at holes.
TEST(MorrisBattery, ChildWalkVisitsEveryPositionOnce) {
  for (const Morris& game : rule_sets()) {
    Failures failures;
    std::uint64_t visited = 0;
    std::size_t walked = 0;
    const bool small = game.geometry().points() < 24;
    for (const Tier tier : game.tiers(small ? 4 : 5)) {
      if (!small && game.size(tier) > 2'000'000) continue;
      const std::uint64_t count = test::check_child_walk(game, tier, 1237, failures);
      visited += count;
      walked += count > 0 ? 1 : 0;
      // A placement tier is walked (under Lasker's rule a pair of sectors, since a side
      // may slide while it has stones in hand); a tier of moving sectors is not.
      const Sector s = Sector::of(tier);
      EXPECT_EQ(game.child_walk_size(tier) > 0, s.wf > 0 || s.bf > 0) << game.tier_name(tier);
      EXPECT_EQ(game.child_walk_stays(tier), game.paired(s)) << game.tier_name(tier);
    }
    GS_EXPECT_NO_FAILURES(failures) << game.variant() << " " << game.rule_text();
    EXPECT_GT(walked, 10U) << game.variant();
    EXPECT_GT(visited, 50000U) << game.variant();
  }
}

// The scan of a placement tier lets the game solve the walk's runs (solve_walk): every
// position solved or visited once, and every third solved one with the value its moves give,
// for child tiers holding values made up from their indices (wins, draws and losses of
// many depths), on every rule set; pieces of an odd length start inside runs.
TEST(MorrisBattery, SolveWalkGivesTheValuesOfTheMoves) {
  auto child = [](Tier tier, Index index) {
    std::uint64_t h = (tier * 0x9E3779B97F4A7C15ULL) ^ (index * 0xC2B2AE3D27D4EB4FULL);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    const auto depth = static_cast<Depth>(h % 40);
    switch (h >> 40 & 3U) {
      case 0: return Value::draw().code();
      case 1: return Value::loss(depth).code();
      default: return Value::win(depth).code();
    }
  };
  for (const Morris& game : rule_sets()) {
    Failures failures;
    std::uint64_t solved = 0;
    const bool small = game.geometry().points() < 24;
    for (const Tier tier : game.tiers(small ? 4 : 5)) {
      if (!small && game.size(tier) > 300'000) continue;
      solved += test::check_solve_walk(game, tier, 1237, child, 3, failures);
    }
    GS_EXPECT_NO_FAILURES(failures) << game.variant() << " " << game.rule_text();
    // Under Lasker's rule a slide stays in a placement tier: none is solved from its
    // children alone (check_solve_walk finds each visited instead). Elsewhere most
    // placements are solved.
    if (game.options().lasker) {
      EXPECT_EQ(solved, 0U) << game.variant() << " " << game.rule_text();
    } else {
      EXPECT_GT(solved, 20000U) << game.variant() << " " << game.rule_text();
    }
  }
}

// has_symmetry is true for every position a symmetry maps onto itself (and may be true
// for others): checked on every set of up to 4 stones a side on the small board.
TEST(MorrisBattery, HasSymmetryCoversEverySymmetricPosition) {
  const Morris game = variant("six");
  const Geometry& board = game.geometry();
  std::size_t symmetric = 0;
  for (std::uint32_t white = 0; white <= board.full(); ++white) {
    if (std::popcount(white) > 4) continue;
    bool own = false;
    for (int op = 1; op < board.symmetries(); ++op) own = own || board.apply(op, white) == white;
    ASSERT_EQ(board.symmetric(white), own) << white;
    for (std::uint32_t black = 0; black <= board.full(); ++black) {
      if ((black & white) != 0 || std::popcount(black) > 4) continue;
      bool fixed = false;
      for (int op = 1; op < board.symmetries(); ++op)
        fixed = fixed || (board.apply(op, white) == white && board.apply(op, black) == black);
      Position pos;
      pos.stones = {white, black};
      pos.hand = {5, 5};
      if (fixed) {
        ++symmetric;
        ASSERT_TRUE(game.has_symmetry(pos)) << game.position_text(pos);
      }
    }
  }
  EXPECT_GT(symmetric, 100U);
}

// The scan steps through a tier with unrank_next: whole tiers of the small boards, and
// runs at random places (class and sector boundaries among them) of the large ones.
TEST(MorrisBattery, UnrankNextStepsAsUnrank) {
  std::mt19937_64 random(kSeed + 4);
  for (const Morris& game : rule_sets()) {
    Failures failures;
    std::uint64_t compared = 0;
    const bool small = game.geometry().points() < 24;
    for (const Tier tier : game.tiers(small ? 4 : 6)) {
      const Index size = game.size(tier);
      if (small || size < 5000) {
        compared += test::check_unrank_next(game, tier, 0, size, failures);
        continue;
      }
      for (int run = 0; run < 4; ++run)
        compared += test::check_unrank_next(game, tier, random() % size, 1000, failures);
      // Across the boundary of the two sectors of a pair.
      const std::vector<SectorRange> sectors = game.sectors(tier);
      if (sectors.size() == 2)
        compared += test::check_unrank_next(game, tier, sectors[1].begin - 500, 1000, failures);
    }
    GS_EXPECT_NO_FAILURES(failures) << game.variant() << " " << game.rule_text();
    EXPECT_GT(compared, 100000U) << game.variant();
  }
}

TEST(MorrisBattery, NextSubsetStepsInColexOrder) {
  const std::uint32_t within = 0b1011'0110'1101U;
  for (int k = 0; k <= std::popcount(within); ++k) {
    std::vector<std::uint32_t> want;
    for (std::uint32_t set = 0; set <= within; ++set) {
      if ((set & ~within) == 0 && std::popcount(set) == k) want.push_back(set);
    }
    std::vector<std::uint32_t> got{want.front()};
    for (std::uint32_t set = next_subset(want.front(), within); set != 0; set = next_subset(set, within))
      got.push_back(set);
    EXPECT_EQ(got, want) << k;
  }
}

// extract packs a set's points within another set, deposit puts them back (pext and
// pdep in a native build; in a portable one the instructions where the processor does
// them in hardware, tables otherwise): checked against a point-by-point definition on
// random sets of the 24-point board and of checkers' 32 squares, and so are both of a
// portable build's ways, the instructions wherever the processor has BMI2.
TEST(MorrisBattery, ExtractAndDepositAreInverses) {
#ifdef GS_BMI2_AT_RUN_TIME
  const bool bmi2 = has_bmi2();
  EXPECT_TRUE(bmi2 || !kFastBmi2);
#endif
  std::mt19937 random(static_cast<std::mt19937::result_type>(kSeed + 7));
  for (int trial = 0; trial < 40000; ++trial) {
    const std::uint32_t board = trial % 2 == 0 ? 0xFFFFFFU : 0xFFFFFFFFU;
    const auto within = static_cast<std::uint32_t>(random() & board);
    const auto set = static_cast<std::uint32_t>(random() & within);
    std::uint32_t packed = 0;
    int k = 0;
    for (int point = 0; point < 32; ++point) {
      if ((within >> point & 1U) == 0) continue;
      if ((set >> point & 1U) != 0) packed |= 1U << k;
      ++k;
    }
    ASSERT_EQ(extract(set, within), packed) << within << " " << set;
    ASSERT_EQ(deposit(packed, within), set) << within << " " << set;
#ifndef __BMI2__
    ASSERT_EQ(extract_by_bytes(set, within), packed) << within << " " << set;
    ASSERT_EQ(deposit_by_bytes(packed, within), set) << within << " " << set;
#endif
#ifdef GS_BMI2_AT_RUN_TIME
    if (bmi2) {
      ASSERT_EQ(pext_instruction(set, within), packed) << within << " " << set;
      ASSERT_EQ(pdep_instruction(packed, within), set) << within << " " << set;
    }
#endif
  }
}

TEST(MorrisBattery, TextRoundTripSampled) {
  for (const Morris& game : rule_sets()) {
    const auto positions = test::sample_positions(game, game.tiers(7), 2, kSeed + 2);
    ASSERT_GT(positions.size(), 300U);
    Failures failures;
    for (const Position& pos : positions) test::check_text_round_trip(game, pos, failures);
    test::check_start(game, failures);
    GS_EXPECT_NO_FAILURES(failures) << game.variant();
  }
}

// ---------------------------------------------------------------------------------
// The databases against the brute force, on every board and under every option.

void expect_agreement(const Morris& game, int stones) {
  const std::vector<Tier> tiers = test::closure(game, game.tiers(stones));
  const auto brute = test::brute_force(game, tiers, 2);
  EXPECT_GT(brute.rounds, 3);
  TempDir dir;
  test::build(game, dir.path(), stones, 2);
  test::expect_database_equals(game, dir.path(), brute);
}

TEST(MorrisRetro, AgreesWithBruteForceOnSmallBoards) {
  expect_agreement(variant("six"), 3);
  expect_agreement(variant("seven"), 3);
  expect_agreement(variant("six", {"lasker=on"}), 3);
}

TEST(MorrisRetroSlow, AgreesWithBruteForceOnSmallBoardsFourStones) {
  expect_agreement(variant("six"), 4);
  expect_agreement(variant("seven"), 4);
  expect_agreement(variant("six", {"lasker=on"}), 4);
}

TEST(MorrisRetroSlow, AgreesWithBruteForceThreeStonesOnTheLargeBoards) {
  expect_agreement(variant("standard"), 3);
  expect_agreement(variant("morabaraba"), 3);
  expect_agreement(variant("lasker"), 3);
}

TEST(MorrisRetroSlow, AgreesWithBruteForceUnderEveryOption) {
  for (const Morris& game : rule_sets()) expect_agreement(game, game.geometry().points() == 24 ? 3 : 5);
}

// ---------------------------------------------------------------------------------
// Published values (De Clercq: Five and Six Men's Morris are draws; Seven Men's Morris
// is a first-player win in 25, and only by placing the first stone on c3).

TEST(MorrisFactsSlow, FiveSixAndSevenMensMorris) {
  {
    const Morris game = variant("five");
    TempDir dir;
    test::build(game, dir.path(), 5, default_threads());
    EXPECT_EQ(value_of(game, dir.path(), "start"), Value::draw());
  }
  {
    const Morris game = variant("six");
    TempDir dir;
    test::build(game, dir.path(), 6, default_threads());
    EXPECT_EQ(value_of(game, dir.path(), "start"), Value::draw());
  }
  const Morris game = variant("seven");
  TempDir dir;
  test::build(game, dir.path(), 7, default_threads());
  EXPECT_EQ(value_of(game, dir.path(), "start"), Value::win(25));
  const Geometry& board = game.geometry();
  for (int p = 0; p < board.points(); ++p) {
    const std::string after = "W:" + board.point_name(p) + " B: b 6 7";
    const Value value = value_of(game, dir.path(), after);
    if (board.point_name(p) == "c3") {
      EXPECT_EQ(value, Value::loss(24));
    } else {
      EXPECT_TRUE(value.is_win()) << after << " " << value.to_string();
    }
  }
}

// ---------------------------------------------------------------------------------
// Rules and options.

std::vector<std::string> move_texts(const Morris& game, std::string_view position) {
  const Position pos = game.parse_position(position);
  MoveList<Morris> moves;
  game.moves(pos, moves);
  std::vector<std::string> texts;
  for (const Move& move : moves) texts.push_back(game.move_text(pos, move));
  std::sort(texts.begin(), texts.end());
  return texts;
}

TEST(MorrisRules, PlacementMillRemovesOneStone) {
  const Morris game;
  // d1 closes a1-d1-g1; Black's b2 and b4 may go, not the mill b6... (Black has none).
  const auto texts = move_texts(game, "W:a1,g1 B:b2,b4 w 7 7");
  EXPECT_EQ(
      std::count_if(texts.begin(), texts.end(), [](const std::string& t) { return t.starts_with("d1"); }), 2);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "d1xb2"), texts.end());
  EXPECT_EQ(std::find(texts.begin(), texts.end(), "d1"), texts.end());
  EXPECT_EQ(texts.size(), 20U + 1U);  // 20 empty points, d1 with two removals
  // Two mills closed at once still remove one stone.
  const auto both = move_texts(game, "W:a1,g1,d2,d3 B:b2,f2,b6 w 5 6");
  EXPECT_EQ(
      std::count_if(both.begin(), both.end(), [](const std::string& t) { return t.starts_with("d1x"); }), 3);
}

TEST(MorrisRules, RemovalOption) {
  // Black's a7-d7-g7 is a mill, b4 is not.
  const std::string pos = "W:a1,g1 B:a7,d7,g7,b4 w 5 5";
  auto removals = [&](const Morris& game) {
    std::set<std::string> result;
    for (const std::string& t : move_texts(game, pos)) {
      if (t.starts_with("d1x")) result.insert(t.substr(3));
    }
    return result;
  };
  EXPECT_EQ(removals(variant("standard")), (std::set<std::string>{"b4"}));
  EXPECT_EQ(removals(variant("standard", {"removal=not_from_mill"})), (std::set<std::string>{"b4"}));
  EXPECT_EQ(removals(variant("standard", {"removal=any"})), (std::set<std::string>{"a7", "d7", "g7", "b4"}));
  // Every Black stone in a mill: the standard rule takes any, not_from_mill none.
  const std::string all_milled = "W:a1,g1 B:a7,d7,g7 w 5 5";
  const auto standard = move_texts(variant("standard"), all_milled);
  EXPECT_NE(std::find(standard.begin(), standard.end(), "d1xd7"), standard.end());
  const auto never = move_texts(variant("standard", {"removal=not_from_mill"}), all_milled);
  EXPECT_NE(std::find(never.begin(), never.end(), "d1"), never.end());
}

TEST(MorrisRules, FlyingOption) {
  // White has 3 stones (flies at 3), Black has 4 (flies only with flying=4).
  const std::string white = "W:a1,d1,b4 B:g7,d7,f6,f4 w 0 0";
  const std::string black = "W:a1,d1,b4 B:g7,d7,f6,f4 b 0 0";
  // 3 stones x 17 empty points; b4-g1 closes a1-d1-g1 and removes one of 4 stones.
  EXPECT_EQ(move_texts(variant("standard"), white).size(), 3U * 17U - 1U + 4U);
  // Slides: a1-a4, d1-g1, d1-d2, b4 to a4, c4, b2, b6.
  EXPECT_EQ(move_texts(variant("standard", {"flying=off"}), white).size(), 7U);
  // Slides: g7-g4, d7-a7, d7-d6, f6-d6, f4 to f2, g4, e4.
  EXPECT_EQ(move_texts(variant("standard"), black).size(), 7U);
  // 4 x 17 flights; f6-a7, f4-a7 (a7-d7-g7), g7-f2, d7-f2 (f2-f4-f6) each remove one of 3.
  EXPECT_EQ(move_texts(variant("standard", {"flying=4"}), black).size(), 4U * 17U + 4U * 2U);
}

TEST(MorrisRules, LaskerMovesWhileStonesInHand) {
  const std::string pos = "W:a1,d2 B:g7 w 8 9";
  EXPECT_EQ(move_texts(variant("standard"), pos).size(), 21U);
  // Lasker: 21 placements and the slides a1-a4, a1-d1, d2-d1, d2-d3, d2-b2, d2-f2.
  EXPECT_EQ(move_texts(variant("lasker"), pos).size(), 21U + 6U);
}

TEST(MorrisRules, FullBoardDrawOption) {
  // Morabaraba: 12 stones each fill the board; find a filling without a mill of either.
  const Morris morabaraba = variant("morabaraba");
  const Geometry& board = morabaraba.geometry();
  Position full;
  for (std::uint32_t set = (1U << 12) - 1; set <= board.full();) {
    if (board.in_mills(set) == 0 && board.in_mills(board.full() & ~set) == 0) {
      full.stones = {set, board.full() & ~set};
      break;
    }
    const std::uint32_t low = set & (~set + 1);
    const std::uint32_t ripple = set + low;
    set = (((ripple ^ set) >> 2) / low) | ripple;
  }
  ASSERT_NE(full.stones[0], 0U);
  EXPECT_EQ(morabaraba.terminal(full), Value::draw());
  // Without the option the side to move is blocked, and loses.
  const Morris without = variant("morabaraba", {"full_board_draw=off"});
  EXPECT_EQ(without.terminal(full), std::nullopt);
  MoveList<Morris> moves;
  without.moves(full, moves);
  EXPECT_TRUE(moves.empty());
  EXPECT_EQ(Morris::no_move_value(), Value::loss(0));
  // One stone short of full, the last placement decides.
  Position last = full;
  last.stones[1] &= last.stones[1] - 1;
  last.hand[1] = 1;
  last.side = 1;
  morabaraba.moves(last, moves);
  ASSERT_EQ(moves.size(), 1U);
  EXPECT_EQ(morabaraba.terminal(Morris::play(last, moves[0])), Value::draw());
}

TEST(MorrisRules, EndsOfTheGame) {
  const Morris game;
  // Black, to move, has two stones left: lost.
  EXPECT_EQ(game.terminal(game.parse_position("W:a1,d1,g1 B:b2,b4 b 0 0")), Value::loss(0));
  EXPECT_EQ(game.terminal(game.parse_position("W:a1,d1,g1 B:b2 b 0 2")), std::nullopt);
  // Black's four corner stones are blocked (no flying with four): no legal move.
  const Position blocked = game.parse_position("W:d1,a4,g4,d7 B:a1,g1,a7,g7 b 0 0");
  EXPECT_EQ(game.terminal(blocked), std::nullopt);
  MoveList<Morris> moves;
  game.moves(blocked, moves);
  EXPECT_TRUE(moves.empty());
  // With three, Black flies.
  game.moves(game.parse_position("W:d1,a4,g4,d7 B:a1,g1,a7 b 0 0"), moves);
  EXPECT_EQ(moves.size(), 3U * 17U);
}

// How many values of the sectors with up to `stones` stones a side on the small board
// (brute force) differ between the small board with flying at 3 and the same with a rule
// option more.
std::uint64_t values_changed_by(const std::string& rule, int stones) {
  auto solve = [&](const Morris& game) {
    return test::brute_force(game, test::closure(game, game.tiers(stones)), default_threads());
  };
  const auto base = solve(variant("six", {"flying=3"}));
  const auto other = solve(variant("six", {"flying=3", rule}));
  std::uint64_t differ = 0;
  std::uint64_t compared = 0;
  for (const auto& [tier, codes] : other.codes) {
    const auto it = base.codes.find(tier);
    if (it == base.codes.end() || it->second.size() != codes.size()) continue;
    for (std::size_t i = 0; i < codes.size(); ++i) {
      ++compared;
      differ += codes[i] != it->second[i] ? 1 : 0;
    }
  }
  EXPECT_GT(compared, 100000U) << rule;
  return differ;
}

TEST(MorrisOptionsSlow, FlyingOffChangesValues) { EXPECT_GT(values_changed_by("flying=off", 4), 0U); }
TEST(MorrisOptionsSlow, FlyingAtFourChangesValues) { EXPECT_GT(values_changed_by("flying=4", 4), 0U); }
TEST(MorrisOptionsSlow, NotFromMillChangesValues) {
  EXPECT_GT(values_changed_by("removal=not_from_mill", 4), 0U);
}
TEST(MorrisOptionsSlow, LaskerChangesValues) { EXPECT_GT(values_changed_by("lasker=on", 4), 0U); }
// Taking a stone from a mill while others stand outside needs 4 stones a side; the
// values differ only with 5.
TEST(MorrisOptionsSlow, RemoveAnyChangesValues) {
  EXPECT_EQ(values_changed_by("removal=any", 4), 0U);
  EXPECT_GT(values_changed_by("removal=any", 5), 0U);
}

// ---------------------------------------------------------------------------------
// Text and bad input.

TEST(MorrisInput, PositionAndMoveText) {
  const Morris game;
  const Position pos = game.parse_position("W:a1,d2 B:g7 b 7 8");
  EXPECT_EQ(pos.stones[0], (1U << game.geometry().point("a1")) | (1U << game.geometry().point("d2")));
  EXPECT_EQ(pos.hand[1], 8);
  EXPECT_EQ(pos.side, 1);
  EXPECT_EQ(game.position_text(pos), "W:a1,d2 B:g7 b 7 8");
  EXPECT_EQ(game.position_text(game.start()), "W: B: w 9 9");
  EXPECT_EQ(game.position_text(game.parse_position("W:- B:- w 9 9")), "W: B: w 9 9");
  const Position moving = game.parse_position("W:a1,d1,b4,g4 B:a7,d7,f6,b6 w 0 0");
  EXPECT_EQ(game.move_text(moving, game.parse_move(moving, "b4-c4")), "b4-c4");
  EXPECT_EQ(game.move_text(moving, game.parse_move(moving, "g4-g1xf6")), "g4-g1xf6");
}

TEST(MorrisInput, MalformedPositionsThrow) {
  const Morris game;
  for (const char* bad :
       {"", "W:a1 B:b2 w 9", "W:a1 B:b2 x 9 9", "W:a1 B:b2 w -1 9", "W:z9 B: w 9 9", "W:a1 B:a1 w 9 9",
        "W:a2 B: w 9 9", "B:a1 W: w 9 9", "W:a1 B:b2 w 9 40", "W:a1,d1 B:g7 w 0 1"}) {
    EXPECT_THROW((void)game.parse_position(bad), Error) << bad;
  }
  // The small board has no d1... it has c1.
  EXPECT_THROW((void)variant("six").parse_position("W:d1 B: w 5 5"), Error);
  EXPECT_NO_THROW((void)variant("six").parse_position("W:c1 B: w 5 6"));
}

// A side never has more stones, on the board and in hand, than half the board's points
// (the most the rules let it start with, and the most the tiers hold).
TEST(MorrisInput, MoreStonesThanTheBoardAllowsThrow) {
  const Morris game;
  for (const char* bad : {"W: B: w 31 31", "W:a1 B: w 12 9", "W: B:a1,d1 w 9 11", "W: B: b 0 13"}) {
    try {
      (void)game.parse_position(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find("more than the 12 a side can have"), std::string::npos)
          << error.what();
    }
  }
  EXPECT_NO_THROW((void)game.parse_position("W:a1 B:d1 w 11 11"));
  // Six Men's Morris: 16 points, at most 8 stones a side; ten are refused.
  EXPECT_THROW((void)variant("six").parse_position("W:c1 B: w 9 6"), Error);
  EXPECT_THROW((void)variant("six").parse_position("W: B: w 6 9"), Error);
  EXPECT_NO_THROW((void)variant("six").parse_position("W: B: w 8 8"));
}

TEST(MorrisInput, MalformedAndIllegalMovesThrow) {
  const Morris game;
  const Position placing = game.parse_position("W:a1,g1 B:b2,b4 w 7 7");
  for (const char* bad : {"", "z9", "a1", "a1-a4", "d1", "d1xa1", "d1xz9", "d2xb2", "d1xb2xb4"}) {
    EXPECT_THROW((void)game.parse_move(placing, bad), Error) << bad;
  }
  const Position moving = game.parse_position("W:a1,d1,b4,g4 B:a7,d7,f6,b6 w 0 0");
  for (const char* bad : {"d2", "a1-g7", "a7-a4", "b4-b6", "g4-g1", "g4-g1xd1"}) {
    EXPECT_THROW((void)game.parse_move(moving, bad), Error) << bad;
  }
  EXPECT_THROW((void)game.parse_move(game.parse_position("W:a1,d1,g1 B:b2,b4 b 0 0"), "b2-d2"), Error);
}

TEST(MorrisInput, VariantsAndOptions) {
  EXPECT_EQ(variant("standard").options(), Options{});
  EXPECT_EQ(variant("lasker").start().hand[0], 10);
  EXPECT_TRUE(variant("lasker").options().lasker);
  EXPECT_EQ(variant("morabaraba").start().hand[1], 12);
  EXPECT_TRUE(variant("morabaraba").options().full_board_draw);
  EXPECT_EQ(variant("five").geometry().points(), 16);
  EXPECT_EQ(variant("seven").geometry().points(), 17);
  EXPECT_EQ(variant("six").options().flying, 0);
  EXPECT_EQ(variant("standard", {"white_stones=4", "black_stones=5"}).start().hand,
            (std::array<std::uint8_t, 2>{4, 5}));
  EXPECT_EQ(variant("standard", {"flying=4", "removal=any"}).rule_text(), "flying=4,removal=any");
  EXPECT_EQ(variant("lasker", {"lasker=on"}).rule_text(), "");
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"flying=2"},
                                              {"flying=yes"},
                                              {"removal=some"},
                                              {"lasker=maybe"},
                                              {"stones=2"},
                                              {"stones=13"},
                                              {"colour=red"},
                                              {"stones"}}) {
    EXPECT_THROW((void)variant("standard", bad), Error) << bad[0];
  }
  EXPECT_THROW((void)variant("twelve"), Error);
}

TEST(MorrisTiers, NamesChildrenAndPairs) {
  const Morris game;
  EXPECT_EQ(Morris::tier_name(game.parse_tier("8-8-0-0")), "8-8-0-0");
  // 7-8-0-0 is stored with 8-7-0-0? The smaller code names the pair: 8-7 has w=8, b=7.
  const Sector s{7, 8, 0, 0};
  EXPECT_EQ(game.tier_of(s), game.tier_of(s.swapped()));
  EXPECT_THROW((void)game.parse_tier(Morris::tier_name(std::max(s.code(), s.swapped().code()))), Error);
  EXPECT_THROW((void)game.parse_tier("2-8-0-0"), Error);
  EXPECT_THROW((void)game.parse_tier("8-8-0"), Error);
  // Placement sectors stand alone; their moves lead into the sector after the placement.
  const Tier placing = game.parse_tier("2-2-7-7");
  EXPECT_EQ(game.size(placing), game.sector_size({2, 2, 7, 7}));
  const std::vector<Tier> children = game.children(placing);
  EXPECT_NE(std::find(children.begin(), children.end(), game.tier_of({2, 3, 7, 6})), children.end());
  // A movement sector and its twin are one tier.
  const Tier moving = game.tier_of({5, 4, 0, 0});
  EXPECT_EQ(game.size(moving), game.sector_size({5, 4, 0, 0}) + game.sector_size({4, 5, 0, 0}));
  // The standard game's start needs every tier up to 9 stones a side.
  EXPECT_GT(game.tiers(9).size(), 400U);
}

}  // namespace
}  // namespace gs::morris
