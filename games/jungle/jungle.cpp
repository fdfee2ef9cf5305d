#include "games/jungle/jungle.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "core/error.h"
#include "core/quote.h"
#include "core/rule_option.h"

namespace gs::jungle {

namespace {

constexpr std::string_view kLetters = "RrDdTtEe";
constexpr std::array<std::string_view, 4> kAnimal = {"rat", "dog", "tiger", "elephant"};

std::string square_name(int square) {
  return fmt::format("{}{}", static_cast<char>('a' + file_of(square)), rank_of(square) + 1);
}

std::string piece_name(int piece) {
  return fmt::format("{} {}", colour_of(piece) == 0 ? "White's" : "Black's",
                     kAnimal[static_cast<std::size_t>(strength_of(piece))]);
}

int parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'g' || text[1] < '1' || text[1] > '7') {
    return -1;
  }
  return (text[1] - '1') * kFiles + (text[0] - 'a');
}

std::uint64_t falling(int from, int count) {
  std::uint64_t product = 1;
  for (int i = 0; i < count; ++i) product *= static_cast<std::uint64_t>(from - i);
  return product;
}

}  // namespace

Tables::Tables() {
  int compact = 0;
  for (int square = 0; square < kSquares; ++square) {
    const int file = file_of(square);
    const int rank = rank_of(square);
    neighbours[square] = {static_cast<std::int8_t>(rank + 1 < kRanks ? square + kFiles : -1),
                          static_cast<std::int8_t>(rank > 0 ? square - kFiles : -1),
                          static_cast<std::int8_t>(file > 0 ? square - 1 : -1),
                          static_cast<std::int8_t>(file + 1 < kFiles ? square + 1 : -1)};
    for (const std::int8_t neighbour : neighbours[square]) {
      if (neighbour >= 0) neighbour_set[square] |= std::uint64_t{1} << neighbour;
    }
    if (square == kWhiteDen || square == kBlackDen) {
      to_compact[square] = kNone;
      continue;
    }
    to_compact[square] = static_cast<std::uint8_t>(compact);
    from_compact[compact] = static_cast<std::uint8_t>(square);
    file_compact[compact] = static_cast<std::uint8_t>(file);
    ++compact;
  }
  for (int c = 0; c < kBoardSquares; ++c) {
    const int square = from_compact[c];
    identity_compact[c] = static_cast<std::uint8_t>(c);
    mirror_compact[c] = to_compact[rank_of(square) * kFiles + (kFiles - 1 - file_of(square))];
  }
  // Ordered pairs of distinct squares up to mirroring: the first square on files a-c, or
  // on d with the second on files a-d.
  int pairs = 0;
  for (auto& row : pair_index) row.fill(-1);
  for (int a = 0; a < kBoardSquares; ++a) {
    for (int b = 0; b < kBoardSquares; ++b) {
      if (a == b) continue;
      const bool canonical = file_compact[a] < 3 || (file_compact[a] == 3 && file_compact[b] <= 3);
      if (!canonical) continue;
      pair_index[a][b] = static_cast<std::int16_t>(pairs);
      pair_squares[pairs] = {static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)};
      ++pairs;
    }
  }
  if (pairs != kPairs) fail("internal error: {} mirror classes of square pairs", pairs);
  for (int square = 0; square < kSquares; ++square) {
    flip_compact[square] = to_compact[(kRanks - 1 - rank_of(square)) * kFiles + file_of(square)];
  }
  for (int n = 0; n <= kPieceKinds; ++n)
    placements[n] = n < 2 ? 0 : kPairs * falling(kBoardSquares - 2, n - 2);
  for (unsigned material = 0; material < 256; ++material) {
    unsigned white = 0;
    unsigned black = 0;
    for (int s = 0; s < 4; ++s) {
      white |= ((material >> (2 * s)) & 1U) << s;
      black |= ((material >> (2 * s + 1)) & 1U) << s;
    }
    Material& m = materials[material];
    m.flip = {white < black, white <= black};
    const unsigned swapped = ((material & 0x55U) << 1) | ((material & 0xAAU) >> 1);
    m.canonical = static_cast<std::uint8_t>(white < black ? swapped : material);
    for (int piece = 0; piece < kPieceKinds; ++piece) {
      if ((m.canonical >> piece & 1U) != 0) m.piece[m.pieces++] = static_cast<std::uint8_t>(piece);
    }
  }
}

