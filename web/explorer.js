// The explorer page: asks the server (/api/v1/) for the value of the position and of
// every move, draws the board with the game's drawing module (games/), and keeps the
// game so far for taking back and for the chart.
import { drawingFor } from './games/index.js';
import { drawChart } from './chart.js';

const $ = (id) => document.getElementById(id);

const state = {
  games: [],
  game: null,     // an entry of /api/v1/games
  variant: null,  // an entry of game.variants
  history: [],    // [{report, move}]: move is the text of the move that led here
  selected: null, // the square of the piece picked for a move
  pending: null,  // {from, to, moves}: a move that closed a mill, waiting for the stone it removes
  token: 0,       // increases with every navigation; stale answers are dropped
};

// --- the API ---------------------------------------------------------------------

async function api(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) throw new Error(body?.error ?? `HTTP ${response.status}`);
  return body;
}

function positionPath(position, move) {
  const query = new URLSearchParams({ p: position, variant: state.variant.name });
  if (move) query.set('move', move);
  return `/api/v1/games/${encodeURIComponent(state.game.name)}/positions?${query}`;
}

// --- text --------------------------------------------------------------------------

// As the CLI writes values: "win in 5", "draw", "loss in 0".
export function valueText(value) {
  if (!value) return 'not in the databases';
  if (value.outcome === 'draw') return 'draw';
  // Databases of win/draw/loss only give no depth.
  return value.depth === undefined ? value.outcome : `${value.outcome} in ${value.depth}`;
}

function outcomeOf(value) {
  return value ? value.outcome : 'unknown';
}

function sideName(side) {
  return state.game.board?.sides?.[side] ?? (side === 0 ? 'first player' : 'second player');
}

function say(text, error = false) {
  $('message').textContent = text;
  $('message').classList.toggle('error', error);
}

// --- navigation ----------------------------------------------------------------------

function current() {
  return state.history[state.history.length - 1]?.report ?? null;
}

async function navigate(action) {
  const token = ++state.token;
  try {
    const result = await action();
    if (token !== state.token) return;
    result();
    say('');
    render();
    schedulePerfectPlayer();
  } catch (error) {
    if (token === state.token) say(error.message, true);
  }
}

function loadPosition(text) {
  return navigate(async () => {
    const report = await api(positionPath(text));
    return () => {
      state.history = [{ report, move: null }];
      state.selected = null;
      state.pending = null;
    };
  });
}

function playMove(move) {
  const report = current();
  if (!report) return Promise.resolve();
  return navigate(async () => {
    const next = await api(positionPath(report.position, move));
    return () => {
      state.history.push({ report: next, move });
      state.selected = null;
      state.pending = null;
    };
  });
}

function perfectSide() {
  const value = $('opponent').value;
  return value === 'none' ? null : Number(value);
}

function takeBack() {
  if (state.history.length <= 1) return;
  state.token++;
  state.history.pop();
  // Against the perfect player, go back to a position where it is your move.
  const side = perfectSide();
  while (side !== null && state.history.length > 1 && current().side === side) state.history.pop();
  state.selected = null;
  state.pending = null;
  say('');
  render();
}

let perfectTimer = null;

function schedulePerfectPlayer() {
  clearTimeout(perfectTimer);
  const report = current();
  const side = perfectSide();
  if (!report || side === null || report.side !== side || report.terminal || report.moves.length === 0) return;
  if (report.best === null) {
    say('The perfect player cannot move: this position is not in the databases.', true);
    return;
  }
  const token = state.token;
  perfectTimer = setTimeout(() => {
    if (token === state.token) playMove(report.best);
  }, 350);
}

// --- drawing -------------------------------------------------------------------------

// The board of the variant (the mill boards differ between variants).
function currentBoard() {
  return state.variant?.board ?? state.game.board;
}

function currentDrawing() {
  return drawingFor(state.game.name, currentBoard());
}

// Every move with the squares it joins: {from, to, remove, move}.
function moveSquares(report) {
  const drawing = currentDrawing();
  if (!drawing) return [];
  return report.moves.map((m) => ({
    from: null, remove: null, ...drawing.moveSquares(report.position, m.move, currentBoard()), move: m,
  }));
}

