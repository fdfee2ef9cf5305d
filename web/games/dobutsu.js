// Dobutsu shogi (docs/games/dobutsu.md): a 3 x 4 board and each player's hand beside it,
// gote's at the top right, sente's at the bottom right. Position text: ranks 4 to 1
// separated by '/', letters L G E C H for sente and l g e c h for gote, digits for runs of
// empty squares, b or w to move, then the pieces in hand or '-'. Move text: from-to
// ('b2b3') or a drop ('C*a3').
//
// A piece in the hand of the side to move is a pseudo-square named '*' and its letter in
// upper case ('*C'): a click on it selects it, and a click on an empty square drops it
// there, as a click on a piece and then on its destination moves it.
import { CELL, MARGIN, drawGrid, element, parsePlacement, squareOrigin } from './grid.js';

const HAND_WIDTH = 84;
const ANIMAL = { L: 'lion', G: 'giraffe', E: 'elephant', C: 'chick', H: 'hen' };

// square name -> piece letter, the side to move (0 sente, 1 gote) and the hands
// (hands[side]: the upper-case letters held).
export function parsePosition(text) {
  const [placement, side, held = '-'] = text.trim().split(/\s+/);
  const squares = parsePlacement(placement);
  const hands = [[], []];
  if (held !== '-') {
    for (const c of held) hands[c === c.toUpperCase() ? 0 : 1].push(c.toUpperCase());
  }
  return { squares, side: side === 'w' ? 1 : 0, hands };
}

export function sideOfPiece(board, letter) {
  return letter === letter.toUpperCase() ? 0 : 1;
}

export function moveSquares(positionText, moveText) {
  const fromTo = /^([a-c][1-4])([a-c][1-4])$/.exec(moveText);
  if (fromTo) return { from: fromTo[1], to: fromTo[2] };
  const drop = /^([GEC])\*([a-c][1-4])$/.exec(moveText);
  if (drop) return { from: `*${drop[1]}`, to: drop[2] };
  return { from: null, to: null };
}

function drawPiece(parent, letter, x, y, size, attributes) {
  const side = sideOfPiece(null, letter);
  const kind = letter.toUpperCase();
  // Gote's pieces are drawn turned, pointing down the board, as on a real board.
  const group = element('g', {
    ...attributes, transform: side === 1 ? `rotate(180 ${x + size / 2} ${y + size / 2})` : '',
  }, parent);
  element('rect', {
    x: x + 5, y: y + 5, width: size - 10, height: size - 10, rx: 8,
    fill: side === 0 ? '#f8efd8' : '#e9d8c9', stroke: kind === 'H' ? '#b3572d' : '#5a4a32', 'stroke-width': 2,
  }, group);
  const glyph = element('text', {
    x: x + size / 2, y: y + size / 2 + 2, 'text-anchor': 'middle', 'font-size': size * 0.33, 'font-weight': 700,
    fill: kind === 'H' ? '#b3572d' : '#2b2418',
  }, group);
  glyph.textContent = kind;
  const name = element('text', {
    x: x + size / 2, y: y + size / 2 + size * 0.25, 'text-anchor': 'middle', 'font-size': size * 0.14, fill: '#4b4030',
  }, group);
  name.textContent = ANIMAL[kind] ?? '';
  return group;
}

export function draw(container, board, positionText, highlights) {
  const farRanks = new Map(board.marks.filter((m) => m.kind === 'far rank').map((m) => [m.square, m.side]));
  const handSelected = highlights.selected?.startsWith('*') ? highlights.selected : null;
  // A drop's origin is a hand, not a square: the grid marks only its destination.
  const lastMove = highlights.lastMove?.from?.startsWith('*') ? { ...highlights.lastMove, from: null }
    : highlights.lastMove;
  const gridHighlights = { ...highlights, lastMove, selected: handSelected ? null : highlights.selected };
  const { svg, pieces } = drawGrid(container, board, gridHighlights, (name) => {
    if (farRanks.has(name)) return farRanks.get(name) === 0 ? '#e8dcc0' : '#e3e4cf';
    return '#efe3c4';
  });
  const { squares, side, hands } = parsePosition(positionText);
  for (const [square, letter] of squares) {
    const { x, y } = squareOrigin(board, square);
    drawPiece(pieces, letter, x, y, CELL, { 'data-piece': letter, 'data-at': square });
  }
  // The hands, to the right of the board.
  const width = MARGIN * 2 + board.files * CELL;
  const height = MARGIN * 2 + board.ranks * CELL;
  svg.setAttribute('viewBox', `0 0 ${width + HAND_WIDTH} ${height}`);
  svg.setAttribute('data-to-move', String(side));
  const back = element('rect', { x: width, y: 0, width: HAND_WIDTH, height, fill: '#e6dcc2' });
  svg.insertBefore(back, svg.firstChild.nextSibling);
  const handGroup = element('g', {}, svg);
  const small = CELL * 0.6;
  for (const owner of [0, 1]) {
    const label = element('text', {
      x: width + HAND_WIDTH / 2, y: owner === 1 ? MARGIN - 8 : height - MARGIN + 16, 'text-anchor': 'middle',
      'font-size': 11, fill: '#5a4a32',
    }, handGroup);
    label.textContent = `${board.sides?.[owner] ?? (owner === 0 ? 'Sente' : 'Gote')} holds`;
    hands[owner].forEach((kind, index) => {
      const x = width + 6 + (index % 2) * (small + 4);
      const row = Math.floor(index / 2);
      const y = owner === 1 ? MARGIN + row * (small + 4) : height - MARGIN - small - row * (small + 4);
      const letter = owner === 0 ? kind : kind.toLowerCase();
      const pseudo = `*${kind}`;
      const attributes = { 'data-piece': letter, 'data-hand': owner };
      // Only the side to move can drop: its pieces are clickable (one square per kind).
      if (owner === side) Object.assign(attributes, { 'data-square': pseudo, class: 'square', cursor: 'pointer' });
      drawPiece(handGroup, letter, x, y, small, attributes);
      if (owner === side && handSelected === pseudo && hands[owner].indexOf(kind) === index) {
        element('rect', {
          x: x + 1, y: y + 1, width: small - 2, height: small - 2, fill: 'none', stroke: '#1d6fd1', 'stroke-width': 3,
          'pointer-events': 'none',
        }, handGroup);
      }
    });
  }
}