const Tables& tables() {
  static const Tables instance;
  return instance;
}

Jungle Jungle::from_options(std::string_view variant, const std::vector<std::string>& options) {
  if (!variant.empty() && variant != "standard") {
    fail("unknown variant {} of jungle (known: standard)", quote_input(variant));
  }
  Options parsed;
  for (const std::string& option : options) {
    const RuleOption rule = RuleOption::parse(option);
    const std::string& key = rule.key;
    const std::string& value = rule.value;
    auto as_bool = [&] { return rule.as_bool(); };
    if (key == "elephant_takes_rat") {
      parsed.elephant_takes_rat = as_bool();
    } else if (key == "stalemate") {
      if (value == "draw") {
        parsed.stalemate_loses = false;
      } else if (value == "loss") {
        parsed.stalemate_loses = true;
      } else {
        fail("rule option stalemate takes draw or loss, not {}", quote_input(value));
      }
    } else {
      fail("unknown rule option {} of jungle (known: elephant_takes_rat, stalemate)", quote_input(key));
    }
  }
  return Jungle(parsed);
}

std::vector<std::string> Jungle::option_help() {
  return {"elephant_takes_rat=on|off  the elephant may capture the rat (default on)",
          "stalemate=draw|loss        a player with no legal move draws or loses (default draw)"};
}

std::string Jungle::rule_text() const {
  std::string text;
  if (!options_.elephant_takes_rat) text += "elephant_takes_rat=off";
  if (options_.stalemate_loses) text += std::string(text.empty() ? "" : ",") + "stalemate=loss";
  return text;
}

Position Jungle::start() const { return parse_position("1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w"); }

std::string Jungle::position_text(const Position& pos) {
  std::array<char, kSquares> board{};
  board.fill('.');
  for (int piece = 0; piece < kPieceKinds; ++piece) {
    if (pos.square[piece] != kNone) board[pos.square[piece]] = kLetters[static_cast<std::size_t>(piece)];
  }
  std::string text;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < kFiles; ++file) {
      const char c = board[(rank * kFiles) + file];
      if (c == '.') {
        ++empty;
        continue;
      }
      if (empty > 0) text += static_cast<char>('0' + empty);
      empty = 0;
      text += c;
    }
    if (empty > 0) text += static_cast<char>('0' + empty);
    if (rank > 0) text += '/';
  }
  text += pos.side == 0 ? " w" : " b";
  return text;
}

std::string Jungle::board_text(const Position& pos) {
  std::array<char, kSquares> board{};
  board.fill('.');
  board[kWhiteDen] = '#';
  board[kBlackDen] = '#';
  for (int piece = 0; piece < kPieceKinds; ++piece) {
    if (pos.square[piece] != kNone) board[pos.square[piece]] = kLetters[static_cast<std::size_t>(piece)];
  }
  std::string text;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    text += static_cast<char>('1' + rank);
    for (int file = 0; file < kFiles; ++file) {
      text += ' ';
      text += board[(rank * kFiles) + file];
    }
    text += '\n';
  }
  text += "  a b c d e f g\n";
  text += pos.side == 0 ? "White to move\n" : "Black to move\n";
  return text;
}

Board Jungle::board() {
  Board board;
  board.files = kFiles;
  board.ranks = kRanks;
  board.sides = {"White", "Black"};
  for (int piece = 0; piece < kPieceKinds; ++piece) {
    board.pieces.push_back({kLetters[static_cast<std::size_t>(piece)],
                            std::string(kAnimal[static_cast<std::size_t>(strength_of(piece))]),
                            colour_of(piece), strength_of(piece)});
  }
  for (int side = 0; side < 2; ++side) board.marks.push_back({square_name(den_of(side)), "den", side});
  return board;
}

