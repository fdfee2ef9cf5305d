#include "games/morris/morris.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <functional>
#include <set>
#include <utility>

#include "core/error.h"
#include "core/quote.h"
#include "core/rule_option.h"

namespace gs::morris {

namespace {

constexpr std::array<std::string_view, 6> kVariants = {"standard", "lasker", "morabaraba",
                                                       "five",     "six",    "seven"};

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(separator, begin), text.size());
    parts.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> result;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t begin = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > begin) result.push_back(text.substr(begin, i - begin));
  }
  return result;
}

int parse_count(std::string_view text, std::string_view what, int max) {
  int value = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0 || value > max) {
    fail("{} must be a number 0..{}, not {}", what, max, quote_input(text));
  }
  return value;
}

const char* side_name(int side) { return side == 0 ? "White" : "Black"; }

std::string removal_name(Removal removal) {
  switch (removal) {
    case Removal::kStandard: return "standard";
    case Removal::kNeverMill: return "not_from_mill";
    case Removal::kAny: return "any";
  }
  return "?";
}

}  // namespace

Morris::Morris(std::string variant, Options options)
    : variant_(std::move(variant)), options_(options), geometry_(Geometry::of(options.board)) {}

Options Morris::variant_options(std::string_view variant) {
  Options o;
  if (variant.empty() || variant == "standard") return o;
  if (variant == "lasker") {
    o.stones = {10, 10};
    o.lasker = true;
  } else if (variant == "morabaraba") {
    o.board = BoardKind::kMorabaraba;
    o.stones = {12, 12};
    o.full_board_draw = true;
  } else if (variant == "five" || variant == "six") {
    o.board = BoardKind::kSix;
    o.stones = variant == "five" ? std::array{5, 5} : std::array{6, 6};
    o.flying = 0;
  } else if (variant == "seven") {
    o.board = BoardKind::kSeven;
    o.stones = {7, 7};
    o.flying = 0;
  } else {
    fail("unknown variant {} of morris (known: {})", quote_input(variant), fmt::join(kVariants, ", "));
  }
  return o;
}

Morris Morris::from_options(std::string_view variant, const std::vector<std::string>& options) {
  const std::string name = variant.empty() ? "standard" : std::string(variant);
  Options parsed = variant_options(name);
  for (const std::string& option : options) {
    const RuleOption rule = RuleOption::parse(option);
    const std::string& key = rule.key;
    const std::string& value = rule.value;
    auto as_bool = [&] { return rule.as_bool(); };
    if (key == "stones") {
      const int n = parse_count(value, "rule option stones", kMaxStones);
      parsed.stones = {n, n};
    } else if (key == "white_stones") {
      parsed.stones[0] = parse_count(value, "rule option white_stones", kMaxStones);
    } else if (key == "black_stones") {
      parsed.stones[1] = parse_count(value, "rule option black_stones", kMaxStones);
    } else if (key == "flying") {
      parsed.flying = value == "off" ? 0 : parse_count(value, "rule option flying (off, 3 or 4)", 4);
      if (parsed.flying != 0 && parsed.flying < 3)
        fail("rule option flying takes off, 3 or 4, not {}", quote_input(value));
    } else if (key == "removal") {
      if (value == "standard") {
        parsed.removal = Removal::kStandard;
      } else if (value == "not_from_mill") {
        parsed.removal = Removal::kNeverMill;
      } else if (value == "any") {
        parsed.removal = Removal::kAny;
      } else {
        fail("rule option removal takes standard, not_from_mill or any, not {}", quote_input(value));
      }
    } else if (key == "lasker") {
      parsed.lasker = as_bool();
    } else if (key == "full_board_draw") {
      parsed.full_board_draw = as_bool();
    } else {
      fail(
          "unknown rule option {} of morris (known: stones, white_stones, black_stones, flying, removal, "
          "lasker, full_board_draw)",
          quote_input(key));
    }
  }
  const Geometry& board = Geometry::of(parsed.board);
  for (int side = 0; side < 2; ++side) {
    if (parsed.stones[side] < 3 || 2 * parsed.stones[side] > board.points()) {
      fail("{} must have 3 to {} stones to place on the {} board, not {}", side_name(side),
           board.points() / 2, board.name(), parsed.stones[side]);
    }
  }
  return Morris(name, parsed);
}

std::vector<std::string> Morris::option_help() {
  return {"--variant standard|lasker|morabaraba|five|six|seven   (default standard)",
          "stones=N, white_stones=N, black_stones=N   stones to place at the start",
          "flying=off|3|4             a side with at most this many stones flies (standard 3)",
          "removal=standard|not_from_mill|any   which stones a mill removes",
          "lasker=on|off              a side with stones in hand may move instead of placing",
          "full_board_draw=on|off     a board filled without a mill is a draw (Morabaraba)"};
}

