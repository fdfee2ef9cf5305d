// English checkers: perft from the start against the published counts, the rules the
// counts do not reach (crowning ends a move, compulsory captures, jump orders), the
// published board counts, the generic game battery (tests/game_battery.h), agreement of
// the databases with the brute force (tests/brute_force.h) on every position of up to
// three pieces (two in the fast tests), the published king-against-king result,
// rejection of bad input, and the command line.
//
// Suites whose name ends in "Slow" go deeper (ctest label "slow").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "db/database.h"
#include "games/checkers/checkers.h"
#include "retro/build.h"
#include "tests/brute_force.h"
#include "tests/game_battery.h"
#include "tests/retro_util.h"
#include "tests/test_util.h"

namespace gs::checkers {
namespace {

using test::Failures;
using test::IndexCounts;
using test::TempDir;

constexpr std::uint64_t kSeed = 20261121;
const Checkers game;

std::uint64_t perft(const Position& pos, int depth) {
  if (depth == 0) return 1;
  if (Checkers::terminal(pos)) return 0;
  MoveList<Checkers> moves;
  Checkers::moves(pos, moves);
  if (depth == 1) return moves.size();
  std::uint64_t total = 0;
  for (const Move& move : moves) total += perft(Checkers::play(pos, move), depth - 1);
  return total;
}

std::set<std::string> move_texts(std::string_view position) {
  const Position pos = Checkers::parse_position(position);
  MoveList<Checkers> moves;
  Checkers::moves(pos, moves);
  std::set<std::string> texts;
  for (const Move& move : moves) texts.insert(Checkers::move_text(pos, move));
  return texts;
}

// Perft from the start, depths 1-20, as published by Aart Bik, "perft for 8x8 checkers",
// TalkChess, 8 May 2009 (http://www.talkchess.com/forum3/viewtopic.php?t=27814); the
// first eleven are also in docs/games/checkers.md. Captures that differ only in the order of the
// pieces jumped count as different moves.
constexpr std::uint64_t kPerft[] = {7,      49,     302,     1469,     7361,    36768,
                                    179740, 845931, 3963680, 18391564, 85242128};

TEST(CheckersRules, PerftFromTheStart) {
  for (int depth = 1; depth <= 7; ++depth) {
    EXPECT_EQ(perft(Checkers::start(), depth), kPerft[depth - 1]) << "depth " << depth;
  }
}

TEST(CheckersRulesSlow, PerftFromTheStartDeeper) {
  for (int depth = 8; depth <= 11; ++depth) {
    EXPECT_EQ(perft(Checkers::start(), depth), kPerft[depth - 1]) << "depth " << depth;
  }
}

TEST(CheckersRules, StartPosition) {
  const Position start = Checkers::start();
  EXPECT_EQ(Checkers::position_text(start),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  EXPECT_EQ(move_texts("start"),
            (std::set<std::string>{"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}));
}

TEST(CheckersRules, MenMoveForwardKingsEverywhere) {
  EXPECT_EQ(move_texts("B:W32:B14"), (std::set<std::string>{"14-17", "14-18"}));
  EXPECT_EQ(move_texts("W:W14:B1"), (std::set<std::string>{"14-9", "14-10"}));
  EXPECT_EQ(move_texts("B:W32:BK14"), (std::set<std::string>{"14-9", "14-10", "14-17", "14-18"}));
  EXPECT_EQ(move_texts("B:W32:B5"), (std::set<std::string>{"5-9"}));  // on the edge
}

TEST(CheckersRules, CapturesAreCompulsoryAndContinue) {
  // Black's man on 10 must jump 15 and continue over 23; the man on 1 may not step.
  EXPECT_EQ(move_texts("B:W15,23:B10,1"), (std::set<std::string>{"10x19x26"}));
  // Two men can jump to 18 and on over 23: either may be chosen.
  EXPECT_EQ(move_texts("B:W14,15,23:B9,11"), (std::set<std::string>{"9x18x27", "11x18x27"}));
  // No majority rule: the single jump is as legal as the double one.
  EXPECT_EQ(move_texts("B:W14,16,22:B9,12"), (std::set<std::string>{"9x18x25", "12x19"}));
  // A man does not capture backwards; a king does.
  EXPECT_EQ(move_texts("B:W10:B14"), (std::set<std::string>{"14-17", "14-18"}));
  EXPECT_EQ(move_texts("B:W10:BK14"), (std::set<std::string>{"14x7"}));
}

TEST(CheckersRules, CrowningEndsTheMove) {
  // Black's man on 22 jumps 26 and lands on 31, the far row: it is crowned and the move
  // ends, although the new king could jump 27 next.
  const Position pos = Checkers::parse_position("B:W26,27:B22");
  MoveList<Checkers> moves;
  Checkers::moves(pos, moves);
  ASSERT_EQ(moves.size(), 1U);
  EXPECT_EQ(Checkers::move_text(pos, moves[0]), "22x31");
  EXPECT_EQ(Checkers::position_text(Checkers::play(pos, moves[0])), "W:W27:BK31");
  // A step onto the far row crowns too.
  const Position step = Checkers::parse_position("B:W5:B25");
  EXPECT_EQ(Checkers::position_text(Checkers::play(step, Checkers::parse_move(step, "25-29"))), "W:W5:BK29");
}

TEST(CheckersRules, JumpOrdersAreDifferentMoves) {
  // A king on 10 with four men around it in a ring: the two directions round the ring
  // are two moves that capture the same men and end on the same square.
  const Position pos = Checkers::parse_position("B:W14,15,22,23:BK10");
  MoveList<Checkers> moves;
  Checkers::moves(pos, moves);
  std::set<std::string> texts;
  for (const Move& move : moves) texts.insert(Checkers::move_text(pos, move));
  EXPECT_TRUE(texts.contains("10x17x26x19x10")) << fmt::format("{}", fmt::join(texts, " "));
  EXPECT_TRUE(texts.contains("10x19x26x17x10")) << fmt::format("{}", fmt::join(texts, " "));
  // The short form is ambiguous then.
  EXPECT_THROW((void)Checkers::parse_move(pos, "10x10"), Error);
  // The king's own square is free once it has left it, and the move captures all four.
  const Position after = Checkers::play(pos, Checkers::parse_move(pos, "10x17x26x19x10"));
  EXPECT_EQ(Checkers::position_text(after), "W:W:BK10");
  EXPECT_EQ(Checkers::terminal(after), Value::loss(0));
}

TEST(CheckersRules, NoMoveLoses) {
  // White's only man, on 28, is blocked by Black's man on 24, and the jump lands on
  // Black's king on 19: White cannot move and loses.
  const Position pos = Checkers::parse_position("W:W28:B24,K19");
  MoveList<Checkers> moves;
  Checkers::moves(pos, moves);
  EXPECT_TRUE(moves.empty());
  EXPECT_EQ(Checkers::no_move_value(), Value::loss(0));
}

TEST(CheckersText, ParsesFenVariants) {
  const Position pos = Checkers::parse_position("B:W21,22,K30:B1,2,K9");
  EXPECT_EQ(Checkers::position_text(pos), "B:W21,22,K30:B1,2,K9");
  EXPECT_EQ(pos.kings[kWhite], 1U << 29);
  EXPECT_EQ(pos.men[kBlack], 3U);
  // Black's list first, ranges, quotes and a final period, as PDN programs write them.
  EXPECT_EQ(Checkers::parse_position("\"W:B1-3,K9:W21,K30.\""),
            Checkers::parse_position("W:W21,K30:B1,2,3,K9"));
  EXPECT_EQ(Checkers::parse_position(" start "), Checkers::start());
}

// Each side has at most the 12 pieces it starts with: 13, or a full board of 32 men,
// cannot arise.
TEST(CheckersText, RejectsMoreThanTwelvePiecesASide) {
  for (const char* bad : {"B:W21-32,K1:B5", "W:W17-32:B1-16", "B:W29:B1-12,K20"}) {
    try {
      (void)Checkers::parse_position(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find("more than the 12 it starts with"), std::string::npos)
          << error.what();
    }
  }
  EXPECT_NO_THROW((void)Checkers::parse_position("B:W21-32:B1-12"));
  EXPECT_NO_THROW((void)Checkers::parse_position("B:W21-31,K1:B2-12,K32"));
}

TEST(CheckersText, RejectsBadInput) {
  for (const char* bad :
       {"", "B", "X:W21:B1", "B:W21", "B:W21:B1:W2", "B:W21:W22", "B:W33:B1", "B:W0:B1", "B:W21,:B1",
        "B:W21:B1,1", "B:W21:B29", "W:W1,2:B4", "B:WK:B1", "B:W21:Bx", "B:W:B1", "B:W5-3:B1"}) {
    EXPECT_THROW((void)Checkers::parse_position(bad), Error) << bad;
  }
  const Position start = Checkers::start();
  for (const char* bad :
       {"", "11", "11-", "11-16-20", "11x15", "13-17", "21-17", "11-18", "9-13x", "abc", "0-4", "33-29"}) {
    EXPECT_THROW((void)Checkers::parse_move(start, bad), Error) << bad;
  }
  // A missing capture names the compulsory ones.
  const Position capture = Checkers::parse_position("B:W15,23:B10,1");
  try {
    (void)Checkers::parse_move(capture, "1-5");
    ADD_FAILURE() << "1-5 was accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("compulsory (10x19x26)"), std::string::npos) << error.what();
  }
  EXPECT_EQ(Checkers::move_text(capture, Checkers::parse_move(capture, "10x26")), "10x19x26");
  EXPECT_THROW((void)Checkers::parse_move(capture, "10x19"), Error);  // stops before the end
  EXPECT_THROW((void)Checkers::parse_tier("1100.0"), Error);
  EXPECT_THROW((void)Checkers::parse_tier("0011.80"), Error);
  EXPECT_THROW((void)Checkers::parse_tier("0100.00"), Error);
  EXPECT_EQ(Checkers::tier_name(Checkers::parse_tier("1100.00")), "1100.00");
}

// ---------------------------------------------------------------------------------
// Tiers and the battery.

// Boards per number of pieces, the side to move not counted (docs/games/checkers.md).
constexpr std::uint64_t kBoards[] = {0, 120, 6972, 261224, 7092774};

TEST(CheckersIndex, BoardCountsAndExhaustiveRankUnrankUpToThreePieces) {
  EXPECT_EQ(Checkers::end_positions(1), kBoards[1]);
  for (int pieces = 2; pieces <= 3; ++pieces) {
    Failures failures;
    IndexCounts counts;
    for (const Tier tier : test::tiers_with_pieces(game, pieces, pieces, pieces)) {
      counts += test::check_tier_exhaustive(game, tier, true, default_threads(), failures);
    }
    GS_EXPECT_NO_FAILURES(failures);
    EXPECT_EQ(counts.holes, 0U);
    // Each index is a board with both colours (and either side to move, by reversal);
    // boards of one colour are the end positions.
    EXPECT_EQ(counts.indices + Checkers::end_positions(pieces), kBoards[pieces]) << pieces;
    EXPECT_EQ(counts.positions, 2 * counts.indices);
    EXPECT_EQ(counts.terminal, 0U);
  }
}

TEST(CheckersIndexSlow, BoardCountsFourPieces) {
  Failures failures;
  IndexCounts counts;
  for (const Tier tier : test::tiers_with_pieces(game, 4, 4, 4)) {
    counts += test::check_tier_exhaustive(game, tier, false, default_threads(), failures);
  }
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_EQ(counts.holes, 0U);
  EXPECT_EQ(counts.indices + Checkers::end_positions(4), kBoards[4]);
}

TEST(CheckersIndex, SizesAddUpToTheBoardCounts) {
  // Published board counts for 5 and 6 pieces, from the sizes alone.
  const std::uint64_t published[] = {148688232, 2503611964};
  for (int pieces = 5; pieces <= 6; ++pieces) {
    std::uint64_t indices = 0;
    for (const Tier tier : test::tiers_with_pieces(game, pieces, pieces, pieces))
      indices += Checkers::size(tier);
    EXPECT_EQ(indices + Checkers::end_positions(pieces), published[pieces - 5]) << pieces;
  }
}

TEST(CheckersIndex, OverlappingRegionsAreGapFree) {
  // Both sides' men may share ranks 3-6 here: every index is still a position.
  const Tier tier = Checkers::parse_tier("0022.66");
  Failures failures;
  const IndexCounts counts = test::check_tier_exhaustive(game, tier, false, default_threads(), failures);
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_EQ(counts.holes, 0U);
  EXPECT_GT(counts.indices, 0U);
}

// The men index where the two sides' men regions overlap (games/checkers/men_overlap.h)
// against the running totals it sums in closed form: totals[i], the White placements left
// by every Black placement before the i-th in colex order, kept here as a table per slice.
// For each overlapping slice without kings (its index is its men index) of at most
// `most` Black placements: unrank of sampled indices, and of both ends of sampled Black
// placements' blocks, gives the Black placement the totals give, rank gives the index
// back, and the slice's size is the last total.
void expect_running_totals(Index most, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Failures failures;
  int slices = 0;
  for (int nb = 1; nb <= 12; ++nb) {
    for (int nw = 1; nw <= 12; ++nw) {
      for (int lb = 2; lb <= 7; ++lb) {
        for (int lw = 9 - lb; lw <= 7; ++lw) {
          const Index placements = men_placements(nb, lb);
          if (placements == 0 || placements > most || men_placements(nw, lw) == 0) continue;
          // Black's placements with a man on rank lb in colex order: the first is nb - 1
          // men on the lowest squares and one on the rank's first square (or the nb
          // lowest squares, where they reach the rank); Gosper's hack steps to the next.
          std::vector<std::uint32_t> blacks(placements);
          std::vector<Index> totals(placements + 1);
          std::uint32_t black =
              nb - 1 >= 4 * (lb - 1) ? (1U << nb) - 1 : ((1U << (nb - 1)) - 1) | 1U << (4 * (lb - 1));
          for (Index i = 0; i < placements; ++i) {
            blacks[i] = black;
            const std::uint32_t blocked = turned(black);
            const int free = 4 * lw - std::popcount(blocked & ((1U << (4 * lw)) - 1));
            const int below = 4 * (lw - 1) - std::popcount(blocked & ((1U << (4 * (lw - 1))) - 1));
            totals[i + 1] = totals[i] + binomial(free, nw) - binomial(below, nw);
            const std::uint32_t low = black & (~black + 1);
            const std::uint32_t ripple = black + low;
            black = ripple | (((black ^ ripple) >> 2) / low);
          }
          const Slice s{0, 0, nb, nw, lb, lw};
          const Tier tier = Checkers::tier_of(s);
          const bool first = s.code() == tier;
          const Index offset = first ? 0 : Checkers::size(tier) - totals.back();
          if (Checkers::slice_size(s) != totals.back()) {
            failures.add(fmt::format("slice {}{}: size {}, totals {}", Checkers::tier_name(tier),
                                     first ? "" : " (reversed)", Checkers::slice_size(s), totals.back()));
            continue;
          }
          if (totals.back() == 0) continue;  // no room for White's men
          ++slices;
          std::vector<Index> samples;
          for (int k = 0; k < 24; ++k) {
            samples.push_back(random() % totals.back());
            const Index i = random() % placements;
            if (totals[i + 1] > totals[i]) samples.insert(samples.end(), {totals[i], totals[i + 1] - 1});
          }
          samples.insert(samples.end(), {0, totals.back() - 1});
          for (const Index x : samples) {
            const auto found = Checkers::unrank(tier, offset + x);
            if (!found) {
              failures.add(fmt::format("tier {} index {}: a hole", Checkers::tier_name(tier), offset + x));
              continue;
            }
            const Position seen = first ? *found : Checkers::reversed(*found);
            const auto i = static_cast<std::size_t>(std::upper_bound(totals.begin(), totals.end(), x) -
                                                    totals.begin() - 1);
            if (seen.side != kBlack || seen.men[kBlack] != blacks[i] ||
                Checkers::rank(*found) != Ranked{tier, offset + x}) {
              failures.add(fmt::format("tier {} index {}: {}, Black's men {:#x} where the totals give {:#x}",
                                       Checkers::tier_name(tier), offset + x, Checkers::position_text(*found),
                                       seen.men[kBlack], blacks[i]));
            }
          }
        }
      }
    }
  }
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_GT(slices, 100);
}

TEST(CheckersIndex, OverlapIndexIsTheRunningTotals) { expect_running_totals(Index{1} << 14, kSeed); }

TEST(CheckersIndexSlow, OverlapIndexIsTheRunningTotalsLargerSlices) {
  expect_running_totals(Index{1} << 22, kSeed + 1);
}

// Boards with both colours and n pieces, at most twelve a side, side to move not
// counted, counted row by row apart from the index: Black's men on rows 0-6, White's on
// rows 1-7, then the kings on the squares left.
std::uint64_t boards_with_both_colours(int pieces) {
  // men[b][w]: placements of b Black and w White men.
  std::array<std::array<std::uint64_t, 13>, 13> men{};
  men[0][0] = 1;
  for (int row = 0; row < 8; ++row) {
    std::array<std::array<std::uint64_t, 13>, 13> next{};
    for (int b = 0; b <= 12; ++b) {
      for (int w = 0; w <= 12; ++w) {
        if (men[b][w] == 0) continue;
        for (int rb = 0; rb <= (row == 7 ? 0 : 4); ++rb) {
          for (int rw = 0; rb + rw <= 4 && rw <= (row == 0 ? 0 : 4); ++rw) {
            if (b + rb <= 12 && w + rw <= 12)
              next[b + rb][w + rw] += men[b][w] * binomial(4, rb) * binomial(4 - rb, rw);
          }
        }
      }
    }
    men = next;
  }
  std::uint64_t boards = 0;
  for (int bm = 0; bm <= 12; ++bm) {
    for (int wm = 0; wm <= 12; ++wm) {
      for (int bk = 0; bm + bk <= 12; ++bk) {
        const int wk = pieces - bm - wm - bk;
        if (wk < 0 || wm + wk > 12 || bm + bk == 0 || wm + wk == 0) continue;
        boards += men[bm][wm] * binomial(32 - bm - wm, bk) * binomial(32 - bm - wm - bk, wk);
      }
    }
  }
  return boards;
}

// Every tier up to the game's 24 pieces, from its size alone: the sizes of a piece
// count's tiers add up to its boards with both colours (the end positions are the
// others). Sizes of slices whose men regions overlap come from men_overlap.h's sums.
TEST(CheckersIndex, SizesAddUpToTheBoardsUpToTwentyFourPieces) {
  EXPECT_EQ(boards_with_both_colours(6) + Checkers::end_positions(6), 2503611964U);
  std::array<std::uint64_t, 25> sizes{};
  for (const Tier tier : game.tiers(Checkers::max_pieces()))
    sizes[static_cast<std::size_t>(Checkers::tier_pieces(tier))] += Checkers::size(tier);
  for (int pieces = 2; pieces <= 24; ++pieces)
    EXPECT_EQ(sizes[static_cast<std::size_t>(pieces)], boards_with_both_colours(pieces)) << pieces;
  EXPECT_EQ(game.tiers(25), game.tiers(24));
}

// Every material of up to 24 pieces, both sides' men as far advanced as can be and
// sampled at random: rank and unrank are inverses, the index is inside its tier, and the
// tables the index keeps stay within their fixed bound, far below a table per slice.
TEST(CheckersIndex, RankUnrankEveryMaterialWithinFixedTables) {
  std::mt19937_64 random(kSeed);
  Failures failures;
  int materials = 0;
  for (int bk = 0; bk <= 12; ++bk) {
    for (int bm = 0; bk + bm <= 12; ++bm) {
      for (int wk = 0; wk <= 12; ++wk) {
        for (int wm = 0; wk + wm <= 12; ++wm) {
          if (bk + bm == 0 || wk + wm == 0) continue;
          ++materials;
          for (int sample = 0; sample < 4; ++sample) {
            // Men: one on each side's last rank before crowning where the sample says,
            // the others anywhere a man may stand; kings on the squares left.
            Position pos;
            pos.side = sample % 2 == 0 ? kBlack : kWhite;
            auto place = [&](std::uint32_t allowed, int count) {
              std::uint32_t set = 0;
              while (std::popcount(set) < count) {
                const std::uint32_t bit = 1U << (random() % 32);
                if ((allowed & bit) != 0 && ((set | pos.occupied()) & bit) == 0) set |= bit;
              }
              return set;
            };
            if (sample < 2) {
              if (bm > 0) pos.men[kBlack] = place(0x0F000000U, 1);
              if (wm > 0) pos.men[kWhite] = place(0x000000F0U, 1);
            }
            pos.men[kBlack] |= place(0x0FFFFFFFU, bm - std::popcount(pos.men[kBlack]));
            pos.men[kWhite] |= place(0xFFFFFFF0U, wm - std::popcount(pos.men[kWhite]));
            pos.kings[kBlack] = place(~0U, bk);
            pos.kings[kWhite] = place(~0U, wk);
            const Ranked ranked = Checkers::rank(pos);
            const auto back = Checkers::unrank(ranked.tier, ranked.index);
            // The tier's own orientation: pos, or its colour reversal.
            if (ranked.index >= Checkers::size(ranked.tier) || !back ||
                (*back != pos && *back != Checkers::reversed(pos)) || Checkers::rank(*back) != ranked) {
              failures.add(fmt::format("{}: tier {} index {} of {} unranks to {}",
                                       Checkers::position_text(pos), Checkers::tier_name(ranked.tier),
                                       ranked.index, Checkers::size(ranked.tier),
                                       back ? Checkers::position_text(*back) : "a hole"));
            }
          }
        }
      }
    }
  }
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_EQ(materials, 8100);
  EXPECT_LE(OverlapSums::bytes_held(), OverlapSums::most_bytes());
  EXPECT_LE(OverlapSums::most_bytes(), std::uint64_t{4} << 20);
}

TEST(CheckersIndex, RankUnrankSampledUpToSixPieces) {
  Failures failures;
  const IndexCounts counts = test::check_tiers_sampled(game, test::tiers_with_pieces(game, 6, 4, 6), 20000,
                                                       kSeed, default_threads(), failures);
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_EQ(counts.holes, 0U);
}

TEST(CheckersIndex, TierGraphIsAcyclicUpToSixPieces) {
  const std::vector<Tier> order = retro::tiers_in_order(game, 6);
  EXPECT_EQ(order.size(), game.tiers(6).size());  // children are tiers too
  for (const Tier tier : game.tiers(6)) EXPECT_EQ(Checkers::parse_tier(Checkers::tier_name(tier)), tier);
}

TEST(CheckersBattery, MovesAndUnmovesAgreeSampled) {
  const auto positions = test::sample_positions(game, game.tiers(6), 2, kSeed + 1);
  ASSERT_GT(positions.size(), 1000U);
  Failures failures;
  for (const Position& pos : positions) test::check_moves_and_unmoves(game, pos, failures);
  GS_EXPECT_NO_FAILURES(failures);
}

// Every position of up to `pieces` pieces.
void expect_moves_and_unmoves_agree(int pieces) {
  Failures failures;
  for (const Tier tier : game.tiers(pieces)) {
    parallel_for(0, Checkers::size(tier), default_threads(), 1024, [&](Index begin, Index end, int) {
      for (Index i = begin; i < end; ++i)
        test::check_moves_and_unmoves(game, *game.unrank(tier, i), failures);
    });
  }
  GS_EXPECT_NO_FAILURES(failures);
}

TEST(CheckersBattery, MovesAndUnmovesAgreeTwoPieces) { expect_moves_and_unmoves_agree(2); }

TEST(CheckersBatterySlow, MovesAndUnmovesAgreeThreePieces) { expect_moves_and_unmoves_agree(3); }

TEST(CheckersBattery, KeepsTierAgreesWithRank) {
  const auto positions = test::sample_positions(game, game.tiers(6), 2, kSeed + 3);
  Failures failures;
  for (const Position& pos : positions) {
    MoveList<Checkers> moves;
    Checkers::moves(pos, moves);
    const Tier tier = Checkers::rank(pos).tier;
    for (const Move& move : moves) {
      const Position next = Checkers::play(pos, move);
      const bool same = !Checkers::terminal(next) && Checkers::rank(next).tier == tier;
      if (same != Checkers::keeps_tier(pos, move)) {
        failures.add(Checkers::position_text(pos) + " " + Checkers::move_text(pos, move));
      }
    }
  }
  GS_EXPECT_NO_FAILURES(failures);
}

// The solver takes predecessors' indices from unmove_indices instead of ranking each of
// unmoves: the two must give the same indices (in any order) on every kind of tier (kings only, men on one or
// both sides, overlapping men regions, either orientation).
TEST(CheckersBattery, UnmoveIndicesAreTheRanksOfUnmoves) {
  const auto positions = test::sample_positions(game, game.tiers(6), 2, kSeed + 4);
  ASSERT_GT(positions.size(), 1000U);
  std::uint64_t predecessors = 0;
  Failures failures;
  for (const Position& pos : positions) {
    const Tier tier = Checkers::rank(pos).tier;
    UnmoveList<Checkers> previous;
    Checkers::unmoves(pos, previous);
    SmallVector<Index, Checkers::kMaxUnmoves> want;
    for (const Position& p : previous) {
      const Ranked ranked = Checkers::rank(p);
      if (ranked.tier != tier)
        failures.add(Checkers::position_text(p) + " is not in the tier of its successor");
      want.push_back(ranked.index);
    }
    SmallVector<Index, Checkers::kMaxUnmoves> got;
    Checkers::unmove_indices(tier, pos, got);
    predecessors += got.size();
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (!std::equal(want.begin(), want.end(), got.begin(), got.end()))
      failures.add(fmt::format("{}: unmove_indices {} against ranks {}", Checkers::position_text(pos),
                               std::vector<Index>(got.begin(), got.end()),
                               std::vector<Index>(want.begin(), want.end())));
  }
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_GT(predecessors, positions.size());
}

// The solver's scan steps through a tier with unrank_next, and its levels visit indices
// in order, where unrank and unmove_indices reuse the men they decoded for the previous
// index: runs of consecutive indices (men shared, then changing) in every tier up to 5
// pieces, both orientations, against unrank and rank.
TEST(CheckersBattery, RunsOfIndicesInOrder) {
  std::mt19937_64 random(kSeed + 6);
  std::uint64_t checked = 0;
  Failures failures;
  for (const Tier tier : game.tiers(5)) {
    const Index size = Checkers::size(tier);
    for (int run = 0; run < 3; ++run) {
      const Index start = random() % size;
      const Index end = std::min(size, start + 300);
      std::optional<Position> stepped = Checkers::unrank(tier, start);
      for (Index i = start; i < end; ++i) {
        if (i > start && !Checkers::unrank_next(tier, i, *stepped))
          failures.add(fmt::format("{} {}: unrank_next found a hole", game.tier_name(tier), i));
        const Position pos = *Checkers::unrank(tier, i);
        if (pos != *stepped || Checkers::rank(pos) != Ranked{tier, i}) {
          failures.add(fmt::format("{} {}: unrank {} unrank_next {}", game.tier_name(tier), i,
                                   Checkers::position_text(pos), Checkers::position_text(*stepped)));
          continue;
        }
        UnmoveList<Checkers> previous;
        Checkers::unmoves(pos, previous);
        std::vector<Index> want;
        for (const Position& p : previous) want.push_back(Checkers::rank(p).index);
        SmallVector<Index, Checkers::kMaxUnmoves> got;
        Checkers::unmove_indices(tier, pos, got);
        std::vector<Index> got_sorted(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        std::sort(got_sorted.begin(), got_sorted.end());
        if (want != got_sorted)
          failures.add(fmt::format("{}: unmove_indices {} against ranks {}", Checkers::position_text(pos),
                                   got_sorted, want));
        ++checked;
      }
    }
  }
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_GT(checked, 100000U);
}

// The retrograde scan counts the moves that stay in the tier with moves_leaving_tier
// and makes only the others: the count and the list must split moves() by keeps_tier.
TEST(CheckersBattery, MovesLeavingTierSplitTheMoves) {
  const auto positions = test::sample_positions(game, game.tiers(6), 2, kSeed + 5);
  std::uint64_t staying_total = 0;
  std::uint64_t leaving_total = 0;
  Failures failures;
  for (const Position& pos : positions) {
    MoveList<Checkers> moves;
    Checkers::moves(pos, moves);
    std::size_t staying = 0;
    std::set<std::string> leaving;
    for (const Move& move : moves) {
      if (Checkers::keeps_tier(pos, move)) {
        ++staying;
      } else {
        leaving.insert(Checkers::move_text(pos, move) + fmt::format("/{}", move.captured));
      }
    }
    MoveList<Checkers> out;
    const std::size_t counted = Checkers::moves_leaving_tier(pos, out);
    std::set<std::string> listed;
    for (const Move& move : out)
      listed.insert(Checkers::move_text(pos, move) + fmt::format("/{}", move.captured));
    if (counted != staying || listed != leaving || out.size() != leaving.size())
      failures.add(fmt::format("{}: {} staying and {} leaving, moves_leaving_tier: {} and {}",
                               Checkers::position_text(pos), staying, leaving.size(), counted, out.size()));
    staying_total += staying;
    leaving_total += leaving.size();
  }
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_GT(staying_total, 1000U);
  EXPECT_GT(leaving_total, 1000U);
}

// The scan ranks the successors of the moves leaving the tier with
// rank_moves_leaving_tier, which keeps what the men decide from call to call: it must
// give what playing and ranking gives, on sampled positions of every kind of tier, on
// runs of indices in order (the men kept, the kings changing), and on the cases a sample
// may miss (a step onto or past a king, crowning the last man or the only one on the
// leading rank, captures that end the game or crown).
TEST(CheckersBattery, RankedMovesLeavingTierArePlayedAndRanked) {
  Failures failures;
  std::uint64_t successors = 0;
  auto check = [&](const Position& pos) {
    test::check_ranked_moves(game, pos, failures);
    SuccessorList<Checkers> out;
    (void)Checkers::rank_moves_leaving_tier(pos, out);
    successors += out.size();
  };
  for (const Position& pos : test::sample_positions(game, game.tiers(6), 2, kSeed + 7)) check(pos);
  std::mt19937_64 random(kSeed + 8);
  for (const Tier tier : game.tiers(4)) {
    const Index size = Checkers::size(tier);
    const Index start = random() % size;
    std::optional<Position> pos = Checkers::unrank(tier, start);
    for (Index i = start; i < std::min(size, start + 200); ++i) {
      if (i > start) Checkers::unrank_next(tier, i, *pos);
      check(*pos);
    }
  }
  for (const char* text : {"B:WK1:B25,26", "B:WK1:B25,5", "B:WK1:B25", "B:WK29:B25,K2", "B:WK30,K29:B25,6",
                           "W:W5:BK32", "W:W5,27:BK1,K32", "W:W9,10,K1:B6", "B:W14:B10", "B:W14,K15:B10,K1",
                           "B:W26:B22", "W:W6:BK1", "B:W18,23:B14", "W:WK17,13:B5,9,K21"})
    check(Checkers::parse_position(text));
  GS_EXPECT_NO_FAILURES(failures);
  EXPECT_GT(successors, 10000U);
}

TEST(CheckersBattery, UnmovesNeedNoCaptureBefore) {
  // White's king came to 14 from 9, 10, 17 or 18; but on 17 and on 18 it could have
  // jumped Black's man on 22, and a capture was compulsory: only 9 and 10 remain.
  const Position pos = Checkers::parse_position("B:WK14:B1,22");
  UnmoveList<Checkers> previous;
  Checkers::unmoves(pos, previous);
  std::set<std::string> texts;
  for (const Position& p : previous) texts.insert(Checkers::position_text(p));
  EXPECT_FALSE(texts.contains("W:WK18:B1,22"));
  EXPECT_FALSE(texts.contains("W:WK17:B1,22"));
  EXPECT_EQ(texts.size(), 2U);
  EXPECT_TRUE(texts.contains("W:WK9:B1,22"));
  EXPECT_TRUE(texts.contains("W:WK10:B1,22"));
}

TEST(CheckersBattery, TextRoundTripSampled) {
  const auto positions = test::sample_positions(game, game.tiers(7), 1, kSeed + 2);
  ASSERT_GT(positions.size(), 1000U);
  Failures failures;
  for (const Position& pos : positions) test::check_text_round_trip(game, pos, failures);
  test::check_start(game, failures);
  // And along a few games from the start.
  std::mt19937_64 random(kSeed);
  for (int line = 0; line < 20; ++line) {
    Position pos = Checkers::start();
    for (int ply = 0; ply < 80 && !Checkers::terminal(pos); ++ply) {
      test::check_text_round_trip(game, pos, failures);
      MoveList<Checkers> moves;
      Checkers::moves(pos, moves);
      if (moves.empty()) break;
      pos = Checkers::play(pos, moves[random() % moves.size()]);
    }
  }
  GS_EXPECT_NO_FAILURES(failures);
}

// ---------------------------------------------------------------------------------
// Databases.

void expect_agreement(int pieces) {
  const std::vector<Tier> tiers = test::closure(game, game.tiers(pieces));
  const auto brute = test::brute_force(game, tiers, default_threads());
  EXPECT_GT(brute.rounds, 10);
  TempDir dir;
  test::build(game, dir.path(), pieces, default_threads());
  test::expect_database_equals(game, dir.path(), brute);
}

TEST(CheckersRetro, AgreesWithBruteForceUpToTwoPieces) { expect_agreement(2); }

TEST(CheckersRetroSlow, AgreesWithBruteForceUpToThreePieces) { expect_agreement(3); }

TEST(CheckersRetro, OneKingAgainstOneKing) {
  // docs/games/checkers.md: 992 positions with one side to move; 230 wins, 108 losses and
  // 654 draws for the side to move; the longest win takes 11 plies.
  TempDir dir;
  test::build(game, dir.path(), 2, default_threads());
  db::Database database(db::Location::of(game, dir.path()));
  const db::TierReader* reader = database.find(game, Checkers::parse_tier("1100.00"));
  ASSERT_NE(reader, nullptr);
  const db::TierHeader& header = reader->header();
  EXPECT_EQ(header.positions - header.holes, 992U);
  EXPECT_EQ(header.wins, 230U);
  EXPECT_EQ(header.losses, 108U);
  EXPECT_EQ(header.draws, 654U);
  EXPECT_EQ(header.longest_win, 11U);
  // A king in the single corner (29, one neighbour) loses to the king to move on 18;
  // kings in the open draw.
  const auto value = db::probe(game, database, Checkers::parse_position("B:WK29:BK18"));
  ASSERT_TRUE(value.has_value());
  EXPECT_TRUE(value->is_win()) << value->to_string();
  EXPECT_EQ(*db::probe(game, database, Checkers::parse_position("B:WK21:BK15")), Value::draw());
}

// ---------------------------------------------------------------------------------
// The command line (the real binary).

test::RunResult gamesolver(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), GAMESOLVER_BINARY);
  return test::run(args, dir.path());
}

TEST(CheckersCli, PerftCountAndErrors) {
  TempDir dir;
  auto r = gamesolver(dir, {"perft", "checkers", "--depth", "6", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["nodes"].get<std::uint64_t>(), 36768U);
  r = gamesolver(dir, {"perft", "checkers", "--depth", "4", "--divide", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto divide = nlohmann::json::parse(r.out);
  std::uint64_t sum = 0;
  for (const auto& row : divide["moves"]) sum += row["nodes"].get<std::uint64_t>();
  EXPECT_EQ(divide["moves"].size(), 7U);
  EXPECT_EQ(sum, 1469U);
  r = gamesolver(dir, {"perft", "checkers", "--from", "B:W14,15,22,23:BK10", "--depth", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("depth 1: 2 nodes"), std::string::npos) << r.out;
  r = gamesolver(dir, {"perft", "jungle", "--depth", "2"});  // generic over the games
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = gamesolver(dir, {"perft", "checkers", "--from", "B:W21:B29", "--depth", "2"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("gamesolver: error: position 'B:W21:B29'"), std::string::npos) << r.err;

  r = gamesolver(dir, {"count", "checkers", "--pieces", "3", "--json", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto counts = nlohmann::json::parse(r.out)["counts"];
  ASSERT_EQ(counts.size(), 2U);
  EXPECT_EQ(counts[1]["classes"].get<std::uint64_t>() + counts[1]["end_positions"].get<std::uint64_t>(),
            kBoards[3]);
}

TEST(CheckersCli, BuildProbeVerifyStats) {
  TempDir dir;
  const std::string data = (dir.path() / "data").string();
  auto r = gamesolver(dir, {"build", "checkers", "--pieces", "2", "--data", data, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = gamesolver(dir, {"verify", "checkers", "--pieces", "2", "--data", data, "--quiet"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = gamesolver(dir, {"probe", "checkers", "B:WK29:BK18", "--data", data, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto probe = nlohmann::json::parse(r.out);
  EXPECT_EQ(probe["value"]["outcome"], "win");
  r = gamesolver(dir, {"stats", "checkers", "--pieces", "2", "--data", data, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = gamesolver(dir, {"probe", "checkers", "B:W21:B1", "--data", data});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = gamesolver(dir, {"probe", "checkers", "B:W21:B1:", "--data", data});
  EXPECT_EQ(r.exit_code, 1);
}

}  // namespace
}  // namespace gs::checkers
