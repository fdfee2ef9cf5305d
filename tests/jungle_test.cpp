// Jungle Checkers: the generic game battery (tests/game_battery.h) instantiated for
// gs::jungle::Jungle, the facts of docs/games/jungle.md computed by brute-force enumeration
// of raw positions, the rules, the index sizes, and rejection of bad input.
//
// Suites whose name ends in "Slow" are the exhaustive passes (ctest label "slow"); the
// others run in seconds even in sanitizer builds (label "fast").
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "games/jungle/jungle.h"
#include "tests/game_battery.h"
#include "tests/test_util.h"

namespace gs::jungle {
namespace {

using test::Failures;
using test::IndexCounts;

constexpr std::uint64_t kSeed = 20240611;

// ---------------------------------------------------------------------------------
// Brute-force enumeration of raw positions, independent of the index: every material,
// every placement of its pieces on the 49 squares, both sides to move.

std::uint64_t falling(std::uint64_t from, int count) {
  std::uint64_t product = 1;
  for (int i = 0; i < count; ++i) product *= from - static_cast<std::uint64_t>(i);
  return product;
}

// Whether a raw position could stand on the board between two moves of a game: no piece
// in its own den, the side to move not in the opponent's den (the game would have ended
// before), and the side not to move has a piece (likewise).
bool legal(const Position& pos) {
  bool other_has = false;
  for (int piece = 0; piece < kPieceKinds; ++piece) {
    const int square = pos.square[static_cast<std::size_t>(piece)];
    if (square == kNone) continue;
    if (square == den_of(colour_of(piece))) return false;
    if (colour_of(piece) == pos.side && square == den_of(pos.side ^ 1)) return false;
    if (colour_of(piece) != pos.side) other_has = true;
  }
  return other_has;
}

std::uint64_t key_of(const Position& pos) {
  std::uint64_t key = pos.side;
  for (const std::uint8_t square : pos.square) key = key << 7 | (square == kNone ? 127U : square);
  return key;
}

// Calls visit(pos) for every raw position with `pieces` pieces (any colours), both sides.
template <class Visit>
void for_each_raw_position(int pieces, Visit&& visit) {
  for (unsigned material = 0; material < 256; ++material) {
    if (std::popcount(material) != pieces) continue;
    std::vector<int> order;
    for (int piece = 0; piece < kPieceKinds; ++piece) {
      if ((material >> piece & 1U) != 0) order.push_back(piece);
    }
    Position pos;
    std::uint64_t occupied = 0;
    auto place = [&](auto& self, std::size_t i) -> void {
      if (i == order.size()) {
        for (std::uint8_t side = 0; side < 2; ++side) {
          pos.side = side;
          visit(pos);
        }
        return;
      }
      for (int square = 0; square < kSquares; ++square) {
        if ((occupied >> square & 1U) != 0) continue;
        occupied |= std::uint64_t{1} << square;
        pos.square[static_cast<std::size_t>(order[i])] = static_cast<std::uint8_t>(square);
        self(self, i + 1);
        occupied &= ~(std::uint64_t{1} << square);
      }
      pos.square[static_cast<std::size_t>(order[i])] = kNone;
    };
    place(place, 0);
  }
}

struct RawCounts {
  std::uint64_t positions = 0;   // legal, not over: both colours present, none in a den
  std::uint64_t stalemates = 0;  // ... of which the side to move has no legal move
};

// Raw counts for `pieces` pieces; adds to `ends` every end position reached by a move of
// a counted position (keyed by key_of), when that end position has `end_pieces` pieces.
RawCounts raw_counts(const Jungle& game, int pieces, int end_pieces,
                     std::unordered_set<std::uint64_t>& ends) {
  RawCounts counts;
  MoveList<Jungle> moves;
  for_each_raw_position(pieces, [&](const Position& pos) {
    if (!legal(pos) || game.terminal(pos)) return;
    ++counts.positions;
    game.moves(pos, moves);
    if (moves.empty()) ++counts.stalemates;
    for (const Move& move : moves) {
      const Position next = Jungle::play(pos, move);
      if (Jungle::terminal(next) && std::popcount(next.material()) == end_pieces) ends.insert(key_of(next));
    }
  });
  return counts;
}

// Orbit-weighted counts over every index of the tiers with exactly `pieces` pieces,
// checking rank/unrank/symmetric on each (the battery's exhaustive pass).
IndexCounts canonical_counts(const Jungle& game, int pieces, bool count_moves, Failures& failures) {
  IndexCounts total;
  for (const Tier tier : test::tiers_with_pieces(game, pieces, pieces, pieces)) {
    total += test::check_tier_exhaustive(game, tier, count_moves, default_threads(), failures);
  }
  return total;
}

// ---------------------------------------------------------------------------------
// The battery: fast passes.

TEST(JungleBattery, RankUnrankExhaustiveTwoPieces) {
  const Jungle game;
  Failures failures;
  const IndexCounts counts = canonical_counts(game, 2, true, failures);
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_EQ(counts.indices, 16U * 1091U);  // 16 two-piece materials, 1091 pairs each
  EXPECT_EQ(counts.holes, 0U);             // two pieces: no holes
  EXPECT_EQ(counts.positions, 69184U);
  EXPECT_EQ(counts.terminal, 0U);
  EXPECT_EQ(counts.no_move, 0U);
}

TEST(JungleBattery, RankUnrankSampledThreeToEightPieces) {
  const Jungle game;
  for (int pieces = 3; pieces <= 8; ++pieces) {
    Failures failures;
    const auto tiers = test::tiers_with_pieces(game, 8, pieces, pieces);
    ASSERT_FALSE(tiers.empty());
    const IndexCounts counts =
        test::check_tiers_sampled(game, tiers, 3000, kSeed + pieces, default_threads(), failures);
    GS_EXPECT_NO_FAILURES(failures) << pieces << " pieces";
    EXPECT_EQ(counts.indices, 3000U);
    EXPECT_GT(counts.positions, 0U);
  }
}

TEST(JungleBattery, MovesAndUnmovesAgreeSampled) {
  const Jungle game;
  const auto positions = test::sample_positions(game, game.tiers(5), 20, kSeed);
  ASSERT_GT(positions.size(), 1000U);
  Failures failures;
  for (const Position& pos : positions) test::check_moves_and_unmoves(game, pos, failures);
  GS_EXPECT_NO_FAILURES(failures);
}

// The solver ranks predecessors through unmove_indices, and takes them as distinct where
// the position has no symmetry: sampled positions (symmetric copies among them, so that
// colour-flipped tiers are ranked too), and positions with every piece on the d-file,
// whose predecessors meet in pairs of mirror images.
TEST(JungleBattery, TierMoveHooksKeepTheirPromises) {
  const Jungle game;
  auto positions = test::sample_positions(game, game.tiers(5), 20, kSeed + 2);
  ASSERT_GT(positions.size(), 1000U);
  for (const char* text : {"7/3e3/7/3d3/7/3D3/7 w", "7/3r3/3e3/7/3T3/7/7 b", "7/7/3t3/3R3/3e3/3D3/7 w"})
    positions.push_back(game.parse_position(text));
  Failures failures;
  std::size_t plain = 0;
  std::size_t unmoves = 0;
  for (const Position& pos : positions) {
    plain += test::check_tier_move_hooks(game, pos, failures) ? 1 : 0;
    test::check_unmove_indices(game, pos, failures);
    UnmoveList<Jungle> previous;
    game.unmoves(pos, previous);
    unmoves += previous.size();
  }
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_GT(plain, positions.size() / 2);
  EXPECT_LT(plain, positions.size());
  EXPECT_GT(unmoves, positions.size());
}

// The scan decides the positions that win at once without examining their moves
// (wins_at_once: exactly those with a move to a lost end), and propagation leaves out the
// predecessors that win at once (open_unmove_indices): each one left out has a move to a
// lost end (the battery's check), and, in Jungle, each one kept has none, so that exactly
// the wins in one are left out: by den entry, and by capturing the last piece, which with
// elephant_takes_rat=off an elephant cannot do to a rat.
TEST(JungleBattery, WinsInOneAreFoundExactly) {
  for (const Jungle& game : {Jungle(), Jungle::from_options("standard", {"elephant_takes_rat=off"})}) {
    auto positions = test::sample_positions(game, game.tiers(5), 20, kSeed + 7);
    ASSERT_GT(positions.size(), 1000U);
    // White's rat next to Black's last piece, an elephant; White's dog next to Black's
    // den; every piece on the d-file.
    for (const char* text : {"7/7/7/3e3/3R3/7/2D4 b", "7/3D3/7/2r4/7/3E3/7 b", "7/3e3/7/3d3/7/3D3/7 w"})
      positions.push_back(game.parse_position(text));
    Failures failures;
    std::size_t left_out = 0;
    std::size_t kept = 0;
    std::size_t winning = 0;
    MoveList<Jungle> moves;
    for (const Position& pos : positions) {
      winning += test::check_wins_at_once(game, pos, failures) ? 1 : 0;
      left_out += test::check_open_unmove_indices(game, pos, failures);
      SmallVector<Index, Jungle::kMaxUnmoves> open;
      const Tier tier = game.rank(pos).tier;
      game.open_unmove_indices(tier, pos, open);
      for (const Index index : open) {
        const Position before = *game.unrank(tier, index);
        game.moves(before, moves);
        for (const auto& move : moves) {
          const std::optional<Value> end = game.terminal(Jungle::play(before, move));
          if (end && end->is_loss())
            failures.add(game.position_text(pos) + ": keeps predecessor " + game.position_text(before) +
                         ", which wins at once by " + Jungle::move_text(before, move));
        }
        ++kept;
      }
    }
    GS_EXPECT_NO_FAILURES(failures) << game.rule_text();
    EXPECT_GT(left_out, positions.size() / 20) << game.rule_text();
    EXPECT_GT(kept, 4 * left_out) << game.rule_text();
    EXPECT_GT(winning, positions.size() / 20) << game.rule_text();
    EXPECT_LT(winning, positions.size() / 2) << game.rule_text();
  }
  // White's rat on d3 next to Black's last piece, its elephant on d4, and White's dog on
  // c1: of the five predecessors, the dog's two (from b1 and c2) leave the rat where it
  // takes the elephant at once; the rat's three (from c3, e3 and d2) are kept.
  const Jungle game;
  const Position pos = game.parse_position("7/7/7/3e3/3R3/7/2D4 b");
  SmallVector<Index, Jungle::kMaxUnmoves> all;
  SmallVector<Index, Jungle::kMaxUnmoves> open;
  game.unmove_indices(game.rank(pos).tier, pos, all);
  game.open_unmove_indices(game.rank(pos).tier, pos, open);
  EXPECT_EQ(all.size(), 5U);
  EXPECT_EQ(open.size(), 3U);
}

// The scan steps through a tier with unrank_next: every tier of up to 3 pieces whole, and
// runs of larger ones at random places, across the sides' boundary, and where both
// first pieces stand on the d-file (indices whose mirror image is smaller are holes).
TEST(JungleBattery, UnrankNextStepsAsUnrank) {
  const Jungle game;
  const Tables& t = tables();
  std::mt19937_64 random(kSeed + 6);
  Failures failures;
  std::uint64_t compared = 0;
  std::uint64_t holes = 0;
  for (const Tier tier : game.tiers(5)) {
    const Index size = game.size(tier);
    const int n = game.tier_pieces(tier);
    if (n <= 3) {
      compared += test::check_unrank_next(game, tier, 0, size, failures);
      for (Index i = 0; i < size; ++i) holes += game.unrank(tier, i) ? 0 : 1;
      continue;
    }
    for (int run = 0; run < 3; ++run)
      compared += test::check_unrank_next(game, tier, random() % size, 2000, failures);
    const Index per_side = Jungle::placements(n);
    if (size > per_side) compared += test::check_unrank_next(game, tier, per_side - 1000, 2000, failures);
    // The pair d2-d3, then d3-d2.
    const Index per_pair = per_side / kPairs;
    for (const auto& [a, b] : {std::pair{10, 17}, std::pair{17, 10}}) {
      const auto pair = static_cast<Index>(t.pair_index[t.to_compact[a]][t.to_compact[b]]);
      compared += test::check_unrank_next(game, tier, pair * per_pair, 3000, failures);
    }
  }
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_GT(compared, 1000000U);
  EXPECT_GT(holes, 0U);
}

TEST(JungleBattery, TextRoundTripSampled) {
  const Jungle game;
  const auto positions = test::sample_positions(game, game.tiers(8), 10, kSeed + 1);
  ASSERT_GT(positions.size(), 1000U);
  Failures failures;
  for (const Position& pos : positions) test::check_text_round_trip(game, pos, failures);
  test::check_start(game, failures);
  GS_EXPECT_NO_FAILURES(failures);
}

// The battery's checks can fail: a broken game is caught.
struct BrokenUnmoves : Jungle {
  void unmoves(const Position& pos, UnmoveList<Jungle>& out) const {
    Jungle::unmoves(pos, out);
    if (out.size() > 1) out.resize(out.size() - 1);  // forgets a predecessor
  }
};
struct BrokenRank : Jungle {
  [[nodiscard]] Ranked rank(const Position& pos) const {
    Ranked r = Jungle::rank(pos);
    if (pos.square[0] == 0) r.index ^= 1;  // a rat on a1 ranks one off
    return r;
  }
};
struct BrokenText : Jungle {
  [[nodiscard]] static std::string move_text(const Position& pos, const Move& move) {
    std::string text = Jungle::move_text(pos, move);
    if (text.size() > 2) text.erase(text.find('x') == std::string::npos ? 0 : 1, 1);  // drops a letter
    return text;
  }
};

TEST(JungleBattery, DetectsBrokenGames) {
  const auto positions = test::sample_positions(Jungle{}, Jungle::tiers(4), 20, kSeed + 2);
  {
    Failures failures;
    const BrokenUnmoves game;
    for (const Position& pos : positions) test::check_moves_and_unmoves(game, pos, failures);
    EXPECT_GT(failures.count(), 0U);
  }
  {
    Failures failures;
    const BrokenRank game;
    test::check_tier_exhaustive(game, Jungle::parse_tier("R-r"), false, 1, failures);
    EXPECT_GT(failures.count(), 0U);
  }
  {
    Failures failures;
    const BrokenText game;
    for (const Position& pos : positions) test::check_text_round_trip(game, pos, failures);
    EXPECT_GT(failures.count(), 0U);
  }
}

// ---------------------------------------------------------------------------------
// The battery: exhaustive and large passes.

TEST(JungleBatterySlow, RankUnrankExhaustiveUpToFourPieces) {
  const Jungle game;
  Failures failures;
  std::map<int, IndexCounts> by_pieces;
  for (const Tier tier : game.tiers(4)) {
    by_pieces[game.tier_pieces(tier)] +=
        test::check_tier_exhaustive(game, tier, false, default_threads(), failures);
  }
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_EQ(by_pieces[2].positions, 69184U);
  // Every legal 4-piece position, none in a den: 68 materials with both colours present,
  // 47*46*45*44 placements, two sides to move; each one is counted once by its canonical
  // index's symmetry class, so no position is missing (a hole) or counted twice.
  std::uint64_t materials = 0;
  for (unsigned material = 0; material < 256; ++material) {
    if (std::popcount(material) == 4 && (material & 0x55U) != 0 && (material & 0xAAU) != 0) ++materials;
  }
  EXPECT_EQ(materials, 68U);
  EXPECT_EQ(by_pieces[4].positions, 47ULL * 46 * 45 * 44 * materials * 2);
  EXPECT_EQ(by_pieces[4].terminal, 0U);
  std::uint64_t indices = 0;
  for (const Tier tier : game.tiers(4)) indices += game.size(tier);
  EXPECT_EQ(by_pieces[2].indices + by_pieces[3].indices + by_pieces[4].indices, indices);
}

TEST(JungleBatterySlow, RankUnrankSampledFiveAndSixPieces) {
  const Jungle game;
  for (int pieces = 5; pieces <= 6; ++pieces) {
    Failures failures;
    const auto tiers = test::tiers_with_pieces(game, 6, pieces, pieces);
    const IndexCounts counts =
        test::check_tiers_sampled(game, tiers, 200000, kSeed + pieces, default_threads(), failures);
    GS_EXPECT_NO_FAILURES(failures) << pieces << " pieces";
    EXPECT_EQ(counts.indices, 200000U);
    // Holes are rare: only placements with both first pieces on the d-file can be.
    EXPECT_LT(counts.holes, counts.indices / 50);
  }
}

TEST(JungleBatterySlow, MovesAndUnmovesAgreeUpToFourPieces) {
  const Jungle game;
  const auto positions = test::sample_positions(game, game.tiers(4), 2000, kSeed + 3);
  ASSERT_GT(positions.size(), 100000U);
  Failures failures;
  parallel_for(0, positions.size(), default_threads(), 1024, [&](Index begin, Index end, int) {
    for (Index i = begin; i < end; ++i) test::check_moves_and_unmoves(game, positions[i], failures);
  });
  GS_EXPECT_NO_FAILURES(failures);
}

TEST(JungleBatterySlow, TextRoundTripLarge) {
  const Jungle game;
  const auto positions = test::sample_positions(game, game.tiers(8), 500, kSeed + 4);
  Failures failures;
  parallel_for(0, positions.size(), default_threads(), 1024, [&](Index begin, Index end, int) {
    for (Index i = begin; i < end; ++i) test::check_text_round_trip(game, positions[i], failures);
  });
  GS_EXPECT_NO_FAILURES(failures);
}

// ---------------------------------------------------------------------------------
// Facts of docs/games/jungle.md, by raw enumeration and by the orbit-weighted index.

TEST(JungleFacts, TwoPiecePositionsBothSidesToMove) {
  const Jungle game;
  std::unordered_set<std::uint64_t> ends;
  const RawCounts raw = raw_counts(game, 2, 2, ends);
  EXPECT_EQ(raw.positions, 69184U);
  EXPECT_EQ(raw.positions, 16ULL * 47 * 46 * 2);
  EXPECT_EQ(raw.stalemates, 0U);
  Failures failures;
  const IndexCounts canonical = canonical_counts(game, 2, true, failures);
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_EQ(canonical.positions, raw.positions);
  EXPECT_EQ(canonical.no_move, raw.stalemates);
}

TEST(JungleFactsSlow, ThreePieceStalematesAndEndPositions) {
  const Jungle game;
  std::unordered_set<std::uint64_t> ends;  // two-piece end positions reached by a move
  const RawCounts two = raw_counts(game, 2, 2, ends);
  const RawCounts three = raw_counts(game, 3, 2, ends);
  EXPECT_EQ(three.stalemates, 48U);
  EXPECT_EQ(three.positions, 48ULL * 47 * 46 * 45 * 2);  // 48 three-piece materials with both colours
  Failures failures;
  const IndexCounts canonical = canonical_counts(game, 3, true, failures);
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_EQ(canonical.positions, three.positions);
  EXPECT_EQ(canonical.no_move, three.stalemates);
  // Every two-piece end position arises from a two-piece position (a piece enters the
  // den) or a three-piece one (a capture of the last piece).
  EXPECT_EQ(two.positions, 69184U);
  EXPECT_EQ(Jungle::end_positions(2), ends.size());
  EXPECT_EQ(Jungle::end_positions(2), 27448U);
}

TEST(JungleFacts, EndPositionsTwoPiecesByRawEnumeration) {
  // The same count without the three-piece pass: positions on the board that are over
  // by the rules, less those over twice (the side to move has no piece and its den is
  // taken), which no move produces.
  std::uint64_t over = 0;
  for_each_raw_position(2, [&](const Position& pos) {
    if (!legal(pos) || !Jungle::terminal(pos)) return;
    bool mover_has = false;
    bool den_taken = false;
    for (int piece = 0; piece < kPieceKinds; ++piece) {
      if (pos.square[static_cast<std::size_t>(piece)] == kNone) continue;
      mover_has |= colour_of(piece) == pos.side;
      den_taken |= pos.square[static_cast<std::size_t>(piece)] == den_of(pos.side);
    }
    if (mover_has || !den_taken) ++over;
  });
  EXPECT_EQ(over, Jungle::end_positions(2));
}

// ---------------------------------------------------------------------------------
// The index.

TEST(JungleIndex, PairsAreMirrorClassesOfOrderedSquarePairs) {
  // Burnside: ordered pairs of distinct non-den squares, and the pairs the mirror fixes
  // (both squares on the d-file, which has 5 non-den squares).
  const std::uint64_t pairs = 47 * 46;
  const std::uint64_t fixed = 5 * 4;
  EXPECT_EQ(static_cast<std::uint64_t>(kPairs), (pairs + fixed) / 2);
  EXPECT_EQ(Jungle::placements(2), 1091U);
  EXPECT_EQ(Jungle::placements(4), 1091ULL * 45 * 44);
  // Better than Vos's baseline of 26 * 46 * 45 * ... per material and side to move.
  for (int n = 2; n <= 8; ++n) EXPECT_LT(Jungle::placements(n), 26 * falling(46, n - 1)) << n;
}

TEST(JungleIndex, TiersCoverEveryMaterialOnce) {
  for (int n = 2; n <= 8; ++n) {
    std::uint64_t sides = 0;  // material-and-side combinations the tiers store
    for (const Tier tier : Jungle::tiers(n)) {
      if (Jungle::tier_pieces(tier) != n) continue;
      ASSERT_EQ(Jungle::size(tier) % Jungle::placements(n), 0U);
      sides += Jungle::size(tier) / Jungle::placements(n);
      EXPECT_EQ(Jungle::parse_tier(Jungle::tier_name(tier)), tier);
    }
    std::uint64_t materials = 0;
    for (unsigned material = 0; material < 256; ++material) {
      if (std::popcount(material) == n && (material & 0x55U) != 0 && (material & 0xAAU) != 0) ++materials;
    }
    // Each material with both colours and each side to move, up to colour symmetry.
    EXPECT_EQ(sides, materials) << n << " pieces";
  }
  EXPECT_EQ(Jungle::tiers(2).size(), 10U);
  EXPECT_EQ(Jungle::tier_name(Jungle::parse_tier("RD-r")), "RD-r");
  EXPECT_THROW((void)Jungle::parse_tier("R-rd"), Error);  // Black's set stronger: not canonical
  EXPECT_THROW((void)Jungle::parse_tier("RD-"), Error);
  EXPECT_THROW((void)Jungle::parse_tier("X-r"), Error);
}

TEST(JungleIndex, Children) {
  auto names = [](const std::string& tier) {
    std::set<std::string> result;
    for (const Tier child : Jungle::children(Jungle::parse_tier(tier)))
      result.insert(Jungle::tier_name(child));
    return result;
  };
  EXPECT_EQ(names("R-r"), std::set<std::string>{});
  EXPECT_EQ(names("RD-r"), (std::set<std::string>{"R-r", "D-r"}));
  // Removing White's elephant leaves T-te, named by colour symmetry as TE-t.
  EXPECT_EQ(names("TE-te"), (std::set<std::string>{"TE-t", "TE-e"}));
}

// ---------------------------------------------------------------------------------
// Rules.

TEST(JungleRules, StartPosition) {
  const Jungle game;
  const Position start = game.start();
  EXPECT_EQ(Jungle::position_text(start), "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w");
  MoveList<Jungle> moves;
  game.moves(start, moves);
  std::set<std::string> texts;
  for (const Move& move : moves) texts.insert(Jungle::move_text(start, move));
  EXPECT_EQ(texts, (std::set<std::string>{"Ea1", "Eb2", "Ec1", "Rf2", "Re1", "Rg1", "Dc3", "Dc1", "Db2",
                                          "Dd2", "Te3", "Te1", "Td2", "Tf2"}));
  EXPECT_EQ(game.parse_move(start, "b1b2"), game.parse_move(start, "Eb2"));
}

TEST(JungleRules, Captures) {
  const Jungle standard;
  const Jungle no_elephant_takes_rat = Jungle::from_options("standard", {"elephant_takes_rat=off"});
  enum { R, r, D, d, T, t, E, e };
  EXPECT_TRUE(standard.can_capture(R, e));  // the rat takes the elephant
  EXPECT_TRUE(standard.can_capture(E, r));  // the elephant takes the rat (option, default on)
  EXPECT_FALSE(no_elephant_takes_rat.can_capture(E, r));
  EXPECT_TRUE(no_elephant_takes_rat.can_capture(r, E));
  EXPECT_TRUE(standard.can_capture(D, r));
  EXPECT_TRUE(standard.can_capture(d, D));  // equal strength
  EXPECT_FALSE(standard.can_capture(R, d));
  EXPECT_FALSE(standard.can_capture(T, e));
  EXPECT_FALSE(standard.can_capture(R, t));
  // On the board: the rat takes the elephant; the dog may not take the tiger.
  const Position pos = standard.parse_position("7/7/7/2eR3/2tD3/7/7 w");
  MoveList<Jungle> moves;
  standard.moves(pos, moves);
  std::set<std::string> texts;
  for (const Move& move : moves) texts.insert(Jungle::move_text(pos, move));
  EXPECT_TRUE(texts.contains("Rxc4"));
  EXPECT_FALSE(texts.contains("Dxc3"));
  EXPECT_THROW((void)standard.parse_move(pos, "Dxc3"), Error);
}

TEST(JungleRules, EndsOfTheGame) {
  const Jungle game;
  // Entering the opponent's den wins: the opponent, to move, has lost in 0.
  Position pos = game.parse_position("7/3R3/7/7/7/7/r6 w");
  Position next = Jungle::play(pos, game.parse_move(pos, "Rd7"));
  EXPECT_EQ(Jungle::terminal(next), Value::loss(0));
  // Capturing the last piece wins.
  pos = game.parse_position("7/7/7/7/7/Dd5/7 b");
  next = Jungle::play(pos, game.parse_move(pos, "dxa2"));
  EXPECT_EQ(Jungle::terminal(next), Value::loss(0));
  // A piece may not enter its own den.
  pos = game.parse_position("7/7/7/7/7/7/2R1r2 w");
  EXPECT_THROW((void)game.parse_move(pos, "Rd1"), Error);
  // No move: a draw by default, a loss with stalemate=loss. Black's rat in the corner
  // a7 is blocked by White's dog on a6 and White's tiger on b7.
  const Jungle stalemate_loses = Jungle::from_options("", {"stalemate=loss"});
  pos = game.parse_position("rT5/D6/7/7/7/7/7 b");
  MoveList<Jungle> moves;
  game.moves(pos, moves);
  EXPECT_TRUE(moves.empty());
  EXPECT_FALSE(Jungle::terminal(pos).has_value());
  EXPECT_EQ(game.no_move_value(), Value::draw());
  EXPECT_EQ(stalemate_loses.no_move_value(), Value::loss(0));
}

// ---------------------------------------------------------------------------------
// Bad input.

TEST(JungleInput, MalformedPositionsThrow) {
  const Jungle game;
  struct Case {
    const char* text;
    const char* what;  // a part of the message
  };
  const Case cases[] = {
      {"", "no side to move"},
      {"1r3e1/2t1d2/7/7/7/2D1T2/1E3R1", "no side to move"},
      {"1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 x", "side to move"},
      {"1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 white", "side to move"},
      {"1r3e1/2t1d2/7/7/7/2D1T2 w", "7 ranks"},
      {"1r3e1/2t1d2/7/7/7/7/2D1T2/1E3R1 w", "more than 7 ranks"},
      {"1r3e2/2t1d2/7/7/7/2D1T2/1E3R1 w", "more than 7 squares"},
      {"1r3e1R/2t1d2/7/7/7/2D1T2/1E3R1 w", "more than 7 squares"},
      {"1r3e/2t1d2/7/7/7/2D1T2/1E3R1 w", "expected 7"},
      {"1r3e1/2t1d2/7/7/7/2D1T2/1E3R w", "expected 7 ranks of 7 squares"},
      {"1x3e1/2t1d2/7/7/7/2D1T2/1E3R1 w", "not a piece"},
      {"1r3e1/2t1d2/7/7/7/2D1T2/1E3R0 w", "not a piece"},
      {"1r3r1/2t1d2/7/7/7/2D1T2/1E3R1 w", "two of Black's rat"},
      {"7/7/7/7/7/7/3R3 b", "own den"},
      {"3r3/7/7/7/7/2D4/7 w", "own den"},
      {"3R3/7/7/7/7/7/r6 w", "opponent's den"},
      {"7/7/7/7/7/7/R6 w", "side not to move has no piece"},
      {"7/7/7/7/7/7/7 w", "side not to move has no piece"},
  };
  for (const Case& c : cases) {
    try {
      (void)game.parse_position(c.text);
      ADD_FAILURE() << "'" << c.text << "' was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(c.what), std::string::npos)
          << "'" << c.text << "': message '" << e.what() << "' lacks '" << c.what << "'";
    }
  }
  // Surrounding spaces are fine; so is a terminal position the opponent just reached.
  EXPECT_EQ(game.parse_position("  start \n"), game.start());
  EXPECT_TRUE(Jungle::terminal(game.parse_position("7/7/7/7/7/7/2Rr3 w")).has_value());
}

TEST(JungleInput, MalformedAndIllegalMovesThrow) {
  const Jungle game;
  const Position start = game.start();
  struct Case {
    const char* text;
    const char* what;
  };
  const Case cases[] = {
      {"", "is not a move"},      {"Z2b", "is not a move"}, {"E", "not a square"}, {"Ex", "not a square"},
      {"Eh9", "not a square"},    {"Eb22", "not a square"}, {"Eb3", "illegal"},  // two squares away
      {"Ec2", "illegal"},                                                        // diagonal
      {"eb6", "White to move"},                                                  // Black's piece
      {"a1a2", "no piece on a1"}, {"b1b3", "illegal"},      {"c2c4", "illegal"},
  };
  for (const Case& c : cases) {
    try {
      (void)game.parse_move(start, c.text);
      ADD_FAILURE() << "'" << c.text << "' was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(c.what), std::string::npos)
          << "'" << c.text << "': message '" << e.what() << "' lacks '" << c.what << "'";
    }
  }
  // A piece that is not on the board, and a move after the game is over.
  const Position two = game.parse_position("7/7/2r4/7/3E3/7/7 w");
  EXPECT_THROW((void)game.parse_move(two, "Rd2"), Error);
  const Position over = game.parse_position("7/7/7/7/7/7/2Rr3 w");
  EXPECT_THROW((void)game.parse_move(over, "Rb1"), Error);
}

TEST(JungleInput, RuleOptions) {
  const Jungle standard = Jungle::from_options("", {});
  EXPECT_TRUE(standard.options().elephant_takes_rat);
  EXPECT_FALSE(standard.options().stalemate_loses);
  EXPECT_EQ(standard.rule_text(), "");
  const Jungle both = Jungle::from_options("standard", {"elephant_takes_rat=off", "stalemate=loss"});
  EXPECT_FALSE(both.options().elephant_takes_rat);
  EXPECT_TRUE(both.options().stalemate_loses);
  EXPECT_EQ(both.rule_text(), "elephant_takes_rat=off,stalemate=loss");
  EXPECT_EQ(Jungle::from_options("", {"stalemate=loss"}).rule_text(), "stalemate=loss");
  EXPECT_EQ(Jungle::from_options("", {"elephant_takes_rat=on", "stalemate=draw"}).rule_text(), "");

  const std::vector<std::vector<std::string>> bad = {
      {"foo=1"}, {"elephant_takes_rat"}, {"elephant_takes_rat=maybe"},         {"stalemate=win"},
      {"=on"},   {"stalemate"},          {"elephant_takes_rat=off", "bogus=2"}};
  for (const auto& options : bad) {
    try {
      (void)Jungle::from_options("", options);
      ADD_FAILURE() << options.back() << " was accepted";
    } catch (const Error& e) {
      EXPECT_GT(std::string(e.what()).size(), 10U);
    }
  }
  EXPECT_THROW((void)Jungle::from_options("chinese", {}), Error);
  EXPECT_THROW((void)Jungle::from_options("Standard", {}), Error);
}

}  // namespace
}  // namespace gs::jungle
