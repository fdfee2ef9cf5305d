// Drawing of square-grid boards in SVG: files a, b, ... left to right, ranks 1, 2, ...
// bottom to top, as in the position texts. Games on a grid (Jungle Checkers, checkers)
// draw their squares here and their pieces themselves.
export const SVG = 'http://www.w3.org/2000/svg';
export const CELL = 60;
export const MARGIN = 24;

export function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + String(rank + 1);
}

export function parseSquare(name) {
  return { file: name.charCodeAt(0) - 97, rank: Number(name.slice(1)) - 1 };
}

// The top-left corner of a square in SVG units.
export function squareOrigin(board, name) {
  const { file, rank } = parseSquare(name);
  return { x: MARGIN + file * CELL, y: MARGIN + (board.ranks - 1 - rank) * CELL };
}

const OUTCOME_COLOUR = { win: '#2e9d4f', draw: '#d4a017', loss: '#c8393b', unknown: '#9a9a9a' };

export function outcomeColour(outcome) {
  return OUTCOME_COLOUR[outcome] ?? OUTCOME_COLOUR.unknown;
}

// An <svg> with the squares, coordinates (unless the game numbers its squares instead)
// and highlights; returns {svg, pieces} where pieces is the group to draw pieces into
// (above the squares).
export function drawGrid(container, board, highlights, squareFill, { coordinates = true } = {}) {
  const width = MARGIN * 2 + board.files * CELL;
  const height = MARGIN * 2 + board.ranks * CELL;
  const svg = element('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img' });
  element('rect', { x: 0, y: 0, width, height, fill: '#efe6cf' }, svg);
  const squares = element('g', {}, svg);
  for (let rank = 0; rank < board.ranks; rank++) {
    for (let file = 0; file < board.files; file++) {
      const name = squareName(file, rank);
      const { x, y } = squareOrigin(board, name);
      element('rect', {
        x, y, width: CELL, height: CELL, fill: squareFill(name, file, rank), stroke: '#8b7d5b',
        'stroke-width': 1, class: 'square', 'data-square': name,
      }, squares);
    }
  }
  const labels = element('g', { 'font-size': 13, fill: '#6b5f45', 'text-anchor': 'middle' }, svg);
  for (let file = 0; coordinates && file < board.files; file++) {
    const text = element('text', { x: MARGIN + file * CELL + CELL / 2, y: height - 7 }, labels);
    text.textContent = String.fromCharCode(97 + file);
  }
  for (let rank = 0; coordinates && rank < board.ranks; rank++) {
    const text = element('text', { x: MARGIN / 2, y: MARGIN + (board.ranks - 1 - rank) * CELL + CELL / 2 + 5 },
      labels);
    text.textContent = String(rank + 1);
  }
  const marks = element('g', { 'pointer-events': 'none' }, svg);
  if (highlights.lastMove) {
    for (const name of [highlights.lastMove.from, highlights.lastMove.to]) {
      if (!name) continue;
      const { x, y } = squareOrigin(board, name);
      element('rect', { x, y, width: CELL, height: CELL, fill: '#f3d36b', opacity: 0.45 }, marks);
    }
  }
  if (highlights.selected) {
    const { x, y } = squareOrigin(board, highlights.selected);
    element('rect', {
      x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, fill: 'none', stroke: '#1d6fd1', 'stroke-width': 4,
    }, marks);
  }
  const pieces = element('g', { 'pointer-events': 'none' }, svg);
  const targets = element('g', { 'pointer-events': 'none' }, svg);
  for (const target of highlights.targets ?? []) {
    const { x, y } = squareOrigin(board, target.square);
    element('circle', {
      cx: x + CELL / 2, cy: y + CELL / 2, r: 11, fill: outcomeColour(target.outcome), stroke: '#fff',
      'stroke-width': 2, opacity: 0.9, 'data-target': target.square, 'data-outcome': target.outcome,
    }, targets);
  }
  container.replaceChildren(svg);
  return { svg, pieces };
}

// The squares of a FEN-like placement: ranks from the top down separated by '/', a letter
// per piece, digits for runs of empty squares. Returns square name -> piece letter.
export function parsePlacement(placement) {
  const squares = new Map();
  const ranks = placement.split('/');
  ranks.forEach((row, index) => {
    const rank = ranks.length - 1 - index;
    let file = 0;
    for (const c of row) {
      if (c >= '1' && c <= '9') {
        file += Number(c);
      } else {
        squares.set(squareName(file, rank), c);
        file += 1;
      }
    }
  });
  return squares;
}
