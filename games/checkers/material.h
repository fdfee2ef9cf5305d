#pragma once
// The material of a checkers board, as the first four digits of Lake, Schaeffer & Lu's
// tier names count it: Black's kings, White's kings, Black's men, White's men (nbk nwk
// nbp nwp, `2211`). A tier holds a slice and its colour reversal, so one tier holds two
// materials (`2211` and `1122`); `gamesolver count --materials` groups boards by these.
// Boards are counted with Black to move, as the databases store them: a position with
// White to move counts as its colour reversal.
#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "games/checkers/checkers.h"

namespace gs::checkers {

// nbk | nwk << 4 | nbp << 8 | nwp << 12.
inline std::uint32_t material_code(int black_kings, int white_kings, int black_men, int white_men) {
  return static_cast<std::uint32_t>(black_kings) | static_cast<std::uint32_t>(white_kings) << 4 |
         static_cast<std::uint32_t>(black_men) << 8 | static_cast<std::uint32_t>(white_men) << 12;
}

inline std::uint32_t material_of(const Position& pos) {
  const Position p = pos.side == kBlack ? pos : Checkers::reversed(pos);
  return material_code(std::popcount(p.kings[kBlack]), std::popcount(p.kings[kWhite]),
                       std::popcount(p.men[kBlack]), std::popcount(p.men[kWhite]));
}

// "2211"; counts of 10-12 as A-C, as in the tier names.
inline std::string material_name(std::uint32_t code) {
  std::string name;
  for (int shift = 0; shift < 16; shift += 4) {
    const int count = static_cast<int>(code >> shift & 15U);
    name += static_cast<char>(count < 10 ? '0' + count : 'A' + count - 10);
  }
  return name;
}

// The boards of `pieces` pieces where one colour has none (the end positions, in no
// tier), per material: men on the 28 squares off their crowning row, kings anywhere.
// They add up to Checkers::end_positions(pieces).
inline std::vector<std::pair<std::uint32_t, std::uint64_t>> end_positions_by_material(int pieces) {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  if (pieces > 12) return out;
  for (int men = 0; men <= pieces; ++men) {
    const int kings = pieces - men;
    const std::uint64_t boards = binomial(28, men) * binomial(kSquares - men, kings);
    out.emplace_back(material_code(kings, 0, men, 0), boards);
    out.emplace_back(material_code(0, kings, 0, men), boards);
  }
  return out;
}

}  // namespace gs::checkers