std::string Morris::rule_text() const {
  const Options base = variant_options(variant_);
  std::vector<std::string> parts;
  if (options_.flying != base.flying) {
    parts.push_back(options_.flying == 0 ? "flying=off" : fmt::format("flying={}", options_.flying));
  }
  if (options_.removal != base.removal) parts.push_back("removal=" + removal_name(options_.removal));
  if (options_.lasker != base.lasker) parts.emplace_back(options_.lasker ? "lasker=on" : "lasker=off");
  if (options_.full_board_draw != base.full_board_draw) {
    parts.emplace_back(options_.full_board_draw ? "full_board_draw=on" : "full_board_draw=off");
  }
  return fmt::format("{}", fmt::join(parts, ","));
}

Position Morris::start(int white_stones, int black_stones) {
  Position pos;
  pos.hand = {static_cast<std::uint8_t>(white_stones), static_cast<std::uint8_t>(black_stones)};
  return pos;
}

std::uint32_t Morris::removable(const Position& pos, int side) const {
  const std::uint32_t theirs = pos.stones[side ^ 1];
  switch (options_.removal) {
    case Removal::kAny: return theirs;
    case Removal::kNeverMill: return theirs & ~geometry_.in_mills(theirs);
    case Removal::kStandard: {
      const std::uint32_t loose = theirs & ~geometry_.in_mills(theirs);
      return loose != 0 ? loose : theirs;
    }
  }
  return theirs;
}

template <class Visit>
std::size_t Morris::for_each_move(const Position& pos, bool count_staying, Visit&& visit) const {
  const int me = pos.side;
  const std::uint32_t mine = pos.stones[me];
  const std::uint32_t empty = geometry_.full() & ~(mine | pos.stones[me ^ 1]);
  // The stones a mill may remove: asked of the opponent's mills when a move first needs
  // them (most sliding positions have no move that closes a mill).
  std::uint32_t removable_set = 0;
  bool removable_known = false;
  auto removables = [&] {
    if (!removable_known) {
      removable_set = removable(pos, me);
      removable_known = true;
    }
    return removable_set;
  };
  const int count = std::popcount(mine);
  std::size_t staying = 0;
  // A move from `from` (-1: a placement) to `to`, once per stone the mill it closes
  // (if `closes`) may remove.
  auto add = [&](int from, int to, bool closes) {
    if (closes && removables() != 0) {
      for (std::uint32_t r = removable_set; r != 0; r &= r - 1) visit(from, to, std::countr_zero(r));
      return;
    }
    if (count_staying && from >= 0) {
      ++staying;
    } else {
      visit(from, to, -1);
    }
  };
  // Three of one's own stones are needed for a mill. Where a stone may go to any empty
  // point (a placement, a flight), the points that close a mill are found at once from
  // the mills, rather than asked of each point.
  if (pos.hand[me] > 0) {
    const std::uint32_t closing = count >= 2 ? geometry_.closing(mine) : 0;
    for (std::uint32_t e = empty; e != 0; e &= e - 1) {
      const int to = std::countr_zero(e);
      add(-1, to, (closing >> to & 1U) != 0);
    }
  }
  if (pos.hand[me] == 0 || options_.lasker) {
    const bool fly = flies(pos, me);
    // The empty points a slide may close a mill on (asked only where slides are counted).
    const std::uint32_t closing_slides =
        !fly && count_staying && count >= 3 ? geometry_.closing(mine) & empty : 0;
    for (std::uint32_t m = mine; m != 0; m &= m - 1) {
      const int from = std::countr_zero(m);
      const std::uint32_t rest = mine & ~(1U << from);
      if (fly) {
        // Three stones fly the most often: the other two close at most one mill, read
        // from a table.
        const std::uint32_t closing =
            count == 3  ? geometry_.closing_pair(std::countr_zero(rest), 31 - std::countl_zero(rest)) & empty
            : count > 3 ? geometry_.closing(rest) & empty
                        : 0;
        // Counted in one go where only the moves that close a mill are visited.
        std::uint32_t visited = empty;
        if (count_staying && removables() != 0) {
          staying += static_cast<std::size_t>(std::popcount(empty & ~closing));
          visited = closing;
        }
        for (std::uint32_t t = visited; t != 0; t &= t - 1) {
          const int to = std::countr_zero(t);
          add(from, to, (closing >> to & 1U) != 0);
        }
        continue;
      }
      std::uint32_t targets = geometry_.neighbours(from) & empty;
      if (count_staying) {
        // Only a slide onto a point that closes a mill of the side's stones as they are
        // can close one: the others stay in the tier, counted at once.
        staying += static_cast<std::size_t>(std::popcount(targets & ~closing_slides));
        targets &= closing_slides;
      }
      for (std::uint32_t t = targets; t != 0; t &= t - 1) {
        const int to = std::countr_zero(t);
        add(from, to, count >= 3 && geometry_.in_mill(rest | 1U << to, to));
      }
    }
  }
  return staying;
}

