#pragma once
// The game contract: everything a game provides so that every part of gamesolver
// (retrograde analysis, verification, search, play, the command line and the explorer)
// can run over it. This file is the whole contract; docs/ADDING_A_GAME.md walks through
// it step by step.
//
// A game is a class whose instance holds its rule options (the variant); engines are
// templates over the class, so the calls below inline into their inner loops. Members
// marked REQUIRED are checked by the concept `Game` (engines) and `RegisteredGame` (the
// registry, app/); those marked OPTIONAL are detected by the concepts below them, and a
// part of gamesolver that needs one names its concept.
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
//   max_pieces()                    OPTIONAL (HasMaxPieces): the most tier_pieces of any
//                                   tier of the variant (checkers 24); `--pieces` above it
//                                   is refused, as it names no more tiers.
//   default_pieces()                OPTIONAL (HasDefaultPieces): the --pieces of a command
//                                   not given one (otherwise 4). A game whose positions
//                                   never shed material (Dobutsu shogi: captured pieces
//                                   return as drops) is one tier group that tiers(limit)
//                                   returns whatever the limit; its default names all of
//                                   its pieces, so reports count them right.
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
// Registration (REQUIRED of a game the command line and the explorer offer: concept
// RegisteredGame; the game's folder registers it, docs/ADDING_A_GAME.md)
//   kDescription                    one line for `gamesolver --help` and the explorer.
//   from_options(variant, rules)    the game of a variant name ("" for the default) and
//                                   "key=value" rule options; throws gs::Error.
//
// OPTIONAL: the command line and the explorer
//   option_help()                   a line per rule option for --help (HasOptionHelp).
//   board_text(pos)                 a diagram for probe and play (HasBoardText).
//   board()                         how the board looks (core/board.h), for the
//                                   explorer page; may depend on the variant (HasBoard).
//   Position::side                  the side to move, 0 or 1 (HasSideToMove); without
//                                   it, side_to_move() is 0.
//   kSideNames                      the names of side 0 and 1 (`play --human`); default
//                                   {"white", "black"} (side_names()).
//   kPdnGameType                    PDN's GameType number ("21": English checkers),
//                                   written to game files and checked when reading them
//                                   (HasPdnGameType); without it files carry [Game "<name>"].
//   start(white, black)             a family of starts by stones to place per side; it
//                                   gives the game the `extended` command (HasStartFamily).
//   material(pos), material_name(c),
//   end_positions_by_material(n)    boards grouped by material for `count --materials`
//                                   (HasMaterials).
//
// OPTIONAL: counting and indexing
//   symmetric(pos, out)             every position equivalent to pos under the game's
//                                   symmetries, pos included (tests, counts).
//   index_table_bytes()             the most memory rank and unrank ever keep in tables
//                                   they build on first use (HasIndexTables): bounded
//                                   whatever is ranked, and counted in the --memory
//                                   budgets of build and solve.
//   end_positions(pieces)           the number of end positions by the rules (count).
//   baseline_size(tier),            the size of a published index for the tier, and
//   baseline_name()                 whose it is, to print beside ours (count).
//
// OPTIONAL: retrograde analysis
//   keeps_tier(pos, move)           true iff play(pos, move) is not terminal and lies in
//                                   pos's own tier (answered without ranking);
//   has_symmetry(pos)               true where a symmetry other than the identity maps
//                                   pos to itself; a game may answer true for more
//                                   positions (the engine then ranks their moves, which
//                                   is only slower). Together they promise: where it is
//                                   false, distinct moves that keep the tier lead to
//                                   distinct indices, so the retrograde scan counts them
//                                   without ranking; and (unless the game has the next
//                                   hook) the positions with a move into pos have
//                                   distinct indices.
//   predecessors_may_meet(pos)      (with the two above) false only where the positions
//                                   with a move into pos in its tier have distinct
//                                   indices: propagation then takes them as they are.
//                                   Where a game has it, has_symmetry answers for the
//                                   moves alone (in a mill game a move changes the
//                                   mover's stones and an unmove the other side's, so
//                                   each question asks after the symmetry of one set).
//   moves_leaving_tier(pos, out)    (with the two above) the moves of pos that leave its
//                                   tier, returning how many of its moves stay in it.
//   rank_moves_leaving_tier(pos, out)  (with the three above) what playing each move
//                                   of moves_leaving_tier(pos), then terminal() and
//                                   rank() of the position reached, would give, in any
//                                   order and without making the positions: a Successor
//                                   per move. Returns how many moves stay in the tier.
//                                   The retrograde scan uses it where it would play and
//                                   rank those moves (positions without symmetry, and
//                                   every position of a tier it walks for children).
//   unrank_next(tier, index, pos)   where pos is unrank(tier, index - 1) (not a hole),
//                                   makes pos unrank(tier, index) and returns true, or
//                                   returns false where index is a hole: a scan in
//                                   index order steps from position to position.
//   unmove_indices(tier, pos, out)  the indices in `tier` (pos's tier) of unmoves(pos),
//                                   in any order; propagation then ranks no predecessor.
//   open_unmove_indices(tier, pos, out)  (with the one above) its indices, less any of
//                                   a position with a move whose successor is terminal,
//                                   a loss for the side to move there (the scan decides
//                                   such a position a win in one, the shortest win, which
//                                   no level changes): propagation ranks only these.
//   wins_at_once(pos)               whether pos (not terminal) has a move whose successor
//                                   is terminal, a loss for the side to move there: the
//                                   scan then decides pos a win in one without examining
//                                   its moves.
//   child_walk_size(tier),          (together) 0, or the length of a walk over a tier
//   child_walk(tier, b, e, visit)   (one no move stays in, unless child_walk_stays says
//                                   so), in an order that keeps successive
//                                   positions' moves near each other in the child tiers
//                                   (a mill game's placement sector walked by the
//                                   opponent's stones: every successor of a run of
//                                   positions lies in one stretch of a child tier).
//                                   child_walk calls visit(index, pos) for the steps
//                                   [b, e) of the walk that are positions, pos at its
//                                   tier index; over [0, size) it visits every position
//                                   of the tier once. The scan of such a tier follows
//                                   the walk, which leaves the files unchanged.
//   child_walk_stays(tier)          (with the two above) whether a move of the walked
//                                   tier may stay in it (a mill game's placement tier
//                                   under Lasker's rule, where a slide keeps the stones
//                                   in hand): the scan follows the walk all the same,
//                                   and the levels follow it. Without it, none may.
//   solve_walk(tier, b, e, values,  (with the two above) the steps [b, e) of the walk
//              solved, visit)       solved by the game where it can: solved(index,
//                                   value) for each position it solves, visit(index,
//                                   pos) as child_walk for the others (which the engine
//                                   examines). values(child) gives what reads the
//                                   child tier: its value's code by index, and a
//                                   prefetch(index) hint (ChildValuesModel); solved
//                                   too has a prefetch(index) hint, for an index it
//                                   will be called with soon (SolvedModel). The
//                                   game may solve runs of the walk that start in
//                                   [b, e) and end past e, and leaves out the steps of
//                                   [b, e) that belong to a run starting before b:
//                                   over the ranges of a partition of [0, size), every
//                                   position is solved or visited once. The values are
//                                   those the engine would find from the positions'
//                                   moves, so the files are unchanged.
//   derivable(pos)                  true iff pos's value follows cheaply from its moves:
//                                   a database may store any value there (a "don't
//                                   care", docs/FORMAT.md) and readers answer it by
//                                   combining its children's values. Contract: every move
//                                   of such a position leads to a terminal position or
//                                   out of its tier (so the search ends: the tier graph
//                                   is acyclic), and the answer is the same for every
//                                   symmetric copy of pos. Checkers: the side to move
//                                   can capture (captures are compulsory).
//
// OPTIONAL: sectors, for ultra-strong solutions (retro/ultra_solver.h, docs/ULTRA.md)
//   sectors(tier)                   the tier's sectors (SectorRange): one or two
//                                   contiguous ranges of its indices that cover it, each
//                                   named by a code (sector_name(code) names it) and
//                                   with the side to move's material minus the
//                                   opponent's (the stones heuristic). A sector is the
//                                   unit a heuristic value is given to; the values are
//                                   for the side to move. Contract: a move that keeps
//                                   the tier leads from a sector into its twin, the
//                                   same positions with the sides swapped: the other
//                                   sector of a tier of two, or the sector itself in a
//                                   tier of one (a symmetric tier, whose value must
//                                   then be 0); `transient` marks a tier of one sector
//                                   that no move keeps (any value). Mills: the
//                                   sectors (W, B, WF, BF) of Gévay & Danner.
//   sector_name(code)               a sector's name in files, tables and text.
// OPTIONAL: search
//   is_capture(pos, move)           true for a move that takes material: alpha-beta tries
//                                   such moves first and follows them past its depth
//                                   limit (quiescence), where they often reach a database.
//   evaluate(pos)                   a heuristic score of pos for the side to move (larger
//                                   is better), used only to order moves, never as a value.
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// Where a move leads (rank_moves_leaving_tier): a terminal position's value, for its
// side to move, or the tier and index of the position.
struct Successor {
  Ranked ranked;
  ValueCode terminal = kHoleCode;  // kHoleCode: not terminal
  bool operator==(const Successor&) const = default;
};

