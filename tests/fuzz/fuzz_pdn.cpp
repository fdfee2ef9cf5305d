// Fuzz target: PDN game files. Every game of the text is replayed by every registered
// game (the GameType, Game and Variant tags decide which accepts it); a game that
// replays must write back to PDN that reads and replays to the same positions. A parse
// or replay may refuse the text (gs::Error); anything else aborts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/pdn_game.h"
#include "core/error.h"
#include "core/pdn.h"
#include "registered_game_types.h"
#include "tests/fuzz/die.h"

namespace gs::fuzz {
namespace {

[[noreturn]] void die(const std::string& message) { fuzz::die("fuzz_pdn", message); }

template <RegisteredGame G>
void replay_with(const pdn::Game& record) {
  const G game = G::from_options("", {});
  app::PlayedGame<G> played;
  try {
    played = app::replay(game, record, "fuzz.pdn");
  } catch (const Error&) {
    return;
  }
  const std::string written = app::pdn_text(game, played);
  std::vector<pdn::Game> again;
  app::PlayedGame<G> replayed;
  try {
    again = pdn::parse(written, "written.pdn");
    if (again.size() != 1) die("the written game reads as " + std::to_string(again.size()) + " games");
    replayed = app::replay(game, again.front(), "written.pdn");
  } catch (const Error& error) {
    die(std::string("the written game does not read back: ") + error.what() + "\n" + written);
  }
  if (replayed.positions.size() != played.positions.size())
    die("the written game has other moves:\n" + written);
  for (std::size_t i = 0; i < played.positions.size(); ++i) {
    if (game.position_text(replayed.positions[i]) != game.position_text(played.positions[i])) {
      die("the written game reaches other positions:\n" + written);
    }
  }
}

template <class... Games>
void replay_all(const pdn::Game& record) {
  (replay_with<Games>(record), ...);
}

}  // namespace
}  // namespace gs::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<gs::pdn::Game> games;
  try {
    games = gs::pdn::parse(text, "fuzz.pdn");
  } catch (const gs::Error&) {
    return -1;  // refused: not worth keeping in the corpus (libFuzzer's convention)
  }
  for (const gs::pdn::Game& record : games) gs::fuzz::replay_all<GAMESOLVER_GAME_TYPES>(record);
  return 0;
}
