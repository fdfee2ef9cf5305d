#pragma once
// English checkers (8x8 draughts, docs/games/checkers.md): men move and capture diagonally
// forward, kings in all four directions; captures are compulsory and a jump sequence
// continues while it can, except that a man reaching the far row is crowned and the move
// ends; a side with no piece or no legal move loses.
//
// Squares are the standard numbers 1-32 less one (0-31), row by row from Black's side:
//
//   row 0:   .  0  .  1  .  2  .  3        Black starts on 0-11 (1-12) and moves down,
//   row 1:   4  .  5  .  6  .  7  .        towards row 7, where its men are crowned;
//   ...                                    White starts on 20-31 (21-32) and moves up.
//   row 7:  28  . 29  . 30  . 31  .
//
// Turning the board half round (square s to 31 - s) and swapping the colours and the
// side to move preserves the value: the only symmetry of the game.
//
// Tiers (Lake, Schaeffer & Lu 1993). A slice is seen from the side to move ("mover"):
// its kings, the other side's kings, its men, the other's men, and the rank (1-7, from
// each side's own back row; 0 without men) of each side's leading man. A tier is a slice
// together with its colour-reversed slice: positions of the first with the mover to move
// (stored as Black to move), then those of the second. A tier is named by the orientation
// with the smaller code, as Lake's "nbk nwk nbp nwp.LbLw", e.g. 1210.50, with Black the
// side to move in the first half. Moves that capture, crown, or advance a leading man
// beyond its rank lead into child tiers: fewer pieces, fewer men, or a higher sum of
// leading ranks, so the tier graph is acyclic.
//
// Index of a position in its slice (Black to move, after colour reversal if needed):
//
//   index = (men * C(f, mk) + kings(mover)) * C(f - mk, ok) + kings(other)
//
// Black's men are ranked by their colex rank among the 4L squares of ranks 1..L, less
// the C(4(L-1), n) placements without a man on rank L (those come first in colex order),
// so every index is a placement with its leading man on rank L; White's men (seen from
// White's side) the same way among the squares of their ranks that Black's men leave
// free. Where the two regions overlap (Lb + Lw > 8) the number of White placements
// depends on Black's, and the offsets are sums over Black's men in closed form
// (games/checkers/men_overlap.h: small tables, never one per Black placement). Kings
// are ranked on the f squares the men leave free, the mover's first. No index is a hole.
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/bits.h"
#include "core/error.h"
#include "core/game.h"
#include "games/checkers/men_overlap.h"

namespace gs::checkers {

inline constexpr int kSquares = 32;
inline constexpr int kBlack = 0;
inline constexpr int kWhite = 1;
inline constexpr int kMaxSteps = 12;  // jumps in one move: at most the opponent's twelve pieces
inline constexpr std::uint32_t kRow0 = 0x0000000FU;
inline constexpr std::uint32_t kRow7 = 0xF0000000U;

// The row where a side's men are crowned.
inline constexpr std::uint32_t crown_row(int side) { return side == kBlack ? kRow7 : kRow0; }
inline constexpr int row_of(int square) { return square / 4; }
inline constexpr int column_of(int square) {
  return row_of(square) % 2 == 0 ? 2 * (square % 4) + 1 : 2 * (square % 4);
}

// Neighbours and jump landings per square and direction: directions 0 and 1 go down
// (towards row 7, Black's men's forward), 2 and 3 up (White's men's forward); -1 off board.
struct Geometry {
  std::array<std::array<std::int8_t, 4>, kSquares> step{};
  std::array<std::array<std::int8_t, 4>, kSquares> jump{};
  std::array<std::uint32_t, kSquares> neighbours{};  // the squares a king may step to
  // By side: the squares a man of that side on a square stepped from (Black's men come
  // from above, White's from below).
  std::array<std::array<std::uint32_t, kSquares>, 2> behind{};
  constexpr Geometry() {
    constexpr std::array<int, 4> kRowDelta = {1, 1, -1, -1};
    constexpr std::array<int, 4> kColumnDelta = {-1, 1, -1, 1};
    auto square_at = [](int row, int column) {
      if (row < 0 || row > 7 || column < 0 || column > 7 || (row + column) % 2 == 0) return -1;
      return row * 4 + column / 2;
    };
    for (int s = 0; s < kSquares; ++s) {
      for (std::size_t d = 0; d < 4; ++d) {
        const int row = row_of(s);
        const int column = column_of(s);
        step[s][d] = static_cast<std::int8_t>(square_at(row + kRowDelta[d], column + kColumnDelta[d]));
        jump[s][d] =
            static_cast<std::int8_t>(square_at(row + 2 * kRowDelta[d], column + 2 * kColumnDelta[d]));
        if (step[s][d] >= 0) {
          neighbours[s] |= 1U << step[s][d];
          behind[d < 2 ? 1 : 0][s] |= 1U << step[s][d];  // down: White came from there
        }
      }
    }
  }
};
inline constexpr Geometry kGeometry{};

// Binomial coefficients C(n, k) for n, k <= 32.
struct Binomials {
  std::array<std::array<std::uint64_t, 33>, 33> c{};
  constexpr Binomials() {
    for (std::size_t n = 0; n <= 32; ++n) {
      c[n][0] = 1;
      for (std::size_t k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k < n ? c[n - 1][k] : 0);
    }
  }
};
inline constexpr Binomials kBinomials{};
inline constexpr std::uint64_t binomial(int n, int k) {
  return (k < 0 || n < 0 || k > n) ? 0
                                   : kBinomials.c[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)];
}

