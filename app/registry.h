#pragma once
// The games gamesolver offers, by name. Each game's folder registers it
// (gamesolver_add_game in its CMakeLists.txt, docs/ADDING_A_GAME.md); the build
// generates the list of an executable's games, so this file names none.
#include <memory>
#include <string>
#include <vector>

#include "app/game_service.h"

namespace gs::app {

struct GameEntry {
  std::string name;
  std::string description;
  std::vector<std::string> option_help;
  bool extended = false;  // the game has a start family (the `extended` command)
  // The service of a variant ("" for the default) with rule options; throws gs::Error.
  std::unique_ptr<GameService> (*make)(const std::string& variant, const std::vector<std::string>& rules);
};

// The games of this executable, in the order of their registration.
const std::vector<GameEntry>& registered_games();
// The entry of a game by name; throws gs::Error listing the known games.
const GameEntry& find_game(const std::string& name);

}  // namespace gs::app
