#pragma once
// The mill games (docs/games/morris.md): Nine Men's Morris, Lasker Morris, Morabaraba and the
// small boards of Five, Six and Seven Men's Morris, with every rule option.
//
// A position is the two sides' stone sets (games/morris/geometry.h), their stones in
// hand and the side to move. Position text: "W:a1,d2 B:g7 w 7 8" (White's points,
// Black's points, side to move, White's and Black's stones in hand). Move text: "d2"
// (place), "a1-a4" (move or fly), with "xg7" appended when the move closes a mill and
// removes the stone on g7.
//
// Tiers are Gévay & Danner's sectors: (W, B, WF, BF) = White's and Black's stones on the
// board and in hand, White to move. A position with Black to move is stored as its
// colour-swapped twin. A sector whose sliding moves lead into its colour-swapped sector
// (B, W, BF, WF) and back (both sides move rather than place, or Lasker rules) forms one
// tier with it: the tier is named by the smaller of the two, whose indices come first.
//
// Index of a position in a sector: class(White's set) * C(n - W, B) + colex rank of
// Black's set among the n - W free points, after the symmetry that maps White's set on
// the smallest set of its class. Where that set has symmetries of its own, Black's set
// is taken at its smallest image under them and the other images are holes.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/colex.h"
#include "core/error.h"
#include "core/game.h"
#include "games/morris/geometry.h"

namespace gs::morris {

inline constexpr std::uint8_t kNone = 0xFF;
inline constexpr int kMaxStones = 31;  // per side, on the board and in hand

struct Position {
  std::array<std::uint32_t, 2> stones{};  // by colour: White 0, Black 1
  std::array<std::uint8_t, 2> hand{};     // stones still to place
  std::uint8_t side = 0;                  // the side to move
  bool operator==(const Position&) const = default;
};

struct Move {
  std::uint8_t from = kNone;    // kNone: a placement
  std::uint8_t to = 0;          //
  std::uint8_t remove = kNone;  // the opponent's stone removed, or kNone
  bool operator==(const Move&) const = default;
};

// Which opponent stones a mill may remove.
enum class Removal : std::uint8_t {
  kStandard,   // not from a mill unless every stone stands in one
  kNeverMill,  // never from a mill (then a mill may remove nothing)
  kAny,        // any stone
};

struct Options {
  BoardKind board = BoardKind::kNine;
  std::array<int, 2> stones{9, 9};  // stones to place at the start, by colour
  int flying = 3;                   // a side with at most this many stones flies; 0: never
  Removal removal = Removal::kStandard;
  bool lasker = false;           // a side with stones in hand may move instead of placing
  bool full_board_draw = false;  // a board filled without a mill is a draw (Morabaraba)
  bool operator==(const Options&) const = default;
};

// A sector: stones on the board and in hand, White to move.
struct Sector {
  int w = 0;
  int b = 0;
  int wf = 0;
  int bf = 0;
  [[nodiscard]] Tier code() const {
    return static_cast<Tier>(w) | static_cast<Tier>(b) << 5 | static_cast<Tier>(wf) << 10 |
           static_cast<Tier>(bf) << 15;
  }
  static Sector of(Tier code) {
    return {static_cast<int>(code & 31U), static_cast<int>(code >> 5 & 31U),
            static_cast<int>(code >> 10 & 31U), static_cast<int>(code >> 15 & 31U)};
  }
  [[nodiscard]] Sector swapped() const { return {b, w, bf, wf}; }
  bool operator==(const Sector&) const = default;
};

class Morris {
 public:
  using Position = morris::Position;
  using Move = morris::Move;
  static constexpr std::string_view kName = "morris";
  static constexpr std::string_view kDescription =
      "mill games: Nine Men's Morris, Lasker, Morabaraba, Five/Six/Seven (docs/games/morris.md)";
  static constexpr std::size_t kMaxMoves = 768;
  static constexpr std::size_t kMaxUnmoves = 96;

  explicit Morris(std::string variant = "standard", Options options = {});
  // Builds a game from a variant name (standard, lasker, morabaraba, five, six, seven)
  // and "key=value" rule options; throws gs::Error.
  static Morris from_options(std::string_view variant, const std::vector<std::string>& options);
  static std::vector<std::string> option_help();
  // The options of a named variant; throws gs::Error for an unknown name.
  static Options variant_options(std::string_view variant);