// One target per square, coloured by the best move to it (the moves come best first).
function targetsOf(moves, squareOf, remove = false) {
  const seen = new Map();
  for (const m of moves) {
    const square = squareOf(m);
    if (!seen.has(square)) seen.set(square, { square, outcome: outcomeOf(m.move.value), remove });
  }
  return [...seen.values()];
}

function renderBoard(report) {
  const drawing = currentDrawing();
  const board = $('board');
  if (!drawing || !currentBoard()) {
    board.textContent = `No board drawing for ${state.game.name} yet: the moves below still work.`;
    return;
  }
  const entry = state.history[state.history.length - 1];
  const previous = state.history[state.history.length - 2];
  const lastMove = entry.move && previous ? drawing.moveSquares(previous.report.position, entry.move, currentBoard()) : null;
  // Waiting for a removal: the stones it may take; a piece picked: its destinations;
  // else the empty squares a piece can be placed on (none in games without placing).
  let targets;
  if (state.pending) {
    targets = targetsOf(state.pending.moves, (m) => m.remove, true);
  } else if (state.selected) {
    targets = targetsOf(moveSquares(report).filter((m) => m.from === state.selected), (m) => m.to);
  } else {
    targets = targetsOf(moveSquares(report).filter((m) => !m.from), (m) => m.to);
  }
  drawing.draw(board, currentBoard(), report.position, {
    selected: state.pending ? state.pending.from : state.selected, targets, lastMove,
    pending: state.pending ? state.pending.to : null,
  });
}

function renderMoves(report) {
  const list = $('moves');
  list.replaceChildren();
  if (report.terminal) {
    list.textContent = report.no_legal_move ? 'No legal move: the game is over.' : 'The game is over.';
    return;
  }
  if (report.moves.length === 0) {
    list.textContent = 'No legal move.';
    return;
  }
  for (const move of report.moves) {
    const item = document.createElement('li');
    item.dataset.move = move.move;
    item.dataset.outcome = outcomeOf(move.value);
    if (move.value && move.value.depth !== undefined) item.dataset.depth = String(move.value.depth);
    if (move.move === report.best) item.classList.add('best');
    const button = document.createElement('button');
    button.type = 'button';
    // The ultra databases' draw class, where they are (docs/ULTRA.md).
    const ultra = move.ultra ? ` (ultra: ${move.ultra})` : '';
    button.title = `${move.move}: ${valueText(move.value)}${ultra} for ${sideName(report.side)}, to ${move.position}`;
    const text = document.createElement('span');
    text.className = 'move-text';
    text.textContent = move.move;
    const value = document.createElement('span');
    value.className = 'move-value';
    value.textContent = valueText(move.value);
    button.append(text, value);
    if (move.ultra && move.value && move.value.outcome === 'draw') {
      const ultraText = document.createElement('span');
      ultraText.className = 'move-ultra';
      ultraText.textContent = move.ultra.replace(/^draw, /, '');
      button.append(ultraText);
    }
    button.addEventListener('click', () => playMove(move.move));
    item.append(button);
    list.append(item);
  }
}

function render() {
  const report = current();
  if (!report) return;
  const side = report.side ?? 0;
  $('to-move').textContent = report.terminal ? 'Game over' : `${sideName(side)} to move`;
  const value = $('value');
  value.dataset.outcome = outcomeOf(report.value);
  if (report.value && report.value.depth !== undefined) {
    value.dataset.depth = String(report.value.depth);
  } else {
    delete value.dataset.depth;
  }
  value.textContent = report.value ? `${valueText(report.value)} for ${sideName(side)}` : valueText(null);
  if (report.ultra) value.textContent += ` (ultra ${report.ultra_heuristic}: ${report.ultra})`;
  $('where').textContent = report.terminal
    ? `${report.position}`
    : `tier ${report.tier}, index ${report.index}` + (report.best ? `; best move ${report.best}` : '');
  $('position-text').value = report.position;
  $('takeback').disabled = state.history.length <= 1;
  $('best').disabled = !report.best;
  renderBoard(report);
  renderMoves(report);
  drawChart($('chart'), state.history.map((e, ply) => ({ ply, side: e.report.side ?? 0, value: e.report.value })),
    [sideName(0), sideName(1)]);
  $('chart-up').textContent = sideName(0);  // the first player: White, or Black in checkers
  $('chart-down').textContent = sideName(1);
  document.body.dataset.position = report.position;
  document.body.dataset.ply = String(state.history.length - 1);
  const hash = new URLSearchParams({ game: state.game.name, variant: state.variant.name, p: report.position });
  history.replaceState(null, '', `#${hash}`);
}

