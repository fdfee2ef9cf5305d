#include "games/dobutsu/dobutsu.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/error.h"
#include "core/quote.h"

namespace gs::dobutsu {

namespace {

// An array subscript from a square or table number.
constexpr std::size_t cell(int number) { return static_cast<std::size_t>(number); }

constexpr std::string_view kKindLetters = ".LGECH";  // by kind, upper case for sente
constexpr std::array<std::string_view, 6> kAnimals = {"", "lion", "giraffe", "elephant", "chick", "hen"};
constexpr std::array<std::uint8_t, 3> kHandKinds = {kGiraffe, kElephant, kChick};

// attack[owner][kind][square]: the squares a piece reaches in one step.
struct Steps {
  std::array<std::array<std::array<std::uint16_t, kSquares>, 6>, 2> attack{};
  std::array<int, static_cast<std::size_t>(kSquares) * kSquares>
      lion_pair{};  // canonical lion placements, or -1
  std::array<std::array<std::uint8_t, 2>, kLionPairs> lions{};
  // transform[t][square]: the square's image under the identity, the mirror, the turn and
  // the turn of the mirror (t = 0..3); each is its own inverse.
  std::array<std::array<std::uint8_t, kSquares>, 4> transform{};

  Steps() {
    struct Step {
      int df, dr;
    };
    const std::vector<Step> orthogonal = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    const std::vector<Step> diagonal = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
    std::array<std::vector<Step>, 6> steps;
    steps[kLion] = orthogonal;
    steps[kLion].insert(steps[kLion].end(), diagonal.begin(), diagonal.end());
    steps[kGiraffe] = orthogonal;
    steps[kElephant] = diagonal;
    steps[kChick] = {{0, 1}};
    steps[kHen] = orthogonal;
    steps[kHen].push_back({1, 1});
    steps[kHen].push_back({-1, 1});
    for (int owner = 0; owner < 2; ++owner) {
      const int forward = owner == 0 ? 1 : -1;
      for (std::size_t kind = 1; kind < 6; ++kind) {
        for (int square = 0; square < kSquares; ++square) {
          std::uint16_t mask = 0;
          for (const Step step : steps[kind]) {
            const int file = file_of(square) + step.df;
            const int rank = rank_of(square) + step.dr * forward;
            if (file < 0 || file >= kFiles || rank < 0 || rank >= kRanks) continue;
            mask = static_cast<std::uint16_t>(mask | 1U << (rank * kFiles + file));
          }
          attack[static_cast<std::size_t>(owner)][kind][static_cast<std::size_t>(square)] = mask;
        }
      }
    }
    for (int square = 0; square < kSquares; ++square) {
      const int mirror = square - file_of(square) + (kFiles - 1 - file_of(square));
      const auto at = static_cast<std::size_t>(square);
      transform[0][at] = static_cast<std::uint8_t>(square);
      transform[1][at] = static_cast<std::uint8_t>(mirror);
      transform[2][at] = static_cast<std::uint8_t>(kSquares - 1 - square);
      transform[3][at] = static_cast<std::uint8_t>(kSquares - 1 - mirror);
    }
    lion_pair.fill(-1);
    int next = 0;
    for (const int file : {0, 1}) {
      for (int mine = file; mine < kSquares; mine += kFiles) {
        for (int theirs = 0; theirs < kSquares; ++theirs) {
          if (theirs == mine || (file == 1 && file_of(theirs) == 2)) continue;
          lion_pair[cell(mine * kSquares + theirs)] = next;
          lions[static_cast<std::size_t>(next)] = {static_cast<std::uint8_t>(mine),
                                                   static_cast<std::uint8_t>(theirs)};
          ++next;
        }
      }
    }
  }
};

const Steps& steps() {
  static const Steps tables;
  return tables;
}

std::uint16_t attack_mask(int owner, std::uint8_t kind, int square) {
  return steps().attack[static_cast<std::size_t>(owner)][kind][static_cast<std::size_t>(square)];
}

std::string square_name(int square) {
  return {static_cast<char>('a' + file_of(square)), static_cast<char>('1' + rank_of(square))};
}

char piece_letter(std::uint8_t piece) {
  const char letter = kKindLetters[kind_of(piece)];
  return owner_of(piece) == 0 ? letter : static_cast<char>(std::tolower(static_cast<unsigned char>(letter)));
}

int parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'c' || text[1] < '1' || text[1] > '4') return -1;
  return (text[1] - '1') * kFiles + (text[0] - 'a');
}

}  // namespace