std::size_t Morris::generate(const Position& pos, MoveList<Morris>& out, bool count_staying) const {
  out.clear();
  return for_each_move(pos, count_staying, [&](int from, int to, int remove) {
    out.push_back({static_cast<std::uint8_t>(from < 0 ? kNone : from), static_cast<std::uint8_t>(to),
                   static_cast<std::uint8_t>(remove < 0 ? kNone : remove)});
  });
}

void Morris::moves(const Position& pos, MoveList<Morris>& out) const { generate(pos, out, false); }

std::size_t Morris::moves_leaving_tier(const Position& pos, MoveList<Morris>& out) const {
  // Slides without removal lead into the colour-swapped sector: the same tier only when
  // the two are paired.
  return generate(pos, out, paired(sector_of(pos)));
}

std::size_t Morris::rank_successors(const Position& pos, SuccessorList<Morris>& out,
                                    bool count_staying) const {
  out.clear();
  const int me = pos.side;
  const int them = me ^ 1;
  const std::uint32_t mine = pos.stones[me];
  const std::uint32_t theirs = pos.stones[them];
  const int my_count = std::popcount(mine);
  const int their_count = std::popcount(theirs);
  const int my_hand = pos.hand[me];
  const int their_hand = pos.hand[them];

  // Where a kind of move (a placement or a slide, removing a stone or not) leads, seen
  // from the opponent: its tier and the offset of its sector in that tier.
  // (No member initializers: the four below are made only when first needed. Zeroing
  // them on every call, a rep stos, cost 7 % of the standard game's build up to 5 stones.)
  struct Next {
    Tier tier;
    Index offset;
    bool lost;  // the opponent, to move, has fewer than 3 stones
  };
  auto next_of = [&](bool placing, bool removing) {
    const Sector next{their_count - (removing ? 1 : 0), my_count + (placing ? 1 : 0), their_hand,
                      my_hand - (placing ? 1 : 0)};
    if (next.w + next.wf < 3) return Next{0, 0, true};
    const Tier t = tier_of(next);
    return Next{t, offset_in_tier(next, t), false};
  };
  // By kind, 2 * placing + removing; each made when a move first needs it (a position
  // seldom has all four kinds of move).
  std::array<Next, 4> next;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  unsigned known = 0;        // a bit per kind made
  const int n = geometry_.points();
  const Index per_class[2] = {binomial(n - their_count, my_count), binomial(n - their_count, my_count + 1)};

  // Without removal the opponent's stones stay: their class and symmetry once. A slide
  // without removal is counted where the moves staying in the tier are (count_staying),
  // so that a sliding or flying position whose moves stay then ranks only its removals
  // and needs none of this.
  const bool ranks_plain = my_hand > 0 || !count_staying;
  const SetClass their_class = ranks_plain ? set_class(theirs) : SetClass{};
  const std::uint32_t mapped_mine = ranks_plain ? geometry_.apply(their_class.op, mine) : 0;
  const auto& perm = geometry_.permutation(their_class.op);
  // Where that class has no symmetry (most positions), a placement's image is its own
  // least image, and its stones among the free points are the position's and the placed
  // stone's: the position's set is extracted once, and each placement finds its stone's
  // place among the free points by a count. (Placements only: a slide that is ranked
  // rather than counted is rare, and the extraction would cost more than it saves.)
  const bool packing = my_hand > 0 && their_class.stabilizer == 0;
  const std::uint32_t packed_mine = packing ? extract(mapped_mine, their_class.free_points) : 0;
  auto packed_bit = [&](int point) {
    const std::uint32_t below = (1U << perm[static_cast<std::size_t>(point)]) - 1;
    return 1U << std::popcount(their_class.free_points & below);
  };
  // With a removal, the opponent's stones less the one removed: the class of each such
  // set is looked up when first needed and kept per thread while the opponent's stones
  // stay (through a run of a walk, every position has the same).
  struct Removals {
    const Geometry* geometry = nullptr;
    std::uint32_t theirs = 0;
    std::uint32_t known = 0;  // the points whose removal's class is in of
    std::array<SetClass, kMaxPoints> of;
  };
  thread_local Removals removals;
  if (removals.geometry != &geometry_ || removals.theirs != theirs) {
    removals.geometry = &geometry_;
    removals.theirs = theirs;
    removals.known = 0;  // the classes in `of` are not cleared: none is read before it is set
  }
  const Index per_removal_class[2] = {binomial(n - their_count + 1, my_count),
                                      binomial(n - their_count + 1, my_count + 1)};

  // Filled through a local pointer: out's size, an integer of the type of an index, would
  // otherwise be stored and loaded again around every successor written.
  Successor* filled = out.begin();
  const std::size_t staying = for_each_move(pos, count_staying, [&](int from, int to, int remove) {
    const bool placing = from < 0;
    const int kind = (placing ? 2 : 0) + (remove >= 0 ? 1 : 0);
    Next& to_next = next[static_cast<std::size_t>(kind)];
    if ((known >> kind & 1U) == 0) {
      to_next = next_of(placing, remove >= 0);
      known |= 1U << kind;
    }
    if (to_next.lost) {
      *filled++ = Successor{{}, Value::loss(0).code()};
      return;
    }
    std::uint32_t after = mine | 1U << to;
    if (!placing) after &= ~(1U << from);
    if (remove >= 0) {
      const std::uint32_t bit = 1U << remove;
      if ((removals.known & bit) == 0) {
        removals.of[static_cast<std::size_t>(remove)] = set_class(theirs & ~bit);
        removals.known |= bit;
      }
      const SetClass& c = removals.of[static_cast<std::size_t>(remove)];
      const Index index = c.id * per_removal_class[placing ? 1 : 0] + rank_in_class(c, after);
      *filled++ = Successor{{to_next.tier, to_next.offset + index}, kHoleCode};
      return;
    }
    if (options_.full_board_draw && (after | theirs) == geometry_.full()) {
      *filled++ = Successor{{}, Value::draw().code()};
      return;
    }
    std::uint32_t packed = 0;
    if (packing && placing) {
      packed = packed_mine | packed_bit(to);
    } else {
      std::uint32_t mapped = mapped_mine | 1U << perm[static_cast<std::size_t>(to)];
      if (!placing) mapped &= ~(1U << perm[static_cast<std::size_t>(from)]);
      packed = extract(least_image(their_class.stabilizer, mapped), their_class.free_points);
    }
    const Index index = their_class.id * per_class[placing ? 1 : 0] + colex_rank(packed);
    *filled++ = Successor{{to_next.tier, to_next.offset + index}, kHoleCode};
  });
  out.resize(static_cast<std::size_t>(filled - out.begin()));
  return staying;
}

