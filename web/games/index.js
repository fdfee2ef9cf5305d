// The drawing modules of the games, by the game's name in the API. A drawing module
// exports:
//
//   draw(container, board, positionText, highlights)
//       draws the position into the container as SVG; board is the game's board from
//       /api/v1/games; highlights is {selected, targets: [{square, outcome}], lastMove:
//       {from, to}}. Every square carries data-square="<name>" so that clicks can be
//       read back; a square with a piece also carries data-piece="<letter>".
//   moveSquares(positionText, moveText) -> {from, to}
//       the squares a move joins, for playing by clicking a piece and its destination.
//   sideOfPiece(board, letter) -> 0 | 1
//
// Jungle Checkers is drawn today; the mill boards and checkers get their modules when
// those games join the engine's registry.
import * as jungle from './jungle.js';

const modules = { jungle };

export function drawingFor(gameName) {
  return modules[gameName] ?? null;
}