  [[nodiscard]] const Options& options() const { return options_; }
  [[nodiscard]] const Geometry& geometry() const { return geometry_; }
  [[nodiscard]] std::string variant() const { return variant_; }
  // The options that differ from the variant's. The stones to place are not among
  // them: every position carries its stones in hand, so databases do not depend on them.
  [[nodiscard]] std::string rule_text() const;

  // Rules.
  [[nodiscard]] Position start() const { return start(options_.stones[0], options_.stones[1]); }
  [[nodiscard]] static Position start(int white_stones, int black_stones);
  void moves(const Position& pos, MoveList<Morris>& out) const;
  // The position is made in two whole words (both stone sets; hands and side to move)
  // rather than field by field: what reads it back (rank, terminal) loads whole words,
  // which the processor cannot forward from smaller stores (a stall that took a seventh
  // of a build's time).
  [[nodiscard, gnu::always_inline]] static Position play(const Position& pos, const Move& move) {
    static_assert(sizeof(Position) == 12 && offsetof(Position, hand) == 8 && offsetof(Position, side) == 10);
    const unsigned side = pos.side;
    std::uint64_t stones = 0;
    std::uint32_t rest = 0;  // hand[0], hand[1], side and the padding byte
    std::memcpy(&stones, &pos, 8);
    std::memcpy(&rest, reinterpret_cast<const unsigned char*>(&pos) + 8, 4);
    const unsigned mine = 32 * side;
    if (move.from == kNone) {
      rest -= 1U << (8 * side);
    } else {
      stones &= ~(std::uint64_t{1} << (move.from + mine));
    }
    stones |= std::uint64_t{1} << (move.to + mine);
    if (move.remove != kNone) stones &= ~(std::uint64_t{1} << (move.remove + (32 - mine)));
    rest ^= 1U << 16;
    Position next;
    std::memcpy(static_cast<void*>(&next), &stones, 8);
    std::memcpy(static_cast<unsigned char*>(static_cast<void*>(&next)) + 8, &rest, 4);
    return next;
  }
  [[nodiscard]] std::optional<Value> terminal(const Position& pos) const {
    if (std::popcount(pos.stones[pos.side]) + pos.hand[pos.side] < 3) return Value::loss(0);
    if (options_.full_board_draw && (pos.stones[0] | pos.stones[1]) == geometry_.full()) return Value::draw();
    return std::nullopt;
  }
  [[nodiscard]] static Value no_move_value() { return Value::loss(0); }
  // Whether a side with these stones (on the board and in hand) flies.
  [[nodiscard]] bool flies(const Position& pos, int side) const {
    return std::popcount(pos.stones[side]) + pos.hand[side] <= options_.flying;
  }
  // The opponent stones a mill closed by `side` may remove (none: the mill removes nothing).
  [[nodiscard]] std::uint32_t removable(const Position& pos, int side) const;

  // Text.
  [[nodiscard]] std::string position_text(const Position& pos) const;
  [[nodiscard]] Position parse_position(std::string_view text) const;
  [[nodiscard]] std::string move_text(const Position& pos, const Move& move) const;
  [[nodiscard]] Move parse_move(const Position& pos, std::string_view text) const;
  [[nodiscard]] std::string board_text(const Position& pos) const;  // a diagram
  [[nodiscard]] Board board() const;                                // for the explorer page

