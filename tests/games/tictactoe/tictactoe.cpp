#include "tests/games/tictactoe/tictactoe.h"

#include <fmt/format.h>

#include <bit>

#include "core/error.h"

namespace gs::tictactoe {

namespace {

constexpr std::array<std::uint16_t, 8> kLines = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
constexpr std::uint16_t kFull = 0777;

Index binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  Index result = 1;
  for (int i = 1; i <= k; ++i) result = result * static_cast<Index>(n - k + i) / static_cast<Index>(i);
  return result;
}

// The stones of a tier: X has one more than O or as many.
int x_stones(Tier tier) { return (10 - static_cast<int>(tier)) / 2; }
int o_stones(Tier tier) { return (9 - static_cast<int>(tier)) / 2; }

// The colex rank of a set of k squares among the `free` squares (bits of free, lowest first).
Index subset_rank(std::uint16_t set, std::uint16_t free) {
  Index rank = 0;
  int position = 0;
  int chosen = 0;
  for (int square = 0; square < 9; ++square) {
    if ((free >> square & 1U) == 0) continue;
    if ((set >> square & 1U) != 0) rank += binomial(position, ++chosen);
    ++position;
  }
  return rank;
}

std::uint16_t subset_unrank(Index rank, int k, std::uint16_t free) {
  std::array<int, 9> squares{};
  int count = 0;
  for (int square = 0; square < 9; ++square) {
    if ((free >> square & 1U) != 0) squares[static_cast<std::size_t>(count++)] = square;
  }
  std::uint16_t set = 0;
  for (int chosen = k; chosen > 0; --chosen) {
    int position = chosen - 1;
    while (binomial(position + 1, chosen) <= rank) ++position;
    rank -= binomial(position, chosen);
    set = static_cast<std::uint16_t>(set | 1U << squares[static_cast<std::size_t>(position)]);
  }
  return set;
}

std::string square_name(int square) {
  return {static_cast<char>('a' + square % 3), static_cast<char>('1' + square / 3)};
}

}  // namespace

TicTacToe TicTacToe::from_options(std::string_view variant, const std::vector<std::string>& rules) {
  if (!variant.empty() && variant != "standard")
    fail("unknown variant '{}' of tictactoe (known: standard)", variant);
  if (!rules.empty()) fail("tictactoe has no rule options ('{}')", rules.front());
  return {};
}

bool TicTacToe::has_line(std::uint16_t stones) {
  for (const std::uint16_t line : kLines) {
    if ((stones & line) == line) return true;
  }
  return false;
}

void TicTacToe::moves(const Position& pos, MoveList<TicTacToe>& out) {
  out.clear();
  const auto empty = static_cast<std::uint16_t>(kFull & ~(pos.x | pos.o));
  for (int square = 0; square < 9; ++square) {
    if ((empty >> square & 1U) != 0) out.push_back({static_cast<std::uint8_t>(square)});
  }
}

Position TicTacToe::play(const Position& pos, const Move& move) {
  Position next = pos;
  const auto bit = static_cast<std::uint16_t>(1U << move.square);
  if (pos.side == 0) {
    next.x = static_cast<std::uint16_t>(next.x | bit);
  } else {
    next.o = static_cast<std::uint16_t>(next.o | bit);
  }
  next.side = static_cast<std::uint8_t>(pos.side ^ 1);
  return next;
}

std::optional<Value> TicTacToe::terminal(const Position& pos) {
  // The player who just moved completed a line: the side to move has lost.
  if (has_line(pos.side == 0 ? pos.o : pos.x)) return Value::loss(0);
  if ((pos.x | pos.o) == kFull) return Value::draw();
  return std::nullopt;
}

std::string TicTacToe::position_text(const Position& pos) {
  std::string text;
  for (int row = 2; row >= 0; --row) {
    for (int file = 0; file < 3; ++file) {
      const int square = row * 3 + file;
      text += (pos.x >> square & 1U) != 0 ? 'x' : (pos.o >> square & 1U) != 0 ? 'o' : '.';
    }
    if (row > 0) text += '/';
  }
  text += pos.side == 0 ? " x" : " o";
  return text;
}