// Square s to 31 - s: the board turned half round (the bits reversed).
inline constexpr std::uint32_t turned(std::uint32_t set) {
  set = ((set >> 1) & 0x55555555U) | ((set & 0x55555555U) << 1);
  set = ((set >> 2) & 0x33333333U) | ((set & 0x33333333U) << 2);
  set = ((set >> 4) & 0x0F0F0F0FU) | ((set & 0x0F0F0F0FU) << 4);
  set = ((set >> 8) & 0x00FF00FFU) | ((set & 0x00FF00FFU) << 8);
  return (set >> 16) | (set << 16);
}

struct Position {
  std::array<std::uint32_t, 2> men{};    // by colour: Black 0, White 1
  std::array<std::uint32_t, 2> kings{};  //
  int side = kBlack;                     // the side to move (a whole word: copies of a
                                         // position then never read a part-written word)
  bool operator==(const Position&) const = default;
  [[nodiscard]] std::uint32_t pieces(int colour) const { return men[colour] | kings[colour]; }
  [[nodiscard]] std::uint32_t occupied() const { return men[0] | men[1] | kings[0] | kings[1]; }
};

// A move: the squares it lands on (one for a step, one per jump for a capture) and the
// pieces it captures. Two captures that jump the same pieces in a different order are
// different moves (their paths differ), as perft counts them.
struct Move {
  std::uint32_t captured = 0;
  std::uint8_t from = 0;
  std::uint8_t steps = 0;
  std::array<std::uint8_t, kMaxSteps> path{};
  [[nodiscard]] int to() const { return path[steps - 1U]; }
  bool operator==(const Move&) const = default;
};

// A slice seen from the side to move: kings, men and leading ranks of the mover and the
// other side.
struct Slice {
  int mover_kings = 0;
  int other_kings = 0;
  int mover_men = 0;
  int other_men = 0;
  int mover_lead = 0;
  int other_lead = 0;
  [[nodiscard]] Tier code() const {
    return static_cast<Tier>(mover_kings) | static_cast<Tier>(other_kings) << 4 |
           static_cast<Tier>(mover_men) << 8 | static_cast<Tier>(other_men) << 12 |
           static_cast<Tier>(mover_lead) << 16 | static_cast<Tier>(other_lead) << 20;
  }
  static Slice of(Tier code) {
    return {static_cast<int>(code & 15U),       static_cast<int>(code >> 4 & 15U),
            static_cast<int>(code >> 8 & 15U),  static_cast<int>(code >> 12 & 15U),
            static_cast<int>(code >> 16 & 15U), static_cast<int>(code >> 20 & 15U)};
  }
  [[nodiscard]] Slice reversed() const {
    return {other_kings, mover_kings, other_men, mover_men, other_lead, mover_lead};
  }
  [[nodiscard]] int pieces() const { return mover_kings + other_kings + mover_men + other_men; }
  bool operator==(const Slice&) const = default;
};

// The placements of n men of one side with the leading man on rank `lead` (0: none).
inline constexpr std::uint64_t men_placements(int n, int lead) {
  if (n == 0) return lead == 0 ? 1 : 0;
  if (lead < 1 || lead > 7) return 0;
  return binomial(4 * lead, n) - binomial(4 * (lead - 1), n);
}

// The leading rank of Black's men (as seen from Black's back row), 0 without men.
inline constexpr int black_lead(std::uint32_t men) {
  return men == 0 ? 0 : row_of(31 - std::countl_zero(men)) + 1;
}
inline constexpr int white_lead(std::uint32_t men) {
  return men == 0 ? 0 : 8 - row_of(std::countr_zero(men));
}

