// The value of each position of the game so far, as an SVG chart: plies along, and up
// for a White win, down for a Black win, by the plies left to the end with perfect play;
// draws on the axis; a gap where the position is not in the databases.
import { element } from './games/grid.js';

const COLOUR = { 0: '#1d6fd1', 1: '#1d232a', draw: '#d4a017' };

// entries: [{ply, side, value}], value from the side to move as the API gives it.
// Returns the signed value: + White wins, - Black wins, 0 draw, null unknown.
export function whiteView(side, value) {
  if (!value) return null;
  if (value.outcome === 'draw') return { winner: 'draw', depth: 0 };
  const winner = value.outcome === 'win' ? side : 1 - side;
  return { winner, depth: value.depth ?? null };  // null: win/draw/loss databases
}

export function drawChart(container, entries, sides) {
  const width = 520;
  const height = 200;
  const left = 40;
  const right = 12;
  const top = 12;
  const bottom = 24;
  const points = entries.map((e) => ({ ply: e.ply, view: whiteView(e.side, e.value) }));
  const maxDepth = Math.max(2, ...points.filter((p) => p.view && p.view.depth !== null).map((p) => p.view.depth));
  const maxPly = Math.max(4, ...points.map((p) => p.ply));
  const x = (ply) => left + (ply / maxPly) * (width - left - right);
  const middle = top + (height - top - bottom) / 2;
  const half = (height - top - bottom) / 2;
  const y = (view) => {
    if (view.winner === 'draw') return middle;
    const sign = view.winner === 0 ? -1 : 1;
    return middle + sign * ((view.depth ?? maxDepth) / maxDepth) * half;
  };
  const svg = element('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'value over the game' });
  const axes = element('g', { stroke: '#999', 'stroke-width': 1 }, svg);
  element('line', { x1: left, y1: middle, x2: width - right, y2: middle }, axes);
  element('line', { x1: left, y1: top, x2: left, y2: height - bottom }, axes);
  const labels = element('g', { 'font-size': 10, fill: '#555' }, svg);
  const label = (text, lx, ly, anchor = 'end') => {
    const node = element('text', { x: lx, y: ly, 'text-anchor': anchor }, labels);
    node.textContent = text;
  };
  label(String(maxDepth), left - 4, top + 8);
  label('0', left - 4, middle + 4);
  label(String(maxDepth), left - 4, height - bottom);
  label(`${sides[0]} wins`, left + 4, top + 8, 'start');
  label(`${sides[1]} wins`, left + 4, height - bottom - 2, 'start');
  label('ply', left - 6, height - 8);
  for (let ply = 0; ply <= maxPly; ply += Math.max(1, Math.ceil(maxPly / 10))) {
    label(String(ply), x(ply), height - 8, 'middle');
  }
  // Lines join consecutive known positions; unknown ones break the line.
  let path = '';
  let drawing = false;
  for (const p of points) {
    if (!p.view) {
      drawing = false;
      continue;
    }
    path += `${drawing ? 'L' : 'M'} ${x(p.ply).toFixed(1)} ${y(p.view).toFixed(1)} `;
    drawing = true;
  }
  if (path) element('path', { d: path, fill: 'none', stroke: '#777', 'stroke-width': 1.5 }, svg);
  for (const p of points) {
    if (!p.view) continue;
    const dot = element('circle', {
      cx: x(p.ply), cy: y(p.view), r: 4, fill: COLOUR[p.view.winner], stroke: '#fff', 'stroke-width': 1,
      'data-ply': p.ply,
    }, svg);
    const title = element('title', {}, dot);
    title.textContent = p.view.winner === 'draw'
      ? `ply ${p.ply}: draw`
      : `ply ${p.ply}: ${sides[p.view.winner]} wins` + (p.view.depth === null ? '' : ` in ${p.view.depth}`);
  }
  container.replaceChildren(svg);
}
