// The drawing modules of the games, by the game's name in the API. A drawing module
// exports:
//
//   draw(container, board, positionText, highlights)
//       draws the position into the container as SVG; board is the variant's board from
//       /api/v1/games; highlights is {selected, targets: [{square, outcome, remove}],
//       lastMove: {from, to, remove}, pending}. Every square (or point) carries
//       data-square="<name>" so that clicks can be read back; a piece is drawn with
//       data-piece="<letter>" and data-at="<square>".
//   moveSquares(positionText, moveText, board) -> {from, to, remove}
//       the squares a move joins (from null for a placement) and the square of a piece it
//       removes besides (null for none), for playing by clicking; board as for draw.
//   sideOfPiece(board, letter) -> 0 | 1
//
// A game's own module is used where there is one, else the module of its board's kind:
// Jungle Checkers, checkers and Dobutsu shogi by name, the mill boards (kind "points") by kind.
import * as checkers from './checkers.js';
import * as dobutsu from './dobutsu.js';
import * as jungle from './jungle.js';
import * as mill from './mill.js';

const byGame = { checkers, dobutsu, jungle };
const byKind = { points: mill };

export function drawingFor(gameName, board) {
  return byGame[gameName] ?? byKind[board?.kind] ?? null;
}