// Clicks play moves: a piece then its destination, or an empty square to place a piece
// there; a move that also removes a piece (a mill) waits for a click on the piece to remove,
// among those its moves may remove.
function onBoardClick(event) {
  const target = event.target.closest('[data-square]');
  const report = current();
  if (!target || !report || report.terminal) return;
  const square = target.dataset.square;
  if (state.pending) {
    const move = state.pending.moves.find((m) => m.remove === square);
    state.pending = null;
    if (move) {
      playMove(move.move.move);
      return;
    }
    say('');
    render();
    return;
  }
  const moves = moveSquares(report);
  const chosen = moves.filter((m) => m.to === square && (state.selected ? m.from === state.selected : !m.from));
  const plain = chosen.filter((m) => !m.remove);
  if (plain.length > 1) {
    // Moves that differ only on the way (checkers captures by other paths): the list tells.
    say(`${plain.map((m) => m.move.move).join(', ')} all join these squares: choose one in the move list.`);
    return;
  }
  if (plain.length === 1) {
    playMove(plain[0].move.move);
    return;
  }
  if (chosen.length > 0) {
    state.pending = { from: state.selected, to: square, moves: chosen };
    state.selected = null;
    say(`${chosen[0].from ? `${chosen[0].from}-` : ''}${square} closes a mill: click the stone to remove.`);
    render();
    return;
  }
  state.selected = moves.some((m) => m.from === square) && square !== state.selected ? square : null;
  render();
}

// --- proof trees ---------------------------------------------------------------------
// The proof stores the server was started with (serve --store FILE), read from
// /api/v1/proofs: the root's answers and the best line.

function answerWord(answer) {
  return answer === null ? '?' : answer ? 'yes' : 'no';
}

// "win? yes (tree), at least a draw? yes (implied)"
function answersText(step) {
  const source = (s) => (s ? ` (${s})` : '');
  return `win? ${answerWord(step.win)}${source(step.win_source)}, ` +
    `at least a draw? ${answerWord(step.at_least_draw)}${source(step.draw_source)}`;
}

function numbersText(item) {
  return item.proof === null ? '' : `; proof number ${item.proof}, disproof number ${item.disproof}`;
}

// The explorer's variant name of a proof's game: its directory's name.
function proofVariant(proof) {
  return [proof.variant, ...proof.rules].join(',');
}

function showOnBoard(proof, position) {
  if (state.game?.name !== proof.game || state.variant?.name !== proofVariant(proof)) {
    chooseGame(proof.game, proofVariant(proof));
  }
  return loadPosition(position);
}

function renderProof(proof) {
  const root = $('proof-root');
  root.dataset.result = proof.root.result;
  root.textContent = `${proof.root.position}: ${proof.root.result} for the side to move`;
  $('proof-counts').textContent = `${proof.name}: threshold ${proof.threshold}, ${proof.nodes} nodes ` +
    `(${proof.proven} proven, ${proof.open} open, ${proof.likely} likely)${numbersText(proof.root)}`;
  const list = $('proof-line');
  list.replaceChildren();
  for (const step of proof.line) {
    const item = document.createElement('li');
    item.dataset.position = step.position;
    item.dataset.result = step.result;
    const move = document.createElement('span');
    move.className = 'move-text';
    move.textContent = step.move ?? 'root';
    const result = document.createElement('span');
    result.className = 'result';
    result.textContent = ` ${step.over ? 'game over: ' : ''}${step.result}`;
    const detail = document.createElement('span');
    detail.className = 'note';
    const ends = step.repeated ? '; repeats a position of the line' : (!step.expanded && !step.over ? '; a leaf' : '');
    detail.textContent = step.over ? '' : ` (${answersText(step)}${numbersText(step)}${ends})`;
    const show = document.createElement('button');
    show.type = 'button';
    show.textContent = 'show';
    show.title = step.position;
    show.addEventListener('click', () => showOnBoard(proof, step.position));
    item.append(move, result, detail, show);
    list.append(item);
  }
}

