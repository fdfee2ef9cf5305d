#pragma once
// Dōbutsu shōgi (docs/games/dobutsu.md): a 3x4 board, a lion, a giraffe, an elephant and
// a chick a side; captured pieces go to the captor's hand and come back as drops, the
// chick promotes to a hen on the far rank, and a player wins by capturing the opponent's
// lion or by bringing the own lion to the far rank where it is not captured at once.
//
// Squares are numbered rank-major from the first player's side: a1 = 0, b1 = 1, c1 = 2,
// a2 = 3, ..., c4 = 11. A board byte is 0 (empty) or kind | owner << 3, kinds L G E C H =
// 1..5; owner 0 is the first player (sente, upper case in text), who moves up the board.
//
// Material never leaves the game, so nothing decreases from move to move: the whole game
// (of a variant) is one tier, "all". Its index (docs/games/dobutsu.md, "Index"):
//
//   index = lions * W + word + hand
//
// Positions are first put with the side to move as the first player (the board turned
// 180 degrees and the colours swapped when the second player moves). `lions` numbers the
// 72 placements of the two lions up to the left-right mirror (the mover's lion on file a,
// or on file b with the other lion on file a or b). The other pieces form a word over
// the ten remaining squares, in square order: each square empty or one of the labels G,
// g, E, e, C, c, H, h (a kind at most twice in all), and the pieces not on the board lie
// in the hands, split in 3 - (number on the board) ways per kind. `word` counts the words
// before this one, each weighted by its number of hand splits, and `hand` numbers the
// split. W = 11,878,227 with all three kinds, so the tier has 855,232,344 indices; 132
// lion placements instead of 72 give 1,567,925,964, Tanaka's count of positions. When both
// lions stand on file b, the mirror image has the same lion index: the smaller of the two
// indices is the canonical one and the other is a hole.
//
// The rule option kinds=... keeps only some of the kinds G, E and C (two of each): the
// sub-games the tests solve by brute force.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/game.h"
#include "core/value.h"

namespace gs::dobutsu {

inline constexpr int kFiles = 3;
inline constexpr int kRanks = 4;
inline constexpr int kSquares = 12;
inline constexpr std::uint8_t kEmpty = 0;
inline constexpr std::uint8_t kLion = 1;
inline constexpr std::uint8_t kGiraffe = 2;
inline constexpr std::uint8_t kElephant = 3;
inline constexpr std::uint8_t kChick = 4;
inline constexpr std::uint8_t kHen = 5;
inline constexpr int kLionPairs = 72;

inline constexpr int file_of(int square) { return square % kFiles; }
inline constexpr int rank_of(int square) { return square / kFiles; }
inline constexpr std::uint8_t kind_of(std::uint8_t piece) { return piece & 7U; }
inline constexpr int owner_of(std::uint8_t piece) { return piece >> 3; }
inline constexpr std::uint8_t make_piece(std::uint8_t kind, int owner) {
  return static_cast<std::uint8_t>(kind | owner << 3);
}
// The slot of a kind in a hand: giraffe 0, elephant 1, chick 2 (a hen is held as a chick).
inline constexpr int hand_slot(std::uint8_t kind) { return kind == kHen ? 2 : kind - kGiraffe; }
// The rank on which a piece of `owner` promotes and on which its lion wins by the try.
inline constexpr int far_rank(int owner) { return owner == 0 ? kRanks - 1 : 0; }

struct Position {
  std::array<std::uint8_t, kSquares> board{};
  std::array<std::array<std::uint8_t, 3>, 2> hand{};  // [owner][giraffe, elephant, chick]
  std::uint8_t side = 0;                              // 0: the first player (sente) to move
  bool operator==(const Position&) const = default;
};

// A board move (drop == 0) or a drop of the kind `drop` on `to`.
struct Move {
  std::uint8_t from = 0;
  std::uint8_t to = 0;
  std::uint8_t drop = 0;
  bool operator==(const Move&) const = default;
};

class Dobutsu {
 public:
  using Position = dobutsu::Position;
  using Move = dobutsu::Move;
  static constexpr std::string_view kName = "dobutsu";
  static constexpr std::string_view kDescription =
      "Dobutsu shogi (animal shogi): 3x4 board, captured animals return as drops, solved whole";
  // Board moves: at most 7 pieces of 8 steps; drops: 3 kinds on at most 10 squares.
  static constexpr std::size_t kMaxMoves = 96;
  // Per piece of the last mover (at most 7): 8 origins times 5 un-captures (none, G, E,
  // C, H), twice for a hen (moved or promoted), and an un-drop.
  static constexpr std::size_t kMaxUnmoves = 7 * (8 * 5 * 2 + 1);
  static constexpr std::array<std::string_view, 2> kSideNames = {"sente", "gote"};

  // kinds: the kinds besides the lions, a subset of "GEC" (the default, all of them).
  explicit Dobutsu(std::string kinds = "GEC");
  static Dobutsu from_options(std::string_view variant, const std::vector<std::string>& rules);
  static std::vector<std::string> option_help();
  [[nodiscard]] static std::string variant() { return "standard"; }
  [[nodiscard]] std::string rule_text() const;

