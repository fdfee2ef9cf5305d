// Fuzz target: position and move text of every registered game (with its variants and
// rule options), through the checks the game battery (tests/game_battery.h) makes on
// reachable positions. The first byte picks the game and rules; the rest is a position,
// then optionally a newline and a move. A parse may refuse the text (gs::Error); what it
// accepts must print back to itself, its moves must write and parse back, ranking must
// invert, and moves and unmoves must agree. Anything else (another exception, a crash, a
// sanitizer report, a failed check) aborts.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "registered_game_types.h"
#include "tests/fuzz/die.h"
#include "tests/game_battery.h"

namespace gs::fuzz {
namespace {

[[noreturn]] void die(const std::string& message) { fuzz::die("fuzz_positions", message); }

// Returns whether the position was accepted.
template <Game G>
bool exercise(const G& game, std::string_view input) {
  const std::size_t newline = input.find('\n');
  const std::string_view position_text = input.substr(0, newline);
  typename G::Position pos;
  try {
    pos = game.parse_position(position_text);
  } catch (const Error&) {
    return false;  // refused, with a message
  }
  test::Failures failures;
  test::check_text_round_trip(game, pos, failures);
  if (!game.terminal(pos)) {
    const Ranked ranked = game.rank(pos);
    if (ranked.index >= game.size(ranked.tier)) die(game.position_text(pos) + " ranks past its tier's size");
    test::IndexCounts counts;
    std::vector<typename G::Position> copies;
    test::check_index(game, ranked.tier, ranked.index, false, failures, counts, copies);
    test::check_moves_and_unmoves(game, pos, failures);
  }
  if (newline != std::string_view::npos && !game.terminal(pos)) {
    try {
      const typename G::Move move = game.parse_move(pos, input.substr(newline + 1));
      const typename G::Position next = game.play(pos, move);
      // A parsed move is one of the legal moves.
      MoveList<G> moves;
      game.moves(pos, moves);
      bool legal = false;
      for (const auto& m : moves) legal |= test::same_position(game, game.play(pos, m), next);
      if (!legal) die(game.position_text(pos) + ": a move parsed that is not legal");
    } catch (const Error&) {
    }
  }
  if (failures.count() > 0) die(failures.text());
  return true;
}

using Target = std::function<bool(std::string_view)>;
using Rules = std::vector<std::pair<std::string, std::vector<std::string>>>;  // variant, options

// A game with its default rules and the variants and options its rules name.
template <RegisteredGame G>
void add_game(std::vector<Target>& targets) {
  Rules rules = {{"", {}}};
  if constexpr (G::kName == std::string_view("morris")) {
    rules = {{"", {}},
             {"lasker", {}},
             {"morabaraba", {}},
             {"five", {}},
             {"six", {}},
             {"seven", {}},
             {"", {"flying=off", "removal=any"}}};
  } else if constexpr (G::kName == std::string_view("jungle")) {
    rules = {{"", {}}, {"", {"elephant_takes_rat=off", "stalemate=loss"}}};
  } else if constexpr (G::kName == std::string_view("dobutsu")) {
    rules = {{"", {}}, {"", {"kinds=C"}}};
  }
  for (const auto& [variant, options] : rules) {
    targets.emplace_back(
        [game = G::from_options(variant, options)](std::string_view text) { return exercise(game, text); });
  }
}

template <class... Games>
std::vector<Target> make_targets() {
  std::vector<Target> targets;
  (add_game<Games>(targets), ...);
  return targets;
}

}  // namespace
}  // namespace gs::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto targets = gs::fuzz::make_targets<GAMESOLVER_GAME_TYPES>();
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  // -1: a refused position is not worth keeping in the corpus (libFuzzer's convention).
  return targets[data[0] % targets.size()](input) ? 0 : -1;
}