template <class Visit, class Skip>
void Morris::for_each_unmove(const Position& pos, Visit&& visit, Skip&& skip) const {
  // Only a move without removal by the side that just moved stays in the tier: from
  // the colour-swapped sector, which is in the same tier only when the two are paired.
  if (!paired(sector_of(pos))) return;
  const int mover = pos.side ^ 1;
  const std::uint32_t mine = pos.stones[mover];
  const std::uint32_t empty = geometry_.full() & ~(mine | pos.stones[pos.side]);
  // Where the side to move has a stone a mill could remove, the mover's last move closed
  // no mill: it would have removed one.
  const bool exposed = removable(pos, mover) != 0;
  const bool fly = flies(pos, mover);
  for (std::uint32_t m = mine; m != 0; m &= m - 1) {
    const int to = std::countr_zero(m);
    if (exposed && geometry_.in_mill(mine, to)) continue;
    const std::uint32_t rest = mine & ~(1U << to);
    const std::uint32_t sources = (fly ? empty : geometry_.neighbours(to) & empty) & ~skip(rest);
    for (std::uint32_t s = sources; s != 0; s &= s - 1) visit(rest | (s & (~s + 1)));
  }
}

void Morris::unmoves(const Position& pos, UnmoveList<Morris>& out) const {
  out.clear();
  const int mover = pos.side ^ 1;
  for_each_unmove(pos, [&](std::uint32_t before) {
    Position previous = pos;
    previous.stones[mover] = before;
    previous.side = static_cast<std::uint8_t>(mover);
    out.push_back(previous);
  });
}

void Morris::unmove_indices(Tier tier, const Position& pos, SmallVector<Index, kMaxUnmoves>& out) const {
  rank_unmoves(tier, pos, out, false);
}

void Morris::open_unmove_indices(Tier tier, const Position& pos, SmallVector<Index, kMaxUnmoves>& out) const {
  rank_unmoves(tier, pos, out, true);
}