Dobutsu::Dobutsu(std::string kinds) : kinds_(std::move(kinds)) {
  slots_ = 0;
  for (const char letter : std::string_view("GEC")) {
    if (kinds_.find(letter) == std::string::npos) continue;
    const auto kind = static_cast<std::uint8_t>(kKindLetters.find(letter));
    slot_kind_[static_cast<std::size_t>(slots_)] = kind;
    for (int owner = 0; owner < 2; ++owner) labels_.push_back({make_piece(kind, owner), slots_});
    if (kind == kChick) {
      for (int owner = 0; owner < 2; ++owner) labels_.push_back({make_piece(kHen, owner), slots_});
    }
    ++slots_;
  }
  pieces_ = 2 + 2 * slots_;
  states_ = 1;
  for (int slot = 0; slot < slots_; ++slot) states_ *= 3;
  const auto states = static_cast<std::size_t>(states_);
  weight_.assign(11 * states, 0);
  prefix_.assign(11 * states * 9, 0);
  for (int state = 0; state < states_; ++state) weight_[static_cast<std::size_t>(state)] = hand_splits(state);
  for (int n = 1; n <= 10; ++n) {
    for (int state = 0; state < states_; ++state) {
      const std::size_t at = static_cast<std::size_t>(n) * states + static_cast<std::size_t>(state);
      const std::size_t below = static_cast<std::size_t>(n - 1) * states;
      std::uint64_t sum = weight_[below + static_cast<std::size_t>(state)];  // the square left empty
      for (std::size_t label = 0; label < labels_.size(); ++label) {
        prefix_[at * 9 + label + 1] = sum;
        const int after = state_after(state, labels_[label].slot);
        if (after >= 0) sum += weight_[below + static_cast<std::size_t>(after)];
      }
      for (std::size_t label = labels_.size() + 1; label < 9; ++label) prefix_[at * 9 + label] = sum;
      weight_[at] = sum;
    }
  }
  per_lions_ = weight_[10 * states];
  next_state_.assign(states * 9, -1);
  for (int state = 0; state < states_; ++state) {
    next_state_[static_cast<std::size_t>(state) * 9] = state;
    for (std::size_t label = 0; label < labels_.size(); ++label)
      next_state_[static_cast<std::size_t>(state) * 9 + label + 1] = state_after(state, labels_[label].slot);
  }
  for (std::size_t label = 0; label < labels_.size(); ++label) {
    const std::uint8_t piece = labels_[label].piece;
    label_of_[0][piece] = static_cast<std::uint8_t>(label + 1);
    label_of_[1][make_piece(kind_of(piece), owner_of(piece) ^ 1)] = static_cast<std::uint8_t>(label + 1);
  }
}

int Dobutsu::state_after(int state, int slot) const {
  int power = 1;
  for (int s = 0; s < slot; ++s) power *= 3;
  return (state / power) % 3 == 2 ? -1 : state + power;
}

std::uint64_t Dobutsu::hand_splits(int state) const {
  std::uint64_t splits = 1;
  for (int slot = 0; slot < slots_; ++slot, state /= 3) splits *= static_cast<std::uint64_t>(3 - state % 3);
  return splits;
}