Position Jungle::parse_position(std::string_view text) const {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) text.remove_suffix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) text.remove_prefix(1);
  if (text == "start") return start();
  const auto space = text.find(' ');
  if (space == std::string_view::npos) {
    fail(
        "position {} has no side to move: expected ranks 7 to 1 separated by '/', a space, "
        "then 'w' or 'b' (start: 1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w)",
        quote_input(text));
  }
  const std::string_view board = text.substr(0, space);
  std::string_view side = text.substr(space + 1);
  while (!side.empty() && side.front() == ' ') side.remove_prefix(1);
  Position pos;
  if (side == "w") {
    pos.side = 0;
  } else if (side == "b") {
    pos.side = 1;
  } else {
    fail("position {}: side to move must be 'w' or 'b', not {}", quote_input(text), quote_input(side));
  }
  int rank = kRanks - 1;
  int file = 0;
  for (const char c : board) {
    if (c == '/') {
      if (file != kFiles)
        fail("position {}: rank {} has {} squares, expected 7", quote_input(text), rank + 1, file);
      --rank;
      file = 0;
      if (rank < 0) fail("position {} has more than 7 ranks", quote_input(text));
      continue;
    }
    if (c >= '1' && c <= '7') {
      file += c - '0';
      if (file > kFiles) fail("position {}: rank {} has more than 7 squares", quote_input(text), rank + 1);
      continue;
    }
    const auto letter = kLetters.find(c);
    if (letter == std::string_view::npos) {
      fail(
          "position {}: {} is not a piece (R D T E for White, r d t e for Black) nor a "
          "count of empty squares 1-7",
          quote_input(text), quote_input(c));
    }
    if (file >= kFiles) fail("position {}: rank {} has more than 7 squares", quote_input(text), rank + 1);
    const int piece = static_cast<int>(letter);
    if (pos.square[piece] != kNone) fail("position {} has two of {}", quote_input(text), piece_name(piece));
    pos.square[piece] = static_cast<std::uint8_t>(rank * kFiles + file);
    ++file;
  }
  if (rank != 0 || file != kFiles) {
    fail("position {}: expected 7 ranks of 7 squares, separated by '/'", quote_input(text));
  }
  // Reject what cannot arise in a game: a piece in its own den, the side to move already
  // standing in the opponent's den, or the side not to move without pieces.
  bool mover_has = false;
  bool other_has = false;
  for (int piece = 0; piece < kPieceKinds; ++piece) {
    if (pos.square[piece] == kNone) continue;
    (colour_of(piece) == pos.side ? mover_has : other_has) = true;
    if (pos.square[piece] == den_of(colour_of(piece))) {
      fail("position {}: {} stands in its own den {}", quote_input(text), piece_name(piece),
           square_name(pos.square[piece]));
    }
    if (colour_of(piece) == pos.side && pos.square[piece] == den_of(pos.side ^ 1)) {
      fail("position {}: {} is in the opponent's den, so the game ended before this move", quote_input(text),
           piece_name(piece));
    }
  }
  if (!other_has) {
    fail("position {}: the side not to move has no piece, so the game ended before this move",
         quote_input(text));
  }
  (void)mover_has;
  return pos;
}

std::string Jungle::move_text(const Position& pos, const Move& move) {
  (void)pos;
  return fmt::format("{}{}{}", kLetters[move.piece], move.captured != kNone ? "x" : "", square_name(move.to));
}

Move Jungle::parse_move(const Position& pos, std::string_view text) const {
  if (terminal(pos)) fail("no move {}: the game is over", quote_input(text));
  MoveList<Jungle> legal;
  moves(pos, legal);
  int piece = -1;
  int to = -1;
  if (text.size() == 4 && parse_square(text.substr(0, 2)) >= 0 && parse_square(text.substr(2)) >= 0) {
    const int from = parse_square(text.substr(0, 2));
    to = parse_square(text.substr(2));
    for (int p = 0; p < kPieceKinds; ++p) {
      if (pos.square[p] == from) piece = p;
    }
    if (piece < 0) fail("move {}: no piece on {}", quote_input(text), text.substr(0, 2));
  } else {
    std::string_view rest = text;
    const auto letter = rest.empty() ? std::string_view::npos : kLetters.find(rest.front());
    if (letter == std::string_view::npos) {
      fail(
          "move {} is not a move: expected a piece letter, an optional 'x' and a square "
          "(Eb2, txe5) or two squares (b1b2)",
          quote_input(text));
    }
    piece = static_cast<int>(letter);
    rest.remove_prefix(1);
    if (!rest.empty() && rest.front() == 'x') rest.remove_prefix(1);
    to = parse_square(rest);
    if (to < 0) fail("move {}: {} is not a square a1-g7", quote_input(text), quote_input(rest));
    if (pos.square[static_cast<std::size_t>(piece)] == kNone) {
      fail("move {}: {} is not on the board", quote_input(text), piece_name(piece));
    }
  }
  if (colour_of(piece) != pos.side) {
    fail("move {}: {} cannot move, it is {} to move", quote_input(text), piece_name(piece),
         pos.side == 0 ? "White" : "Black");
  }
  for (const Move& move : legal) {
    if (move.piece == piece && move.to == to) return move;
  }
  fail("move {} is illegal: {} on {} cannot move to {}", quote_input(text), piece_name(piece),
       square_name(pos.square[static_cast<std::size_t>(piece)]), square_name(to));
}

