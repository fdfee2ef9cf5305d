#include "app/registry.h"

#include "core/error.h"
#include "core/quote.h"

namespace gs::app {

const GameEntry& find_game(const std::string& name) {
  std::string known;
  for (const GameEntry& game : registered_games()) {
    if (game.name == name) return game;
    known += (known.empty() ? "" : ", ") + game.name;
  }
  fail("unknown game {} (known: {})", quote_input(name), known);
}

}  // namespace gs::app