void Morris::rank_unmoves(Tier tier, const Position& pos, SmallVector<Index, kMaxUnmoves>& out,
                          bool open) const {
  out.clear();
  // Every predecessor is in the colour-swapped sector, the mover to move.
  const Sector previous = sector_of(pos).swapped();
  const Index offset = offset_in_tier(previous, tier);
  const std::uint32_t theirs = pos.stones[pos.side];
  const int mover_count = std::popcount(pos.stones[pos.side ^ 1]);
  const Geometry::Classes& classes = geometry_.classes(mover_count);
  const Index per_class = binomial(geometry_.points() - mover_count, std::popcount(theirs));
  // Each predecessor has its own set of the mover's stones, whose entry lies anywhere in
  // a class table of up to C(24, 12) entries: the entries are all prefetched first, then
  // read.
  // Written up to `count` before any is read; not zeroed, since this runs per propagated cell.
  std::array<std::uint32_t, kMaxUnmoves> sets;   // NOLINT(cppcoreguidelines-pro-type-member-init)
  std::array<std::uint32_t, kMaxUnmoves> ranks;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  std::size_t count = 0;
  // Three flying stones against three and none in hand (the flying sector 3-3): a
  // predecessor whose stones close a mill on a point the side to move leaves empty flies
  // its third stone there and wins, the mill taking the side to move down to two stones.
  // The scan decided it a win in one, which no level changes: left out where `open`.
  const int mover = pos.side ^ 1;
  const bool settled = open && mover_count == 3 && pos.hand[mover] == 0 && flies(pos, mover) &&
                       pos.hand[pos.side] == 0 && std::popcount(theirs) == 3 && removable(pos, mover) != 0;
  // The points a stone may have flown from, the mover's other two stones being `rest`,
  // for a predecessor with such a mill: a mill holding both of rest with its third point
  // free, where the stone came from anywhere else; a mill holding one of rest with its
  // other two points free, where it came from either.
  auto won = [&](std::uint32_t rest) {
    std::uint32_t sources = 0;
    if (!settled) return sources;
    // Only the mills through a stone of rest hold one (a mill through both is met twice).
    for (std::uint32_t r = rest; r != 0; r &= r - 1) {
      for (const std::uint32_t mill : geometry_.mills_at(std::countr_zero(r))) {
        const std::uint32_t open_points = mill & ~rest;
        if ((open_points & theirs) != 0) continue;
        sources |= std::popcount(open_points) == 1 ? ~open_points : open_points;
      }
    }
    return sources;
  };
  for_each_unmove(
      pos,
      [&](std::uint32_t before) {
        const auto rank = static_cast<std::uint32_t>(colex_rank(before));
        __builtin_prefetch(&classes.entry[rank]);
        sets[count] = before;
        ranks[count++] = rank;
      },
      won);
  out.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const SetClass c = class_of_entry(classes, classes.entry[ranks[i]], sets[i]);
    out[i] = offset + c.id * per_class + rank_in_class(c, theirs);
  }
}

// Text.

std::string Morris::position_text(const Position& pos) const {
  std::string text;
  for (int side = 0; side < 2; ++side) {
    text += side == 0 ? "W:" : " B:";
    bool first = true;
    for (std::uint32_t s = pos.stones[side]; s != 0; s &= s - 1) {
      if (!first) text += ',';
      text += geometry_.point_name(std::countr_zero(s));
      first = false;
    }
  }
  return text + fmt::format(" {} {} {}", pos.side == 0 ? 'w' : 'b', pos.hand[0], pos.hand[1]);
}

Position Morris::parse_position(std::string_view text) const {
  if (text == "start") return start();
  const std::vector<std::string_view> parts = words(text);
  if (parts.size() != 5) {
    fail(
        "position {}: expected White's points, Black's points, side to move and stones in hand, e.g. "
        "'W:a1,d2 B:g7 w 7 8'",
        quote_input(text));
  }
  Position pos;
  for (int side = 0; side < 2; ++side) {
    const std::string_view part = parts[static_cast<std::size_t>(side)];
    const std::string_view prefix = side == 0 ? "W:" : "B:";
    if (!part.starts_with(prefix))
      fail("position {}: {} should start with {}", quote_input(text), quote_input(part), quote_input(prefix));
    const std::string_view list = part.substr(2);
    if (list.empty() || list == "-") continue;
    for (const std::string_view name : split(list, ',')) {
      const int point = geometry_.point(name);
      if (point < 0)
        fail("position {}: {} is not a point of the {} board", quote_input(text), quote_input(name),
             geometry_.name());
      if (((pos.stones[0] | pos.stones[1]) >> point & 1U) != 0)
        fail("position {}: point {} is given twice", quote_input(text), name);
      pos.stones[side] |= 1U << point;
    }
  }
  if (parts[2] != "w" && parts[2] != "b") {
    fail("position {}: side to move must be 'w' or 'b', not {}", quote_input(text), quote_input(parts[2]));
  }
  pos.side = parts[2] == "w" ? 0 : 1;
  for (int side = 0; side < 2; ++side) {
    const int hand =
        parse_count(parts[3 + static_cast<std::size_t>(side)],
                    fmt::format("position {}: {}'s stones in hand", quote_input(text), side_name(side)),
                    kMaxStones - std::popcount(pos.stones[side]));
    pos.hand[side] = static_cast<std::uint8_t>(hand);
    // No side has more stones, on the board and in hand, than the rules let it start
    // with: half the board's points (the databases' tiers hold no more either; the
    // variant's own count is not a bound, as tiers are built for more stones).
    const int stones = std::popcount(pos.stones[side]) + hand;
    if (stones > geometry_.points() / 2) {
      fail(
          "position {}: {} has {} stones on the board and in hand, more than the {} a side can have on the "
          "{} "
          "board",
          quote_input(text), side_name(side), stones, geometry_.points() / 2, geometry_.name());
    }
  }
  const int other = pos.side ^ 1;
  if (std::popcount(pos.stones[other]) + pos.hand[other] < 3) {
    fail("position {}: {} has fewer than 3 stones, so the game ended before this move", quote_input(text),
         side_name(other));
  }
  return pos;
}