std::vector<Tier> Jungle::tiers(int max_pieces) {
  std::vector<Tier> result;
  for (int pieces = 2; pieces <= std::min(max_pieces, kPieceKinds); ++pieces) {
    for (unsigned material = 0; material < 256; ++material) {
      if (std::popcount(material) != pieces) continue;
      const unsigned white = white_set(material);
      const unsigned black = black_set(material);
      if (white == 0 || black == 0 || white < black) continue;
      result.push_back(material);
    }
  }
  return result;
}

std::vector<Tier> Jungle::children(Tier tier) {
  // A capture removes one piece of either colour; the result is named by its canonical
  // orientation. Removing a side's last piece ends the game and leads to no tier.
  std::vector<Tier> result;
  for (int piece = 0; piece < kPieceKinds; ++piece) {
    if ((tier >> piece & 1U) == 0) continue;
    unsigned material = static_cast<unsigned>(tier) & ~(1U << piece);
    if (white_set(material) == 0 || black_set(material) == 0) continue;
    if (white_set(material) < black_set(material)) {
      material = ((material & 0x55U) << 1) | ((material & 0xAAU) >> 1);
    }
    if (std::find(result.begin(), result.end(), material) == result.end()) result.push_back(material);
  }
  return result;
}

Index Jungle::placements(int pieces) { return tables().placements[pieces]; }

Index Jungle::size(Tier tier) {
  const auto material = static_cast<unsigned>(tier);
  return placements(std::popcount(material)) * (colour_symmetric(material) ? 1 : 2);
}

std::string Jungle::tier_name(Tier tier) {
  std::string white;
  std::string black;
  for (int piece = 0; piece < kPieceKinds; ++piece) {
    if ((tier >> piece & 1U) != 0)
      (colour_of(piece) == 0 ? white : black) += kLetters[static_cast<std::size_t>(piece)];
  }
  return white + "-" + black;
}

Tier Jungle::parse_tier(std::string_view text) {
  unsigned material = 0;
  for (const char c : text) {
    if (c == '-') continue;
    const auto letter = kLetters.find(c);
    if (letter == std::string_view::npos)
      fail("tier {}: {} is not a piece letter", quote_input(text), quote_input(c));
    material |= 1U << letter;
  }
  const std::vector<Tier> all = tiers(kPieceKinds);
  if (std::find(all.begin(), all.end(), material) == all.end()) {
    fail(
        "tier {} is not a jungle tier: tiers name White's pieces, '-', then Black's, with "
        "both sides present and White's set at least Black's (e.g. RD-r)",
        quote_input(text));
  }
  return material;
}

namespace {
// The mixed-radix digits of a placement, last piece first; 32-bit division where the
// placement fits, which is several times faster than 64-bit division, and each radix a
// constant, which the compiler turns into a multiplication.
template <class Integer>
Integer split_codes(Integer rest, int n, std::array<int, kPieceKinds>& code) {
  auto digit = [&]<int I>() {
    constexpr auto kRadix = static_cast<Integer>(kBoardSquares - I);
    code[I] = static_cast<int>(rest % kRadix);
    rest /= kRadix;
  };
  switch (n) {
    case 8: digit.template operator()<7>(); [[fallthrough]];
    case 7: digit.template operator()<6>(); [[fallthrough]];
    case 6: digit.template operator()<5>(); [[fallthrough]];
    case 5: digit.template operator()<4>(); [[fallthrough]];
    case 4: digit.template operator()<3>(); [[fallthrough]];
    case 3: digit.template operator()<2>(); [[fallthrough]];
    default: break;
  }
  return rest;
}
}  // namespace