  // Tiers and ranking.
  [[nodiscard]] std::vector<Tier> tiers(int max_stones) const;
  [[nodiscard]] std::vector<Tier> children(Tier tier) const;
  [[nodiscard]] Index size(Tier tier) const;
  [[nodiscard]] static std::string tier_name(Tier tier);
  [[nodiscard]] Tier parse_tier(std::string_view text) const;
  // The most stones (on the board and in hand) of either side.
  [[nodiscard]] static int tier_pieces(Tier tier) {
    const Sector s = Sector::of(tier);
    return std::max(s.w + s.wf, s.b + s.bf);
  }
  // Stones a side: at most half the board's points, as the rules let a side start with
  // and the tiers hold (core/game.h, HasMaxPieces); not the variant's own count, since
  // tiers are built for more stones than a variant starts with.
  [[nodiscard]] int max_pieces() const { return geometry_.points() / 2; }
  // The board's tables of symmetry classes, built per number of stones on first use
  // (core/game.h, HasIndexTables): 64 MiB of entries and the classes on the 24-point boards.
  [[nodiscard]] std::uint64_t index_table_bytes() const { return geometry_.class_table_bytes(); }
  // Always inlined: the retrograde scan ranks what play() makes, which then stays in
  // registers (a call would store it a byte at a time and read it back whole, a stall).
  [[nodiscard, gnu::always_inline]] Ranked rank(const Position& pos) const;
  [[nodiscard]] std::optional<Position> unrank(Tier tier, Index index) const;
  // Where pos is unrank(tier, index - 1): makes pos unrank(tier, index), or returns false
  // at a hole (core/game.h, UnranksInOrder). Within a class, Black's set steps to the
  // next set in colex order among the free points.
  bool unrank_next(Tier tier, Index index, Position& pos) const;
  // The indices of unmoves(pos) in pos's tier, without making the positions (core/game.h,
  // RanksUnmoves): the side to move's stones are Black's set of every predecessor.
  void unmove_indices(Tier tier, const Position& pos, SmallVector<Index, kMaxUnmoves>& out) const;
  // unmove_indices less the predecessors that win at once (core/game.h,
  // RanksOpenUnmoves): where the side to move has three stones and none in hand, and the
  // mover three flying ones, a predecessor whose stones close a mill on an empty point
  // takes the side to move down to two stones.
  void open_unmove_indices(Tier tier, const Position& pos, SmallVector<Index, kMaxUnmoves>& out) const;
  void unmoves(const Position& pos, UnmoveList<Morris>& out) const;
  // The walk of a placement sector for its children (core/game.h, WalksForChildren):
  // its positions in the index order of the colour-swapped sector, that is by the class
  // of Black's stones, then by White's set among the free points. A placement by White
  // leads to Black's stones (a class representative, fixed through the walk's runs)
  // against White's set and one more stone: the children of a run of positions all lie
  // in one class of the child sector (C(n - B, W + 1) indices), and those of the mills
  // in B classes of the sector with a Black stone less. Indexed as a sector, each run
  // would read its children all over the child sector. Under Lasker's rule a placement
  // tier is a pair of sectors (a slide keeps the stones in hand), walked one after the
  // other: a sector whose side to move has a stone in hand so, one whose side to move
  // has none in its own index order (its slides stay in the tier, only its mills leave).
  // 0 for a tier of moving sectors, whose walk gained nothing.
  [[nodiscard]] Index child_walk_size(Tier tier) const {
    const Sector s = Sector::of(tier);
    if (!paired(s)) return walk_steps(s);
    if (s.wf == 0 && s.bf == 0) return 0;
    return walk_steps(s) + (s.swapped() != s ? walk_steps(s.swapped()) : 0);
  }
  // Whether a move of a walked tier may stay in it (core/game.h, WalksForChildren): a
  // slide without removal, in a pair of sectors.
  [[nodiscard]] bool child_walk_stays(Tier tier) const { return paired(Sector::of(tier)); }
  template <class Visit>
  void child_walk(Tier tier, Index begin, Index end, Visit&& visit) const;
  // The walk's runs solved from their children (core/game.h, SolvesWalk). A run is one
  // class of Black's stones (the opponent's), White's sets its steps in colex order
  // among the free points; its placements without a mill lead to the child sector's
  // run of that class, White's sets with one stone more. That run is read once, in
  // order, and each child's value is offered to its parents, the child's sets less one
  // stone (one that closes no mill), in a table of the run's positions; the mills'
  // removals are then ranked and read per position. Where Black's class has a symmetry
  // (the steps of a run are then not all positions), or the sector's moves are of other
  // kinds (a move that ends the game, a full board), the positions go to `visit` as
  // child_walk's do.
  template <class Values, class Solved, class Visit>
  void solve_walk(Tier tier, Index begin, Index end, Values&& values, Solved&& solved, Visit&& visit) const;

