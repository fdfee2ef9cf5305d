// The mill boards (docs/games/morris.md): points on a grid joined by lines, White's and
// Black's stones, and the stones each side still has in hand. The board comes from the
// API as kind "points": each point's name, file and rank, and the line segments.
//
// Position text: "W:a1,d2 B:g7 w 7 8" (White's points, Black's points, side to move,
// White's and Black's stones in hand). Move text: "d2" (place), "a1-a4" (move or fly),
// with "xg7" appended when the move closes a mill and removes the stone on g7.
import { element, outcomeColour } from './grid.js';

const CELL = 60;
const MARGIN = 30;
const HAND = 48;  // the band above (Black) and below (White) the board for stones in hand
const STONE = 21;
const COLOURS = [
  { fill: '#fdf8ec', stroke: '#3b3b3b', name: 'White' },
  { fill: '#2a2a2e', stroke: '#000', name: 'Black' },
];

// {stones: Map point -> 'W' | 'B', side: 0 | 1, hand: [white, black]}.
export function parsePosition(text) {
  const stones = new Map();
  const words = text.trim().split(/\s+/);
  let rest = words;
  for (const letter of ['W', 'B']) {
    const word = rest.find((w) => w.startsWith(`${letter}:`)) ?? `${letter}:`;
    for (const point of word.slice(2).split(',')) {
      if (point) stones.set(point, letter);
    }
    rest = rest.filter((w) => w !== word);
  }
  const [side, white, black] = rest;
  return { stones, side: side === 'b' ? 1 : 0, hand: [Number(white) || 0, Number(black) || 0] };
}

export function sideOfPiece(board, letter) {
  return letter === 'B' ? 1 : 0;
}

// "d2" -> {from: null, to: 'd2'}; "a1-a4xg7" -> {from: 'a1', to: 'a4', remove: 'g7'}.
export function moveSquares(positionText, moveText) {
  const [move, remove] = moveText.split('x');
  const [from, to] = move.includes('-') ? move.split('-') : [null, move];
  return { from, to, remove: remove ?? null };
}

function pointAt(board, name) {
  const point = board.points.find((p) => p.name === name);
  if (!point) return null;
  return { x: MARGIN + point.file * CELL + CELL / 2, y: HAND + MARGIN + (board.ranks - 1 - point.rank) * CELL + CELL / 2 };
}

function drawStone(parent, x, y, side, radius, attributes = {}) {
  const colour = COLOURS[side];
  return element('circle', {
    cx: x, cy: y, r: radius, fill: colour.fill, stroke: colour.stroke, 'stroke-width': 2, ...attributes,
  }, parent);
}

// A side's stones in hand as a row of small stones, with the count and, for the side
// to move, a marker.
function drawHand(svg, width, y, side, count, toMove) {
  const group = element('g', { 'data-hand': side, 'data-count': count, 'pointer-events': 'none' }, svg);
  if (toMove) {
    element('rect', {
      x: 6, y: y - 19, width: width - 12, height: 38, rx: 8, fill: '#d9e7f7', stroke: '#1d6fd1',
      'stroke-width': 1.5, 'data-to-move': side,
    }, group);
  }
  const label = element('text', { x: 16, y: y + 5, 'font-size': 14, fill: '#1d232a' }, group);
  label.textContent = `${COLOURS[side].name}${toMove ? ' to move' : ''}`;
  const room = Math.max(0, width - 160 - 70);
  const step = count > 1 ? Math.min(22, room / (count - 1)) : 0;
  for (let i = 0; i < count; i++) drawStone(group, 150 + i * step, y, side, 9, { 'stroke-width': 1.5 });
  const number = element('text', {
    x: width - 16, y: y + 5, 'font-size': 14, 'text-anchor': 'end', fill: '#1d232a',
  }, group);
  number.textContent = `${count} in hand`;
}

