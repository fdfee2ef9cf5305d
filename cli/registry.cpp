// The games the CLI knows: one line each.
#include "cli/driver.h"
#include "cli/game_driver.h"
#include "core/error.h"
#include "games/checkers/checkers.h"
#include "games/checkers/material.h"
#include "games/jungle/jungle.h"
#include "games/morris/morris.h"

namespace gs::cli {

const std::vector<GameEntry>& registered_games() {
  static const std::vector<GameEntry> games = {
      entry<jungle::Jungle>("Jungle Checkers (games/jungle.md)"),
      entry<checkers::Checkers>("English checkers, 8x8 draughts (games/checkers.md)",
                                {.pdn_game_type = "21",  // PDN's number of English checkers
                                 .side_names = {"black", "white"},
                                 .material = checkers::material_of,
                                 .material_name = checkers::material_name,
                                 .end_positions_by_material = checkers::end_positions_by_material}),
      entry<morris::Morris>(
          "mill games: Nine Men's Morris, Lasker, Morabaraba, Five/Six/Seven (games/morris.md)"),
  };
  return games;
}

const GameEntry& find_game(const std::string& name) {
  std::string known;
  for (const GameEntry& game : registered_games()) {
    if (game.name == name) return game;
    known += (known.empty() ? "" : ", ") + game.name;
  }
  fail("unknown game '{}' (known: {})", name, known);
}

}  // namespace gs::cli