  // Retrograde hooks (core/game.h, KnowsTierMoves and CountsTierMoves): a slide without
  // removal keeps the tier of a paired sector; every other move leaves it.
  [[nodiscard]] bool keeps_tier(const Position& pos, const Move& move) const {
    return move.from != kNone && move.remove == kNone && paired(sector_of(pos));
  }
  // Two slides of the side to move that keep the tier (no removal) leave the other side's
  // stones as they are, so they reach one index only through a symmetry (other than the
  // identity) that fixes those stones: has_symmetry asks after that set. Two positions
  // with a move into pos differ only in the other side's stones, so they share an index
  // only through a symmetry that fixes the mover's: predecessors_may_meet asks after
  // that one (core/game.h). Either covers every position with a symmetry, and some
  // without, which the engine then ranks or deduplicates. A bit of a table per set.
  [[nodiscard]] bool has_symmetry(const Position& pos) const {
    return geometry_.symmetric(pos.stones[1 - pos.side]);
  }
  [[nodiscard]] bool predecessors_may_meet(const Position& pos) const {
    return geometry_.symmetric(pos.stones[pos.side]);
  }
  std::size_t moves_leaving_tier(const Position& pos, MoveList<Morris>& out) const;
  // The successors of those moves, ranked (core/game.h, RanksMovesLeavingTier). A move
  // without removal leaves the opponent's stones as they are, so their class, its
  // symmetry and White's stones under it are looked up once per position; each move
  // then changes a point or two of the mapped set.
  std::size_t rank_moves_leaving_tier(const Position& pos, SuccessorList<Morris>& out) const {
    return rank_successors(pos, out, paired(sector_of(pos)));
  }
  // Every move's successor ranked, the moves that stay included (RanksMoves).
  void rank_moves(const Position& pos, SuccessorList<Morris>& out) const { rank_successors(pos, out, false); }

  // A heuristic score for the side to move (core/game.h, HasEvaluation), of the kind
  // Gévay & Danner's alpha-beta player used: the stone ratio, the sliding moves
  // available, and the points with four neighbours held (docs/ULTRA.md).
  [[nodiscard]] int evaluate(const Position& pos) const;

  // Sectors.
  // Whether a sector and its colour-swapped twin form one tier.
  [[nodiscard]] bool paired(const Sector& s) const {
    return (s.wf == 0 || options_.lasker) && (s.bf == 0 || options_.lasker);
  }
  [[nodiscard]] Tier tier_of(const Sector& s) const {
    return paired(s) ? std::min(s.code(), s.swapped().code()) : s.code();
  }
  // Where the indices of sector s start in its tier (tier_of(s)): after those of its
  // twin, where the twin's code is the tier's.
  [[nodiscard]] Index offset_in_tier(const Sector& s, Tier tier) const {
    return s.code() == tier ? 0 : sector_size(Sector::of(tier));
  }
  [[nodiscard]] bool valid(const Sector& s) const;
  [[nodiscard]] Index sector_size(const Sector& s) const {
    return geometry_.class_count(s.w) * binomial(geometry_.points() - s.w, s.b);
  }
  // The sector of a position, after swapping colours when Black is to move.
  [[nodiscard]] static Sector sector_of(const Position& pos) {
    const int me = pos.side;
    return {std::popcount(pos.stones[me]), std::popcount(pos.stones[me ^ 1]), pos.hand[me], pos.hand[me ^ 1]};
  }
  // The sectors of a tier (core/game.h, HasSectors): the tier's sector and, for a pair,
  // its colour-swapped twin, whose indices follow.
  [[nodiscard]] std::vector<SectorRange> sectors(Tier tier) const;
  [[nodiscard]] static std::string sector_name(Tier code) { return tier_name(code); }
  // The tiers the starts with 3..max_stones stones to place per side need.
  [[nodiscard]] std::vector<Tier> start_tiers(int max_stones) const;

  // Symmetries: the board's symmetries, each with colours and side to move swapped too.
  void symmetric(const Position& pos, std::vector<Position>& out) const;
  [[nodiscard]] static Position colour_swapped(const Position& pos) {
    return {
        {pos.stones[1], pos.stones[0]}, {pos.hand[1], pos.hand[0]}, static_cast<std::uint8_t>(pos.side ^ 1)};
  }
  // Baseline for `count`: the number of positions up to symmetry (Burnside's lemma).
  [[nodiscard]] std::uint64_t baseline_size(Tier tier) const;
  [[nodiscard]] static std::string baseline_name() { return "symmetry classes"; }