template <class G>
using MoveList = SmallVector<typename G::Move, G::kMaxMoves>;
template <class G>
using SuccessorList = SmallVector<Successor, G::kMaxMoves>;
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

// OPTIONAL: the most pieces a tier holds (see above). Called on the instance: it may
// depend on the variant (the mill boards).
template <class G>
concept HasMaxPieces = requires(const G& game) {
  { game.max_pieces() } -> std::convertible_to<int>;
};

// OPTIONAL: the --pieces a command uses when it is not given (see above).
template <class G>
concept HasDefaultPieces = requires(const G& game) {
  { game.default_pieces() } -> std::convertible_to<int>;
};

// OPTIONAL: the bound on the tables ranking keeps (see above).
template <class G>
concept HasIndexTables = requires(const G& game) {
  { game.index_table_bytes() } -> std::convertible_to<std::uint64_t>;
};

// The memory the game's index tables may hold: index_table_bytes(), or 0.
template <Game G>
std::uint64_t index_table_bytes(const G& game) {
  if constexpr (HasIndexTables<G>) {
    return game.index_table_bytes();
  } else {
    (void)game;
    return 0;
  }
}

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

// OPTIONAL (with KnowsTierMoves): predecessors_may_meet(pos) is false only where the
// positions with a move into pos in its tier have distinct indices; without it,
// has_symmetry answers for them too.
template <class G>
concept KnowsPredecessorSymmetry = KnowsTierMoves<G> &&
    requires(const G& game, const typename G::Position& pos) {
  { game.predecessors_may_meet(pos) } -> std::same_as<bool>;
};