Dobutsu Dobutsu::from_options(std::string_view variant, const std::vector<std::string>& rules) {
  if (!variant.empty() && variant != "standard")
    fail("unknown variant '{}' of dobutsu (known: standard)", variant);
  std::string kinds = "GEC";
  for (const std::string& rule : rules) {
    const auto equals = rule.find('=');
    const std::string key = rule.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : rule.substr(equals + 1);
    if (key != "kinds" || equals == std::string::npos)
      fail("unknown rule option '{}' of dobutsu (known: kinds=GEC|GE|GC|EC|G|E|C|none)", rule);
    if (value == "none") {
      kinds.clear();
      continue;
    }
    kinds.clear();
    for (const char letter : std::string_view("GEC")) {
      if (value.find(letter) != std::string::npos) kinds += letter;
    }
    if (value.empty() || kinds.size() != value.size())
      fail("bad rule kinds={}: expected some of the letters G, E and C, each once, or none", value);
  }
  return Dobutsu(kinds);
}

std::vector<std::string> Dobutsu::option_help() {
  return {
      "kinds=GEC|GE|GC|EC|G|E|C|none  the animals besides the lions, two of each (default GEC: the game; "
      "fewer "
      "make the small sub-games the tests solve)"};
}

std::string Dobutsu::rule_text() const {
  return kinds_ == "GEC" ? "" : "kinds=" + (kinds_.empty() ? "none" : kinds_);
}

Position Dobutsu::start() const {
  // Sente: elephant a1, lion b1, giraffe c1, chick b2; gote turned 180 degrees.
  Position pos;
  pos.board[1] = make_piece(kLion, 0);
  pos.board[10] = make_piece(kLion, 1);
  auto place = [&](std::uint8_t kind, int square) {
    if (kinds_.find(kKindLetters[kind]) == std::string::npos) return;
    pos.board[static_cast<std::size_t>(square)] = make_piece(kind, 0);
    pos.board[static_cast<std::size_t>(kSquares - 1 - square)] = make_piece(kind, 1);
  };
  place(kElephant, 0);
  place(kGiraffe, 2);
  place(kChick, 4);
  return pos;
}

bool Dobutsu::attacks(const Position& pos, int owner, int square) {
  for (int from = 0; from < kSquares; ++from) {
    const std::uint8_t piece = pos.board[static_cast<std::size_t>(from)];
    if (piece == kEmpty || owner_of(piece) != owner) continue;
    if ((attack_mask(owner, kind_of(piece), from) >> square & 1U) != 0) return true;
  }
  return false;
}

int Dobutsu::lion_square(const Position& pos, int owner) {
  const std::uint8_t lion = make_piece(kLion, owner);
  for (int square = 0; square < kSquares; ++square) {
    if (pos.board[static_cast<std::size_t>(square)] == lion) return square;
  }
  return -1;
}

void Dobutsu::moves(const Position& pos, MoveList<Dobutsu>& out) const {
  out.clear();
  const int side = pos.side;
  std::uint16_t own = 0;
  std::uint16_t empty = 0;
  for (int square = 0; square < kSquares; ++square) {
    const std::uint8_t piece = pos.board[static_cast<std::size_t>(square)];
    if (piece == kEmpty) {
      empty = static_cast<std::uint16_t>(empty | 1U << square);
    } else if (owner_of(piece) == side) {
      own = static_cast<std::uint16_t>(own | 1U << square);
    }
  }
  for (int from = 0; from < kSquares; ++from) {
    if ((own >> from & 1U) == 0) continue;
    auto targets = static_cast<std::uint16_t>(
        attack_mask(side, kind_of(pos.board[static_cast<std::size_t>(from)]), from) & ~own);
    while (targets != 0) {
      const int to = std::countr_zero(targets);
      targets = static_cast<std::uint16_t>(targets & (targets - 1));
      out.push_back({static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), 0});
    }
  }
  for (int slot = 0; slot < 3; ++slot) {
    if (pos.hand[static_cast<std::size_t>(side)][static_cast<std::size_t>(slot)] == 0) continue;
    for (int to = 0; to < kSquares; ++to) {
      if ((empty >> to & 1U) != 0)
        out.push_back({0, static_cast<std::uint8_t>(to), kHandKinds[static_cast<std::size_t>(slot)]});
    }
  }
}

