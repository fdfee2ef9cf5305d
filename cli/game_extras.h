#pragma once
// What the CLI knows of a game beyond core/game.h, given on its line in cli/registry.cpp:
// its PDN game type (game files, cli/pdn_game.h) and how boards group by material
// (`gamesolver count --materials`). Every member is optional.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/game.h"

namespace gs::cli {

template <Game G>
struct GameExtras {
  // The number of the game in PDN's GameType tag ("21": English checkers), written to
  // game files and checked when they are read; empty: the files carry [Game "<name>"].
  std::string pdn_game_type;
  // The names of side 0 and side 1 of Position::side (`play --human`): Jungle and the
  // mill games number White 0, checkers Black 0.
  std::array<const char*, 2> side_names = {"white", "black"};
  // The material of a position as a small code, and the code's name.
  std::uint32_t (*material)(const typename G::Position&) = nullptr;
  std::string (*material_name)(std::uint32_t) = nullptr;
  // The end positions of `pieces` pieces (those in no tier) per material code.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> (*end_positions_by_material)(int pieces) = nullptr;
};

}  // namespace gs::cli
