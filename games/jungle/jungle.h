#pragma once
// Jungle Checkers (docs/games/jungle.md): a 7x7 board, four animals a side, one step
// orthogonally per move; a player wins by entering the opponent's den or capturing the
// opponent's last piece; no legal move is a draw.
//
// Squares are numbered rank-major, a1 = 0, b1 = 1, ..., g7 = 48; White's den is d1 (3),
// Black's den d7 (45). Pieces are numbered R r D d T t E e = 0..7: colour = piece & 1,
// strength = piece >> 1.
//
// Tiers are materials up to colour symmetry. A material is the set of pieces on the
// board (a bit per piece). Flipping the board top to bottom and swapping the colours and
// the side to move preserves the value, so a tier is named by the orientation of its
// material in which White's piece set (R=1, D=2, T=4, E=8) is at least Black's. A tier
// whose two orientations differ stores both sides to move; a colour-symmetric tier
// (White's set equals Black's) stores White to move only.
//
// Index of a position in its tier (see docs/JUNGLE_INDEX.md for the sizes):
//
//   index = side * P(n) + placement            (side only in asymmetric tiers)
//   placement = pair(s0, s1) * 45 * 44 * ... + lehmer(s2) * 44 * ... + ... + lehmer(sn-1)
//
// where s0..sn-1 are the squares of the pieces in the order R r D d T t E e, counted on
// the 47 squares that are not dens. pair() numbers the 1091 ordered pairs of distinct
// squares up to left-right mirroring (Vos's baseline, first piece on files a-d, uses
// 26 * 46 = 1196), and lehmer(si) is the number of free squares below si. When both
// first pieces stand on the d-file the mirror image has the same pair; then the
// smaller of the two placements is canonical and the other index is a hole.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/game.h"

namespace gs::jungle {

inline constexpr int kFiles = 7;
inline constexpr int kRanks = 7;
inline constexpr int kSquares = 49;
inline constexpr int kBoardSquares = 47;  // without the two dens
inline constexpr int kPieceKinds = 8;
inline constexpr std::uint8_t kNone = 0xFF;
inline constexpr int kWhiteDen = 3;   // d1
inline constexpr int kBlackDen = 45;  // d7
inline constexpr int kPairs = 1091;

inline constexpr int colour_of(int piece) { return piece & 1; }
inline constexpr int strength_of(int piece) { return piece >> 1; }
inline constexpr int den_of(int colour) { return colour == 0 ? kWhiteDen : kBlackDen; }
inline constexpr int file_of(int square) { return square % kFiles; }
inline constexpr int rank_of(int square) { return square / kFiles; }

struct Position {
  std::array<std::uint8_t, kPieceKinds> square{kNone, kNone, kNone, kNone, kNone, kNone, kNone, kNone};
  std::uint8_t side = 0;  // 0: White to move, 1: Black to move
  bool operator==(const Position&) const = default;
  [[nodiscard]] unsigned material() const {
    // A bit per present piece, computed on the eight squares at once: a byte of `absent`
    // is zero exactly where square[] holds kNone (0xFF); no square byte is 0xFE, so the
    // zero-byte test below has no false positives.
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, square.data(), sizeof bytes);
    const std::uint64_t absent = ~bytes;
    const std::uint64_t zero = (absent - 0x0101010101010101ULL) & ~absent & 0x8080808080808080ULL;
    return ~static_cast<unsigned>(((zero >> 7) * 0x0102040810204080ULL) >> 56) & 0xFFU;
  }
};

struct Move {
  std::uint8_t piece = 0;
  std::uint8_t to = 0;
  std::uint8_t captured = kNone;
  bool operator==(const Move&) const = default;
};

struct Options {
  bool elephant_takes_rat = true;  // the elephant may capture the rat
  bool stalemate_loses = false;    // a player with no legal move loses (default: draw)
};