std::optional<Position> Jungle::unrank(Tier tier, Index index) const {
  const Tables::Material& m = tables_.materials[static_cast<unsigned>(tier)];
  const int n = m.pieces;
  const Index per_side = tables_.placements[n];
  Position pos;
  Index placement_index = index;
  if (placement_index >= per_side) {
    pos.side = 1;
    placement_index -= per_side;
  }
  std::array<int, kPieceKinds> code{};
  const Index pair = placement_index <= 0xFFFFFFFFU
                         ? split_codes(static_cast<std::uint32_t>(placement_index), n, code)
                         : split_codes(placement_index, n, code);
  std::array<std::uint8_t, kPieceKinds> s{};
  s[0] = tables_.pair_squares[pair].first;
  s[1] = tables_.pair_squares[pair].second;
  // A further piece's digit counts the free squares below it: its square is the least s
  // with s = digit + (squares taken at or below s), reached by stepping up from the digit
  // while that count grows (a sorted list of the taken squares, shifted at each insertion,
  // was compiled into a call of memmove per piece).
  std::uint64_t taken = (std::uint64_t{1} << s[0]) | (std::uint64_t{1} << s[1]);
  for (int i = 2; i < n; ++i) {
    const int digit = code[static_cast<std::size_t>(i)];
    int square = digit;
    for (int below = 0;;) {
      const int now = std::popcount(taken & ((std::uint64_t{2} << square) - 1));
      if (now == below) break;
      below = now;
      square = digit + now;
    }
    s[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(square);
    taken |= std::uint64_t{1} << square;
  }
  if (n > 2 && tables_.file_compact[s[0]] == 3 && tables_.file_compact[s[1]] == 3 &&
      placement(s.data(), n, true) < placement_index) {
    return std::nullopt;  // the mirror image has the smaller index
  }
  // The squares are put together in a word and stored at once: stored a byte at a time,
  // they were read back as one word by the copy of the position returned, which waits
  // for the bytes to reach the cache.
  std::uint64_t squares = ~std::uint64_t{0};  // kNone everywhere
  for (int i = 0; i < n; ++i) {
    const unsigned shift = 8U * m.piece[i];
    squares = (squares & ~(std::uint64_t{0xFF} << shift)) |
              std::uint64_t{tables_.from_compact[s[static_cast<std::size_t>(i)]]} << shift;
  }
  static_assert(sizeof squares == sizeof pos.square && std::endian::native == std::endian::little);
  std::memcpy(pos.square.data(), &squares, sizeof squares);
  return pos;
}

bool Jungle::unrank_next(Tier tier, Index index, Position& pos) const {
  const Tables::Material& m = tables_.materials[static_cast<unsigned>(tier)];
  const int n = m.pieces;
  if (n > 2 && !(file_of(pos.square[m.piece[0]]) == 3 && file_of(pos.square[m.piece[1]]) == 3)) {
    // The last digit counts the squares below the last piece that no earlier piece
    // takes: one more is the next such square above it.
    std::uint8_t& last = pos.square[m.piece[n - 1]];
    const std::uint64_t others = occupied_squares(pos) & ~(std::uint64_t{1} << last);
    const std::uint64_t above = kOpenSquares & ~others & (~std::uint64_t{0} << (last + 1U));
    if (above != 0) {
      last = static_cast<std::uint8_t>(std::countr_zero(above));
      return true;
    }
  }
  const std::optional<Position> fresh = unrank(tier, index);
  if (!fresh) return false;
  pos = *fresh;
  return true;
}

template <bool Open>
void Jungle::rank_unmoves(const Position& pos, SmallVector<Index, kMaxUnmoves>& out) const {
  out.clear();
  const int mover = pos.side ^ 1;  // to move in every predecessor
  const Tables::Material& m = tables_.materials[pos.material()];
  const int flip = m.flip[mover] ? 1 : 0;
  const auto& compact = flip != 0 ? tables_.flip_compact : tables_.to_compact;
  const int n = m.pieces;
  std::array<std::uint8_t, kPieceKinds> c = squares_in_order(pos, m, flip);
  std::array<std::uint8_t, kPieceKinds> slot{};  // by piece of pos: its place in that order
  for (int i = 0; i < n; ++i)
    slot[static_cast<std::size_t>(m.piece[i] ^ flip)] = static_cast<std::uint8_t>(i);
  const Index offset = (mover ^ flip) != 0 ? tables_.placements[n] : 0;
  // Written through a local pointer: the list's size would otherwise be stored and
  // loaded again around each index.
  Index* filled = out.begin();
  auto ranked = [&](int piece, int from) {
    std::uint8_t& square = c[slot[static_cast<std::size_t>(piece)]];
    const std::uint8_t at = square;
    square = compact[from];
    *filled++ = offset + canonical_placement(c.data(), n);
    square = at;
  };
  if constexpr (Open) {
    // A predecessor wins at once where its moved piece came from a winning square, or
    // where another of the mover's pieces already stands on one of its own; with two
    // such pieces, every predecessor does.
    const std::array<std::uint64_t, kPieceKinds> winning = winning_squares(pos, mover);
    const unsigned stand = standing(pos, mover, winning);
    if (stand == 0) {
      for_each_unmove(pos, winning, ranked);
    } else if (std::has_single_bit(stand)) {
      // Only the standing piece may move back, and only from a square that wins for none.
      const int piece = std::countr_zero(stand);
      std::array<std::uint64_t, kPieceKinds> barred{};
      barred.fill(~std::uint64_t{0});
      barred[piece] = winning[piece];
      for_each_unmove(pos, barred, ranked);
    }
  } else {
    for_each_unmove(pos, ranked);
  }
  out.resize(static_cast<std::size_t>(filled - out.begin()));
}
template void Jungle::rank_unmoves<false>(const Position&, SmallVector<Index, kMaxUnmoves>&) const;
template void Jungle::rank_unmoves<true>(const Position&, SmallVector<Index, kMaxUnmoves>&) const;

Position Jungle::mirrored(const Position& pos) {
  Position result = pos;
  for (auto& square : result.square) {
    if (square != kNone)
      square = static_cast<std::uint8_t>(rank_of(square) * kFiles + kFiles - 1 - file_of(square));
  }
  return result;
}

Position Jungle::colour_flipped(const Position& pos) {
  Position result;
  for (int piece = 0; piece < kPieceKinds; ++piece) {
    const int square = pos.square[static_cast<std::size_t>(piece)];
    if (square == kNone) continue;
    result.square[static_cast<std::size_t>(piece ^ 1)] =
        static_cast<std::uint8_t>((kRanks - 1 - rank_of(square)) * kFiles + file_of(square));
  }
  result.side = static_cast<std::uint8_t>(pos.side ^ 1);
  return result;
}

void Jungle::symmetric(const Position& pos, std::vector<Position>& out) const {
  out.clear();
  for (const Position& candidate : {pos, mirrored(pos), colour_flipped(pos), colour_flipped(mirrored(pos))}) {
    if (std::find(out.begin(), out.end(), candidate) == out.end()) out.push_back(candidate);
  }
}

std::uint64_t Jungle::end_positions(int pieces) {
  std::uint64_t total = 0;
  for (unsigned material = 0; material < 256; ++material) {
    if (std::popcount(material) != pieces) continue;
    const int white = std::popcount(white_set(material));
    const int black = std::popcount(black_set(material));
    for (int side = 0; side < 2; ++side) {
      const int mover = side == 0 ? white : black;
      const int other = side == 0 ? black : white;
      if (mover > 0 && other > 0) {
        total += static_cast<std::uint64_t>(other) * falling(kBoardSquares, pieces - 1);
      } else if (mover == 0) {
        total += falling(kBoardSquares, pieces);
      }
    }
  }
  return total;
}

std::uint64_t Jungle::baseline_size(Tier tier) {
  return std::uint64_t{2} * 26 * falling(kBoardSquares - 1, std::popcount(tier) - 1);
}

}  // namespace gs::jungle