Position Dobutsu::play(const Position& pos, const Move& move) {
  Position next = pos;
  const int side = pos.side;
  if (move.drop != 0) {
    next.board[move.to] = make_piece(move.drop, side);
    --next.hand[static_cast<std::size_t>(side)][static_cast<std::size_t>(hand_slot(move.drop))];
  } else {
    std::uint8_t piece = pos.board[move.from];
    const std::uint8_t captured = pos.board[move.to];
    // A captured lion leaves the board (the game is over); any other piece goes to the
    // captor's hand, a hen as a chick.
    if (captured != kEmpty && kind_of(captured) != kLion)
      ++next.hand[static_cast<std::size_t>(side)][static_cast<std::size_t>(hand_slot(kind_of(captured)))];
    if (kind_of(piece) == kChick && rank_of(move.to) == far_rank(side)) piece = make_piece(kHen, side);
    next.board[move.from] = kEmpty;
    next.board[move.to] = piece;
  }
  next.side = static_cast<std::uint8_t>(side ^ 1);
  return next;
}

std::optional<Value> Dobutsu::terminal(const Position& pos) {
  const int side = pos.side;
  const int mine = lion_square(pos, side);
  if (mine < 0) return Value::loss(0);  // the opponent captured our lion
  const int theirs = lion_square(pos, side ^ 1);
  if (theirs < 0) return Value::win(0);  // cannot follow a move; complete for odd input
  // Our lion reached the far rank and the opponent did not capture it: the try won.
  if (rank_of(mine) == far_rank(side)) return Value::win(0);
  // The opponent's lion reached our home rank and we cannot capture it.
  if (rank_of(theirs) == far_rank(side ^ 1) && !attacks(pos, side, theirs)) return Value::loss(0);
  return std::nullopt;
}

std::string Dobutsu::position_text(const Position& pos) {
  std::string text;
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < kFiles; ++file) {
      const std::uint8_t piece = pos.board[cell(rank * kFiles + file)];
      if (piece == kEmpty) {
        ++empty;
        continue;
      }
      if (empty > 0) text += static_cast<char>('0' + empty);
      empty = 0;
      text += piece_letter(piece);
    }
    if (empty > 0) text += static_cast<char>('0' + empty);
    if (rank > 0) text += '/';
  }
  text += pos.side == 0 ? " b " : " w ";
  std::string hands;
  for (int owner = 0; owner < 2; ++owner) {
    for (int slot = 0; slot < 3; ++slot) {
      const char letter = piece_letter(make_piece(kHandKinds[static_cast<std::size_t>(slot)], owner));
      hands.append(pos.hand[static_cast<std::size_t>(owner)][static_cast<std::size_t>(slot)], letter);
    }
  }
  return text + (hands.empty() ? "-" : hands);
}