class Checkers {
 public:
  using Position = checkers::Position;
  using Move = checkers::Move;
  static constexpr std::string_view kName = "checkers";
  static constexpr std::string_view kDescription = "English checkers, 8x8 draughts (docs/games/checkers.md)";
  // PDN's number of English checkers; Black is side 0 (Position::side).
  static constexpr std::string_view kPdnGameType = "21";
  static constexpr std::array<std::string_view, 2> kSideNames = {"black", "white"};
  static constexpr std::size_t kMaxMoves = 256;
  static constexpr std::size_t kMaxUnmoves = 48;  // 12 pieces, 4 squares each came from

  // English checkers has no rule options; the variant is "english".
  static Checkers from_options(std::string_view variant, const std::vector<std::string>& options);
  [[nodiscard]] static std::string variant() { return "english"; }
  [[nodiscard]] static std::string rule_text() { return {}; }
  // Boards by material for `count --materials` (games/checkers/material.h).
  [[nodiscard]] static std::uint32_t material(const Position& pos);
  [[nodiscard]] static std::string material_name(std::uint32_t code);
  [[nodiscard]] static std::vector<std::pair<std::uint32_t, std::uint64_t>> end_positions_by_material(
      int pieces);

  // Rules.
  [[nodiscard]] static Position start();
  static void moves(const Position& pos, MoveList<Checkers>& out) {
    out.clear();
    const int side = pos.side;
    if (can_capture(pos, side)) {  // a bitboard test, far cheaper than looking for jumps
      captures(pos, out);
      return;
    }
    for_each_step(pos, pos.pieces(side), [&](int from, int to) { push_step(out, from, to); });
  }
  [[nodiscard]] static Position play(const Position& pos, const Move& move) {
    Position next = pos;
    const int side = pos.side;
    const std::uint32_t from = 1U << move.from;
    const std::uint32_t to = 1U << move.to();
    const bool king = (pos.kings[side] & from) != 0;
    next.men[side] &= ~from;
    next.kings[side] &= ~from;
    next.men[side ^ 1] &= ~move.captured;
    next.kings[side ^ 1] &= ~move.captured;
    if (king || (to & crown_row(side)) != 0) {
      next.kings[side] |= to;
    } else {
      next.men[side] |= to;
    }
    next.side = static_cast<std::uint8_t>(side ^ 1);
    return next;
  }
  [[nodiscard]] static std::optional<Value> terminal(const Position& pos) {
    if (pos.pieces(pos.side) == 0) return Value::loss(0);
    return std::nullopt;
  }
  [[nodiscard]] static Value no_move_value() { return Value::loss(0); }
  // Whether `side` has a capture in pos (whoever is to move): the pieces with an
  // opponent's piece next to them and an empty square beyond, all squares at once.
  [[nodiscard]] static bool can_capture(const Position& pos, int side) {
    const std::uint32_t down = side == kBlack ? pos.pieces(side) : pos.kings[side];  // towards row 7
    const std::uint32_t up = side == kWhite ? pos.pieces(side) : pos.kings[side];
    return can_jump(jump_sources(pos.pieces(side ^ 1)), ~pos.occupied(), down, up);
  }
  // The squares from which a piece would jump one of `theirs` in each direction, were
  // the landing square empty (the square jumped over is 3, 4 or 5 away, by the row's
  // parity; kEvenRows: columns 1, 3, 5, 7).
  struct JumpSources {
    std::uint32_t down_left = 0;
    std::uint32_t down_right = 0;
    std::uint32_t up_left = 0;
    std::uint32_t up_right = 0;
  };
  static constexpr JumpSources jump_sources(std::uint32_t theirs) {
    constexpr std::uint32_t kEvenRows = 0x0F0F0F0FU;
    constexpr std::uint32_t kOddRows = 0xF0F0F0F0U;
    return {(theirs >> 4 & kEvenRows) | (theirs >> 3 & kOddRows),
            (theirs >> 5 & kEvenRows) | (theirs >> 4 & kOddRows),
            (theirs << 4 & kEvenRows) | (theirs << 5 & kOddRows),
            (theirs << 3 & kEvenRows) | (theirs << 4 & kOddRows)};
  }
  // Whether a piece in `down` (moving towards row 7) or `up` can jump, given the sources
  // and the empty squares: a jump goes 7 or 9 squares along the numbering.
  static constexpr bool can_jump(const JumpSources& from, std::uint32_t empty, std::uint32_t down,
                                 std::uint32_t up) {
    constexpr std::uint32_t kNotLeft = 0xEEEEEEEEU;   // a jump to column - 2 stays on the board
    constexpr std::uint32_t kNotRight = 0x77777777U;  // a jump to column + 2 stays on the board
    return ((down & ((from.down_left & empty >> 7 & kNotLeft) | (from.down_right & empty >> 9 & kNotRight))) |
            (up & ((from.up_left & empty << 9 & kNotLeft) | (from.up_right & empty << 7 & kNotRight)))) != 0;
  }

