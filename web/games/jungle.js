// Jungle Checkers (docs/games/jungle.md): a 7 x 7 board with a den in the middle of each
// home rank, four animals a side. Position text: ranks 7 to 1 separated by '/', letters
// R D T E for White and r d t e for Black, digits for runs of empty squares, then w or
// b. Move text: the piece's letter, x for a capture, the destination ('Eb2', 'txe5'), or
// from-to ('b1b2').
import { CELL, drawGrid, element, parsePlacement, squareOrigin } from './grid.js';

// square name -> piece letter, and the side to move (0 White, 1 Black).
export function parsePosition(text) {
  const [placement, side] = text.trim().split(/\s+/);
  const squares = parsePlacement(placement);
  return { squares, side: side === 'b' ? 1 : 0 };
}

export function sideOfPiece(board, letter) {
  const piece = board.pieces.find((p) => p.letter === letter);
  return piece ? piece.side : (letter === letter.toUpperCase() ? 0 : 1);
}

export function moveSquares(positionText, moveText) {
  const fromTo = /^([a-g][1-7])([a-g][1-7])$/.exec(moveText);
  if (fromTo) return { from: fromTo[1], to: fromTo[2] };
  const named = /^([RrDdTtEe])x?([a-g][1-7])$/.exec(moveText);
  if (!named) return { from: null, to: null };
  const { squares } = parsePosition(positionText);
  for (const [square, letter] of squares) {
    if (letter === named[1]) return { from: square, to: named[2] };
  }
  return { from: null, to: named[2] };
}

export function draw(container, board, positionText, highlights) {
  const dens = new Map(board.marks.filter((m) => m.kind === 'den').map((m) => [m.square, m.side]));
  const { pieces } = drawGrid(container, board, highlights, (name, file, rank) => {
    if (dens.has(name)) return dens.get(name) === 0 ? '#d9e4f2' : '#e9d6d6';
    return (file + rank) % 2 === 0 ? '#e4d6b1' : '#eadfc0';
  });
  for (const [square, side] of dens) {
    const { x, y } = squareOrigin(board, square);
    const den = element('g', { 'data-den': side }, pieces);
    element('path', {
      d: `M ${x + 12} ${y + CELL - 12} L ${x + 12} ${y + 30} Q ${x + CELL / 2} ${y + 8} ${x + CELL - 12} ${y + 30} ` +
        `L ${x + CELL - 12} ${y + CELL - 12} Z`,
      fill: 'none', stroke: side === 0 ? '#5b7fa8' : '#a85b5b', 'stroke-width': 3,
    }, den);
    const label = element('text', {
      x: x + CELL / 2, y: y + CELL - 15, 'text-anchor': 'middle', 'font-size': 9,
      fill: side === 0 ? '#5b7fa8' : '#a85b5b',
    }, den);
    label.textContent = 'den';
  }
  const { squares } = parsePosition(positionText);
  for (const [square, letter] of squares) {
    const piece = board.pieces.find((p) => p.letter === letter);
    const side = sideOfPiece(board, letter);
    const { x, y } = squareOrigin(board, square);
    const group = element('g', { 'data-piece': letter, 'data-at': square }, pieces);
    element('circle', {
      cx: x + CELL / 2, cy: y + CELL / 2, r: 24, fill: side === 0 ? '#fdf8ec' : '#2a2a2e',
      stroke: side === 0 ? '#3b3b3b' : '#000', 'stroke-width': 2,
    }, group);
    const glyph = element('text', {
      x: x + CELL / 2, y: y + CELL / 2 + 4, 'text-anchor': 'middle', 'font-size': 20, 'font-weight': 700,
      fill: side === 0 ? '#1d232a' : '#f5f5f5',
    }, group);
    glyph.textContent = letter.toUpperCase();
    const name = element('text', {
      x: x + CELL / 2, y: y + CELL / 2 + 16, 'text-anchor': 'middle', 'font-size': 8,
      fill: side === 0 ? '#4b4b4b' : '#cfcfcf',
    }, group);
    name.textContent = piece ? piece.name : '';
  }
}