// The lookup tables the rules and the index share, built once.
struct Tables {
  std::array<std::array<std::int8_t, 4>, kSquares> neighbours{};  // -1 where off board
  std::array<std::uint64_t, kSquares> neighbour_set{};            // the same as a set
  std::array<std::uint8_t, kSquares> to_compact{};                // kNone for the dens
  std::array<std::uint8_t, kBoardSquares> from_compact{};
  std::array<std::uint8_t, kBoardSquares> mirror_compact{};
  std::array<std::uint8_t, kBoardSquares> identity_compact{};
  std::array<std::uint8_t, kBoardSquares> file_compact{};
  std::array<std::array<std::int16_t, kBoardSquares>, kBoardSquares> pair_index{};  // -1
  std::array<std::pair<std::uint8_t, std::uint8_t>, kPairs> pair_squares{};
  std::array<std::uint8_t, kSquares> flip_compact{};  // compact square after a top-bottom flip
  std::array<Index, kPieceKinds + 1> placements{};    // P(n)
  // Per material: its tier, whether ranking flips colours (per side to move), and the
  // tier's pieces in order.
  struct Material {
    std::uint8_t canonical = 0;
    std::array<bool, 2> flip{};
    std::uint8_t pieces = 0;
    std::array<std::uint8_t, kPieceKinds> piece{};
  };
  std::array<Material, 256> materials{};
  Tables();
};
const Tables& tables();

class Jungle {
 public:
  using Position = jungle::Position;
  using Move = jungle::Move;
  static constexpr std::string_view kName = "jungle";
  static constexpr std::string_view kDescription = "Jungle Checkers (docs/games/jungle.md)";
  static constexpr std::size_t kMaxMoves = 16;
  static constexpr std::size_t kMaxUnmoves = 16;

  explicit Jungle(Options options = {}) : options_(options), tables_(tables()) {}
  // Builds a game from a variant name and "key=value" rule options; throws gs::Error.
  static Jungle from_options(std::string_view variant, const std::vector<std::string>& options);
  static std::vector<std::string> option_help();

  [[nodiscard]] const Options& options() const { return options_; }
  [[nodiscard]] static std::string variant() { return "standard"; }
  [[nodiscard]] std::string rule_text() const;