  // A position whose side to move can capture: captures are compulsory and leave the
  // tier, so its value follows from the capture moves and databases need not store it
  // (core/game.h, derivable). Colour reversal keeps it.
  [[nodiscard]] static bool derivable(const Position& pos) { return can_capture(pos, pos.side); }

  // Text: the PDN FEN value ("B:W21,22,K30:B1,2,K9") and moves "11-15", "15x24x31".
  [[nodiscard]] static std::string position_text(const Position& pos);
  [[nodiscard]] static Position parse_position(std::string_view text);
  [[nodiscard]] static std::string move_text(const Position& pos, const Move& move);
  [[nodiscard]] static Move parse_move(const Position& pos, std::string_view text);
  [[nodiscard]] static std::string board_text(const Position& pos);  // a diagram
  [[nodiscard]] static Board board();                                // for the explorer page

  // Tiers and ranking.
  [[nodiscard]] static std::vector<Tier> tiers(int max_pieces);
  [[nodiscard]] static std::vector<Tier> children(Tier tier);
  [[nodiscard]] static Index size(Tier tier) {
    const Slice s = Slice::of(tier);
    const Slice r = s.reversed();
    return r == s ? slice_size(s) : slice_size(s) + slice_size(r);
  }
  [[nodiscard]] static std::string tier_name(Tier tier);
  [[nodiscard]] static Tier parse_tier(std::string_view text);
  [[nodiscard]] static int tier_pieces(Tier tier) { return Slice::of(tier).pieces(); }
  // Twelve pieces a side (core/game.h, HasMaxPieces).
  [[nodiscard]] static constexpr int max_pieces() { return 24; }
  // The men index's tables (games/checkers/men_overlap.h; core/game.h, HasIndexTables).
  [[nodiscard]] static std::uint64_t index_table_bytes() { return OverlapSums::most_bytes(); }
  [[nodiscard]] static Tier tier_of(const Slice& s) { return std::min(s.code(), s.reversed().code()); }
  [[nodiscard]] static Index slice_size(const Slice& s) {
    const int men = s.mover_men + s.other_men;
    return men_pairs(s) * binomial(kSquares - men, s.mover_kings) *
           binomial(kSquares - men - s.mover_kings, s.other_kings);
  }
  // The slice of a position seen from its side to move.
  [[nodiscard]] static Slice slice_of(const Position& pos) {
    const int me = pos.side;
    const int lead_black = black_lead(pos.men[kBlack]);
    const int lead_white = white_lead(pos.men[kWhite]);
    return {std::popcount(pos.kings[me]),
            std::popcount(pos.kings[me ^ 1]),
            std::popcount(pos.men[me]),
            std::popcount(pos.men[me ^ 1]),
            me == kBlack ? lead_black : lead_white,
            me == kBlack ? lead_white : lead_black};
  }

