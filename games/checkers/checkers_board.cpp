// The board of English checkers for the explorer page (core/board.h): the 8 x 8 grid with
// Black at the top, as the square numbers run (1-4 on the top rank, 29-32 on the bottom
// one), so that a1, White's single corner, is square 29.
#include <string>
#include <utility>

#include "core/board.h"
#include "games/checkers/checkers.h"

namespace gs::checkers {

Board Checkers::board() {
  Board board;
  board.files = 8;
  board.ranks = 8;
  board.sides = {"Black", "White"};  // Black moves first
  // Letters as in board_text's diagrams.
  board.pieces = {
      {'b', "man", kBlack, 1}, {'B', "king", kBlack, 2}, {'w', "man", kWhite, 1}, {'W', "king", kWhite, 2}};
  for (int square = 0; square < kSquares; ++square) {
    std::string name(1, static_cast<char>('a' + column_of(square)));
    name += std::to_string(8 - row_of(square));
    // A man is crowned on the far row: Black's on the bottom rank, White's on the top one.
    if ((1U << square & crown_row(kBlack)) != 0) board.marks.push_back({name, "crown", kBlack});
    if ((1U << square & crown_row(kWhite)) != 0) board.marks.push_back({name, "crown", kWhite});
    board.numbered.push_back(std::move(name));
  }
  return board;
}

}  // namespace gs::checkers