Position TicTacToe::parse_position(std::string_view text) {
  if (text == "start") return start();
  if (text.size() != 13 || text[3] != '/' || text[7] != '/' || text[11] != ' ')
    fail(
        "bad tictactoe position '{}': expected three rows of x, o and . separated by '/', then x or o to "
        "move",
        text);
  Position pos;
  for (int row = 2; row >= 0; --row) {
    for (int file = 0; file < 3; ++file) {
      const std::size_t at = static_cast<std::size_t>(2 - row) * 4 + static_cast<std::size_t>(file);
      const char c = text[at];
      const auto bit = static_cast<std::uint16_t>(1U << (row * 3 + file));
      if (c == 'x') {
        pos.x = static_cast<std::uint16_t>(pos.x | bit);
      } else if (c == 'o') {
        pos.o = static_cast<std::uint16_t>(pos.o | bit);
      } else if (c != '.') {
        fail("bad tictactoe position '{}': '{}' is not x, o or .", text, c);
      }
    }
  }
  const char side = text[12];
  if (side != 'x' && side != 'o') fail("bad tictactoe position '{}': the side to move must be x or o", text);
  pos.side = side == 'x' ? 0 : 1;
  const int xs = std::popcount(pos.x);
  const int os = std::popcount(pos.o);
  if (xs - os != pos.side)
    fail("bad tictactoe position '{}': {} x and {} o with {} to move", text, xs, os, side);
  if (has_line(pos.side == 0 ? pos.x : pos.o))
    fail("bad tictactoe position '{}': the side to move has a line, so the game ended before", text);
  return pos;
}

std::string TicTacToe::move_text(const Position& /*pos*/, const Move& move) {
  return square_name(move.square);
}

Move TicTacToe::parse_move(const Position& pos, std::string_view text) {
  MoveList<TicTacToe> legal;
  moves(pos, legal);
  if (terminal(pos)) legal.clear();
  for (const Move& move : legal) {
    if (square_name(move.square) == text) return move;
  }
  std::string names;
  for (const Move& move : legal)
    names += fmt::format("{}{}", names.empty() ? "" : " ", square_name(move.square));
  fail("illegal move '{}' (legal: {})", text, names.empty() ? "none" : names);
}

std::string TicTacToe::board_text(const Position& pos) {
  std::string text;
  for (int row = 2; row >= 0; --row) {
    text += static_cast<char>('1' + row);
    text += ' ';
    for (int file = 0; file < 3; ++file) {
      const int square = row * 3 + file;
      text += (pos.x >> square & 1U) != 0 ? 'x' : (pos.o >> square & 1U) != 0 ? 'o' : '.';
    }
    text += '\n';
  }
  return text + "  abc\n";
}

std::vector<Tier> TicTacToe::tiers(int max_empty) {
  std::vector<Tier> out;
  for (int empty = 0; empty <= std::min(max_empty, 9); ++empty) out.push_back(static_cast<Tier>(empty));
  return out;
}

std::vector<Tier> TicTacToe::children(Tier tier) {
  if (tier == 0) return {};
  return {tier - 1};
}

Index TicTacToe::size(Tier tier) {
  const int xs = x_stones(tier);
  return binomial(9, xs) * binomial(9 - xs, o_stones(tier));
}

std::string TicTacToe::tier_name(Tier tier) { return fmt::format("e{}", tier); }

Tier TicTacToe::parse_tier(std::string_view text) {
  if (text.size() != 2 || text[0] != 'e' || text[1] < '0' || text[1] > '9')
    fail("bad tictactoe tier '{}'", text);
  return static_cast<Tier>(text[1] - '0');
}

Ranked TicTacToe::rank(const Position& pos) {
  const auto tier = static_cast<Tier>(9 - std::popcount(static_cast<unsigned>(pos.x | pos.o)));
  const auto others = static_cast<std::uint16_t>(kFull & ~pos.x);
  const Index index =
      subset_rank(pos.x, kFull) * binomial(9 - x_stones(tier), o_stones(tier)) + subset_rank(pos.o, others);
  return {tier, index};
}

std::optional<Position> TicTacToe::unrank(Tier tier, Index index) {
  const int xs = x_stones(tier);
  const int os = o_stones(tier);
  const Index o_sets = binomial(9 - xs, os);
  Position pos;
  pos.x = subset_unrank(index / o_sets, xs, kFull);
  pos.o = subset_unrank(index % o_sets, os, static_cast<std::uint16_t>(kFull & ~pos.x));
  pos.side = static_cast<std::uint8_t>(xs - os);
  // The side to move cannot have a line: the game would have ended before.
  if (has_line(pos.side == 0 ? pos.x : pos.o)) return std::nullopt;
  return pos;
}

}  // namespace gs::tictactoe