Position Dobutsu::parse_position(std::string_view text) const {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) text.remove_suffix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) text.remove_prefix(1);
  if (text == "start") return start();
  const auto bad = [&](const std::string& why) {
    fail(
        "bad dobutsu position {}: {} (expected ranks 4 to 1 separated by '/', 'b' or 'w' to move, then the "
        "hands "
        "or '-'; start: gle/1c1/1C1/ELG b -)",
        quote_input(text), why);
  };
  std::vector<std::string_view> fields;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto space = text.find(' ', at);
    const std::size_t end = space == std::string_view::npos ? text.size() : space;
    if (end > at) fields.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (fields.size() != 3) bad(fmt::format("{} fields, not 3", fields.size()));
  Position pos;
  int rank = kRanks - 1;
  int file = 0;
  for (const char c : fields[0]) {
    if (c == '/') {
      if (file != kFiles) bad(fmt::format("rank {} does not have 3 squares", rank + 1));
      if (--rank < 0) bad("more than 4 ranks");
      file = 0;
      continue;
    }
    if (c >= '1' && c <= '3') {
      file += c - '0';
      if (file > kFiles) bad(fmt::format("rank {} has more than 3 squares", rank + 1));
      continue;
    }
    const auto kind = kKindLetters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    if (kind == std::string_view::npos || kind == 0)
      bad(fmt::format("'{}' is not a piece (L G E C H, l g e c h)", c));
    if (file >= kFiles) bad(fmt::format("rank {} has more than 3 squares", rank + 1));
    const int owner = std::isupper(static_cast<unsigned char>(c)) != 0 ? 0 : 1;
    pos.board[cell(rank * kFiles + file)] = make_piece(static_cast<std::uint8_t>(kind), owner);
    ++file;
  }
  if (rank != 0 || file != kFiles) bad("the board does not have 4 ranks of 3 squares");
  if (fields[1] == "b") {
    pos.side = 0;
  } else if (fields[1] == "w") {
    pos.side = 1;
  } else {
    bad(fmt::format("the side to move {} is not b or w", quote_input(fields[1])));
  }
  if (fields[2] != "-") {
    for (const char c : fields[2]) {
      const auto kind = kKindLetters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
      if (kind != kGiraffe && kind != kElephant && kind != kChick)
        bad(fmt::format("'{}' cannot be in a hand (G E C, g e c)", c));
      const int owner = std::isupper(static_cast<unsigned char>(c)) != 0 ? 0 : 1;
      ++pos.hand[static_cast<std::size_t>(owner)]
                [static_cast<std::size_t>(hand_slot(static_cast<std::uint8_t>(kind)))];
    }
  }
  // The material: one lion a side, and two of each kind of the variant.
  std::array<int, 6> count{};
  std::array<int, 2> lions{};
  for (const std::uint8_t piece : pos.board) {
    if (piece == kEmpty) continue;
    if (kind_of(piece) == kLion) ++lions[static_cast<std::size_t>(owner_of(piece))];
    ++count[kind_of(piece) == kHen ? kChick : kind_of(piece)];
  }
  for (int owner = 0; owner < 2; ++owner) {
    for (int slot = 0; slot < 3; ++slot)
      count[kHandKinds[static_cast<std::size_t>(slot)]] +=
          pos.hand[static_cast<std::size_t>(owner)][static_cast<std::size_t>(slot)];
  }
  if (lions[0] != 1 || lions[1] != 1) bad("each side needs exactly one lion on the board");
  for (const std::uint8_t kind : kHandKinds) {
    const int want = kinds_.find(kKindLetters[kind]) == std::string::npos ? 0 : 2;
    if (count[kind] != want)
      bad(fmt::format("{} {}s on the board and in the hands, not {} (kinds={})", count[kind], kAnimals[kind],
                      want, kinds_.empty() ? "none" : kinds_));
  }
  return pos;
}

std::string Dobutsu::move_text(const Position& pos, const Move& move) {
  (void)pos;
  if (move.drop != 0) return fmt::format("{}*{}", kKindLetters[move.drop], square_name(move.to));
  return square_name(move.from) + square_name(move.to);
}

Move Dobutsu::parse_move(const Position& pos, std::string_view text) const {
  MoveList<Dobutsu> legal;
  if (!terminal(pos)) moves(pos, legal);
  for (const Move& move : legal) {
    if (move_text(pos, move) == text) return move;
  }
  std::string names;
  for (const Move& move : legal) {
    if (!names.empty()) names += ' ';
    names += move_text(pos, move);
  }
  if (parse_square(text.substr(0, std::min<std::size_t>(2, text.size()))) < 0 &&
      (text.size() != 4 || text[1] != '*'))
    fail("bad dobutsu move {}: expected from and to squares (b2b3) or a drop (C*b3); legal: {}",
         quote_input(text), names.empty() ? "none" : names);
  fail("illegal move {} (legal: {})", quote_input(text), names.empty() ? "none" : names);
}

