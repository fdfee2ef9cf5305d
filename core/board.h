#pragma once
// What a board looks like, for the explorer page (web/): the page draws a position from
// its text and this description, so a game's drawing module needs no copy of the rules.
//
// kind "grid": files x ranks squares named file letter + rank number ("a1" bottom left,
// as in the position texts of Jungle Checkers). Where the text numbers the squares
// instead (checkers: the 32 dark squares, 1-32), `numbered` names the square of each
// number, and the other squares are not played on.
// kind "points": the points of a files x ranks grid that the game uses (the mill
// boards), named the same way, and the line segments drawn between them.
#include <array>
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

// A point of a "points" board, at file and rank from 0 ("a1": file 0, rank 0).
struct BoardPoint {
  std::string name;
  int file = 0;
  int rank = 0;
};

struct Board {
  std::string kind = "grid";
  int files = 0;
  int ranks = 0;
  std::vector<std::string> sides;  // names of the players, first to move first
  std::vector<BoardPiece> pieces;
  std::vector<BoardMark> marks;
  std::vector<BoardPoint> points;                 // kind "points" only
  std::vector<std::array<std::string, 2>> lines;  // segments between points, by name
  std::vector<std::string> numbered;              // numbered[n - 1]: the square numbered n
};

}  // namespace gs