std::string Morris::move_text(const Position& pos, const Move& move) const {
  (void)pos;
  std::string text;
  if (move.from != kNone) text = geometry_.point_name(move.from) + "-";
  text += geometry_.point_name(move.to);
  if (move.remove != kNone) text += "x" + geometry_.point_name(move.remove);
  return text;
}

Move Morris::parse_move(const Position& pos, std::string_view text) const {
  if (terminal(pos)) fail("no move {}: the game is over", quote_input(text));
  const int me = pos.side;
  auto point = [&](std::string_view name) {
    const int p = geometry_.point(name);
    if (p < 0)
      fail("move {}: {} is not a point of the {} board", quote_input(text), quote_input(name),
           geometry_.name());
    return p;
  };
  std::string_view rest = text;
  Move move;
  if (const auto x = rest.find('x'); x != std::string_view::npos) {
    move.remove = static_cast<std::uint8_t>(point(rest.substr(x + 1)));
    rest = rest.substr(0, x);
  }
  if (const auto dash = rest.find('-'); dash != std::string_view::npos) {
    move.from = static_cast<std::uint8_t>(point(rest.substr(0, dash)));
    rest = rest.substr(dash + 1);
  }
  move.to = static_cast<std::uint8_t>(point(rest));
  MoveList<Morris> legal;
  moves(pos, legal);
  if (std::find(legal.begin(), legal.end(), move) != legal.end()) return move;
  // Why not.
  const std::uint32_t all = pos.stones[0] | pos.stones[1];
  if (move.from == kNone && pos.hand[me] == 0) {
    fail("move {}: {} has no stones in hand and must move one, e.g. 'a1-a4'", quote_input(text),
         side_name(me));
  }
  if (move.from != kNone && pos.hand[me] > 0 && !options_.lasker) {
    fail("move {}: {} still has {} stones in hand and must place one, e.g. 'd2'", quote_input(text),
         side_name(me), pos.hand[me]);
  }
  if (move.from != kNone && (pos.stones[me] >> move.from & 1U) == 0) {
    fail("move {}: {} has no stone on {}", quote_input(text), side_name(me), geometry_.point_name(move.from));
  }
  if ((all >> move.to & 1U) != 0)
    fail("move {}: {} is occupied", quote_input(text), geometry_.point_name(move.to));
  if (move.from != kNone && !flies(pos, me) && (geometry_.neighbours(move.from) >> move.to & 1U) == 0) {
    fail("move {}: {} is not next to {} (and {} cannot fly)", quote_input(text),
         geometry_.point_name(move.to), geometry_.point_name(move.from), side_name(me));
  }
  Move plain = move;
  plain.remove = kNone;
  const bool closes = std::find(legal.begin(), legal.end(), plain) == legal.end();
  if (move.remove == kNone && closes) {
    fail("move {} closes a mill: add the stone it removes, e.g. '{}x{}'", quote_input(text), text,
         geometry_.point_name(std::countr_zero(removable(pos, me))));
  }
  if (move.remove != kNone && !closes)
    fail("move {} closes no mill, so it removes nothing", quote_input(text));
  fail("move {}: {} cannot be removed (a stone in a mill can be removed only as the rules allow)",
       quote_input(text), geometry_.point_name(move.remove));
}