async function showProof(id) {
  try {
    const proof = await api(`/api/v1/proofs/${encodeURIComponent(id)}`);
    renderProof(proof);
    document.body.dataset.proof = String(proof.id);
  } catch (error) {
    $('proof-root').textContent = error.message;
    $('proof-root').dataset.result = 'error';
    $('proof-line').replaceChildren();
    $('proof-counts').textContent = '';
  }
}

async function loadProofs() {
  let proofs;
  try {
    proofs = (await api('/api/v1/proofs')).proofs;
  } catch {
    return;  // a server without proof trees
  }
  if (proofs.length === 0) return;
  const select = $('proof');
  for (const proof of proofs) {
    const option = document.createElement('option');
    option.value = String(proof.id);
    option.textContent = proof.error ? `${proof.name}: ${proof.error}` : `${proof.name}: ${proof.game} ${proof.root}`;
    select.append(option);
  }
  select.addEventListener('change', () => showProof(select.value));
  $('proof-refresh').addEventListener('click', () => showProof(select.value));
  $('proof-panel').hidden = false;
  await showProof(select.value);
}

// --- games and variants ------------------------------------------------------------

function describeDatabases() {
  const db = state.variant.databases;
  const complete = db.complete_pieces ? `complete up to ${db.complete_pieces} pieces` : 'no complete piece count';
  $('databases').textContent = `${db.tiers.length} tiers built in ${state.game.name}/${db.directory}, ${complete}`;
}

function chooseGame(name, variantName) {
  state.game = state.games.find((g) => g.name === name) ?? state.games[0];
  const variants = $('variant');
  variants.replaceChildren();
  for (const v of state.game.variants) {
    const option = document.createElement('option');
    option.value = v.name;
    option.textContent = v.name;
    variants.append(option);
  }
  state.variant = state.game.variants.find((v) => v.name === variantName) ?? state.game.variants[0];
  variants.value = state.variant.name;
  $('game').value = state.game.name;
  describeDatabases();
}

async function main() {
  $('board').addEventListener('click', onBoardClick);
  $('start').addEventListener('click', () => loadPosition(state.variant.start));
  $('takeback').addEventListener('click', takeBack);
  $('best').addEventListener('click', () => {
    const report = current();
    if (report?.best) playMove(report.best);
  });
  $('opponent').addEventListener('change', schedulePerfectPlayer);
  $('position-form').addEventListener('submit', (event) => {
    event.preventDefault();
    loadPosition($('position-text').value);
  });
  $('copy').addEventListener('click', async () => {
    const text = $('position-text').value;
    try {
      await navigator.clipboard.writeText(text);
      say('Position copied.');
    } catch {
      $('position-text').select();
      say('Select and copy the position text.');
    }
  });
  $('game').addEventListener('change', () => {
    chooseGame($('game').value, null);
    loadPosition(state.variant.start);
  });
  $('variant').addEventListener('change', () => {
    const before = JSON.stringify(currentBoard());
    chooseGame(state.game.name, $('variant').value);
    // The position stays where the board does (a mill variant may have another board).
    const same = before === JSON.stringify(currentBoard());
    loadPosition(same ? (current()?.position ?? state.variant.start) : state.variant.start);
  });

  try {
    state.games = (await api('/api/v1/games')).games;
  } catch (error) {
    say(`Cannot reach the server: ${error.message}`, true);
    return;
  }
  if (state.games.length === 0) {
    say('The server knows no games.', true);
    return;
  }
  for (const game of state.games) {
    const option = document.createElement('option');
    option.value = game.name;
    option.textContent = game.name;
    $('game').append(option);
  }
  const hash = new URLSearchParams(location.hash.slice(1));
  chooseGame(hash.get('game'), hash.get('variant'));
  await loadPosition(hash.get('p') ?? state.variant.start);
  await loadProofs();
  document.body.dataset.ready = 'true';
}

main();