  [[nodiscard]] Position start() const;
  void moves(const Position& pos, MoveList<Dobutsu>& out) const;
  [[nodiscard]] static Position play(const Position& pos, const Move& move);
  [[nodiscard]] static std::optional<Value> terminal(const Position& pos);
  // A player without a legal move loses (it cannot happen with the full set).
  [[nodiscard]] static Value no_move_value() { return Value::loss(0); }
  [[nodiscard]] static std::string position_text(const Position& pos);
  [[nodiscard]] Position parse_position(std::string_view text) const;
  [[nodiscard]] static std::string move_text(const Position& pos, const Move& move);
  [[nodiscard]] Move parse_move(const Position& pos, std::string_view text) const;
  [[nodiscard]] static std::string board_text(const Position& pos);
  [[nodiscard]] static Board board();

  // One tier, whatever the limit: --pieces does not count tiers here (core/game.h,
  // default_pieces).
  [[nodiscard]] static std::vector<Tier> tiers(int limit) {
    (void)limit;
    return {0};
  }
  [[nodiscard]] static std::vector<Tier> children(Tier tier) {
    (void)tier;
    return {};
  }
  [[nodiscard]] Index size(Tier tier) const;
  [[nodiscard]] static std::string tier_name(Tier tier);
  [[nodiscard]] static Tier parse_tier(std::string_view text);
  [[nodiscard]] int tier_pieces(Tier tier) const {
    (void)tier;
    return pieces_;
  }
  [[nodiscard]] int max_pieces() const { return pieces_; }
  [[nodiscard]] int default_pieces() const { return pieces_; }
  [[nodiscard]] Ranked rank(const Position& pos) const;
  [[nodiscard]] std::optional<Position> unrank(Tier tier, Index index) const;
  void unmoves(const Position& pos, UnmoveList<Dobutsu>& out) const;
  // The position, its mirror image, and both with the board turned and colours swapped.
  static void symmetric(const Position& pos, std::vector<Position>& out);

  // Retrograde hooks (core/game.h): every move that does not end the game stays in the
  // one tier; only the mirror can fix a position (turning the board changes the side to
  // move).
  [[nodiscard]] static bool keeps_tier(const Position& pos, const Move& move) {
    return !terminal(play(pos, move));
  }
  [[nodiscard]] static bool has_symmetry(const Position& pos) { return mirrored(pos) == pos; }

  // Search hooks: captures, and material for move ordering (never a value).
  [[nodiscard]] static bool is_capture(const Position& pos, const Move& move) {
    return move.drop == 0 && pos.board[move.to] != kEmpty;
  }
  [[nodiscard]] static int evaluate(const Position& pos);

  [[nodiscard]] static Position mirrored(const Position& pos);
  // The board turned 180 degrees with the colours and the side to move swapped.
  [[nodiscard]] static Position turned(const Position& pos);
  // Whether a piece of `owner` attacks `square`.
  [[nodiscard]] static bool attacks(const Position& pos, int owner, int square);
  // The square of owner's lion, or -1 (captured).
  [[nodiscard]] static int lion_square(const Position& pos, int owner);
  [[nodiscard]] const std::string& kinds() const { return kinds_; }

 private:
  // The word labels: piece codes, and the kind slot (0..kinds-1) each counts against.
  struct Label {
    std::uint8_t piece = 0;
    int slot = 0;
  };
  // The word and hand part of the index of pos seen through `transform` (an index into
  // the square maps of the identity, the mirror, the turned board and both; a turned
  // board swaps the owners and the hands), the lions on canonical squares lion0, lion1.
  [[nodiscard]] Index word_rank(const Position& pos, int transform, int lion0, int lion1) const;
  [[nodiscard]] Position unrank_word(Index rest, int lion0, int lion1) const;
  [[nodiscard]] int state_after(int state, int slot) const;
  [[nodiscard]] std::uint64_t hand_splits(int state) const;

  std::string kinds_;
  int pieces_ = 8;
  int slots_ = 3;                            // kinds besides the lions
  std::array<std::uint8_t, 3> slot_kind_{};  // the kind of each slot
  std::vector<Label> labels_;
  int states_ = 27;  // 3^slots: pieces of each slot on the board so far (0..2)
  // weight_[n * states_ + s]: the hand-weighted number of completions of n squares from
  // state s; prefix_[(n * states_ + s) * 9 + l]: the weight of the labels below l (0:
  // empty) on the first of n squares.
  std::vector<std::uint64_t> weight_;
  std::vector<std::uint64_t> prefix_;
  // label_of_[transform_owner][piece]: the label (1-based, 0 empty) of a piece code with
  // its owner kept (0) or swapped (1); next_state_[state * 9 + label]: the state after the
  // label, -1 where its kind is full.
  std::array<std::array<std::uint8_t, 16>, 2> label_of_{};
  std::vector<int> next_state_;
  std::uint64_t per_lions_ = 0;
};

}  // namespace gs::dobutsu