  [[nodiscard]] static Ranked rank(const Position& pos) {
    // Read in place where Black is to move: a copy would read the position back in wider
    // words than a caller that just made it (play) wrote, and stall.
    return pos.side == kBlack ? rank_as_black(pos) : rank_as_black(reversed(pos));
  }
  // rank(p) for p with Black to move.
  [[nodiscard]] static Ranked rank_as_black(const Position& p) {
    const Slice s = slice_of(p);
    const Tier tier = tier_of(s);
    Index index = slice_index(p, s);
    if (s.code() != tier) index += slice_size(Slice::of(tier));
    return {tier, index};
  }
  [[nodiscard]] static std::optional<Position> unrank(Tier tier, Index index);
  // Makes pos, which is unrank(tier, index - 1), unrank(tier, index), for a scan in index
  // order; returns true (no index is a hole): the innermost king set (the other side's
  // kings, or the mover's where the other side has none) steps to its colex successor on
  // the same free squares; where it is the last one, the index starts a new men or
  // mover-king placement (or the reversed slice) and is unranked anew.
  static bool unrank_next(Tier tier, Index index, Position& pos) {
    // pos is read and changed in place, seen with the side to move as Black (turned where
    // White is to move): a copy would be read back wider than it was written, and stall.
    const bool flipped = pos.side != kBlack;
    auto seen = [flipped](std::uint32_t set) { return flipped ? turned(set) : set; };
    const int black = flipped ? kWhite : kBlack;  // the colour seen as Black
    const std::uint32_t white_kings = seen(pos.kings[black ^ 1]);
    const int side = white_kings != 0 ? kWhite : kBlack;  // as seen
    const std::uint64_t kings = side == kWhite ? white_kings : seen(pos.kings[black]);
    if (kings == 0) {
      pos = *unrank(tier, index);
      return true;
    }
    const std::uint32_t taken =
        seen(pos.men[kBlack] | pos.men[kWhite] | (side == kWhite ? pos.kings[black] : 0U));
    // The kings as indices among the free squares.
    const std::uint64_t compact = extract(static_cast<std::uint32_t>(kings), ~taken);
    // The next set of as many indices in colex order (Gosper's hack).
    const std::uint64_t low = compact & (~compact + 1);
    const std::uint64_t ripple = compact + low;
    const std::uint64_t next = ripple | (((compact ^ ripple) >> 2) >> std::countr_zero(compact));
    if ((next >> (kSquares - std::popcount(taken))) != 0) {
      pos = *unrank(tier, index);
      return true;
    }
    // The indices back to squares.
    pos.kings[side == kWhite ? black ^ 1 : black] = seen(deposit(static_cast<std::uint32_t>(next), ~taken));
    return true;
  }

  // The positions of pos's tier with a move into pos: the last mover's king steps and the
  // man steps that leave its leading rank, from positions where it had no capture.
  static void unmoves(const Position& pos, UnmoveList<Checkers>& out) {
    out.clear();
    for_each_unmove(pos, [&](const Position& previous, bool) { out.push_back(previous); });
  }
  // The indices in `tier` (pos's tier) of unmoves(pos) (in another order), without
  // ranking each: the predecessors, seen from their side to move, share one slice, and
  // those reached by a king's step share the men's index too.
  static void unmove_indices(Tier tier, const Position& pos, SmallVector<Index, kMaxUnmoves>& out) {
    out.clear();
    // The predecessors' mover as Black, so that they come out as rank() sees them.
    Position seen = pos.side == kBlack ? reversed(pos) : pos;
    seen.side = kBlack;
    // What depends on the men only is kept from the previous call: the retrograde solver
    // visits a level's positions in index order, where runs share their men.
    thread_local UnmoveMen last;
    UnmoveMen& m = last;
    const int kings = std::popcount(seen.kings[kBlack]) | std::popcount(seen.kings[kWhite]) << 4;
    if (m.tier != tier || m.men != seen.men || m.kings != kings) {
      m.tier = tier;
      m.men = seen.men;
      m.kings = kings;
      m.slice = slice_of(seen);
      const Slice& s = m.slice;
      m.offset = s.code() != tier ? slice_size(Slice::of(tier)) : 0;
      const int free = kSquares - s.mover_men - s.other_men;
      m.mover_kings = binomial(free, s.mover_kings);
      m.other_kings = binomial(free - s.mover_kings, s.other_kings);
      m.kings_men = men_index(seen, s);
      // Where the two sides' men regions do not overlap, a step of the mover's man
      // changes only its own side's part of the men index.
      m.overlap = overlaps(s);
      m.per_black = s.other_men == 0 ? 1 : men_placements(s.other_men, s.other_lead);
      m.white = m.kings_men - black_men_index(seen, s) * m.per_black;
    }
    seen.side = kWhite;  // whose move it is in pos, colours as in `seen`
    for_each_unmove(seen, [&](const Position& p, bool king) {
      const std::uint32_t men = p.men[kBlack] | p.men[kWhite];
      Index index = king        ? m.kings_men
                    : m.overlap ? men_index(p, m.slice)
                                : black_men_index(p, m.slice) * m.per_black + m.white;
      index = index * m.mover_kings + colex_among(p.kings[kBlack], men);
      index = index * m.other_kings + colex_among(p.kings[kWhite], men | p.kings[kBlack]);
      out.push_back(m.offset + index);
    });
  }

