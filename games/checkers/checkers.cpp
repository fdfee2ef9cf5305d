#include "games/checkers/checkers.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <optional>

#include "core/colex.h"
#include "core/quote.h"

namespace gs::checkers {

namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) text.remove_suffix(1);
  return text;
}

// A square number 1-32 as written, or -1.
int parse_square(std::string_view text) {
  int number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end != text.data() + text.size() || number < 1 || number > kSquares) return -1;
  return number - 1;
}

// The set `compact` (indices among the squares not in `taken`) as squares.
std::uint32_t spread(std::uint32_t compact, std::uint32_t taken) { return deposit(compact, ~taken); }

const char* side_name(int side) { return side == kBlack ? "Black" : "White"; }

char count_digit(int count) { return static_cast<char>(count < 10 ? '0' + count : 'A' + count - 10); }

int digit_count(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'C') return c - 'A' + 10;
  return -1;
}

}  // namespace

Checkers Checkers::from_options(std::string_view variant, const std::vector<std::string>& options) {
  if (!variant.empty() && variant != "english" && variant != "standard") {
    fail("unknown variant {} of checkers (known: english)", quote_input(variant));
  }
  if (!options.empty()) fail("checkers has no rule options (got {})", quote_input(options.front()));
  return {};
}

Position Checkers::start() {
  Position pos;
  pos.men[kBlack] = 0x00000FFFU;  // 1-12
  pos.men[kWhite] = 0xFFF00000U;  // 21-32
  pos.side = kBlack;
  return pos;
}

std::string Checkers::position_text(const Position& pos) {
  std::string text = pos.side == kBlack ? "B" : "W";
  for (const int colour : {kWhite, kBlack}) {
    text += colour == kWhite ? ":W" : ":B";
    bool first = true;
    for (std::uint32_t set = pos.pieces(colour); set != 0; set &= set - 1) {
      const int square = std::countr_zero(set);
      if (!first) text += ',';
      first = false;
      if ((pos.kings[colour] >> square & 1U) != 0) text += 'K';
      text += std::to_string(square + 1);
    }
  }
  return text;
}

