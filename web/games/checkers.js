// English checkers (docs/games/checkers.md): the 32 dark squares of an 8 x 8 board, numbered
// 1-32 from Black's side; the board from the API names the grid square of each number
// (`numbered`), Black at the top. Position text, the PDN FEN value: the side to move,
// then White's and Black's squares with K before a king ('B:W21,22,K30:B1,2,K9'). Move
// text: '11-15' for a step, '15x24x31' for a capture through each square it lands on.
import { CELL, MARGIN, drawGrid, element, squareOrigin } from './grid.js';

const BAND = 40;  // below the board: the side to move
const COLOURS = [
  { fill: '#2a2a2e', stroke: '#000', ring: '#55555c', text: '#f5f5f5' },     // Black
  { fill: '#fdf8ec', stroke: '#3b3b3b', ring: '#c9bfa8', text: '#1d232a' },  // White
];

// The grid name of square number n, or null.
function squareOf(board, n) {
  return board?.numbered?.[Number(n) - 1] ?? null;
}

// The squares of one colour's field, 'K30' for a king, '1-4' for a run of men (PDN).
function* numbersOf(field) {
  for (const word of field.split(',')) {
    const entry = word.trim();
    if (!entry) continue;
    const king = entry.startsWith('K');
    const [first, last] = (king ? entry.slice(1) : entry).split('-').map(Number);
    for (let n = first; n <= (last ?? first); n++) yield { n, king };
  }
}

// {pieces: Map square name -> letter (b B w W: men and kings), side: 0 Black | 1 White}.
export function parsePosition(board, text) {
  const fields = text.trim().replace(/\.$/, '').split(':').map((f) => f.trim());
  const pieces = new Map();
  for (const field of fields.slice(1)) {
    const colour = field[0];
    if (colour !== 'W' && colour !== 'B') continue;
    for (const { n, king } of numbersOf(field.slice(1))) {
      const square = squareOf(board, n);
      if (square) pieces.set(square, king ? colour : colour.toLowerCase());
    }
  }
  return { pieces, side: fields[0] === 'W' ? 1 : 0 };
}

export function sideOfPiece(board, letter) {
  const piece = board.pieces.find((p) => p.letter === letter);
  return piece ? piece.side : (letter.toUpperCase() === 'W' ? 1 : 0);
}

// '11-15' -> {from, to, path: [from, to]}; '15x24x31' -> from 15 to 31 through 24. A
// capture removes pieces but asks for no click on them (remove stays null).
export function moveSquares(positionText, moveText, board) {
  const squares = moveText.split(/[-x]/).map((n) => squareOf(board, n));
  if (squares.length < 2 || squares.some((s) => !s)) return { from: null, to: null, remove: null };
  return { from: squares[0], to: squares[squares.length - 1], remove: null, path: squares };
}

function centre(board, square) {
  const { x, y } = squareOrigin(board, square);
  return { x: x + CELL / 2, y: y + CELL / 2 };
}

function drawPiece(parent, board, square, letter) {
  const side = sideOfPiece(board, letter);
  const colour = COLOURS[side];
  const king = board.pieces.find((p) => p.letter === letter)?.name === 'king';
  const { x, y } = centre(board, square);
  const group = element('g', { 'data-piece': letter, 'data-at': square }, parent);
  // A king is a man crowned with a second man: two discs, the upper one marked.
  if (king) {
    element('circle', { cx: x, cy: y + 4, r: 22, fill: colour.fill, stroke: colour.stroke, 'stroke-width': 2 }, group);
  }
  const top = king ? y - 3 : y;
  element('circle', { cx: x, cy: top, r: 22, fill: colour.fill, stroke: colour.stroke, 'stroke-width': 2 }, group);
  element('circle', { cx: x, cy: top, r: 15, fill: 'none', stroke: colour.ring, 'stroke-width': 1.5 }, group);
  if (king) {
    const crown = element('text', {
      x, y: top + 6, 'text-anchor': 'middle', 'font-size': 17, 'font-weight': 700, fill: colour.text,
    }, group);
    crown.textContent = 'K';
  }
}

// highlights: {selected, targets: [{square, outcome}], lastMove: {from, to, path}}.
export function draw(container, board, positionText, highlights) {
  const dark = new Set(board.numbered ?? []);
  const { svg, pieces } = drawGrid(container, board, highlights,
    (name) => (dark.has(name) ? '#7d5c3f' : '#eadfc0'), { coordinates: false });
  svg.classList.add('checkers-board');

  // The square numbers, in the corner of each dark square.
  const numbers = element('g', { 'font-size': 11, fill: '#f1e4c8', 'pointer-events': 'none' }, pieces);
  board.numbered.forEach((square, i) => {
    const { x, y } = squareOrigin(board, square);
    const label = element('text', { x: x + 4, y: y + 12, 'data-number': i + 1 }, numbers);
    label.textContent = String(i + 1);
  });

  // The last move's path, through every square a capture lands on.
  const path = highlights.lastMove?.path;
  if (path && path.length > 1) {
    const at = path.map((square) => centre(board, square));
    element('polyline', {
      points: at.map((p) => `${p.x},${p.y}`).join(' '), fill: 'none', stroke: '#f3d36b', 'stroke-width': 5,
      'stroke-linecap': 'round', 'stroke-linejoin': 'round', opacity: 0.8, 'data-path': path.join(' '),
    }, pieces);
  }

  const { pieces: placed, side } = parsePosition(board, positionText);
  for (const [square, letter] of placed) drawPiece(pieces, board, square, letter);

  // The side to move, in a band below the board.
  const width = MARGIN * 2 + board.files * CELL;
  const height = MARGIN * 2 + board.ranks * CELL;
  svg.setAttribute('viewBox', `0 0 ${width} ${height + BAND}`);
  const band = element('g', { 'data-to-move': side, 'pointer-events': 'none' }, svg);
  element('rect', { x: 0, y: height - 4, width, height: BAND + 4, fill: '#efe6cf' }, band);
  element('circle', {
    cx: MARGIN + 12, cy: height + BAND / 2 - 6, r: 10, fill: COLOURS[side].fill, stroke: COLOURS[side].stroke,
    'stroke-width': 2,
  }, band);
  const label = element('text', { x: MARGIN + 32, y: height + BAND / 2 - 1, 'font-size': 16, fill: '#1d232a' }, band);
  label.textContent = `${board.sides?.[side] ?? (side === 0 ? 'Black' : 'White')} to move`;
}