  // The moves of pos that leave its tier, in out, and the number of those that stay in it
  // (each to another position): captures leave, and are compulsory; a king's step stays;
  // a man's step leaves if it crowns or raises its side's leading rank. The retrograde
  // scan needs no more, and counting kings' steps costs a popcount each.
  static std::size_t moves_leaving_tier(const Position& pos, MoveList<Checkers>& out) {
    out.clear();
    const int side = pos.side;
    if (can_capture(pos, side)) {
      captures(pos, out);
      return 0;
    }
    const std::uint32_t empty = ~pos.occupied();
    std::size_t staying = 0;
    for (std::uint32_t set = pos.kings[side]; set != 0; set &= set - 1)
      staying += static_cast<std::size_t>(std::popcount(kGeometry.neighbours[std::countr_zero(set)] & empty));
    for_each_step(pos, pos.men[side], [&](int from, int to) {
      if (man_step_keeps_tier(pos, from, to)) {
        ++staying;
      } else {
        push_step(out, from, to);
      }
    });
    return staying;
  }

  // What playing and ranking the moves of moves_leaving_tier(pos) gives, returning the
  // same count of moves that stay (core/game.h, RanksMovesLeavingTier), without playing
  // the steps: a man's step that leaves (from the leading rank) leaves the other side's
  // pieces, the successor's mover, as they were, so its slice and men index depend on the
  // men only and are kept from the previous call (games/checkers/successors.cpp).
  static std::size_t rank_moves_leaving_tier(const Position& pos, SuccessorList<Checkers>& out);

  // A move keeps the tier unless it captures, crowns, or raises the leading rank.
  [[nodiscard]] static bool keeps_tier(const Position& pos, const Move& move) {
    if (move.captured != 0) return false;
    if ((pos.kings[pos.side] >> move.from & 1U) != 0) return true;
    return man_step_keeps_tier(pos, move.from, move.to());
  }
  // The colour reversal changes the side to move, so no position is its own image.
  [[nodiscard]] static bool has_symmetry(const Position& pos) {
    (void)pos;
    return false;
  }

  // For the search: captures, and a heuristic for ordering (never a value): material,
  // kings worth more than men.
  [[nodiscard]] static bool is_capture(const Position& pos, const Move& move) {
    (void)pos;
    return move.captured != 0;
  }
  [[nodiscard]] static int evaluate(const Position& pos) {
    const int me = pos.side;
    return 100 * (std::popcount(pos.men[me]) - std::popcount(pos.men[me ^ 1])) +
           130 * (std::popcount(pos.kings[me]) - std::popcount(pos.kings[me ^ 1]));
  }

  // Symmetries: the position and its colour reversal.
  static void symmetric(const Position& pos, std::vector<Position>& out) {
    out.clear();
    out.push_back(pos);
    out.push_back(reversed(pos));
  }
  [[nodiscard]] static Position reversed(const Position& pos) {
    Position result;
    result.men = {turned(pos.men[kWhite]), turned(pos.men[kBlack])};
    result.kings = {turned(pos.kings[kWhite]), turned(pos.kings[kBlack])};
    result.side = static_cast<std::uint8_t>(pos.side ^ 1);
    return result;
  }
  // End positions with `pieces` pieces: the side to move has none, the other all of them.
  [[nodiscard]] static std::uint64_t end_positions(int pieces);