std::string Morris::board_text(const Position& pos) const {
  const int n = geometry_.grid();
  std::vector<std::string> rows(static_cast<std::size_t>(n),
                                std::string(static_cast<std::size_t>(2 * n), ' '));
  for (int p = 0; p < geometry_.points(); ++p) {
    char c = '.';
    if ((pos.stones[0] >> p & 1U) != 0) c = 'W';
    if ((pos.stones[1] >> p & 1U) != 0) c = 'B';
    const auto row = static_cast<std::size_t>(n - 1 - geometry_.rank(p));
    rows[row][2 * static_cast<std::size_t>(geometry_.file(p))] = c;
  }
  std::string text;
  for (int r = 0; r < n; ++r) text += fmt::format("{} {}\n", n - r, rows[static_cast<std::size_t>(r)]);
  text += "  ";
  for (int f = 0; f < n; ++f) text += fmt::format("{} ", static_cast<char>('a' + f));
  text += fmt::format("\nin hand: White {}, Black {}; {} to move\n", pos.hand[0], pos.hand[1],
                      side_name(pos.side));
  return text;
}

// The points, named as in position text, and the board's lines cut into the segments
// between neighbouring points; stones are letters W and B as in position text.
Board Morris::board() const {
  Board board;
  board.kind = "points";
  board.files = geometry_.grid();
  board.ranks = geometry_.grid();
  board.sides = {"White", "Black"};
  board.pieces = {{'W', "stone", 0, 0}, {'B', "stone", 1, 0}};
  for (int p = 0; p < geometry_.points(); ++p) {
    board.points.push_back({geometry_.point_name(p), geometry_.file(p), geometry_.rank(p)});
  }
  for (const std::vector<int>& line : geometry_.lines()) {
    for (std::size_t i = 0; i + 1 < line.size(); ++i) {
      board.lines.push_back({geometry_.point_name(line[i]), geometry_.point_name(line[i + 1])});
    }
  }
  return board;
}

// Tiers.

bool Morris::valid(const Sector& s) const {
  const int n = geometry_.points();
  return s.w >= 0 && s.b >= 0 && s.wf >= 0 && s.bf >= 0 && s.w + s.wf >= 3 && s.b + s.bf >= 3 &&
         s.w + s.wf <= kMaxStones && s.b + s.bf <= kMaxStones && s.w + s.b <= n;
}

std::vector<Tier> Morris::children(Tier tier) const {
  const Sector first = Sector::of(tier);
  std::vector<Sector> halves = {first};
  if (paired(first) && first.swapped() != first) halves.push_back(first.swapped());
  std::set<Tier> result;
  auto add = [&](const Sector& next) {
    if (!valid(next)) return;  // the side to move has lost, or no such position
    const Tier t = tier_of(next);
    if (t != tier) result.insert(t);
  };
  const int n = geometry_.points();
  for (const Sector& s : halves) {
    // After White's move, Black is to move: the next sector is seen from Black.
    if (s.wf > 0 && s.w + s.b < n) {
      add({s.b, s.w + 1, s.bf, s.wf - 1});
      if (s.w + 1 >= 3 && s.b >= 1) add({s.b - 1, s.w + 1, s.bf, s.wf - 1});
    }
    if ((s.wf == 0 || options_.lasker) && s.w > 0 && s.w + s.b < n) {
      add({s.b, s.w, s.bf, s.wf});
      if (s.w >= 3 && s.b >= 1) add({s.b - 1, s.w, s.bf, s.wf});
    }
  }
  return {result.begin(), result.end()};
}

std::vector<Tier> Morris::start_tiers(int max_stones) const {
  const int limit = std::min(max_stones, geometry_.points() / 2);
  std::set<Tier> result;
  for (int i = 3; i <= limit; ++i) {
    for (int j = 3; j <= limit; ++j) result.insert(tier_of({0, 0, i, j}));
  }
  return {result.begin(), result.end()};
}

std::vector<Tier> Morris::tiers(int max_stones) const {
  // Every tier the starts need, children before parents.
  std::vector<Tier> order;
  std::set<Tier> done;
  std::function<void(Tier)> visit = [&](Tier tier) {
    if (!done.insert(tier).second) return;
    for (const Tier child : children(tier)) visit(child);
    order.push_back(tier);
  };
  for (const Tier tier : start_tiers(max_stones)) visit(tier);
  return order;
}

Index Morris::size(Tier tier) const {
  const Sector s = Sector::of(tier);
  Index total = sector_size(s);
  if (paired(s) && s.swapped() != s) total += sector_size(s.swapped());
  return total;
}