// Whether the positions with a move into pos in its tier may share an index (the
// engine then sorts and deduplicates them); true for a game without the hooks.
template <Game G>
bool predecessors_may_meet(const G& game, const typename G::Position& pos) {
  if constexpr (KnowsPredecessorSymmetry<G>) {
    return game.predecessors_may_meet(pos);
  } else if constexpr (KnowsTierMoves<G>) {
    return game.has_symmetry(pos);
  } else {
    (void)game;
    (void)pos;
    return true;
  }
}

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

// OPTIONAL retrograde hooks (see above).
template <class G>
concept UnranksInOrder = requires(const G& game, Tier tier, Index index, typename G::Position& pos) {
  { game.unrank_next(tier, index, pos) } -> std::same_as<bool>;
};

template <class G>
concept RanksUnmoves = requires(const G& game, Tier tier, const typename G::Position& pos,
                                SmallVector<Index, G::kMaxUnmoves>& out) {
  game.unmove_indices(tier, pos, out);
};

template <class G>
concept RanksOpenUnmoves = RanksUnmoves<G> &&
    requires(const G& game, Tier tier, const typename G::Position& pos,
             SmallVector<Index, G::kMaxUnmoves>& out) {
  game.open_unmove_indices(tier, pos, out);
};

template <class G>
concept KnowsWinsAtOnce = requires(const G& game, const typename G::Position& pos) {
  { game.wins_at_once(pos) } -> std::convertible_to<bool>;
};

template <class G>
concept RanksMovesLeavingTier = CountsTierMoves<G> &&
    requires(const G& game, const typename G::Position& pos, SuccessorList<G>& out) {
  { game.rank_moves_leaving_tier(pos, out) } -> std::same_as<std::size_t>;
};

// OPTIONAL (with RanksMovesLeavingTier): rank_moves(pos, out) ranks the successors of
// every move of pos as rank_moves_leaving_tier does those of the moves leaving the tier,
// the moves that stay included (none counted): for a position with symmetry, whose
// moves may meet, in place of playing and ranking each.
template <class G>
concept RanksMoves = RanksMovesLeavingTier<G> &&
    requires(const G& game, const typename G::Position& pos, SuccessorList<G>& out) {
  game.rank_moves(pos, out);
};

template <class G>
concept WalksForChildren = requires(const G& game, Tier tier, Index index) {
  { game.child_walk_size(tier) } -> std::same_as<Index>;
  game.child_walk(tier, index, index, [](Index, const typename G::Position&) {});
};