 private:
  // A stone set's symmetry class: its number among the classes of its size, the
  // symmetry mapping it onto the class's representative, the symmetries other than the
  // identity that fix the representative (a bit each; 0 for most classes) and the points
  // the representative leaves free.
  struct SetClass {
    std::uint32_t id = 0;
    int op = 0;
    std::uint32_t stabilizer = 0;
    std::uint32_t free_points = 0;
  };
  [[nodiscard]] SetClass set_class(std::uint32_t set) const;
  // The class of `set` from its entry in the class table of its size.
  [[nodiscard]] SetClass class_of_entry(const Geometry::Classes& classes, std::uint32_t entry,
                                        std::uint32_t set) const;
  // The rank of the other side's set `other` within the class of the side to move's set:
  // mapped by the class's symmetry, made least under its stabilizer, ranked in colex
  // order among the free points.
  [[nodiscard]] Index rank_in_class(const SetClass& c, std::uint32_t other) const {
    return colex_rank(extract(least_image(c.stabilizer, geometry_.apply(c.op, other)), c.free_points));
  }
  // The least of a set's images under the symmetries of a stabilizer and the identity.
  [[nodiscard]] std::uint32_t least_image(std::uint32_t stabilizer, std::uint32_t set) const {
    std::uint32_t least = set;
    for (std::uint32_t h = stabilizer; h != 0; h &= h - 1)
      least = std::min(least, geometry_.apply(std::countr_zero(h), set));
    return least;
  }
  // The index of White's set `white` and Black's set `black` in their sector.
  [[nodiscard]] Index sector_index(std::uint32_t white, std::uint32_t black) const;
  [[nodiscard]] std::optional<Position> sector_position(const Sector& s, Index index) const;
  // The steps of a sector's walk: one for each index of its twin, or of its own where
  // the walk is in index order (a sector of a pair whose side to move has no stone in
  // hand).
  [[nodiscard]] Index walk_steps(const Sector& s) const {
    return sector_size(paired(s) && s.wf == 0 ? s : s.swapped());
  }
  // child_walk over one sector: steps [begin, end) of its walk, visited at `offset`
  // plus their index in the sector.
  template <class Visit>
  void walk_sector(const Sector& s, Index offset, Index begin, Index end, Visit&& visit) const;
  // Steps Black's set of pos to the next set among the free points in colex order:
  // returns 1 for a position, -1 for a hole (a set a symmetry of White's set makes
  // smaller), 0 past the class's last set (pos unchanged).
  int next_in_class(Position& pos) const;
  // Calls visit(from, to, remove) for each move of pos: from -1 for a placement, remove
  // -1 where the move removes no stone (a move closing a mill comes once per stone it may
  // remove). With count_staying, slides without removal are counted instead, and the
  // count returned.
  template <class Visit>
  std::size_t for_each_move(const Position& pos, bool count_staying, Visit&& visit) const;
  // The successors of pos's moves, ranked; with count_staying, slides without removal
  // are counted instead (rank_moves_leaving_tier where they stay in the tier).
  std::size_t rank_successors(const Position& pos, SuccessorList<Morris>& out, bool count_staying) const;
  // Calls visit(stones) with the mover's stones before each of unmoves(pos), save those
  // whose stone came from a point of skip(rest), rest being the mover's other stones.
  template <class Visit, class Skip>
  void for_each_unmove(const Position& pos, Visit&& visit, Skip&& skip) const;
  template <class Visit>
  void for_each_unmove(const Position& pos, Visit&& visit) const {
    for_each_unmove(pos, visit, [](std::uint32_t) { return 0U; });
  }
  // unmove_indices, or with `open`, open_unmove_indices.
  void rank_unmoves(Tier tier, const Position& pos, SmallVector<Index, kMaxUnmoves>& out, bool open) const;
  // moves(), or with count_staying, moves_leaving_tier() (its count returned).
  std::size_t generate(const Position& pos, MoveList<Morris>& out, bool count_staying) const;