std::string Dobutsu::board_text(const Position& pos) {
  std::string text;
  auto hand = [&](int owner) {
    std::string held;
    for (int slot = 0; slot < 3; ++slot) {
      held.append(pos.hand[static_cast<std::size_t>(owner)][static_cast<std::size_t>(slot)],
                  piece_letter(make_piece(kHandKinds[static_cast<std::size_t>(slot)], owner)));
    }
    return fmt::format("  {} in hand: {}\n", kSideNames[static_cast<std::size_t>(owner)],
                       held.empty() ? "-" : held);
  };
  text += hand(1);
  for (int rank = kRanks - 1; rank >= 0; --rank) {
    text += fmt::format("{} ", rank + 1);
    for (int file = 0; file < kFiles; ++file) {
      const std::uint8_t piece = pos.board[cell(rank * kFiles + file)];
      text += piece == kEmpty ? '.' : piece_letter(piece);
    }
    text += '\n';
  }
  text += "  abc\n";
  text += hand(0);
  text += fmt::format("  {} to move\n", kSideNames[pos.side]);
  return text;
}

Board Dobutsu::board() {
  Board board;
  board.files = kFiles;
  board.ranks = kRanks;
  board.sides = {"Sente", "Gote"};
  for (int owner = 0; owner < 2; ++owner) {
    for (std::uint8_t kind = kLion; kind <= kHen; ++kind) {
      board.pieces.push_back({piece_letter(make_piece(kind, owner)), std::string(kAnimals[kind]), owner, 0});
    }
  }
  for (int file = 0; file < kFiles; ++file) {
    board.marks.push_back({square_name(far_rank(0) * kFiles + file), "far rank", 0});
    board.marks.push_back({square_name(far_rank(1) * kFiles + file), "far rank", 1});
  }
  return board;
}

Index Dobutsu::size(Tier tier) const {
  (void)tier;
  return static_cast<Index>(kLionPairs) * per_lions_;
}

std::string Dobutsu::tier_name(Tier tier) {
  (void)tier;
  return "all";
}

Tier Dobutsu::parse_tier(std::string_view text) {
  if (text != "all") fail("bad dobutsu tier {}: the game has one tier, all", quote_input(text));
  return 0;
}

Position Dobutsu::mirrored(const Position& pos) {
  Position result = pos;
  for (int square = 0; square < kSquares; ++square) {
    const int image = square - file_of(square) + (kFiles - 1 - file_of(square));
    result.board[static_cast<std::size_t>(image)] = pos.board[static_cast<std::size_t>(square)];
  }
  return result;
}

Position Dobutsu::turned(const Position& pos) {
  Position result;
  for (int square = 0; square < kSquares; ++square) {
    const std::uint8_t piece = pos.board[static_cast<std::size_t>(square)];
    if (piece != kEmpty)
      result.board[static_cast<std::size_t>(kSquares - 1 - square)] =
          make_piece(kind_of(piece), owner_of(piece) ^ 1);
  }
  result.hand = {pos.hand[1], pos.hand[0]};
  result.side = static_cast<std::uint8_t>(pos.side ^ 1);
  return result;
}

void Dobutsu::symmetric(const Position& pos, std::vector<Position>& out) {
  out.clear();
  for (const Position& candidate : {pos, mirrored(pos), turned(pos), turned(mirrored(pos))}) {
    if (std::find(out.begin(), out.end(), candidate) == out.end()) out.push_back(candidate);
  }
}

Index Dobutsu::word_rank(const Position& pos, int transform, int lion0, int lion1) const {
  const auto states = static_cast<std::size_t>(states_);
  const auto& map = steps().transform[static_cast<std::size_t>(transform)];
  const auto& label_of = label_of_[static_cast<std::size_t>(transform >> 1)];
  Index rank = 0;
  int state = 0;
  std::size_t n = 10;
  for (int square = 0; square < kSquares; ++square) {
    if (square == lion0 || square == lion1) continue;
    const std::size_t label = label_of[pos.board[map[static_cast<std::size_t>(square)]]];
    const std::size_t at = n * states + static_cast<std::size_t>(state);
    rank += prefix_[at * 9 + label];
    state = next_state_[static_cast<std::size_t>(state) * 9 + label];
    --n;
  }
  const auto& mine = pos.hand[static_cast<std::size_t>(transform >> 1)];
  Index hand = 0;
  for (int slot = 0, s = state; slot < slots_; ++slot, s /= 3) {
    const int held = 2 - s % 3;
    const auto kind_slot = static_cast<std::size_t>(hand_slot(slot_kind_[static_cast<std::size_t>(slot)]));
    hand = hand * static_cast<Index>(held + 1) + mine[kind_slot];
  }
  return rank + hand;
}