template <class G>
concept WalkMayStay = WalksForChildren<G> && requires(const G& game, Tier tier) {
  { game.child_walk_stays(tier) } -> std::same_as<bool>;
};

// What solve_walk's values(child) gives: a child tier's value codes by index, and a
// hint that an index will be read soon.
struct ChildValuesModel {
  ValueCode operator()(Index) const { return kDrawCode; }
  void prefetch(Index) const {}
};

// What solve_walk's solved is: it takes a position's value, and a hint that an index
// will be solved soon (the engine's cell for it is then fetched).
struct SolvedModel {
  void operator()(Index, Value) const {}
  void prefetch(Index) const {}
};

template <class G>
concept SolvesWalk = WalksForChildren<G> && requires(const G& game, Tier tier, Index index) {
  game.solve_walk(
      tier, index, index, [](Tier) { return ChildValuesModel{}; }, SolvedModel{},
      [](Index, const typename G::Position&) {});
};

// One sector of a tier (see above): the indices [begin, end) of the tier.
struct SectorRange {
  Tier code = 0;
  Index begin = 0;
  Index end = 0;
  int balance = 0;         // material: the side to move's minus the opponent's
  bool transient = false;  // no move keeps the tier
  bool operator==(const SectorRange&) const = default;
};

// OPTIONAL sectors hook (see above).
template <class G>
concept HasSectors = requires(const G& game, Tier tier) {
  { game.sectors(tier) } -> std::same_as<std::vector<SectorRange>>;
  { game.sector_name(tier) } -> std::convertible_to<std::string>;
};

// OPTIONAL search hooks (see above).
template <class G>
concept HasCaptures = requires(const G& game, const typename G::Position& pos, const typename G::Move& move) {
  { game.is_capture(pos, move) } -> std::convertible_to<bool>;
};

template <class G>
concept HasEvaluation = requires(const G& game, const typename G::Position& pos) {
  { game.evaluate(pos) } -> std::convertible_to<int>;
};

// Registration (see above).
template <class G>
concept RegisteredGame = Game<G> &&
    requires(const std::string& variant, const std::vector<std::string>& rules) {
  { G::kDescription } -> std::convertible_to<std::string_view>;
  { G::from_options(variant, rules) } -> std::same_as<G>;
};

// OPTIONAL command-line and explorer hooks (see above).
template <class G>
concept HasOptionHelp = requires {
  { G::option_help() } -> std::same_as<std::vector<std::string>>;
};

template <class G>
concept HasBoardText = requires(const G& game, const typename G::Position& pos) {
  { game.board_text(pos) } -> std::convertible_to<std::string>;
};

template <class G>
concept HasSideToMove = requires(const typename G::Position& pos) {
  { pos.side } -> std::convertible_to<int>;
};

template <class G>
concept HasSideNames = requires {
  { G::kSideNames } -> std::convertible_to<std::array<std::string_view, 2>>;
};

template <class G>
concept HasPdnGameType = requires {
  { G::kPdnGameType } -> std::convertible_to<std::string_view>;
};

template <class G>
concept HasStartFamily = requires(const G& game, int white, int black) {
  { game.start(white, black) } -> std::same_as<typename G::Position>;
};

template <class G>
concept HasMaterials = requires(const G& game, const typename G::Position& pos, std::uint32_t code,
                                int pieces) {
  { G::material(pos) } -> std::same_as<std::uint32_t>;
  { G::material_name(code) } -> std::same_as<std::string>;
  {
    G::end_positions_by_material(pieces)
    } -> std::same_as<std::vector<std::pair<std::uint32_t, std::uint64_t>>>;
};

// The side to move of pos: Position::side, or 0 for games whose positions do not say.
template <Game G>
int side_to_move(const typename G::Position& pos) {
  if constexpr (HasSideToMove<G>) {
    return static_cast<int>(pos.side);
  } else {
    return 0;
  }
}

// The names of side 0 and side 1.
template <Game G>
std::array<std::string_view, 2> side_names() {
  if constexpr (HasSideNames<G>) {
    return G::kSideNames;
  } else {
    return {"white", "black"};
  }
}

// The rule options' help lines, none for a game without options.
template <Game G>
std::vector<std::string> option_help() {
  if constexpr (HasOptionHelp<G>) {
    return G::option_help();
  } else {
    return {};
  }
}

}  // namespace gs
