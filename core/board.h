#pragma once
// What a board looks like, for the explorer page (web/): the page draws a position from
// its text and this description, so a game's drawing module needs no copy of the rules.
//
// kind "grid": files x ranks squares named file letter + rank number ("a1" bottom left,
// as in the position texts of Jungle Checkers and checkers). Other kinds (the mill
// boards' points and lines) are added with the games that need them.
#include <string>
#include <vector>

namespace gs {

struct BoardPiece {
  char letter = '?';  // as in position text
  std::string name;   // "rat"
  int side = 0;       // 0: the first player (White)
  int strength = 0;   // for drawing an order of strength; 0 where the game has none
};

// A square with a role in the rules, drawn apart: a den, a promotion row, a mill point.
struct BoardMark {
  std::string square;
  std::string kind;  // "den"
  int side = 0;      // whose it is
};

struct Board {
  std::string kind = "grid";
  int files = 0;
  int ranks = 0;
  std::vector<std::string> sides;  // names of the players, first to move first
  std::vector<BoardPiece> pieces;
  std::vector<BoardMark> marks;
};

}  // namespace gs
