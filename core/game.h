#pragma once
// The game interface: what a game provides so that every engine of gamesolver
// (retrograde analysis, verification, search, play) can run over it.
//
// A game is a class whose instance holds its rule options (the variant); engines are
// templates over the class, so the calls below inline into their inner loops. Members
// marked REQUIRED are checked by the concept `Game`; those marked OPTIONAL are detected
// with `requires` where an engine or a test can use them.
//
// Rules (REQUIRED)
//   Position, Move                  compact value types, cheap to copy.
//   kName                           the game's name in the registry and in file paths.
//   kMaxMoves, kMaxUnmoves          bounds on moves(pos) and unmoves(pos).
//   start()                         the start position of the variant.
//   moves(pos, out)                 the legal moves of the side to move.
//   play(pos, move)                 the position after the move.
//   terminal(pos)                   the value if the game is over, else nullopt; the
//                                   value is for the side to move (a position where the
//                                   opponent has just won is a loss in 0).
//   no_move_value()                 the value of a non-terminal position with no legal
//                                   move (Jungle: draw; checkers and mills: loss in 0).
//   position_text / parse_position  text both ways; parse throws gs::Error naming what
//   move_text / parse_move          is wrong (move text is relative to a position).
//   variant(), rule_text()          the variant's name and the non-default options, as
//                                   recorded in database headers and paths.
//
// Tiers and ranking (REQUIRED)
//   tiers(limit)                    every tier up to a size limit (Jungle: pieces).
//   children(tier)                  the tiers moves lead into, other than tier itself;
//                                   the graph they form must be acyclic.
//   size(tier)                      the number of indices of the tier.
//   tier_name(tier), parse_tier()   a tier's name in files and on the command line.
//   tier_pieces(tier)               the number of pieces, for counts and stats.
//   rank(pos)                       {tier, index} of the canonical representative of
//                                   pos under the game's symmetries; pos must not be
//                                   terminal.
//   unrank(tier, index)             the canonical position at index, or nullopt where
//                                   there is none (a hole). rank(unrank(t, i)) == {t, i}
//                                   for every index that is not a hole.
//   unmoves(pos, out)               the positions of pos's own tier with a move into pos
//                                   (a move that keeps the tier). Any symmetric copy of a
//                                   predecessor may be listed; the engine ranks them.
//
// OPTIONAL
//   symmetric(pos, out)             every position equivalent to pos under the game's
//                                   symmetries, pos included (tests, counts).
//   end_positions(pieces)           the number of end positions by the rules (count).
//   keeps_tier(pos, move)           true iff play(pos, move) is not terminal and lies in
//                                   pos's own tier (answered without ranking);
//   has_symmetry(pos)               true iff a symmetry other than the identity maps pos
//                                   to itself. Together they promise: from a position
//                                   without symmetry, distinct moves that keep the tier
//                                   lead to distinct indices, so the retrograde scan
//                                   counts them without ranking; and the positions
//                                   with a move into a position without symmetry have
//                                   distinct indices (the same fact read backwards).
//   baseline_size(tier),            the size of a published index for the tier, and
//   baseline_name()                 whose it is, to print beside ours (count).
//   board()                         how the board looks (core/board.h), for the
//                                   explorer page; may depend on the variant.
//   derivable(pos)                  true iff pos's value follows cheaply from its moves:
//                                   a database may store any value there (a "don't
//                                   care", docs/FORMAT.md) and readers answer it by
//                                   combining its children's values. Contract: every move
//                                   of such a position leads to a terminal position or
//                                   out of its tier (so the search ends: the tier graph
//                                   is acyclic), and the answer is the same for every
//                                   symmetric copy of pos. Checkers: the side to move
//                                   can capture (captures are compulsory).
#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/small_vector.h"
#include "core/value.h"