  // Rules.
  [[nodiscard]] Position start() const;
  [[nodiscard]] bool can_capture(int attacker, int victim) const {
    if (strength_of(attacker) >= strength_of(victim)) {
      return options_.elephant_takes_rat || strength_of(attacker) != 3 || strength_of(victim) != 0;
    }
    return strength_of(attacker) == 0 && strength_of(victim) == 3;
  }
  void moves(const Position& pos, MoveList<Jungle>& out) const {
    out.clear();
    for_each_move(pos, [&](int piece, int to, int captured) {
      out.push_back({static_cast<std::uint8_t>(piece), static_cast<std::uint8_t>(to),
                     static_cast<std::uint8_t>(captured)});
    });
  }
  [[nodiscard]] static Position play(const Position& pos, const Move& move) {
    // The squares changed in a whole word and stored at once: terminal() and rank() read
    // them as one word, and a word read back over bytes just stored one by one waits for
    // the stores to retire (a store-forwarding stall), about a sixth of `verify`'s time.
    static_assert(sizeof(std::uint64_t) == sizeof pos.square && std::endian::native == std::endian::little);
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, pos.square.data(), sizeof bytes);
    const unsigned moved = 8U * move.piece;
    bytes = (bytes & ~(std::uint64_t{0xFF} << moved)) | std::uint64_t{move.to} << moved;
    if (move.captured != kNone) bytes |= std::uint64_t{0xFF} << (8U * move.captured);
    Position next;
    std::memcpy(next.square.data(), &bytes, sizeof bytes);
    next.side = static_cast<std::uint8_t>(pos.side ^ 1);
    return next;
  }
  [[nodiscard]] static std::optional<Value> terminal(const Position& pos) {
    // Lost for the side to move: it has no piece left, or a piece stands in its den
    // (always an opponent's: no piece enters its own den).
    if ((pos.material() & (0x55U << pos.side)) == 0) return Value::loss(0);
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, pos.square.data(), sizeof bytes);
    const std::uint64_t diff = bytes ^ (0x0101010101010101ULL * static_cast<std::uint64_t>(den_of(pos.side)));
    if (((diff - 0x0101010101010101ULL) & ~diff & 0x8080808080808080ULL) != 0) return Value::loss(0);
    return std::nullopt;
  }
  [[nodiscard]] Value no_move_value() const {
    return options_.stalemate_loses ? Value::loss(0) : Value::draw();
  }

  // Text.
  [[nodiscard]] static std::string position_text(const Position& pos);
  [[nodiscard]] Position parse_position(std::string_view text) const;
  [[nodiscard]] static std::string move_text(const Position& pos, const Move& move);
  [[nodiscard]] Move parse_move(const Position& pos, std::string_view text) const;
  [[nodiscard]] static std::string board_text(const Position& pos);  // a diagram
  [[nodiscard]] static Board board();                                // for the explorer page

  // Tiers and ranking.
  [[nodiscard]] static std::vector<Tier> tiers(int max_pieces);
  [[nodiscard]] static std::vector<Tier> children(Tier tier);
  [[nodiscard]] static Index size(Tier tier);
  [[nodiscard]] static std::string tier_name(Tier tier);
  [[nodiscard]] static Tier parse_tier(std::string_view text);
  [[nodiscard]] static int tier_pieces(Tier tier) { return std::popcount(tier); }
  // Every piece of both sides (core/game.h, HasMaxPieces).
  [[nodiscard]] static constexpr int max_pieces() { return kPieceKinds; }
  [[nodiscard]] static bool colour_symmetric(unsigned material) {
    return white_set(material) == black_set(material);
  }
  [[nodiscard]] static Index placements(int pieces);  // P(n)

  [[nodiscard]] Ranked rank(const Position& pos) const {
    const Tables::Material& m = tables_.materials[pos.material()];
    const int flip = m.flip[pos.side] ? 1 : 0;
    const int n = m.pieces;
    const std::array<std::uint8_t, kPieceKinds> c = squares_in_order(pos, m, flip);
    Index index = canonical_placement(c.data(), n);
    if ((pos.side ^ flip) != 0) index += tables_.placements[n];
    return {m.canonical, index};
  }

  [[nodiscard]] std::optional<Position> unrank(Tier tier, Index index) const;
  // Makes pos, which is unrank(tier, index - 1), unrank(tier, index) (core/game.h,
  // UnranksInOrder), for a scan in index order: the last piece steps to the next square
  // that is neither a den nor taken. Where there is none (its digit wraps, at the start
  // of a pair or of the other side to move), where the tier has two pieces (the last is
  // the pair's), and where the first two pieces stand on the d-file (the index may be a
  // hole), the index is unranked anew.
  bool unrank_next(Tier tier, Index index, Position& pos) const;
  // The indices in `tier` (pos's tier) of unmoves(pos), in another order, without making
  // the positions (core/game.h, RanksUnmoves): every predecessor has pos's material and
  // the other side to move, so one orientation and one list of squares serve them all,
  // one square changed per predecessor.
  void unmove_indices(Tier tier, const Position& pos, SmallVector<Index, kMaxUnmoves>& out) const {
    (void)tier;  // pos's own
    rank_unmoves<false>(pos, out);
  }
  // unmove_indices less the predecessors that win at once (core/game.h,
  // RanksOpenUnmoves): those in which a piece of the side to move stands next to the
  // other side's den, which it enters, or next to the other side's last piece, which it
  // may capture. The scan decides them wins in one, which no level changes.
  void open_unmove_indices(Tier tier, const Position& pos, SmallVector<Index, kMaxUnmoves>& out) const {
    (void)tier;  // pos's own
    rank_unmoves<true>(pos, out);
  }
  void unmoves(const Position& pos, UnmoveList<Jungle>& out) const {
    out.clear();
    for_each_unmove(pos, [&](int piece, int from) {
      Position previous = pos;
      previous.square[piece] = static_cast<std::uint8_t>(from);
      previous.side = static_cast<std::uint8_t>(pos.side ^ 1);
      out.push_back(previous);
    });
  }

  // Whether the side to move wins at once (core/game.h, KnowsWinsAtOnce): a piece of
  // its stands next to the other side's den, or next to the other side's only piece,
  // which it may capture.
  [[nodiscard]] bool wins_at_once(const Position& pos) const {
    return standing(pos, pos.side, winning_squares(pos, pos.side)) != 0;
  }
  // A move stays in the tier unless it captures or enters the den.
  [[nodiscard]] static bool keeps_tier(const Position& pos, const Move& move) {
    return move.captured == kNone && move.to != den_of(pos.side ^ 1);
  }
  // The moves of pos that leave its tier in out, and the number of those that stay in it
  // (core/game.h, CountsTierMoves): the retrograde scan counts the steps that stay.
  std::size_t moves_leaving_tier(const Position& pos, MoveList<Jungle>& out) const {
    out.clear();
    const int their_den = den_of(pos.side ^ 1);
    std::size_t staying = 0;
    for_each_move(pos, [&](int piece, int to, int captured) {
      if (captured == kNone && to != their_den) {
        ++staying;
        return;
      }
      out.push_back({static_cast<std::uint8_t>(piece), static_cast<std::uint8_t>(to),
                     static_cast<std::uint8_t>(captured)});
    });
    return staying;
  }
  // The colour flip changes the side to move, so only the mirror can fix a position:
  // it does when every piece stands on the d-file.
  [[nodiscard]] static bool has_symmetry(const Position& pos) {
    for (const std::uint8_t square : pos.square) {
      if (square != kNone && file_of(square) != 3) return false;
    }
    return true;
  }

  // For the search (core/game.h, HasCaptures and HasEvaluation): captures, and a heuristic that orders moves
  // (never a value): material, then the nearest piece's distance to the opponent's den against the opponent's
  // nearest piece's distance to ours.
  [[nodiscard]] static bool is_capture(const Position& pos, const Move& move) {
    (void)pos;
    return move.captured != kNone;
  }
  [[nodiscard]] static int evaluate(const Position& pos) {
    constexpr std::array<int, 4> kWorth = {6, 4, 7, 9};  // R D T E: the rat takes the elephant
    int material = 0;
    int mine = 2 * kFiles;
    int theirs = 2 * kFiles;
    for (int piece = 0; piece < kPieceKinds; ++piece) {
      const int square = pos.square[piece];
      if (square == kNone) continue;
      const int den = den_of(colour_of(piece) ^ 1);
      const int distance =
          std::abs(file_of(square) - file_of(den)) + std::abs(rank_of(square) - rank_of(den));
      if (colour_of(piece) == pos.side) {
        material += kWorth[static_cast<std::size_t>(strength_of(piece))];
        mine = std::min(mine, distance);
      } else {
        material -= kWorth[static_cast<std::size_t>(strength_of(piece))];
        theirs = std::min(theirs, distance);
      }
    }
    return 4 * material + theirs - mine;
  }

  // Symmetries: the mirror image, the colour-flipped position and both.
  void symmetric(const Position& pos, std::vector<Position>& out) const;
  [[nodiscard]] static Position mirrored(const Position& pos);
  [[nodiscard]] static Position colour_flipped(const Position& pos);

  // End positions with `pieces` pieces on the board, both sides to move: the side not
  // to move stands in the den of the side to move, or the side to move has no piece.
  [[nodiscard]] static std::uint64_t end_positions(int pieces);

  // Vos's index (docs/games/jungle.md) for the same positions: 26 * 46 * ... * (48 - n) per
  // side to move, both sides to move for every material up to colour symmetry.
  [[nodiscard]] static std::uint64_t baseline_size(Tier tier);
  [[nodiscard]] static std::string baseline_name() { return "Vos 2016"; }

 private:
  static unsigned white_set(unsigned material) {
    unsigned set = 0;
    for (int s = 0; s < 4; ++s) set |= ((material >> (2 * s)) & 1U) << s;
    return set;
  }
  static unsigned black_set(unsigned material) { return white_set(material >> 1); }
  static std::uint64_t occupied_squares(const Position& pos) {
    std::uint64_t occupied = 0;
    for (const std::uint8_t square : pos.square) {
      occupied |= square != kNone ? std::uint64_t{1} << square : 0;
    }
    return occupied;
  }
  // Calls visit(piece, to, captured) for each move of pos (captured: kNone for a step to
  // an empty square).
  template <class Visit>
  void for_each_move(const Position& pos, Visit&& visit) const {
    const int side = pos.side;
    const std::uint64_t occupied = occupied_squares(pos);
    for (int piece = side; piece < kPieceKinds; piece += 2) {
      const int from = pos.square[piece];
      if (from == kNone) continue;
      for (const int to : tables_.neighbours[from]) {
        if (to < 0 || to == den_of(side)) continue;
        if ((occupied >> to & 1U) == 0) {
          visit(piece, to, kNone);
          continue;
        }
        const int occupant = occupant_of(pos, to);
        if (colour_of(occupant) != side && can_capture(piece, occupant)) visit(piece, to, occupant);
      }
    }
  }
  // Calls visit(piece, from) for each of unmoves(pos): the piece of the side that made
  // the last move stepped from `from` to its square.
  template <class Visit>
  void for_each_unmove(const Position& pos, Visit&& visit) const {
    for_each_unmove(pos, kNothingBarred, visit);
  }
  // The same, less the unmoves of each piece from the squares `barred` gives it.
  template <class Visit>
  void for_each_unmove(const Position& pos, const std::array<std::uint64_t, kPieceKinds>& barred,
                       Visit&& visit) const {
    const int mover = pos.side ^ 1;
    // The free squares a piece could have come from: not the dens. Each piece's are found
    // at once from its neighbours as a set, rather than tested one neighbour at a time.
    const std::uint64_t open = kOpenSquares & ~occupied_squares(pos);
    for (int piece = mover; piece < kPieceKinds; piece += 2) {
      const int to = pos.square[piece];
      if (to == kNone) continue;
      for (std::uint64_t from = tables_.neighbour_set[to] & open & ~barred[piece]; from != 0;
           from &= from - 1)
        visit(piece, std::countr_zero(from));
    }
  }
  static constexpr std::array<std::uint64_t, kPieceKinds> kNothingBarred{};
  // unmove_indices, or with Open, open_unmove_indices.
  template <bool Open>
  void rank_unmoves(const Position& pos, SmallVector<Index, kMaxUnmoves>& out) const;
  // Per piece of `attacker`, the squares from which that piece, with `attacker` to move
  // in pos's setting, ends the game at once: next to the other side's den, or next to
  // the other side's only piece where it may capture it. Zero for the other pieces.
  [[nodiscard]] std::array<std::uint64_t, kPieceKinds> winning_squares(const Position& pos,
                                                                       int attacker) const {
    const std::uint64_t den = tables_.neighbour_set[den_of(attacker ^ 1)];
    const unsigned theirs = pos.material() & (0x55U << (attacker ^ 1));
    const int victim = std::countr_zero(theirs);
    const std::uint64_t last = std::has_single_bit(theirs) ? tables_.neighbour_set[pos.square[victim]] : 0;
    std::array<std::uint64_t, kPieceKinds> squares{};
    for (int piece = attacker; piece < kPieceKinds; piece += 2)
      squares[piece] = den | (last != 0 && can_capture(piece, victim) ? last : 0);
    return squares;
  }
  // The pieces of `side` (a bit per piece) that stand on their squares of `winning`.
  [[nodiscard]] static unsigned standing(const Position& pos, int side,
                                         const std::array<std::uint64_t, kPieceKinds>& winning) {
    unsigned pieces = 0;
    for (int piece = side; piece < kPieceKinds; piece += 2) {
      const int at = pos.square[piece];
      if (at != kNone && (winning[piece] >> at & 1U) != 0) pieces |= 1U << piece;
    }
    return pieces;
  }
  // The compact squares of pos's pieces in the order of material m's tier, the colours
  // flipped if `flip` (1): what the index ranks.
  [[nodiscard]] std::array<std::uint8_t, kPieceKinds> squares_in_order(const Position& pos,
                                                                       const Tables::Material& m,
                                                                       int flip) const {
    const auto& compact = flip != 0 ? tables_.flip_compact : tables_.to_compact;
    std::array<std::uint8_t, kPieceKinds> c{};
    for (int i = 0; i < m.pieces; ++i)
      c[static_cast<std::size_t>(i)] = compact[pos.square[m.piece[i] ^ flip]];
    return c;
  }
  // The squares a piece may stand on: the board less the two dens.
  static constexpr std::uint64_t kOpenSquares = ((std::uint64_t{1} << kSquares) - 1) &
                                                ~(std::uint64_t{1} << kWhiteDen) &
                                                ~(std::uint64_t{1} << kBlackDen);
  static int occupant_of(const Position& pos, int square) {
    for (int piece = 0; piece < kPieceKinds; ++piece) {
      if (pos.square[piece] == square) return piece;
    }
    return kNone;
  }
  // The placement index of compact squares s[0..n), mirrored first if `mirror`. (Read
  // through the identity table rather than copied: a copy of n bytes is compiled into a
  // call of memmove.)
  [[nodiscard]] Index placement(const std::uint8_t* squares, int n, bool mirror) const {
    const auto& map = mirror ? tables_.mirror_compact : tables_.identity_compact;
    const int first = map[squares[0]];
    const int second = map[squares[1]];
    auto index = static_cast<Index>(tables_.pair_index[first][second]);
    std::uint64_t seen = (std::uint64_t{1} << first) | (std::uint64_t{1} << second);
    for (int i = 2; i < n; ++i) {
      const int square = map[squares[i]];
      const std::uint64_t bit = std::uint64_t{1} << square;
      const auto code = static_cast<Index>(square - std::popcount(seen & (bit - 1)));
      seen |= bit;
      index = index * static_cast<Index>(kBoardSquares - i) + code;
    }
    return index;
  }
  // The placement index of compact squares c[0..n) in the tier's piece order: in the
  // orientation whose first pair is canonical, the least of the two where both first
  // pieces stand on the d-file (the mirror image then has the same pair).
  [[nodiscard]] Index canonical_placement(const std::uint8_t* c, int n) const {
    const int file0 = tables_.file_compact[c[0]];
    const int file1 = tables_.file_compact[c[1]];
    if (file0 == 3 && file1 == 3) return std::min(placement(c, n, false), placement(c, n, true));
    return placement(c, n, file0 > 3 || (file0 == 3 && file1 > 3));
  }

  Options options_;
  const Tables& tables_;
};

static_assert(Game<Jungle>);
static_assert(HasSymmetries<Jungle>);
static_assert(HasEndPositionCount<Jungle>);
static_assert(KnowsTierMoves<Jungle>);
static_assert(CountsTierMoves<Jungle>);
static_assert(UnranksInOrder<Jungle>);
static_assert(RanksUnmoves<Jungle>);
static_assert(RanksOpenUnmoves<Jungle>);
static_assert(KnowsWinsAtOnce<Jungle>);
static_assert(HasBoard<Jungle>);
static_assert(HasMaxPieces<Jungle>);

}  // namespace gs::jungle