int Morris::evaluate(const Position& pos) const {
  const int me = pos.side;
  const std::uint32_t empty = geometry_.full() & ~(pos.stones[0] | pos.stones[1]);
  std::array<int, 2> material{};
  std::array<int, 2> mobility{};
  std::array<int, 2> crossings{};
  for (int side = 0; side < 2; ++side) {
    material[side] = std::popcount(pos.stones[side]) + pos.hand[side];
    for (std::uint32_t s = pos.stones[side]; s != 0; s &= s - 1) {
      const std::uint32_t around = geometry_.neighbours(std::countr_zero(s));
      mobility[side] += std::popcount(around & empty);
      crossings[side] += std::popcount(around) == 4 ? 1 : 0;
    }
  }
  const int total = material[0] + material[1];
  const int ratio = total == 0 ? 0 : 1000 * (material[me] - material[me ^ 1]) / total;
  return ratio + 10 * (mobility[me] - mobility[me ^ 1]) + 20 * (crossings[me] - crossings[me ^ 1]);
}

std::vector<SectorRange> Morris::sectors(Tier tier) const {
  const Sector first = Sector::of(tier);
  auto balance = [](const Sector& s) { return s.w + s.wf - s.b - s.bf; };
  const Index first_size = sector_size(first);
  std::vector<SectorRange> result{{first.code(), 0, first_size, balance(first), !paired(first)}};
  if (paired(first) && first.swapped() != first) {
    const Sector twin = first.swapped();
    result.push_back({twin.code(), first_size, first_size + sector_size(twin), balance(twin), false});
  }
  return result;
}

std::uint64_t Morris::baseline_size(Tier tier) const {
  const Sector s = Sector::of(tier);
  std::uint64_t total = geometry_.position_classes(s.w, s.b);
  if (paired(s) && s.swapped() != s) total += geometry_.position_classes(s.b, s.w);
  return total;
}

std::string Morris::tier_name(Tier tier) {
  const Sector s = Sector::of(tier);
  return fmt::format("{}-{}-{}-{}", s.w, s.b, s.wf, s.bf);
}

Tier Morris::parse_tier(std::string_view text) const {
  const std::vector<std::string_view> parts = split(text, '-');
  if (parts.size() != 4) {
    fail("tier {}: expected W-B-WF-BF (stones on the board and in hand, White to move), e.g. 8-8-0-0",
         quote_input(text));
  }
  std::array<int, 4> v{};
  for (std::size_t i = 0; i < 4; ++i)
    v[i] = parse_count(parts[i], fmt::format("tier {}: a count", quote_input(text)), kMaxStones);
  const Sector s{v[0], v[1], v[2], v[3]};
  if (!valid(s))
    fail("tier {} is not a sector of {} (each side needs 3 or more stones)", quote_input(text), variant_);
  if (tier_of(s) != s.code()) {
    fail("sector {} is stored in tier {} with its colour-swapped twin", quote_input(text),
         tier_name(tier_of(s)));
  }
  return s.code();
}

// Ranking.

std::optional<Position> Morris::unrank(Tier tier, Index index) const {
  const Sector first = Sector::of(tier);
  const Index first_size = sector_size(first);
  if (index < first_size) return sector_position(first, index);
  if (paired(first) && first.swapped() != first && index - first_size < sector_size(first.swapped())) {
    return sector_position(first.swapped(), index - first_size);
  }
  fail("index {} is outside tier {} ({} indices)", index, tier_name(tier), size(tier));
}

bool Morris::unrank_next(Tier tier, Index index, Position& pos) const {
  const int step = next_in_class(pos);
  if (step != 0) return step > 0;
  // The class's last set was at index - 1: a new class, or the twin sector.
  const std::optional<Position> first = unrank(tier, index);
  if (first) pos = *first;
  return first.has_value();
}

int Morris::next_in_class(Position& pos) const {
  const std::uint32_t white = pos.stones[0];
  const std::uint32_t black = next_subset(pos.stones[1], geometry_.full() & ~white);
  if (black == 0) return 0;
  pos.stones[1] = black;
  if (!geometry_.symmetric(white)) return 1;
  const Geometry::Classes& classes = geometry_.classes(std::popcount(white));
  const std::uint32_t stabilizer = classes.stabilizer[classes.entry[colex_rank(white)] >> 6];
  for (std::uint32_t h = stabilizer; h != 0; h &= h - 1) {
    if (geometry_.apply(std::countr_zero(h), black) < black) return -1;  // a hole
  }
  return 1;
}

void Morris::symmetric(const Position& pos, std::vector<Position>& out) const {
  out.clear();
  for (int op = 0; op < geometry_.symmetries(); ++op) {
    Position image = pos;
    image.stones = {geometry_.apply(op, pos.stones[0]), geometry_.apply(op, pos.stones[1])};
    for (const Position& candidate : {image, colour_swapped(image)}) {
      if (std::find(out.begin(), out.end(), candidate) == out.end()) out.push_back(candidate);
    }
  }
}

}  // namespace gs::morris
