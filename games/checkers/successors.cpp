// The successors of the moves that leave a checkers tier, ranked without playing them
// (core/game.h, RanksMovesLeavingTier): the retrograde scan asks this of every position.
//
// Without a capture, the moves that leave are the steps of the men on the leading rank
// (they raise it, or crown). The successor's side to move is the other side, whose pieces
// such a step leaves alone; its slice and men index then depend on the men alone. The
// scan visits a tier in index order, where runs of positions share their men and differ
// in the kings, so what the men decide is kept from call to call, and each step costs
// two colex ranks of kings. Captures, rarer, are played and ranked.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/error.h"
#include "core/game.h"
#include "games/checkers/checkers.h"

namespace gs::checkers {
namespace {

// A man's step that leaves the tier, ranked but for the kings; `seen`: with the
// successor's side to move as Black, as rank() sees it.
struct LeavingStep {
  std::uint32_t to = 0;       // the square stepped to (a set, as in pos), where no king may stand
  std::uint32_t men = 0;      // the successor's men of both sides, seen
  std::uint32_t crowned = 0;  // the square of the man crowned, seen, or none
  Tier tier = 0;
  Index offset = 0;  // of the successor's slice in its tier
  Index men_index = 0;
  Index mover_kings = 0;  // the placements of the successor's mover's kings
  Index other_kings = 0;  // and of the other side's, given those
};

// What a position's men (with the side to move and the king counts) decide of its moves.
struct LeavingMen {
  int side = -1;
  std::array<std::uint32_t, 2> men{};
  int kings = -1;  // the two sides' king counts
  // The squares reached by the men's steps that stay in the tier, by direction (each
  // reached from one square), where no man stands.
  std::array<std::uint32_t, 2> staying{};
  std::size_t count = 0;
  std::array<LeavingStep, 8> steps{};  // the leading rank holds at most four men
};

}  // namespace

std::size_t Checkers::rank_moves_leaving_tier(const Position& pos, SuccessorList<Checkers>& out) {
  out.clear();
  const int side = pos.side;
  if (can_capture(pos, side)) {
    for_each_capture(pos, [&](const Move& move) {
      if (out.size() == kMaxMoves) fail("more than {} legal moves in one position", kMaxMoves);
      const Position next = play(pos, move);
      if (const std::optional<Value> value = terminal(next)) {
        out.push_back({Ranked{}, value->code()});
      } else {
        out.push_back({rank(next), kHoleCode});
      }
    });
    return 0;
  }
  const int other = side ^ 1;
  // The successor's mover is `other`; seen as Black where it is White.
  const bool turn = other == kWhite;
  auto seen = [turn](std::uint32_t set) { return turn ? turned(set) : set; };
  thread_local LeavingMen last;
  LeavingMen& m = last;
  const int kings = std::popcount(pos.kings[kBlack]) | std::popcount(pos.kings[kWhite]) << 4;
  if (m.side != side || m.men != pos.men || m.kings != kings) {
    m.side = side;
    m.men = pos.men;
    m.kings = kings;
    m.staying = {};
    m.count = 0;
    const std::uint32_t theirs = pos.men[other];
    const int their_lead = other == kBlack ? black_lead(theirs) : white_lead(theirs);
    Position child;  // the successor's men, seen
    child.men[kBlack] = seen(theirs);
    Position men_only = pos;  // the steps to squares no man stands on
    men_only.kings = {};
    for_each_step(men_only, pos.men[side], [&](int from, int to) {
      const std::uint32_t to_bit = 1U << to;
      if (man_step_keeps_tier(pos, from, to)) {
        m.staying[column_of(to) > column_of(from) ? 1 : 0] |= to_bit;
        return;
      }
      const bool crowns = (to_bit & crown_row(side)) != 0;
      const std::uint32_t mine = (pos.men[side] ^ 1U << from) | (crowns ? 0U : to_bit);
      const Slice s{std::popcount(pos.kings[other]),
                    std::popcount(pos.kings[side]) + (crowns ? 1 : 0),
                    std::popcount(theirs),
                    std::popcount(mine),
                    their_lead,
                    side == kBlack ? black_lead(mine) : white_lead(mine)};
      child.men[kWhite] = seen(mine);
      LeavingStep& step = m.steps[m.count++];
      step.to = to_bit;
      step.men = child.men[kBlack] | child.men[kWhite];
      step.crowned = crowns ? seen(to_bit) : 0U;
      step.tier = tier_of(s);
      step.offset = s.code() != step.tier ? slice_size(Slice::of(step.tier)) : 0;
      step.men_index = men_index(child, s);
      const int free = kSquares - s.mover_men - s.other_men;
      step.mover_kings = binomial(free, s.mover_kings);
      step.other_kings = binomial(free - s.mover_kings, s.other_kings);
    });
  }
  const std::uint32_t all_kings = pos.kings[kBlack] | pos.kings[kWhite];
  const std::uint32_t empty = ~pos.occupied();
  std::size_t staying = static_cast<std::size_t>(std::popcount(m.staying[0] & ~all_kings)) +
                        static_cast<std::size_t>(std::popcount(m.staying[1] & ~all_kings));
  for (std::uint32_t set = pos.kings[side]; set != 0; set &= set - 1)
    staying += static_cast<std::size_t>(std::popcount(kGeometry.neighbours[std::countr_zero(set)] & empty));
  const std::uint32_t their_kings = seen(pos.kings[other]);
  const std::uint32_t my_kings = seen(pos.kings[side]);
  for (std::size_t k = 0; k < m.count; ++k) {
    const LeavingStep& step = m.steps[k];
    if ((step.to & all_kings) != 0) continue;
    Index index = step.men_index * step.mover_kings + colex_among(their_kings, step.men);
    index = index * step.other_kings + colex_among(my_kings | step.crowned, step.men | their_kings);
    out.push_back({{step.tier, step.offset + index}, kHoleCode});
  }
  return staying;
}

}  // namespace gs::checkers