 private:
  // What unmove_indices computes from the men of a position (seen with the predecessors'
  // mover as Black) and its tier.
  struct UnmoveMen {
    Tier tier = ~Tier{0};
    std::array<std::uint32_t, 2> men{};
    int kings = -1;  // the two sides' king counts
    Slice slice;
    Index offset = 0;
    Index mover_kings = 0;
    Index other_kings = 0;
    Index kings_men = 0;  // the men index, which a king's step keeps
    bool overlap = false;
    Index per_black = 0;
    Index white = 0;  // the other side's part of the men index, where no overlap
  };
  static void push(MoveList<Checkers>& out, const Move& move) {
    if (out.size() == kMaxMoves) fail("more than {} legal moves in one position", kMaxMoves);
    out.push_back(move);
  }
  // A step, made in its place in the list: a Move made on the stack a byte at a time and
  // copied in is read back wider than it was written, which stalls the processor.
  static void push_step(MoveList<Checkers>& out, int from, int to) {
    if (out.size() == kMaxMoves) fail("more than {} legal moves in one position", kMaxMoves);
    Move& move = out.emplace_back();
    move.from = static_cast<std::uint8_t>(from);
    move.steps = 1;
    move.path[0] = static_cast<std::uint8_t>(to);
  }
  // Whether a step of the side to move's man from `from` to `to` stays in the tier: it
  // neither crowns nor raises the leading rank.
  [[nodiscard]] static bool man_step_keeps_tier(const Position& pos, int from, int to) {
    const int side = pos.side;
    if (((1U << to) & crown_row(side)) != 0) return false;
    const std::uint32_t men = (pos.men[side] & ~(1U << from)) | 1U << to;
    return side == kBlack ? black_lead(men) == black_lead(pos.men[side])
                          : white_lead(men) == white_lead(pos.men[side]);
  }
  // Calls f(from, to) for each step to an empty square of the side to move's pieces in
  // `pieces`: men forward, kings in the four directions.
  template <class F>
  static void for_each_step(const Position& pos, std::uint32_t pieces, F&& f) {
    const int side = pos.side;
    const std::uint32_t empty = ~pos.occupied();
    for (std::uint32_t set = pieces; set != 0; set &= set - 1) {
      const int from = std::countr_zero(set);
      const bool king = (pos.kings[side] >> from & 1U) != 0;
      const std::size_t first = king || side == kBlack ? 0 : 2;
      const std::size_t last = king || side == kWhite ? 4 : 2;
      for (std::size_t d = first; d < last; ++d) {
        const int to = kGeometry.step[from][d];
        if (to < 0 || (empty >> to & 1U) == 0) continue;
        f(from, to);
      }
    }
  }
  static void captures(const Position& pos, MoveList<Checkers>& out) {
    for_each_capture(pos, [&](const Move& move) { push(out, move); });
  }
  // Calls f(move) for each capture of the side to move.
  template <class F>
  static void for_each_capture(const Position& pos, F&& f) {
    const int side = pos.side;
    const std::uint32_t theirs = pos.pieces(side ^ 1);
    for (std::uint32_t set = pos.pieces(side); set != 0; set &= set - 1) {
      const int from = std::countr_zero(set);
      const bool king = (pos.kings[side] >> from & 1U) != 0;
      Move move;
      move.from = static_cast<std::uint8_t>(from);
      // The jumping piece has left its square: a king may land there again.
      jumps(side, king, ~pos.occupied() | 1U << from, theirs, from, move, f);
    }
  }
  template <class F>
  static void jumps(int side, bool king, std::uint32_t empty, std::uint32_t theirs, int at, Move& move,
                    F& f) {
    const std::size_t first = king || side == kBlack ? 0 : 2;
    const std::size_t last = king || side == kWhite ? 4 : 2;
    bool continued = false;
    for (std::size_t d = first; d < last; ++d) {
      const int land = kGeometry.jump[at][d];
      if (land < 0) continue;
      const int over = kGeometry.step[at][d];
      // A jumped piece stays on the board until the move ends, and is never jumped twice.
      if ((theirs >> over & 1U) == 0 || (move.captured >> over & 1U) != 0 || (empty >> land & 1U) == 0)
        continue;
      continued = true;
      move.path[move.steps++] = static_cast<std::uint8_t>(land);
      move.captured |= 1U << over;
      if (!king && ((1U << land) & crown_row(side)) != 0) {
        f(move);  // crowned: the move ends here
      } else {
        jumps(side, king, empty, theirs, land, move, f);
      }
      move.captured &= ~(1U << over);
      move.path[--move.steps] = 0;
    }
    if (!continued && move.steps > 0) f(move);
  }

  // Calls f(previous, king) for each of unmoves(pos); king: a king stepped.
  template <class F>
  static void for_each_unmove(const Position& pos, F&& f) {
    const int mover = pos.side ^ 1;
    const std::uint32_t empty = ~pos.occupied();
    const std::uint32_t men = pos.men[mover];
    // The leading rank's row, and whether more than one man stands on it.
    const std::uint32_t lead_row = men == 0
                                       ? 0
                                       : (mover == kBlack ? 0xFU << (4 * row_of(31 - std::countl_zero(men)))
                                                          : 0xFU << (4 * row_of(std::countr_zero(men))));
    const bool lead_shared = std::popcount(men & lead_row) > 1;
    const std::uint32_t pieces = pos.pieces(mover);
    const std::uint32_t kings = pos.kings[mover];
    const JumpSources sources = jump_sources(pos.pieces(mover ^ 1));  // the other side's pieces do not move
    for (std::uint32_t set = pieces; set != 0; set &= set - 1) {
      const int to = std::countr_zero(set);
      const std::uint32_t to_bit = 1U << to;
      const bool king = (pos.kings[mover] & to_bit) != 0;
      if (!king && (to_bit & lead_row) != 0 && !lead_shared) continue;  // the step raised the leading rank
      // A king came from any neighbouring square, a man from behind.
      const std::uint32_t froms = (king ? kGeometry.neighbours[to] : kGeometry.behind[mover][to]) & empty;
      for (std::uint32_t rest = froms; rest != 0; rest &= rest - 1) {
        const std::uint32_t from_bit = rest & (~rest + 1);
        const std::uint32_t moved = to_bit | from_bit;
        // The step was not legal where the mover had a capture before it.
        const std::uint32_t kings_before = king ? kings ^ moved : kings;
        const std::uint32_t pieces_before = pieces ^ moved;
        if (can_jump(sources, empty ^ moved, mover == kBlack ? pieces_before : kings_before,
                     mover == kWhite ? pieces_before : kings_before))
          continue;
        Position previous = pos;
        if (king) {
          previous.kings[mover] = kings_before;
        } else {
          previous.men[mover] ^= moved;
        }
        previous.side = static_cast<std::uint8_t>(mover);
        f(previous, king);
      }
    }
  }