// highlights: {selected, targets: [{square, outcome}], lastMove: {from, to, remove},
// pending: the point a move that waits for its removal goes to}.
export function draw(container, board, positionText, highlights) {
  const { stones, side, hand } = parsePosition(positionText);
  const width = MARGIN * 2 + board.files * CELL;
  const height = HAND * 2 + MARGIN * 2 + board.ranks * CELL;
  const svg = element('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', class: 'points-board' });
  element('rect', { x: 0, y: 0, width, height, fill: '#fbfaf7' }, svg);
  element('rect', {
    x: 4, y: HAND + 4, width: width - 8, height: height - 2 * HAND - 8, rx: 6, fill: '#efe6cf',
  }, svg);

  const lines = element('g', { stroke: '#6b5a3a', 'stroke-width': 4, 'stroke-linecap': 'round' }, svg);
  for (const [from, to] of board.lines) {
    const a = pointAt(board, from);
    const b = pointAt(board, to);
    if (a && b) element('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y }, lines);
  }
  const labels = element('g', { 'font-size': 13, fill: '#6b5f45', 'text-anchor': 'middle' }, svg);
  for (let file = 0; file < board.files; file++) {
    const text = element('text', { x: MARGIN + file * CELL + CELL / 2, y: height - HAND - 10 }, labels);
    text.textContent = String.fromCharCode(97 + file);
  }
  for (let rank = 0; rank < board.ranks; rank++) {
    const text = element('text', { x: MARGIN / 2, y: HAND + MARGIN + (board.ranks - 1 - rank) * CELL + CELL / 2 + 5 },
      labels);
    text.textContent = String(rank + 1);
  }

  // The points, each with a hit area to click; stones and marks above let clicks through.
  const points = element('g', {}, svg);
  for (const point of board.points) {
    const { x, y } = pointAt(board, point.name);
    const group = element('g', { class: 'point', 'data-square': point.name }, points);
    element('circle', { cx: x, cy: y, r: CELL / 2 - 4, fill: 'transparent' }, group);
    element('circle', { cx: x, cy: y, r: 6, fill: '#6b5a3a' }, group);
  }

  const marks = element('g', { 'pointer-events': 'none' }, svg);
  const last = highlights.lastMove;
  for (const name of last ? [last.from, last.to] : []) {
    const at = name && pointAt(board, name);
    if (at) element('circle', { cx: at.x, cy: at.y, r: STONE + 6, fill: '#f3d36b', opacity: 0.7 }, marks);
  }
  const removed = last?.remove && pointAt(board, last.remove);
  if (removed) {
    element('path', {
      d: `M ${removed.x - 10} ${removed.y - 10} L ${removed.x + 10} ${removed.y + 10} ` +
        `M ${removed.x + 10} ${removed.y - 10} L ${removed.x - 10} ${removed.y + 10}`,
      stroke: '#c8393b', 'stroke-width': 3, 'data-removed': last.remove,
    }, marks);
  }
  if (highlights.selected) {
    const at = pointAt(board, highlights.selected);
    if (at) element('circle', { cx: at.x, cy: at.y, r: STONE + 5, fill: 'none', stroke: '#1d6fd1', 'stroke-width': 4 }, marks);
  }

  const pieces = element('g', { 'pointer-events': 'none' }, svg);
  for (const [name, letter] of stones) {
    const at = pointAt(board, name);
    if (!at) continue;
    const stoneSide = sideOfPiece(board, letter);
    const group = element('g', { 'data-piece': letter, 'data-at': name }, pieces);
    drawStone(group, at.x, at.y, stoneSide, STONE, highlights.selected === name && highlights.pending ? { opacity: 0.4 } : {});
    element('circle', {
      cx: at.x, cy: at.y, r: STONE - 6, fill: 'none', stroke: stoneSide === 0 ? '#c9bfa8' : '#55555c', 'stroke-width': 1.5,
    }, group);
  }
  if (highlights.pending) {
    const at = pointAt(board, highlights.pending);
    if (at) drawStone(pieces, at.x, at.y, side, STONE, { opacity: 0.6, 'data-pending': highlights.pending });
  }

  const targets = element('g', { 'pointer-events': 'none' }, svg);
  for (const target of highlights.targets ?? []) {
    const at = pointAt(board, target.square);
    if (!at) continue;
    element('circle', {
      cx: at.x, cy: at.y, r: target.remove ? STONE + 3 : 11, fill: target.remove ? 'none' : outcomeColour(target.outcome),
      stroke: target.remove ? outcomeColour(target.outcome) : '#fff', 'stroke-width': target.remove ? 5 : 2,
      opacity: 0.9, 'data-target': target.square, 'data-outcome': target.outcome,
    }, targets);
  }

  drawHand(svg, width, HAND / 2, 1, hand[1], side === 1);
  drawHand(svg, width, height - HAND / 2, 0, hand[0], side === 0);
  container.replaceChildren(svg);
}
