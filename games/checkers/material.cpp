// The material hooks of the game contract (core/game.h, HasMaterials) for checkers.
#include "games/checkers/material.h"

namespace gs::checkers {

std::uint32_t Checkers::material(const Position& pos) { return material_of(pos); }

std::string Checkers::material_name(std::uint32_t code) { return checkers::material_name(code); }

std::vector<std::pair<std::uint32_t, std::uint64_t>> Checkers::end_positions_by_material(int pieces) {
  return checkers::end_positions_by_material(pieces);
}

}  // namespace gs::checkers