Position Checkers::parse_position(std::string_view original) {
  std::string_view text = trimmed(original);
  if (text == "start") return start();
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
    text = trimmed(text.substr(1, text.size() - 2));
  if (!text.empty() && text.back() == '.') text.remove_suffix(1);
  auto bad = [&](std::string_view why) {
    fail(
        "position {}: {}; expected the PDN FEN value: the side to move (B or W), then ':W' and White's "
        "squares, ':B' and Black's, K before a king (start: B:W21,22,23,24,25,26,27,28,29,30,31,32:"
        "B1,2,3,4,5,6,7,8,9,10,11,12)",
        quote_input(original), why);
  };
  std::vector<std::string_view> fields;
  for (std::size_t begin = 0;;) {
    const std::size_t end = text.find(':', begin);
    fields.push_back(trimmed(text.substr(begin, end == std::string_view::npos ? end : end - begin)));
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  if (fields.size() != 3) bad("it has not three fields separated by ':'");
  Position pos;
  if (fields[0] == "B") {
    pos.side = kBlack;
  } else if (fields[0] == "W") {
    pos.side = kWhite;
  } else {
    bad(fmt::format("the side to move must be B or W, not {}", quote_input(fields[0])));
  }
  std::array<bool, 2> seen{};
  for (std::size_t f = 1; f < 3; ++f) {
    std::string_view field = fields[f];
    if (field.empty() || (field.front() != 'W' && field.front() != 'B')) {
      bad(fmt::format("field {} does not start with W or B", quote_input(field)));
    }
    const int colour = field.front() == 'W' ? kWhite : kBlack;
    if (seen[static_cast<std::size_t>(colour)])
      bad(fmt::format("{}'s pieces are given twice", side_name(colour)));
    seen[static_cast<std::size_t>(colour)] = true;
    field.remove_prefix(1);
    if (trimmed(field).empty()) continue;
    for (std::size_t begin = 0;;) {
      const std::size_t end = field.find(',', begin);
      std::string_view item = trimmed(field.substr(begin, end == std::string_view::npos ? end : end - begin));
      const bool king = !item.empty() && item.front() == 'K';
      if (king) item.remove_prefix(1);
      // A range "a-b" of squares, as some programs write.
      const std::size_t dash = item.find('-');
      const int low = parse_square(item.substr(0, dash));
      const int high = dash == std::string_view::npos ? low : parse_square(item.substr(dash + 1));
      if (low < 0 || high < low) {
        bad(fmt::format("{} is not a square 1-32 (or a range of them) with an optional K",
                        quote_input(item)));
      }
      for (int square = low; square <= high; ++square) {
        const std::uint32_t bit = 1U << square;
        if ((pos.occupied() & bit) != 0) bad(fmt::format("square {} is given twice", square + 1));
        if (!king && (bit & crown_row(colour)) != 0) {
          bad(fmt::format("a {} man stands on square {}, where it would have been crowned", side_name(colour),
                          square + 1));
        }
        (king ? pos.kings : pos.men)[static_cast<std::size_t>(colour)] |= bit;
      }
      if (end == std::string_view::npos) break;
      begin = end + 1;
    }
  }
  if (!seen[kBlack] || !seen[kWhite]) bad("it must list White's pieces (W) and Black's (B)");
  // Each side starts with 12 pieces and never gains one.
  for (const int colour : {kBlack, kWhite}) {
    if (const int count = std::popcount(pos.pieces(colour)); count > 12)
      bad(fmt::format("{} has {} pieces, more than the 12 it starts with", side_name(colour), count));
  }
  if (pos.pieces(pos.side ^ 1) == 0) {
    fail("position {}: {} (not to move) has no piece, so the game ended before this move",
         quote_input(original), side_name(pos.side ^ 1));
  }
  return pos;
}

std::string Checkers::move_text(const Position& pos, const Move& move) {
  (void)pos;
  std::string text = std::to_string(move.from + 1);
  for (int i = 0; i < move.steps; ++i) {
    text += move.captured != 0 ? 'x' : '-';
    text += std::to_string(move.path[static_cast<std::size_t>(i)] + 1);
  }
  return text;
}

Move Checkers::parse_move(const Position& pos, std::string_view original) {
  const std::string_view text = trimmed(original);
  if (terminal(pos)) fail("no move {}: the game is over", quote_input(text));
  const bool capture = text.find('x') != std::string_view::npos;
  const char separator = capture ? 'x' : '-';
  std::vector<int> squares;
  for (std::size_t begin = 0;;) {
    const std::size_t end = text.find(separator, begin);
    const std::string_view part = text.substr(begin, end == std::string_view::npos ? end : end - begin);
    const int square = parse_square(part);
    if (square < 0) {
      fail("move {} is not a move: expected squares 1-32 joined by '-' (11-15) or 'x' (15x24, 15x24x31)",
           quote_input(text));
    }
    squares.push_back(square);
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  if (squares.size() < 2)
    fail("move {} is not a move: expected a from and a to square (11-15, 15x24)", quote_input(text));
  const int from = squares.front();
  if ((pos.pieces(pos.side) >> from & 1U) == 0) {
    fail("move {}: {} has no piece on {} ({} to move)", quote_input(text), side_name(pos.side), from + 1,
         side_name(pos.side));
  }
  MoveList<Checkers> legal;
  moves(pos, legal);
  const bool must_capture = !legal.empty() && legal[0].captured != 0;
  if (must_capture && !capture) {
    std::string options;
    for (const Move& move : legal) options += (options.empty() ? "" : ", ") + move_text(pos, move);
    fail("move {} is illegal: a capture is compulsory ({})", quote_input(text), options);
  }
  // The full path, or only the first and last squares of a capture when one path fits.
  std::vector<const Move*> matches;
  for (const Move& move : legal) {
    if (move.from != from || (move.captured != 0) != capture) continue;
    bool same = false;
    if (squares.size() == move.steps + 1U) {
      same = std::equal(squares.begin() + 1, squares.end(), move.path.begin());
    }
    if (!same && squares.size() == 2 && capture) same = move.to() == squares.back();
    if (same) matches.push_back(&move);
  }
  if (matches.size() == 1) return *matches.front();
  if (matches.size() > 1) {
    std::string options;
    for (const Move* move : matches) options += (options.empty() ? "" : ", ") + move_text(pos, *move);
    fail("move {} is ambiguous: write the whole path ({})", quote_input(text), options);
  }
  if (legal.empty()) fail("move {} is illegal: {} has no legal move", quote_input(text), side_name(pos.side));
  std::string options;
  for (const Move& move : legal) options += (options.empty() ? "" : ", ") + move_text(pos, move);
  fail("move {} is illegal (legal: {})", quote_input(text), options);
}

std::string Checkers::board_text(const Position& pos) {
  // Black at the top, as the square numbers run; b/w men, B/W kings.
  std::string text;
  for (int row = 0; row < 8; ++row) {
    std::string line = "  ";
    for (int column = 0; column < 8; ++column) {
      if ((row + column) % 2 == 0) {
        line += "  ";
        continue;
      }
      const int square = row * 4 + column / 2;
      const std::uint32_t bit = 1U << square;
      char c = '.';
      if ((pos.men[kBlack] & bit) != 0) c = 'b';
      if ((pos.kings[kBlack] & bit) != 0) c = 'B';
      if ((pos.men[kWhite] & bit) != 0) c = 'w';
      if ((pos.kings[kWhite] & bit) != 0) c = 'W';
      line += ' ';
      line += c;
    }
    text += fmt::format("{}   {:>2}-{:>2}\n", line, row * 4 + 1, row * 4 + 4);
  }
  text += pos.side == kBlack ? "Black to move\n" : "White to move\n";
  return text;
}

std::vector<Tier> Checkers::tiers(int max_pieces) {
  std::vector<Tier> result;
  for (int pieces = 2; pieces <= std::min(max_pieces, 24); ++pieces) {
    std::vector<Tier> these;
    for (int mk = 0; mk <= std::min(pieces, 12); ++mk) {
      for (int ok = 0; mk + ok <= pieces && ok <= 12; ++ok) {
        for (int mm = 0; mk + ok + mm <= pieces && mk + mm <= 12; ++mm) {
          const int om = pieces - mk - ok - mm;
          if (ok + om > 12 || mk + mm == 0 || ok + om == 0) continue;
          for (int ml = mm == 0 ? 0 : 1; ml <= (mm == 0 ? 0 : 7); ++ml) {
            for (int ol = om == 0 ? 0 : 1; ol <= (om == 0 ? 0 : 7); ++ol) {
              const Slice s{mk, ok, mm, om, ml, ol};
              if (tier_of(s) != s.code() || slice_size(s) == 0) continue;
              these.push_back(s.code());
            }
          }
        }
      }
    }
    std::sort(these.begin(), these.end());
    result.insert(result.end(), these.begin(), these.end());
  }
  return result;
}

std::vector<Tier> Checkers::children(Tier tier) {
  // From either orientation, with its mover to move: the mover's men and kings after the
  // move (unchanged, a man advanced past the leading rank, or a man crowned) times the
  // other side's after it (unchanged, or fewer pieces by a capture). This lists every
  // slice a move can reach and some no move reaches; all have fewer pieces, fewer men,
  // or a higher sum of leading ranks.
  std::vector<Tier> result;
  const Slice first = Slice::of(tier);
  for (const Slice& s : {first, first.reversed()}) {
    struct Side {
      int kings, men, lead;
    };
    std::vector<Side> movers = {{s.mover_kings, s.mover_men, s.mover_lead}};
    if (s.mover_men > 0) {
      for (int lead = s.mover_lead + 1; lead <= 7; ++lead)
        movers.push_back({s.mover_kings, s.mover_men, lead});
      if (s.mover_men == 1) {
        movers.push_back({s.mover_kings + 1, 0, 0});
      } else {
        for (int lead = 1; lead <= s.mover_lead; ++lead)
          movers.push_back({s.mover_kings + 1, s.mover_men - 1, lead});
      }
    }
    std::vector<Side> others = {{s.other_kings, s.other_men, s.other_lead}};
    for (int kings = 0; kings <= s.other_kings; ++kings) {
      for (int men = 0; men <= s.other_men; ++men) {
        if (kings + men == 0 || kings + men == s.other_kings + s.other_men) continue;
        if (men == s.other_men) {
          others.push_back({kings, men, s.other_lead});
        } else if (men == 0) {
          others.push_back({kings, 0, 0});
        } else {
          for (int lead = 1; lead <= s.other_lead; ++lead) others.push_back({kings, men, lead});
        }
      }
    }
    for (std::size_t m = 0; m < movers.size(); ++m) {
      for (std::size_t o = 0; o < others.size(); ++o) {
        if (m == 0 && o == 0) continue;
        // Without a capture the mover's men advance one rank, or a man on rank 7 is crowned.
        if (o == 0 && movers[m].men == s.mover_men && movers[m].lead != s.mover_lead + 1) continue;
        if (o == 0 && movers[m].men != s.mover_men && s.mover_lead != 7) continue;
        const Slice next{movers[m].kings, others[o].kings, movers[m].men,
                         others[o].men,   movers[m].lead,  others[o].lead};
        if (slice_size(next) == 0) continue;
        const Tier child = tier_of(next);
        if (child != tier && std::find(result.begin(), result.end(), child) == result.end()) {
          result.push_back(child);
        }
      }
    }
  }
  return result;
}

std::string Checkers::tier_name(Tier tier) {
  const Slice s = Slice::of(tier);
  return {count_digit(s.mover_kings),
          count_digit(s.other_kings),
          count_digit(s.mover_men),
          count_digit(s.other_men),
          '.',
          count_digit(s.mover_lead),
          count_digit(s.other_lead)};
}

Tier Checkers::parse_tier(std::string_view text) {
  auto bad = [&]() {
    fail(
        "tier {} is not a checkers tier: expected the side to move's kings, the other's kings, the mover's "
        "men, the other's men, '.', and the leading ranks (1-7, 0 without men) of the mover's and the "
        "other's men, as 1210.50, in the orientation with the smaller code",
        quote_input(text));
  };
  if (text.size() != 7 || text[4] != '.') bad();
  std::array<int, 6> v{};
  for (std::size_t i = 0, j = 0; i < text.size(); ++i) {
    if (i == 4) continue;
    v[j] = digit_count(text[i]);
    if (v[j] < 0) bad();
    ++j;
  }
  const Slice s{v[0], v[1], v[2], v[3], v[4], v[5]};
  if (s.mover_kings + s.mover_men == 0 || s.other_kings + s.other_men == 0 || s.mover_lead > 7 ||
      s.other_lead > 7 || (s.mover_men == 0) != (s.mover_lead == 0) ||
      (s.other_men == 0) != (s.other_lead == 0) || slice_size(s) == 0 || tier_of(s) != s.code() ||
      s.mover_kings + s.mover_men > 12 || s.other_kings + s.other_men > 12) {
    bad();
  }
  return s.code();
}

namespace {

// Division of 32-bit numbers by a fixed divisor without a divide instruction (Lemire,
// Kaser & Kurz, "Faster remainder by direct computation", 2019): with m = 2^64 / d
// rounded up, n / d is the high 64 bits of m * n, exact for every 32-bit n and d > 1.
struct Divisor32 {
  std::uint32_t d = 1;
  std::uint64_t m = 0;  // 0 for d = 1
  Divisor32() = default;
  explicit Divisor32(std::uint32_t divisor)
      : d(divisor), m(divisor > 1 ? ~std::uint64_t{0} / divisor + 1 : 0) {}
  [[nodiscard]] std::uint32_t quotient(std::uint32_t n) const {
    if (m == 0) return n;
    const std::uint64_t low = (m & 0xFFFFFFFFU) * n;
    return static_cast<std::uint32_t>(((m >> 32) * n + (low >> 32)) >> 32);
  }
};

// What unranking needs of one orientation of a tier, computed once per tier and thread:
// a scan or a level of the retrograde solver unranks millions of indices of one tier.
struct SliceShape {
  Slice slice;
  int free = 0;                       // squares the men leave
  Index other_kings_count = 0;        // placements of the other side's kings
  Index mover_kings_count = 0;        // of the mover's
  std::optional<MenOverlap> overlap;  // where the two sides' men regions overlap
  Index per_black = 0;                // the other side's men placements (no overlap)
  Index black_first = 0;              // colex rank of the mover's first placement
  bool small = false;                 // king counts and indices fit 32 bits: the divisors below
  Divisor32 other_kings_divisor;
  Divisor32 mover_kings_divisor;
};
struct TierShape {
  Tier tier = ~Tier{0};
  Index first = 0;  // indices of the first orientation
  std::array<SliceShape, 2> orientations;
  // The men of the last index unranked.
  Index men_index = ~Index{0};
  bool flipped = false;
  std::array<std::uint32_t, 2> men{};
};

}  // namespace

std::optional<Position> Checkers::unrank(Tier tier, Index index) {
  thread_local TierShape shape;
  if (shape.tier != tier) {
    const Slice first = Slice::of(tier);
    shape.first = slice_size(first);
    for (std::size_t o = 0; o < 2; ++o) {
      const Slice s = o == 0 ? first : first.reversed();
      SliceShape& shaped = shape.orientations[o];
      shaped.slice = s;
      shaped.free = kSquares - s.mover_men - s.other_men;
      shaped.other_kings_count = binomial(shaped.free - s.mover_kings, s.other_kings);
      shaped.mover_kings_count = binomial(shaped.free, s.mover_kings);
      shaped.overlap.reset();
      if (overlaps(s)) shaped.overlap.emplace(overlap_of(s));
      shaped.per_black = s.other_men > 0 ? men_placements(s.other_men, s.other_lead) : 1;
      shaped.black_first = s.mover_men > 0 ? binomial(4 * (s.mover_lead - 1), s.mover_men) : 0;
      shaped.small = slice_size(s) <= 0xFFFFFFFFU;
      if (shaped.small) {
        shaped.other_kings_divisor = Divisor32(static_cast<std::uint32_t>(shaped.other_kings_count));
        shaped.mover_kings_divisor = Divisor32(static_cast<std::uint32_t>(shaped.mover_kings_count));
      }
    }
    shape.tier = tier;
    shape.men_index = ~Index{0};
  }
  bool flipped = false;
  if (index >= shape.first) {
    index -= shape.first;
    flipped = true;
  }
  const SliceShape& shaped = shape.orientations[flipped ? 1 : 0];
  const Slice& s = shaped.slice;
  // Division by multiplication where the slice allows: several times faster.
  Index other_kings = 0;
  Index mover_kings = 0;
  Index men_index = 0;
  if (shaped.small) {
    const auto rest = static_cast<std::uint32_t>(index);
    const std::uint32_t above = shaped.other_kings_divisor.quotient(rest);
    other_kings = rest - above * shaped.other_kings_divisor.d;
    men_index = shaped.mover_kings_divisor.quotient(above);
    mover_kings = above - static_cast<std::uint32_t>(men_index) * shaped.mover_kings_divisor.d;
  } else {
    other_kings = index % shaped.other_kings_count;
    index /= shaped.other_kings_count;
    mover_kings = index % shaped.mover_kings_count;
    men_index = index / shaped.mover_kings_count;
  }
  Position pos;
  pos.side = kBlack;
  // The men of the previous index are kept: a scan, or a level of the retrograde solver
  // in index order, unranks runs of indices with the same men.
  if (shape.men_index == men_index && shape.flipped == flipped) {
    pos.men = shape.men;
  } else {
    Index black = men_index;
    Index white = 0;
    if (shaped.overlap) {
      white = men_index;
      pos.men[kBlack] = shaped.overlap->black_of(white);
    } else {
      if (s.other_men > 0) {
        black = men_index / shaped.per_black;
        white = men_index % shaped.per_black;
      }
      if (s.mover_men > 0) pos.men[kBlack] = colex_unrank(black + shaped.black_first, s.mover_men);
    }
    if (s.other_men > 0) {
      const std::uint32_t blocked = turned(pos.men[kBlack]) & region(s.other_lead);
      const int below_lead = 4 * (s.other_lead - 1) - std::popcount(blocked & region(s.other_lead - 1));
      pos.men[kWhite] =
          turned(spread(colex_unrank(white + binomial(below_lead, s.other_men), s.other_men), blocked));
    }
    shape.men_index = men_index;
    shape.flipped = flipped;
    shape.men = pos.men;
  }
  const std::uint32_t taken = pos.men[kBlack] | pos.men[kWhite];
  pos.kings[kBlack] = spread(colex_unrank(mover_kings, s.mover_kings), taken);
  pos.kings[kWhite] = spread(colex_unrank(other_kings, s.other_kings), taken | pos.kings[kBlack]);
  return flipped ? reversed(pos) : pos;
}

std::uint64_t Checkers::end_positions(int pieces) {
  // Boards of one colour with the other side to move: men on 28 squares, kings anywhere.
  std::uint64_t boards = 0;
  for (int men = 0; men <= std::min(pieces, 12); ++men) {
    if (pieces - men <= 12) boards += binomial(28, men) * binomial(kSquares - men, pieces - men);
  }
  return pieces <= 12 ? 2 * boards : 0;
}

}  // namespace gs::checkers