namespace gs {

struct Ranked {
  Tier tier = 0;
  Index index = 0;
  bool operator==(const Ranked&) const = default;
};

template <class G>
using MoveList = SmallVector<typename G::Move, G::kMaxMoves>;
template <class G>
using UnmoveList = SmallVector<typename G::Position, G::kMaxUnmoves>;

template <class G>
concept Game = requires(const G& game, const typename G::Position& pos, const typename G::Move& move,
                        MoveList<G>& moves, UnmoveList<G>& unmoves, std::string_view text, Tier tier,
                        Index index, int limit) {
  typename G::Position;
  typename G::Move;
  { G::kName } -> std::convertible_to<std::string_view>;
  { G::kMaxMoves } -> std::convertible_to<std::size_t>;
  { G::kMaxUnmoves } -> std::convertible_to<std::size_t>;
  { game.start() } -> std::same_as<typename G::Position>;
  { game.moves(pos, moves) } -> std::same_as<void>;
  { game.play(pos, move) } -> std::same_as<typename G::Position>;
  { game.terminal(pos) } -> std::same_as<std::optional<Value>>;
  { game.no_move_value() } -> std::same_as<Value>;
  { game.position_text(pos) } -> std::same_as<std::string>;
  { game.parse_position(text) } -> std::same_as<typename G::Position>;
  { game.move_text(pos, move) } -> std::same_as<std::string>;
  { game.parse_move(pos, text) } -> std::same_as<typename G::Move>;
  { game.variant() } -> std::convertible_to<std::string>;
  { game.rule_text() } -> std::convertible_to<std::string>;
  { game.tiers(limit) } -> std::same_as<std::vector<Tier>>;
  { game.children(tier) } -> std::same_as<std::vector<Tier>>;
  { game.size(tier) } -> std::same_as<Index>;
  { game.tier_name(tier) } -> std::same_as<std::string>;
  { game.parse_tier(text) } -> std::same_as<Tier>;
  { game.tier_pieces(tier) } -> std::same_as<int>;
  { game.rank(pos) } -> std::same_as<Ranked>;
  { game.unrank(tier, index) } -> std::same_as<std::optional<typename G::Position>>;
  { game.unmoves(pos, unmoves) } -> std::same_as<void>;
};

template <class G>
concept HasSymmetries = requires(const G& game, const typename G::Position& pos,
                                 std::vector<typename G::Position>& out) {
  { game.symmetric(pos, out) } -> std::same_as<void>;
};

template <class G>
concept HasEndPositionCount = requires(const G& game, int pieces) {
  { game.end_positions(pieces) } -> std::convertible_to<std::uint64_t>;
};

template <class G>
concept KnowsTierMoves = requires(const G& game, const typename G::Position& pos,
                                  const typename G::Move& move) {
  { game.keeps_tier(pos, move) } -> std::same_as<bool>;
  { game.has_symmetry(pos) } -> std::same_as<bool>;
};

// OPTIONAL (with KnowsTierMoves): moves_leaving_tier(pos, out) lists in out the moves
// of pos that leave its tier and returns how many of its moves stay in it; for a position
// without symmetry those lead to distinct positions, so the retrograde scan counts them
// without making them.
template <class G>
concept CountsTierMoves = KnowsTierMoves<G> &&
    requires(const G& game, const typename G::Position& pos, MoveList<G>& out) {
  { game.moves_leaving_tier(pos, out) } -> std::convertible_to<std::size_t>;
};

template <class G>
concept HasBaselineSize = requires(const G& game, Tier tier) {
  { game.baseline_size(tier) } -> std::convertible_to<std::uint64_t>;
  { G::baseline_name() } -> std::convertible_to<std::string>;
};

template <class G>
concept HasDerivable = requires(const G& game, const typename G::Position& pos) {
  { game.derivable(pos) } -> std::same_as<bool>;
};

// Called on the instance: a board may depend on the variant (the mill boards).
template <class G>
concept HasBoard = requires(const G& game) {
  { game.board() } -> std::same_as<Board>;
};

}  // namespace gs