  std::string variant_;
  Options options_;
  const Geometry& geometry_;
};

inline Morris::SetClass Morris::set_class(std::uint32_t set) const {
  const Geometry::Classes& classes = geometry_.classes(std::popcount(set));
  return class_of_entry(classes, classes.entry[colex_rank(set)], set);
}

inline Morris::SetClass Morris::class_of_entry(const Geometry::Classes& classes, std::uint32_t entry,
                                               std::uint32_t set) const {
  SetClass c;
  c.id = entry >> 6;
  c.op = static_cast<int>(entry >> 1 & 31U);
  c.stabilizer = (entry & 1U) != 0 ? classes.stabilizer[c.id] : 0;
  // The representative is the set's image under op: mapped through a small table rather
  // than read from the table of representatives, a second scattered load after the entry.
  c.free_points = geometry_.full() & ~geometry_.apply(c.op, set);
  return c;
}

inline Index Morris::sector_index(std::uint32_t white, std::uint32_t black) const {
  // The successors of a position by moves without removal share the side to move's
  // stones: the last set looked up is kept per thread.
  struct Last {
    const Geometry* geometry = nullptr;
    std::uint32_t white = 0;
    SetClass of;
  };
  thread_local Last last;
  if (last.geometry != &geometry_ || last.white != white) last = {&geometry_, white, set_class(white)};
  const int w = std::popcount(white);
  return last.of.id * binomial(geometry_.points() - w, std::popcount(black)) + rank_in_class(last.of, black);
}

inline Ranked Morris::rank(const Position& pos) const {
  const Sector s = sector_of(pos);
  const Tier tier = tier_of(s);
  Index index = sector_index(pos.stones[pos.side], pos.stones[pos.side ^ 1]);
  index += offset_in_tier(s, tier);
  return {tier, index};
}

inline std::optional<Position> Morris::sector_position(const Sector& s, Index index) const {
  const Geometry::Classes& classes = geometry_.classes(s.w);
  const int free_points = geometry_.points() - s.w;
  const Index per_class = binomial(free_points, s.b);
  const auto id = static_cast<std::size_t>(index / per_class);
  const Index rest = index % per_class;
  // The indices of a level come sorted, so that runs of them share White's class: the
  // last class looked up is kept per thread (its representative is a scattered load from
  // a table of up to 5 MB).
  struct Last {
    const Geometry::Classes* classes = nullptr;
    std::size_t id = 0;
    std::uint32_t free = 0;  // the points the representative leaves free
    std::uint32_t stabilizer = 0;
  };
  thread_local Last last;
  if (last.classes != &classes || last.id != id)
    last = {&classes, id, geometry_.full() & ~classes.representative[id], classes.stabilizer[id]};
  // Black's set: the colex unrank of `rest` among the free points, packed, then placed.
  const std::uint32_t black = deposit(colex_unrank(rest, s.b), last.free);
  for (std::uint32_t h = last.stabilizer; h != 0; h &= h - 1) {
    if (geometry_.apply(std::countr_zero(h), black) < black) return std::nullopt;
  }
  Position pos;
  pos.stones = {geometry_.full() & ~last.free, black};
  pos.hand = {static_cast<std::uint8_t>(s.wf), static_cast<std::uint8_t>(s.bf)};
  return pos;
}

template <class Visit>
void Morris::child_walk(Tier tier, Index begin, Index end, Visit&& visit) const {
  const Sector first = Sector::of(tier);
  const Sector second = first.swapped();
  // The first sector's walk has a step for each index of its twin (of its own, in index
  // order); a pair's second sector, whose indices follow the first's, is walked after it.
  const Index first_steps = walk_steps(first);
  if (begin < first_steps) walk_sector(first, 0, begin, std::min(end, first_steps), visit);
  if (end > first_steps && paired(first) && second != first)
    walk_sector(second, sector_size(first), std::max(begin, first_steps) - first_steps, end - first_steps,
                visit);
}

template <class Visit>
void Morris::walk_sector(const Sector& s, Index offset, Index begin, Index end, Visit&& visit) const {
  // A sector of a pair whose side to move has no stone in hand is walked in its own
  // index order: its slides stay in the tier, and only its mills lead to children.
  const bool own = paired(s) && s.wf == 0;
  const Sector order = own ? s : s.swapped();
  Position walked{};  // the step's stones in the sector walked by
  bool held = false;  // walked holds the stones of the step before (a hole's too)
  for (Index k = begin; k < end; ++k) {
    const int step = held ? next_in_class(walked) : 0;
    if (step == 0) {
      const std::optional<Position> first = sector_position(order, k);
      held = first.has_value();
      if (!held) continue;
      walked = *first;
    } else if (step < 0) {
      continue;
    }
    if (own) {
      visit(offset + k, walked);
      continue;
    }
    Position pos;
    pos.stones = {walked.stones[1], walked.stones[0]};
    pos.hand = {static_cast<std::uint8_t>(s.wf), static_cast<std::uint8_t>(s.bf)};
    // Each step's White set has its own class, whose entry sector_index reads from
    // anywhere in a table of up to C(24, 12) entries: the next step's is fetched now.
    if (const std::uint32_t next = next_subset(walked.stones[1], geometry_.full() & ~walked.stones[0]))
      __builtin_prefetch(&geometry_.classes(s.w).entry[colex_rank(next)]);
    visit(offset + sector_index(pos.stones[0], pos.stones[1]), pos);
  }
}

template <class Values, class Solved, class Visit>
void Morris::solve_walk(Tier tier, Index begin, Index end, Values&& values, Solved&& solved,
                        Visit&& visit) const {
  const Sector s = Sector::of(tier);
  const int n = geometry_.points();
  // Runs are solved whole where every move places a stone (not in a pair of sectors,
  // where a slide stays in the tier), none ends the game (neither side is down to two
  // stones, no placement fills the board) and the side to move has a move.
  if (paired(s) || s.wf == 0 || s.w + s.wf < 3 || s.b + s.bf < 3 || s.w + s.b + 1 >= n) {
    child_walk(tier, begin, end, visit);
    return;
  }
  const Geometry::Classes& black_classes = geometry_.classes(s.b);
  const Index per_class = binomial(n - s.b, s.w);
  // A placement without a mill: the child sector seen from Black, whose index leads
  // with the class of Black's stones; its run of a class holds White's sets with one
  // stone more, in colex order among the same free points.
  const Sector next{s.b, s.w + 1, s.bf, s.wf - 1};
  const Tier next_tier = tier_of(next);
  const Index next_offset = offset_in_tier(next, next_tier);
  const Index next_per_class = binomial(n - s.b, s.w + 1);
  const auto child = values(next_tier);
  // A placement that closes a mill and removes a Black stone.
  const Sector removed{s.b - 1, s.w + 1, s.bf, s.wf - 1};
  const bool removal_ends = removed.w + removed.wf < 3;  // Black is left with two stones
  const Tier removed_tier = removal_ends ? 0 : tier_of(removed);
  const Index removed_offset = removal_ends ? 0 : offset_in_tier(removed, removed_tier);
  const Index removed_per_class = binomial(n - s.b + 1, s.w + 1);
  const Geometry::Classes& white_classes = geometry_.classes(s.w);
  // Its values, looked up when a run first needs them (a sector without a mill to
  // close has no such child).
  std::optional<decltype(values(Tier{}))> removal_child;

  // The best choice so far of each position of a run, by White's set among the free
  // points as a number where there are at most 20 free points (a table of up to 2 MiB),
  // by its colex rank (its step in the run) otherwise. Kept per thread with every entry
  // kNoMoveChoice between runs (each run's positions reset theirs once read); `clean` is
  // false while a run is under way, so a run that failed leaves the table to be made anew.
  struct Table {
    std::vector<std::uint16_t> best;
    bool clean = true;
  };
  thread_local Table table;
  constexpr std::size_t kSolveBatch = 16;
  const bool by_set = n - s.b <= 20;
  const std::size_t table_size = by_set ? std::size_t{1} << (n - s.b) : per_class;
  for (Index k = begin; k < end;) {
    const Index id = k / per_class;
    const Index run = id * per_class;
    const Index run_end = run + per_class;
    const Index stop = std::min(end, run_end);
    if (black_classes.stabilizer[id] != 0) {
      child_walk(tier, k, stop, visit);
      k = stop;
      continue;
    }
    k = stop;
    if (run < begin) continue;  // solved with the range that holds its first step

    const std::uint32_t theirs = black_classes.representative[id];
    const std::uint32_t free = geometry_.full() & ~theirs;
    Position probe;
    probe.stones = {0, theirs};
    const std::uint32_t removable_set = removable(probe, 0);
    // The mills White can close, among the free points, packed as the sets are.
    std::array<std::uint32_t, 32> mills;  // NOLINT(cppcoreguidelines-pro-type-member-init)
    std::size_t mill_count = 0;
    if (removable_set != 0) {
      for (const std::uint32_t mill : geometry_.mills()) {
        if ((mill & theirs) == 0) mills[mill_count++] = extract(mill, free);
      }
    }

    // Each child of the run offers its value to its parents: its set less a stone
    // that closes no mill (placing that one would remove a Black stone instead).
    if (!table.clean || table.best.size() < table_size) table.best.assign(table_size, kNoMoveChoice);
    table.clean = false;
    std::uint16_t* const best = table.best.data();
    const Index first_child = next_offset + id * next_per_class;
    std::uint32_t set = (1U << (s.w + 1)) - 1;
    for (Index j = 0; j < next_per_class; ++j) {
      const std::uint16_t choice = move_choice(child(first_child + j));
      std::uint32_t closing = 0;
      for (std::size_t q = 0; q < mill_count; ++q) {
        if ((set & mills[q]) == mills[q]) closing |= mills[q];
      }
      for (std::uint32_t m = set & ~closing; m != 0; m &= m - 1) {
        const std::uint32_t parent_set = set & ~(m & (~m + 1));
        std::uint16_t& parent = best[by_set ? parent_set : colex_rank(parent_set)];
        parent = std::min(parent, choice);
      }
      set = next_colex(set);
    }

    // The run's positions, with their mills' removals, then their values.
    std::array<SetClass, kMaxPoints> removal_class;  // NOLINT(cppcoreguidelines-pro-type-member-init)
    if (removable_set != 0 && !removal_ends) {
      for (std::uint32_t r = removable_set; r != 0; r &= r - 1) {
        const int point = std::countr_zero(r);
        removal_class[static_cast<std::size_t>(point)] = set_class(theirs & ~(1U << point));
      }
    }
    // In batches of positions: the children of each one's mills are ranked and
    // prefetched (they lie anywhere in B classes of their sector), then read.
    struct Pending {
      std::uint32_t mine;
      std::uint16_t choice;
      std::uint32_t removals_end;  // where its children by mills end in `removals`
      Index index;                 // the position's index in the tier
    };
    std::array<Pending, kSolveBatch> batch;  // NOLINT(cppcoreguidelines-pro-type-member-init)
    thread_local std::vector<Index> removals;
    set = (1U << s.w) - 1;
    for (Index j = 0; j < per_class;) {
      const Index batch_end = std::min(per_class, j + kSolveBatch);
      std::size_t count = 0;
      removals.clear();
      for (; j < batch_end; ++j) {
        Pending& p = batch[count++];
        p.mine = deposit(set, free);
        std::uint16_t& slot = best[by_set ? set : j];
        p.choice = slot;
        slot = kNoMoveChoice;
        set = next_colex(set);
        // sector_index looks up the class of White's set in a table of up to C(24, 12)
        // entries: the next step's entry is fetched now.
        if (j + 1 < per_class) __builtin_prefetch(&white_classes.entry[colex_rank(deposit(set, free))]);
        if (removable_set != 0) {
          const std::uint32_t closing = s.w >= 2 ? geometry_.closing(p.mine) & free : 0;
          if (closing != 0 && removal_ends) p.choice = std::min(p.choice, move_choice(Value::loss(0).code()));
          if (closing != 0 && !removal_ends) {
            if (!removal_child) removal_child.emplace(values(removed_tier));
            for (std::uint32_t c = closing; c != 0; c &= c - 1) {
              const std::uint32_t after = p.mine | (c & (~c + 1));
              for (std::uint32_t r = removable_set; r != 0; r &= r - 1) {
                const SetClass& rc = removal_class[static_cast<std::size_t>(std::countr_zero(r))];
                const Index index = removed_offset + rc.id * removed_per_class + rank_in_class(rc, after);
                removal_child->prefetch(index);
                removals.push_back(index);
              }
            }
          }
        }
        p.removals_end = static_cast<std::uint32_t>(removals.size());
      }
      // The positions' own indices lead with the class of White's set, so their cells
      // lie anywhere in the tier: all of the batch's are asked for before any is written.
      for (std::size_t i = 0; i < count; ++i) {
        batch[i].index = sector_index(batch[i].mine, theirs);
        solved.prefetch(batch[i].index);
      }
      std::size_t q = 0;
      for (std::size_t i = 0; i < count; ++i) {
        std::uint16_t choice = batch[i].choice;
        for (; q < batch[i].removals_end; ++q)
          choice = std::min(choice, move_choice((*removal_child)(removals[q])));
        if (choice == kNoMoveChoice) fail("tier {}: a position without a move", tier_name(tier));
        solved(batch[i].index, chosen_value(choice));
      }
    }
    table.clean = true;
  }
}

static_assert(Game<Morris>);
static_assert(HasSymmetries<Morris>);
static_assert(HasBaselineSize<Morris>);
static_assert(HasBoard<Morris>);
static_assert(HasMaxPieces<Morris>);
static_assert(HasIndexTables<Morris>);
static_assert(HasSectors<Morris>);
static_assert(CountsTierMoves<Morris>);
static_assert(UnranksInOrder<Morris>);
static_assert(RanksUnmoves<Morris>);
static_assert(RanksOpenUnmoves<Morris>);
static_assert(WalksForChildren<Morris>);
static_assert(SolvesWalk<Morris>);
static_assert(RanksMovesLeavingTier<Morris>);
static_assert(RanksMoves<Morris>);

}  // namespace gs::morris
