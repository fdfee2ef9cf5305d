// Dobutsu shogi: the rules against an independent mover written here (perft from the
// start and from positions with pieces in hand), position and move text, the index
// (its published size, exhaustive rank/unrank on sub-games), and the retrograde engine
// against the brute force (tests/brute_force.h) on the sub-games with fewer animals.
//
// Suites whose name ends in "Slow" are the longer passes (ctest label "slow").
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "core/perft.h"
#include "games/dobutsu/dobutsu.h"
#include "tests/brute_force.h"
#include "tests/game_battery.h"
#include "tests/retro_util.h"
#include "tests/test_util.h"

namespace gs::dobutsu {
namespace {

// ---------------------------------------------------------------------------------
// An independent mover: the board as 12 letters (upper case sente, '.' empty, a1 first),
// hands as letter strings, steps spelled out per letter. It shares nothing with
// games/dobutsu but the rules as docs/games/dobutsu.md states them.

struct Raw {
  std::string board;  // 12 letters, a1 b1 c1 a2 ... c4
  std::string hand;   // the pieces in hand, as letters of their holders (G E C, g e c)
  bool gote = false;  // gote to move
};

bool is_sente(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }

// The steps of a sente piece as (file, rank) offsets; gote's are turned.
std::vector<std::array<int, 2>> raw_steps(char upper) {
  switch (upper) {
    case 'L': return {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    case 'G': return {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};
    case 'E': return {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    case 'C': return {{0, 1}};
    case 'H': return {{0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    default: return {};
  }
}

bool mine(char c, bool gote) { return c != '.' && is_sente(c) != gote; }

bool raw_attacks(const Raw& r, bool by_gote, int target) {
  for (int from = 0; from < 12; ++from) {
    const char c = r.board[static_cast<std::size_t>(from)];
    if (!mine(c, by_gote)) continue;
    for (const auto& step : raw_steps(static_cast<char>(std::toupper(static_cast<unsigned char>(c))))) {
      const int file = from % 3 + step[0];
      const int rank = from / 3 + (by_gote ? -step[1] : step[1]);
      if (file >= 0 && file < 3 && rank >= 0 && rank < 4 && rank * 3 + file == target) return true;
    }
  }
  return false;
}

// +1: the side to move has won, -1: lost, 0: the game goes on.
int raw_result(const Raw& r) {
  const char my_lion = r.gote ? 'l' : 'L';
  const char their_lion = r.gote ? 'L' : 'l';
  const auto mine_at = r.board.find(my_lion);
  const auto theirs_at = r.board.find(their_lion);
  if (mine_at == std::string::npos) return -1;
  if (theirs_at == std::string::npos) return 1;
  const int my_far = r.gote ? 0 : 3;
  if (static_cast<int>(mine_at) / 3 == my_far) return 1;
  if (static_cast<int>(theirs_at) / 3 == 3 - my_far && !raw_attacks(r, r.gote, static_cast<int>(theirs_at)))
    return -1;
  return 0;
}

std::vector<Raw> raw_children(const Raw& r) {
  std::vector<Raw> out;
  for (int from = 0; from < 12; ++from) {
    const char c = r.board[static_cast<std::size_t>(from)];
    if (!mine(c, r.gote)) continue;
    const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (const auto& step : raw_steps(upper)) {
      const int file = from % 3 + step[0];
      const int rank = from / 3 + (r.gote ? -step[1] : step[1]);
      if (file < 0 || file >= 3 || rank < 0 || rank >= 4) continue;
      const int to = rank * 3 + file;
      const char there = r.board[static_cast<std::size_t>(to)];
      if (mine(there, r.gote)) continue;
      Raw next = r;
      if (there != '.') {
        char taken = static_cast<char>(std::toupper(static_cast<unsigned char>(there)));
        if (taken == 'H') taken = 'C';
        if (taken != 'L') next.hand += r.gote ? static_cast<char>(std::tolower(taken)) : taken;
      }
      char moved = c;
      if (upper == 'C' && rank == (r.gote ? 0 : 3)) moved = r.gote ? 'h' : 'H';
      next.board[static_cast<std::size_t>(from)] = '.';
      next.board[static_cast<std::size_t>(to)] = moved;
      next.gote = !r.gote;
      out.push_back(next);
    }
  }
  std::string kinds;  // each kind in hand once
  for (const char c : r.hand) {
    if (mine(c, r.gote) && kinds.find(c) == std::string::npos) kinds += c;
  }
  for (const char c : kinds) {
    for (int to = 0; to < 12; ++to) {
      if (r.board[static_cast<std::size_t>(to)] != '.') continue;
      Raw next = r;
      next.hand.erase(next.hand.find(c), 1);
      next.board[static_cast<std::size_t>(to)] = c;
      next.gote = !r.gote;
      out.push_back(next);
    }
  }
  return out;
}

std::uint64_t raw_perft(const Raw& r, int depth) {
  if (depth == 0) return 1;
  if (raw_result(r) != 0) return 0;
  const std::vector<Raw> children = raw_children(r);
  if (depth == 1) return children.size();
  std::uint64_t total = 0;
  for (const Raw& child : children) total += raw_perft(child, depth - 1);
  return total;
}

// The raw form of a position, read from its text by hand (ranks 4 to 1).
Raw raw_of(const std::string& text) {
  Raw r;
  r.board.assign(12, '.');
  const auto first = text.find(' ');
  const std::string board = text.substr(0, first);
  int rank = 3;
  int file = 0;
  for (const char c : board) {
    if (c == '/') {
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '3') {
      file += c - '0';
    } else {
      r.board[static_cast<std::size_t>(rank * 3 + file)] = c;
      ++file;
    }
  }
  r.gote = text.at(first + 1) == 'w';
  const std::string hand = text.substr(first + 3);
  if (hand != "-") r.hand = hand;
  return r;
}

const Dobutsu& game() {
  static const Dobutsu full;
  return full;
}

TEST(DobutsuRules, StartPositionText) {
  EXPECT_EQ(Dobutsu::position_text(game().start()), "gle/1c1/1C1/ELG b -");
  EXPECT_EQ(game().parse_position("start"), game().start());
  MoveList<Dobutsu> moves;
  game().moves(game().start(), moves);
  std::vector<std::string> texts;
  for (const Move& move : moves) texts.push_back(Dobutsu::move_text(game().start(), move));
  std::sort(texts.begin(), texts.end());
  EXPECT_EQ(texts, (std::vector<std::string>{"b1a2", "b1c2", "b2b3", "c1c2"}));
}

// perft from the start and from a middle game with pieces in both hands: the engine's
// moves against the independent mover above, ply by ply.
TEST(DobutsuRules, PerftAgreesWithAnIndependentMover) {
  for (const std::string text : {"gle/1c1/1C1/ELG b -", "g1e/1l1/1hL/E1G w C", "1l1/e2/3/L1G w CEgc"}) {
    const Position pos = game().parse_position(text);
    const Raw raw = raw_of(text);
    for (int depth = 1; depth <= 5; ++depth) {
      EXPECT_EQ(perft(game(), pos, depth), raw_perft(raw, depth)) << text << " depth " << depth;
    }
  }
  // The published-style counts from the start (checked above against the raw mover).
  EXPECT_EQ(perft(game(), game().start(), 1), 4U);
}

TEST(DobutsuRules, CapturesPromotionDropsAndTheTry) {
  const Dobutsu& g = game();
  // A chick that reaches the far rank becomes a hen; a captured hen goes to hand as a chick.
  Position pos = g.parse_position("g1e/1Cl/3/ELG b c");
  Position next = Dobutsu::play(pos, g.parse_move(pos, "b3b4"));
  EXPECT_EQ(Dobutsu::position_text(next), "gHe/2l/3/ELG w c");
  next = Dobutsu::play(next, g.parse_move(next, "a4b4"));
  EXPECT_EQ(Dobutsu::position_text(next), "1ge/2l/3/ELG b cc");
  // A chick dropped on the far rank stays a chick and cannot move.
  pos = g.parse_position("g1e/2l/3/ELG b Cc");
  EXPECT_THROW((void)g.parse_position("g1e/2l/3/ELG b C"), Error);  // a chick is missing
  next = Dobutsu::play(pos, g.parse_move(pos, "C*b4"));
  EXPECT_EQ(Dobutsu::position_text(next), "gCe/2l/3/ELG w c");
  // The try: a lion on the far rank that the opponent cannot take wins; one it can take
  // does not.
  pos = g.parse_position("L1e/3/1l1/E1G w Ccg");
  EXPECT_EQ(Dobutsu::terminal(pos), Value::loss(0));
  pos = g.parse_position("Lge/3/1l1/E1G w Cc");
  EXPECT_EQ(Dobutsu::terminal(pos), std::nullopt);
  // The lion that survived its opponent's move on the far rank has won.
  pos = g.parse_position("Lge/3/1l1/E1G b Cc");
  EXPECT_EQ(Dobutsu::terminal(pos), Value::win(0));
  // Taking the lion ends the game.
  pos = g.parse_position("ge1/1lG/3/EL1 b Cc");
  next = Dobutsu::play(pos, g.parse_move(pos, "c3b3"));
  EXPECT_EQ(Dobutsu::terminal(next), Value::loss(0));
}

TEST(DobutsuRules, BadTextIsRefused) {
  const Dobutsu& g = game();
  for (const std::string text :
       {"", "gle/1c1/1C1/ELG", "gle/1c1/1C1/ELG x -", "gle/1c1/1C1/EL b -", "gle/1c1/1C1/ELGG b -",
        "gxe/1c1/1C1/ELG b -", "gle/1c1/1C1/ELG b L", "gle/1c1/1C1/ELG b C", "gge/1c1/1C1/ELL b -"}) {
    EXPECT_THROW((void)g.parse_position(text), Error) << text;
  }
  EXPECT_THROW((void)g.parse_move(g.start(), "b2b4"), Error);
  EXPECT_THROW((void)g.parse_move(g.start(), "C*a3"), Error);
  EXPECT_THROW((void)g.parse_move(g.start(), "zz"), Error);
  EXPECT_THROW((void)Dobutsu::from_options("", {"kinds=X"}), Error);
  EXPECT_THROW((void)Dobutsu::from_options("", {"kinds=GG"}), Error);
  EXPECT_EQ(Dobutsu::from_options("", {"kinds=CG"}).rule_text(), "kinds=GC");
  EXPECT_THROW((void)Dobutsu::from_options("", {"try=off"}), Error);
  EXPECT_THROW((void)Dobutsu::from_options("shogi", {}), Error);
  EXPECT_THROW((void)Dobutsu::parse_tier("8"), Error);
}

// ---------------------------------------------------------------------------------
// The index.

TEST(DobutsuIndex, SizesMatchTheCountOfPlacements) {
  // 11,878,227 placements of the other six pieces (board and hands) per placement of the
  // two lions: 132 ordered lion placements give Tanaka's 1,567,925,964 positions; the
  // 72 placements up to the mirror give the tier's size.
  EXPECT_EQ(game().size(0), 72U * 11878227U);
  EXPECT_EQ(132U * 11878227U, 1567925964U);
  EXPECT_EQ(Dobutsu::from_options("", {"kinds=none"}).size(0), 72U);
  EXPECT_EQ(game().max_pieces(), 8);
  EXPECT_EQ(Dobutsu::from_options("", {"kinds=C"}).max_pieces(), 4);
}

TEST(DobutsuIndex, RankAndUnrankExhaustiveOnSubGames) {
  for (const std::string kinds : {"kinds=none", "kinds=G", "kinds=E", "kinds=C"}) {
    const Dobutsu sub = Dobutsu::from_options("", {kinds});
    test::Failures failures;
    const test::IndexCounts counts = test::check_tier_exhaustive(sub, 0, true, default_threads(), failures);
    EXPECT_EQ(failures.count(), 0U) << kinds << ": " << failures.text();
    EXPECT_EQ(counts.indices, sub.size(0));
    EXPECT_GT(counts.positions, counts.indices);
  }
}

TEST(DobutsuIndex, RankAndUnrankSampledOnTheWholeGame) {
  test::Failures failures;
  const test::IndexCounts counts = test::check_tiers_sampled(game(), {0}, 20000, 20261123, 1, failures);
  EXPECT_EQ(failures.count(), 0U) << failures.text();
  EXPECT_GT(counts.positions, 0U);
  const auto positions = test::sample_positions(game(), {0}, 300, 7);
  for (const auto& pos : positions) {
    test::check_moves_and_unmoves(game(), pos, failures);
    test::check_text_round_trip(game(), pos, failures);
  }
  EXPECT_EQ(failures.count(), 0U) << failures.text();
}

// ---------------------------------------------------------------------------------
// The engine against the brute force on the sub-games.

void expect_engine_matches_brute_force(const std::string& kinds) {
  const Dobutsu sub = Dobutsu::from_options("", {kinds});
  const auto brute = test::brute_force(sub, {0}, default_threads());
  const test::TempDir dir;
  test::build(sub, dir.path(), sub.max_pieces(), default_threads());
  test::expect_database_equals(sub, dir.path(), brute);
}

TEST(DobutsuSolve, LionsAloneAndOneKindMatchTheBruteForce) {
  for (const std::string kinds : {"kinds=none", "kinds=G", "kinds=E", "kinds=C"}) {
    SCOPED_TRACE(kinds);
    expect_engine_matches_brute_force(kinds);
  }
}

TEST(DobutsuSolveSlow, TwoKindsMatchTheBruteForce) {
  for (const std::string kinds : {"kinds=GE", "kinds=EC"}) {
    SCOPED_TRACE(kinds);
    expect_engine_matches_brute_force(kinds);
  }
}

}  // namespace
}  // namespace gs::dobutsu