Position Dobutsu::unrank_word(Index rest, int lion0, int lion1) const {
  const auto states = static_cast<std::size_t>(states_);
  Position pos;
  pos.board[static_cast<std::size_t>(lion0)] = make_piece(kLion, 0);
  pos.board[static_cast<std::size_t>(lion1)] = make_piece(kLion, 1);
  int state = 0;
  int n = 10;
  for (int square = 0; square < kSquares; ++square) {
    if (square == lion0 || square == lion1) continue;
    const std::uint64_t* prefix =
        &prefix_[(static_cast<std::size_t>(n) * states + static_cast<std::size_t>(state)) * 9];
    // The label whose range of weights holds rest: the last with a completion (a full
    // kind adds no weight) whose prefix is at most rest.
    std::size_t label = 0;
    for (std::size_t next = 1; next <= labels_.size(); ++next) {
      if (prefix[next] > rest) break;
      if (state_after(state, labels_[next - 1].slot) >= 0) label = next;
    }
    rest -= prefix[label];
    if (label > 0) {
      pos.board[static_cast<std::size_t>(square)] = labels_[label - 1].piece;
      state = state_after(state, labels_[label - 1].slot);
    }
    --n;
  }
  // The hand split, last slot fastest.
  for (int slot = slots_ - 1; slot >= 0; --slot) {
    int power = 1;
    for (int s = 0; s < slot; ++s) power *= 3;
    const int held = 2 - (state / power) % 3;
    const Index ways = static_cast<Index>(held) + 1;
    const auto mine = static_cast<std::uint8_t>(rest % ways);
    rest /= ways;
    const auto kind_slot = static_cast<std::size_t>(hand_slot(slot_kind_[static_cast<std::size_t>(slot)]));
    pos.hand[0][kind_slot] = mine;
    pos.hand[1][kind_slot] = static_cast<std::uint8_t>(held - mine);
  }
  return pos;
}

Ranked Dobutsu::rank(const Position& pos) const {
  // The side to move's lion and the other, found in one pass.
  int lion0 = -1;
  int lion1 = -1;
  const std::uint8_t own = make_piece(kLion, pos.side);
  const std::uint8_t other = make_piece(kLion, pos.side ^ 1);
  for (int square = 0; square < kSquares; ++square) {
    const std::uint8_t piece = pos.board[static_cast<std::size_t>(square)];
    if (piece == own) lion0 = square;
    if (piece == other) lion1 = square;
  }
  const auto& maps = steps().transform;
  int transform = pos.side == 0 ? 0 : 2;  // the side to move becomes sente
  int mine = maps[static_cast<std::size_t>(transform)][static_cast<std::size_t>(lion0)];
  int theirs = maps[static_cast<std::size_t>(transform)][static_cast<std::size_t>(lion1)];
  if (file_of(mine) == 2 || (file_of(mine) == 1 && file_of(theirs) == 2)) {
    transform |= 1;
    mine = maps[static_cast<std::size_t>(transform)][static_cast<std::size_t>(lion0)];
    theirs = maps[static_cast<std::size_t>(transform)][static_cast<std::size_t>(lion1)];
  }
  const auto pair = static_cast<Index>(steps().lion_pair[cell(mine * kSquares + theirs)]);
  Index word = word_rank(pos, transform, mine, theirs);
  if (file_of(mine) == 1 && file_of(theirs) == 1)
    word = std::min(word, word_rank(pos, transform ^ 1, mine, theirs));
  return {0, pair * per_lions_ + word};
}