  // The index of p (Black to move) in its slice s.
  static Index slice_index(const Position& p, const Slice& s) {
    const std::uint32_t men = p.men[kBlack] | p.men[kWhite];
    const int free = kSquares - s.mover_men - s.other_men;
    Index index = men_index(p, s);
    index = index * binomial(free, s.mover_kings) + colex_among(p.kings[kBlack], men);
    index = index * binomial(free - s.mover_kings, s.other_kings) +
            colex_among(p.kings[kWhite], men | p.kings[kBlack]);
    return index;
  }
  // The colex rank of `set` among the squares not in `taken` (the table read directly:
  // its arguments are in range, and C(n, k) = 0 for k > n is in it).
  static Index colex_among(std::uint32_t set, std::uint32_t taken) {
    Index rank = 0;
    std::size_t k = 1;
    for (; set != 0; set &= set - 1, ++k) {
      const std::uint32_t below = (set & (~set + 1)) - 1;
      rank += kBinomials.c[static_cast<std::size_t>(std::popcount(below & ~taken))][k];
    }
    return rank;
  }
  // The men of both sides: Black's among its placements, then White's (seen from its own
  // side) among the squares of its ranks that Black's men leave free.
  // Black's men among its placements with the leading man on the slice's rank.
  static Index black_men_index(const Position& p, const Slice& s) {
    if (s.mover_men == 0) return 0;
    Index rank = 0;
    std::size_t k = 1;
    for (std::uint32_t set = p.men[kBlack]; set != 0; set &= set - 1, ++k)
      rank += kBinomials.c[static_cast<std::size_t>(std::countr_zero(set))][k];
    return rank - binomial(4 * (s.mover_lead - 1), s.mover_men);
  }
  static Index men_index(const Position& p, const Slice& s) {
    if (s.other_men == 0) return black_men_index(p, s);
    const std::uint32_t blocked = turned(p.men[kBlack]) & region(s.other_lead);
    const int below_lead = 4 * (s.other_lead - 1) - std::popcount(blocked & region(s.other_lead - 1));
    const Index white = colex_among(turned(p.men[kWhite]), blocked) - binomial(below_lead, s.other_men);
    if (overlaps(s)) return overlap_of(s).first(p.men[kBlack]) + white;
    return black_men_index(p, s) * men_placements(s.other_men, s.other_lead) + white;
  }
  // The squares of ranks 1..lead of a side seen from its own back row.
  static constexpr std::uint32_t region(int lead) { return lead >= 8 ? ~0U : (1U << (4 * lead)) - 1; }
  // Whether the two sides' men regions overlap: the number of White placements then
  // depends on Black's, and the men index comes from games/checkers/men_overlap.h.
  static bool overlaps(const Slice& s) {
    return s.mover_men != 0 && s.other_men != 0 && s.mover_lead + s.other_lead >= 9;
  }
  static MenOverlap overlap_of(const Slice& s) {
    return {s.mover_men, s.other_men, s.mover_lead, s.other_lead};
  }
  static Index men_pairs(const Slice& s) {
    if (overlaps(s)) return overlap_of(s).pairs();
    return men_placements(s.mover_men, s.mover_lead) * men_placements(s.other_men, s.other_lead);
  }
};

static_assert(Game<Checkers>);
static_assert(HasSymmetries<Checkers>);
static_assert(KnowsTierMoves<Checkers>);
static_assert(CountsTierMoves<Checkers>);
static_assert(RanksMovesLeavingTier<Checkers>);
static_assert(HasEndPositionCount<Checkers>);
static_assert(HasBoard<Checkers>);
static_assert(HasMaxPieces<Checkers>);
static_assert(HasIndexTables<Checkers>);

}  // namespace gs::checkers