std::optional<Position> Dobutsu::unrank(Tier tier, Index index) const {
  (void)tier;
  const Index pair = index / per_lions_;
  const Index rest = index % per_lions_;
  const auto& lions = steps().lions[static_cast<std::size_t>(pair)];
  Position pos = unrank_word(rest, lions[0], lions[1]);
  if (file_of(lions[0]) == 1 && file_of(lions[1]) == 1 && word_rank(pos, 1, lions[0], lions[1]) < rest)
    return std::nullopt;
  return pos;
}

void Dobutsu::unmoves(const Position& pos, UnmoveList<Dobutsu>& out) const {
  out.clear();
  const int mover = pos.side ^ 1;  // made the last move
  const int victim = pos.side;
  auto add = [&](const Position& previous) {
    if (!terminal(previous)) out.push_back(previous);
  };
  for (int to = 0; to < kSquares; ++to) {
    const std::uint8_t piece = pos.board[static_cast<std::size_t>(to)];
    if (piece == kEmpty || owner_of(piece) != mover) continue;
    const std::uint8_t kind = kind_of(piece);
    // Un-drops: a piece of a hand kind, never a hen, may have been dropped anywhere.
    if (kind == kGiraffe || kind == kElephant || kind == kChick) {
      Position previous = pos;
      previous.board[static_cast<std::size_t>(to)] = kEmpty;
      ++previous.hand[static_cast<std::size_t>(mover)][static_cast<std::size_t>(hand_slot(kind))];
      previous.side = static_cast<std::uint8_t>(mover);
      add(previous);
    }
    // Un-moves: the kinds the piece had before its move. A chick on the far rank was
    // dropped there (one that moves there promotes); a hen on the far rank may have
    // been a chick a step before.
    std::array<std::uint8_t, 2> before{kind, kEmpty};
    if (kind == kChick && rank_of(to) == far_rank(mover)) continue;
    if (kind == kHen && rank_of(to) == far_rank(mover)) before[1] = kChick;
    for (const std::uint8_t earlier : before) {
      if (earlier == kEmpty) continue;
      for (int from = 0; from < kSquares; ++from) {
        if (pos.board[static_cast<std::size_t>(from)] != kEmpty) continue;
        if ((attack_mask(mover, earlier, from) >> to & 1U) == 0) continue;
        Position previous = pos;
        previous.board[static_cast<std::size_t>(from)] = make_piece(earlier, mover);
        previous.board[static_cast<std::size_t>(to)] = kEmpty;
        previous.side = static_cast<std::uint8_t>(mover);
        add(previous);
        // Un-captures: the piece may have taken one of the opponent's, now in the mover's
        // hand (a chick in hand may have been a hen); never a lion (that ends the game).
        for (const std::uint8_t taken : {kGiraffe, kElephant, kChick, kHen}) {
          auto& held =
              previous.hand[static_cast<std::size_t>(mover)][static_cast<std::size_t>(hand_slot(taken))];
          if (held == 0) continue;
          Position captured = previous;
          --captured.hand[static_cast<std::size_t>(mover)][static_cast<std::size_t>(hand_slot(taken))];
          captured.board[static_cast<std::size_t>(to)] = make_piece(taken, victim);
          add(captured);
        }
      }
    }
  }
}

int Dobutsu::evaluate(const Position& pos) {
  constexpr std::array<int, 6> kWorth = {0, 0, 5, 4, 1, 6};
  int score = 0;
  for (const std::uint8_t piece : pos.board) {
    if (piece == kEmpty) continue;
    score += owner_of(piece) == pos.side ? kWorth[kind_of(piece)] : -kWorth[kind_of(piece)];
  }
  for (int slot = 0; slot < 3; ++slot) {
    const int worth = kWorth[kHandKinds[static_cast<std::size_t>(slot)]];
    score += worth * (pos.hand[pos.side][static_cast<std::size_t>(slot)] -
                      pos.hand[pos.side ^ 1][static_cast<std::size_t>(slot)]);
  }
  return score;
}

}  // namespace gs::dobutsu
