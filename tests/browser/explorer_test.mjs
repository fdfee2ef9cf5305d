// The explorer page in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core from npm): builds 3-piece Jungle databases in a temporary folder,
// starts `gamesolver serve` on them, pastes a 3-piece position into the page, plays
// moves by the move list and by clicking the board, takes one back, lets the perfect
// player answer, and checks every value the page shows against `gamesolver probe
// --json`. Then the same for a mill game (Five Men's Morris, 5 stones a side, built
// whole): placing by clicking points, a placement and a slide that close a mill with the
// stone to remove chosen by a click, and the stones in hand. Then English checkers (3
// pieces, built whole): the numbered board, a step and a double jump played by clicking,
// and two captures that join the same squares left to the move list. Then Dobutsu shogi
// (lions and chicks, built whole): the hands beside the board, a capture into the hand
// and a drop by clicking the piece in hand. Then the proof tree of a store `gamesolver
// prove` wrote (a 4-piece Jungle position above the 3-piece databases), which the server
// was given with --store: its root and counts as `prove --status --json` has them, and a
// best line whose every move, played from the step before, gives the next step's
// position. Saves a screenshot of each. Exits 77 (skipped) only when Chromium cannot start.
//
//   node tests/browser/explorer_test.mjs --binary build/gamesolver --web web --out build
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { moveSquares } from '../../web/games/jungle.js';
import { moveSquares as millMoveSquares } from '../../web/games/mill.js';
import { moveSquares as checkersMoveSquares } from '../../web/games/checkers.js';
import { moveSquares as dobutsuMoveSquares } from '../../web/games/dobutsu.js';

const SKIP = 77;
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// Three pieces: White's dog and tiger against Black's dog, White to move.
const START = '7/2t1d2/7/7/7/2D4/7 w';
const JUNGLE = { game: 'jungle', variant: null };
const FIVE = { game: 'morris', variant: 'five' };
const CHECKERS = { game: 'checkers', variant: null };
// The root of the proof tree the server shows: White's rat and dog against Black's dog
// and elephant, a loss for White.
const PROOF_ROOT = '7/2e4/7/3d3/7/7/R1D4 w';
// Dobutsu shogi with the lions and chicks only (--rule kinds=C), built whole.
const DOBUTSU_CHICKS = { game: 'dobutsu', variant: null, rules: ['kinds=C'] };

function argument(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const binary = resolve(argument('--binary', 'build/gamesolver'));
const web = resolve(argument('--web', 'web'));
const out = resolve(argument('--out', '.'));

let checks = 0;
function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
  checks++;
}

function valueText(value) {
  if (!value) return 'not in the databases';
  if (value.outcome === 'draw' || value.depth === undefined) return value.outcome;
  return `${value.outcome} in ${value.depth}`;
}

function probe(data, position, { game, variant, rules = [] } = JUNGLE) {
  const args = ['probe', game, position, '--json', '--data', data];
  if (variant) args.push('--variant', variant);
  for (const rule of rules) args.push('--rule', rule);
  return JSON.parse(execFileSync(binary, args, { encoding: 'utf8' }));
}

function startServer(data, stores) {
  return new Promise((resolvePort, reject) => {
    const server = spawn(binary, ['serve', '--port', '0', '--data', data, '--web', web,
      ...stores.flatMap((store) => ['--store', store])],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no listening line from gamesolver serve: ${seen}`)), 30000);
    server.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolvePort({ server, port: Number(match[1]) });
      }
    });
    server.on('exit', (code) => reject(new Error(`gamesolver serve exited with ${code}: ${seen}`)));
  });
}

async function loadPlaywright() {
  try {
    return await import('playwright-core');
  } catch (error) {
    console.error('playwright-core is not installed: run `npm ci` at the repository root (scripts/test.sh does).');
    throw error;
  }
}

// The page shows the report of the position exactly as the probe gives it.
async function expectShown(page, data, position, game = JUNGLE) {
  await page.waitForSelector(`body[data-position="${position}"]`, { timeout: 15000 });
  const expected = probe(data, position, game);
  const value = await page.$eval('#value', (e) => ({ outcome: e.dataset.outcome, depth: e.dataset.depth, text: e.textContent }));
  check(value.outcome === (expected.value ? expected.value.outcome : 'unknown'),
    `${position}: value ${value.outcome}, probe ${JSON.stringify(expected.value)}`);
  check(value.text.startsWith(valueText(expected.value)), `${position}: shown '${value.text}', probe ${valueText(expected.value)}`);
  if (expected.value && expected.value.depth !== undefined) check(Number(value.depth) === expected.value.depth, `${position}: depth`);
  const moves = await page.$$eval('#moves li', (items) => items.map((li) => ({
    move: li.dataset.move, outcome: li.dataset.outcome, depth: li.dataset.depth,
    text: li.querySelector('.move-value').textContent, best: li.classList.contains('best'),
  })));
  check(moves.length === expected.moves.length, `${position}: ${moves.length} moves shown, probe has ${expected.moves.length}`);
  expected.moves.forEach((m, i) => {
    const shown = moves[i];
    check(shown.move === m.move, `${position}: move ${i} is ${shown.move}, probe ${m.move}`);
    check(shown.outcome === (m.value ? m.value.outcome : 'unknown'), `${position}: ${m.move} outcome`);
    check(shown.text === valueText(m.value), `${position}: ${m.move} shows '${shown.text}', probe '${valueText(m.value)}'`);
    if (m.value && m.value.depth !== undefined) check(Number(shown.depth) === m.value.depth, `${position}: ${m.move} depth`);
    check(shown.best === (m.move === expected.best), `${position}: ${m.move} best mark`);
  });
  check(await page.$eval('#position-text', (e) => e.value) === position, `${position}: position box`);
  return expected;
}

// A position of a variant with no databases in the data directory: the probe refuses it
// with a clear error, and the page shows it with no value and every legal move unknown.
async function expectUnbuilt(page, data, position, { game, variant }, legalMoves) {
  await page.waitForSelector(`body[data-position="${position}"]`, { timeout: 15000 });
  const args = ['probe', game, position, '--json', '--data', data];
  if (variant) args.push('--variant', variant);
  let refused = '';
  try {
    execFileSync(binary, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    refused = String(error.stderr);
  }
  check(refused.includes(`no databases of ${game}`), `${position}: probe refuses it: '${refused}'`);
  const value = await page.$eval('#value', (e) => ({ outcome: e.dataset.outcome, text: e.textContent }));
  check(value.outcome === 'unknown', `${position}: value ${value.outcome}, expected unknown`);
  check(value.text.startsWith(valueText(null)), `${position}: shown '${value.text}'`);
  const outcomes = await page.$$eval('#moves li', (items) => items.map((li) => li.dataset.outcome));
  check(outcomes.length === legalMoves, `${position}: ${outcomes.length} moves shown, ${legalMoves} legal`);
  check(outcomes.every((o) => o === 'unknown'), `${position}: every move unknown: ${outcomes}`);
}

// The move of a report by its text.
function moveOf(report, text) {
  const move = report.moves.find((m) => m.move === text);
  check(move !== undefined, `${report.position}: ${text} is a legal move`);
  return move;
}

// The coloured targets on the board: point -> outcome.
async function shownTargets(page) {
  const targets = await page.$$eval('[data-target]', (nodes) => nodes.map((n) => [n.dataset.target, n.dataset.outcome]));
  return new Map(targets);
}

// Every target carries the outcome of the best move it stands for (moves come best first).
function checkTargets(report, targets, squareOf, what) {
  const expected = new Map();
  for (const m of report.moves) {
    const square = squareOf(millMoveSquares(report.position, m.move), m);
    if (square && !expected.has(square)) expected.set(square, m.value ? m.value.outcome : 'unknown');
  }
  check(targets.size === expected.size, `${report.position}: ${targets.size} ${what} shown, ${expected.size} expected`);
  for (const [square, outcome] of expected) {
    check(targets.get(square) === outcome, `${report.position}: ${what} ${square} is ${targets.get(square)}, ` +
      `probe ${outcome}`);
  }
}

async function stonesInHand(page) {
  return page.$$eval('[data-hand]', (nodes) => nodes.map((n) => Number(n.dataset.count)));
}

// Five Men's Morris: the game and variant chosen in the page, placements by clicking,
// a mill closed by a placement and by a slide, each removal chosen by clicking the stone.
async function millGame(page, data) {
  // The game, then the variant: another board, so the page goes to the variant's start.
  await page.selectOption('#game', 'morris');
  await expectUnbuilt(page, data, 'W: B: w 9 9', { game: 'morris', variant: null }, 24);
  check(await page.$$eval('[data-square]', (n) => n.length) === 24, 'Nine Men\'s Morris has 24 points');
  await page.selectOption('#variant', 'five');
  let report = await expectShown(page, data, 'W: B: w 5 5', FIVE);
  check(report.value !== null, 'the start of Five Men\'s Morris is in the databases');
  check(await page.$$eval('[data-square]', (n) => n.length) === 16, 'Five Men\'s Morris has 16 points');
  check(await page.$$eval('#board svg line', (n) => n.length) === 20, 'the small board has 20 segments');
  const hands = await stonesInHand(page);
  check(hands.length === 2 && hands.every((h) => h === 5), `5 stones in each hand: ${hands}`);
  check(await page.$('[data-to-move="0"]') !== null, 'White is to move on the board');

  // Placements by clicking empty points: every empty point is a target, coloured by its value.
  checkTargets(report, await shownTargets(page), (m) => (m.from ? null : m.to), 'placements');
  for (const point of ['a1', 'b2', 'c1', 'b4']) {
    const move = moveOf(report, point);
    await page.click(`[data-square="${point}"]`);
    report = await expectShown(page, data, move.position, FIVE);
    check(await page.$(`[data-piece][data-at="${point}"]`) !== null, `a stone on ${point}`);
  }
  check(report.position === 'W:a1,c1 B:b2,b4 w 3 3', `after four placements: ${report.position}`);
  check(await page.$('[data-to-move="0"]') !== null, 'White is to move again');
  check((await stonesInHand(page)).join() === '3,3', 'three stones in each hand');

  // e1 closes a1-c1-e1: nothing is played until the stone to remove is clicked, and the
  // stones it may remove are coloured by the value of each removal.
  await page.click('[data-square="e1"]');
  await page.waitForSelector('[data-pending="e1"]');
  check(await page.$eval('body', (b) => b.dataset.position) === report.position, 'the mill waits for its removal');
  check((await page.$eval('#message', (e) => e.textContent)).includes('closes a mill'), 'the page asks for a removal');
  checkTargets(report, await shownTargets(page), (m) => (!m.from && m.to === 'e1' ? m.remove : null), 'removals');
  await page.screenshot({ path: join(out, 'explorer-morris.png') });
  const removal = moveOf(report, 'e1xb4');
  await page.click('[data-square="b4"]');
  report = await expectShown(page, data, removal.position, FIVE);
  check(await page.$('[data-piece][data-at="b4"]') === null, 'the stone on b4 is gone');
  check(await page.$('[data-removed="b4"]') !== null, 'the last move marks the removed stone');
  check(await page.$('[data-to-move="1"]') !== null, 'Black is to move');

  // A click elsewhere while a removal is asked for cancels the move.
  const sliding = 'W:a1,c1,e3 B:b2,b4,d4 w 0 0';
  await page.fill('#position-text', sliding);
  await page.click('#load');
  report = await expectShown(page, data, sliding, FIVE);
  check((await stonesInHand(page)).join() === '0,0', 'no stones in hand');
  check((await shownTargets(page)).size === 0, 'no placements without stones in hand');
  await page.click('[data-square="e3"]');
  checkTargets(report, await shownTargets(page), (m) => (m.from === 'e3' ? m.to : null), 'destinations of e3');
  await page.click('[data-square="e1"]');
  await page.waitForSelector('[data-pending="e1"]');
  checkTargets(report, await shownTargets(page), (m) => (m.from === 'e3' && m.to === 'e1' ? m.remove : null),
    'removals');
  await page.click('[data-square="c1"]');  // White's own stone: no removal
  await page.waitForSelector('[data-pending]', { state: 'detached' });
  check(await page.$eval('body', (b) => b.dataset.position) === sliding, 'a cancelled removal plays nothing');

  // The slide e3-e1 with the removal of d4, then taken back; then a plain slide.
  const slide = moveOf(report, 'e3-e1xd4');
  await page.click('[data-square="e3"]');
  await page.click('[data-square="e1"]');
  await page.click('[data-square="d4"]');
  await expectShown(page, data, slide.position, FIVE);
  await page.click('#takeback');
  report = await expectShown(page, data, sliding, FIVE);
  const plain = moveOf(report, 'e3-e5');
  await page.click('[data-square="e3"]');
  await page.click('[data-square="e5"]');
  await expectShown(page, data, plain.position, FIVE);
}

// English checkers: the 32 numbered squares, men and kings where the text puts them, the
// side to move, a step and a double jump by clicking, each with the values of the probe.
async function checkersGame(page, data, port) {
  const board = (await (await fetch(`http://127.0.0.1:${port}/api/v1/games/checkers`)).json()).board;
  const squareOf = (n) => board.numbered[n - 1];
  await page.selectOption('#game', 'checkers');
  await expectShown(page, data, 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12', CHECKERS);
  check(await page.$$eval('[data-number]', (n) => n.length) === 32, '32 numbered squares');
  check(await page.$eval(`[data-number="1"]`, (e) => e.textContent) === '1', 'square 1 is labelled');
  check(await page.$$eval('[data-piece="b"]', (n) => n.length) === 12, '12 black men');
  check(await page.$$eval('[data-piece="w"]', (n) => n.length) === 12, '12 white men');
  check(await page.$(`[data-piece="b"][data-at="${squareOf(1)}"]`) !== null, 'a black man on 1');
  check(await page.$(`[data-piece="w"][data-at="${squareOf(32)}"]`) !== null, 'a white man on 32');
  check(await page.$('[data-to-move="0"]') !== null, 'Black moves first');

  // Three pieces: White's men on 16 and 18 against Black's king on 10, White to move; its
  // moves win, draw and lose.
  const three = 'W:W16,18:BK10';
  await page.fill('#position-text', three);
  await page.click('#load');
  let report = await expectShown(page, data, three, CHECKERS);
  check(report.value !== null, 'the pasted position is in the databases');
  check(await page.$(`[data-piece="B"][data-at="${squareOf(10)}"]`) !== null, 'a black king on 10');
  check(await page.$(`[data-piece="w"][data-at="${squareOf(18)}"]`) !== null, 'a white man on 18');
  check(await page.$('[data-to-move="1"]') !== null, 'White is to move on the board');
  check(await page.$eval('#chart-up', (e) => e.textContent) === 'Black', 'the chart has Black, the first player, up');

  // Click 18: its destinations, coloured by the value of the move to each.
  await page.click(`rect[data-square="${squareOf(18)}"]`);
  const targets = await shownTargets(page);
  const expected = new Map(report.moves.filter((m) => m.move.startsWith('18-'))
    .map((m) => [checkersMoveSquares(report.position, m.move, board).to, m.value ? m.value.outcome : 'unknown']));
  check(expected.size === 2 && targets.size === expected.size, `18 has ${targets.size} destinations shown`);
  for (const [square, outcome] of expected) {
    check(targets.get(square) === outcome, `target ${square} is ${targets.get(square)}, probe ${outcome}`);
  }
  await page.screenshot({ path: join(out, 'explorer-checkers.png') });

  // The step 18-15 by clicking its square; Black's answer, the double jump 10x19x12, by
  // clicking its last square only.
  const step = moveOf(report, '18-15');
  await page.click(`rect[data-square="${squareOf(15)}"]`);
  report = await expectShown(page, data, step.position, CHECKERS);
  check(await page.$('[data-to-move="0"]') !== null, 'Black is to move');
  const jump = moveOf(report, '10x19x12');
  await page.click(`rect[data-square="${squareOf(10)}"]`);
  check((await shownTargets(page)).get(squareOf(12)) === (jump.value ? jump.value.outcome : 'unknown'),
    'the jump\'s last square is a target with its value');
  await page.click(`rect[data-square="${squareOf(12)}"]`);
  report = await expectShown(page, data, jump.position, CHECKERS);
  check(await page.$(`[data-piece="B"][data-at="${squareOf(12)}"]`) !== null, 'the king landed on 12');
  check(await page.$$eval('[data-piece="w"]', (n) => n.length) === 0, 'both white men are captured');
  check(await page.$(`[data-path="${[10, 19, 12].map(squareOf).join(' ')}"]`) !== null,
    'the last move is drawn through 19');

  // A king that can take four men round a diamond either way: two moves from 10 back to 10.
  // Clicking cannot tell them apart, so nothing is played and the page points to the list.
  const diamond = 'B:W14,15,22,23:BK10';
  await page.fill('#position-text', diamond);
  await page.click('#load');
  report = await expectShown(page, data, diamond, CHECKERS);
  check(report.moves.length === 2, `two captures from the diamond: ${report.moves.map((m) => m.move)}`);
  await page.click(`rect[data-square="${squareOf(10)}"]`);
  await page.click(`rect[data-square="${squareOf(10)}"]`);
  await page.waitForFunction(() => document.getElementById('message').textContent.includes('move list'));
  check(await page.$eval('body', (b) => b.dataset.position) === diamond, 'an ambiguous click plays nothing');
  const listed = report.moves[1];
  await page.click(`#moves li[data-move="${listed.move}"] button`);
  await expectShown(page, data, listed.position, CHECKERS);
}

// Dobutsu shogi: the 3 x 4 board and the hands beside it; the full game unbuilt, then the
// sub-game of lions and chicks: a capture that puts a chick in hand, and a drop played by
// clicking the piece in hand and then an empty square, each with the values of the probe.
async function dobutsuGame(page, data, problems) {
  await page.selectOption('#game', 'dobutsu');
  await expectUnbuilt(page, data, 'gle/1c1/1C1/ELG b -', { game: 'dobutsu', variant: null }, 4);
  check(await page.$$eval('rect[data-square]', (n) => n.length) === 12, 'a board of 12 squares');
  check(await page.$$eval('[data-piece]', (n) => n.length) === 8, 'eight animals');
  // The sub-game has the same board, so the page keeps the position, which has animals
  // the sub-game lacks: the server refuses it (400, an expected error in the page's log,
  // cleared below) and the page keeps the last position; the start button goes to the
  // sub-game's start.
  await page.selectOption('#variant', 'standard,kinds=C');
  await page.waitForSelector('#message.error', { timeout: 15000 });
  problems.length = 0;
  await page.click('#start');
  let report = await expectShown(page, data, '1l1/1c1/1C1/1L1 b -', DOBUTSU_CHICKS);
  check(report.value !== null, 'the start of the chicks-only game is in the databases');
  check(await page.$('[data-to-move="0"]') !== null, 'sente is to move');
  check(await page.$$eval('[data-hand]', (n) => n.length) === 0, 'both hands are empty');

  // b2b3 takes gote's chick into sente's hand; gote's lion takes back.
  let move = moveOf(report, 'b2b3');
  await page.click('rect[data-square="b2"]');
  await page.click('rect[data-square="b3"]');
  report = await expectShown(page, data, move.position, DOBUTSU_CHICKS);
  check(report.position === '1l1/1C1/3/1L1 w C', `after the capture: ${report.position}`);
  check(await page.$('[data-hand="0"][data-piece="C"]') !== null, 'sente holds the chick beside the board');
  move = moveOf(report, 'b4b3');
  await page.click('rect[data-square="b4"]');
  await page.click('rect[data-square="b3"]');
  report = await expectShown(page, data, move.position, DOBUTSU_CHICKS);
  check(await page.$('[data-hand="1"][data-piece="c"]') !== null, 'gote holds a chick');
  check(await page.$('[data-hand="1"][data-square]') === null, 'the hand of the side not to move is not clickable');

  // A drop: click sente's chick in hand; every empty square is a target coloured by the
  // value of the drop there; click a2.
  await page.click('[data-hand="0"][data-square="*C"]');
  const targets = await shownTargets(page);
  const drops = report.moves.filter((m) => m.move.startsWith('C*'));
  check(drops.length === 10 && targets.size === drops.length, `${targets.size} drop targets shown, ${drops.length} drops`);
  for (const drop of drops) {
    const { to } = dobutsuMoveSquares(report.position, drop.move);
    check(targets.get(to) === (drop.value ? drop.value.outcome : 'unknown'), `drop target ${to}`);
  }
  await page.screenshot({ path: join(out, 'explorer-dobutsu.png') });
  move = moveOf(report, 'C*a2');
  await page.click('rect[data-square="a2"]');
  report = await expectShown(page, data, move.position, DOBUTSU_CHICKS);
  check(await page.$('[data-piece="C"][data-at="a2"]') !== null, 'the dropped chick stands on a2');
  check(await page.$('[data-hand="0"]') === null, 'sente\'s hand is empty again');
}

// The proof panel against the store's own status, and a step of its best line shown on
// the board.
async function proofTree(page, data, store) {
  const status = JSON.parse(execFileSync(binary,
    ['prove', 'jungle', PROOF_ROOT, '--store', store, '--data', data, '--status', '--json'], { encoding: 'utf8' }));
  check(status.result === 'loss', `the proof store's root is a loss (${status.result})`);
  await page.waitForSelector('body[data-proof="0"]', { timeout: 15000 });
  check(await page.$eval('#proof-panel', (e) => !e.hidden), 'the proof panel is shown');
  const root = await page.$eval('#proof-root', (e) => ({ result: e.dataset.result, text: e.textContent }));
  check(root.result === status.result, `proof root shows ${root.result}, the store has ${status.result}`);
  check(root.text.startsWith(`${PROOF_ROOT}: ${status.result}`), `proof root text '${root.text}'`);
  const counts = await page.$eval('#proof-counts', (e) => e.textContent);
  const expected = `threshold ${status.threshold}, ${status.nodes} nodes (${status.proven} proven, ` +
    `${status.open} open, ${status.likely} likely)`;
  check(counts.includes(expected), `proof counts '${counts}', expected '${expected}'`);
  const line = await page.$$eval('#proof-line li', (items) => items.map((li) => ({
    position: li.dataset.position, result: li.dataset.result, move: li.querySelector('.move-text').textContent,
  })));
  check(line.length >= 3, `a best line of ${line.length} positions`);
  check(line[0].move === 'root' && line[0].position === PROOF_ROOT && line[0].result === 'loss', 'the line starts at the root');
  for (let i = 1; i < line.length; i++) {
    const before = probe(data, line[i - 1].position);
    const played = before.moves.find((m) => m.move === line[i].move);
    check(played !== undefined, `${line[i].move} is a move of ${line[i - 1].position}`);
    check(played.position === line[i].position, `${line[i].move} from ${line[i - 1].position} gives ${line[i].position}`);
  }
  await page.click('#proof-line li:nth-child(2) button');
  await page.waitForSelector(`body[data-position="${line[1].position}"]`, { timeout: 15000 });
  await page.screenshot({ path: join(out, 'explorer-proof.png') });
}

async function main() {
  if (!existsSync(binary)) throw new Error(`no gamesolver binary at ${binary}`);
  const { chromium } = await loadPlaywright();
  const work = mkdtempSync(join(tmpdir(), 'gamesolver-browser-'));
  const data = join(work, 'data');
  let server = null;
  let context = null;
  try {
    execFileSync(binary, ['build', 'jungle', '--pieces', '3', '--data', data, '--quiet'], { stdio: 'ignore' });
    execFileSync(binary, ['build', 'morris', '--variant', 'five', '--pieces', '5', '--data', data, '--quiet'],
      { stdio: 'ignore' });
    execFileSync(binary, ['build', 'checkers', '--pieces', '3', '--data', data, '--quiet'], { stdio: 'ignore' });
    execFileSync(binary, ['build', 'dobutsu', '--rule', 'kinds=C', '--data', data, '--quiet'], { stdio: 'ignore' });
    // A small proof, reproducible: back-end jobs of 30 nodes.
    const store = join(work, 'proof.db');
    execFileSync(binary, ['prove', 'jungle', PROOF_ROOT, '--store', store, '--data', data, '--prover-time', '0',
      '--prover-nodes', '30', '--workers', '1', '--quiet'], { stdio: 'ignore' });
    const started = await startServer(data, [store]);
    server = started.server;
    try {
      context = await chromium.launchPersistentContext(join(work, 'profile'), {
        executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1200, height: 860 },
      });
    } catch (error) {
      console.log(`SKIPPED: chromium cannot start: ${error.message.split('\n')[0]}`);
      return SKIP;
    }
    const page = context.pages()[0] ?? await context.newPage();
    const problems = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto(`http://127.0.0.1:${started.port}/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
    const startPosition = '1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w';
    await expectShown(page, data, startPosition);  // 8 pieces: no values, every move grey

    // Paste a 3-piece position.
    await page.fill('#position-text', START);
    await page.click('#load');
    let report = await expectShown(page, data, START);
    check(report.value !== null, 'the pasted position is in the databases');

    // A move from the list: the second one, so that it is not always the best.
    const listed = report.moves[Math.min(1, report.moves.length - 1)];
    await page.click(`#moves li[data-move="${listed.move}"] button`);
    report = await expectShown(page, data, listed.position);

    // A move by clicking the piece, then its destination.
    const clicked = report.moves[report.moves.length - 1];
    const { from, to } = moveSquares(report.position, clicked.move);
    await page.click(`rect[data-square="${from}"]`);
    const targets = await page.$$eval('[data-target]', (nodes) => nodes.map((n) => n.dataset.target));
    check(targets.includes(to), `clicking ${from} shows ${to} among the destinations ${targets}`);
    await page.click(`rect[data-square="${to}"]`);
    const afterClick = await expectShown(page, data, clicked.position);

    // Take it back.
    await page.click('#takeback');
    report = await expectShown(page, data, listed.position);

    // Against the perfect player: it plays the side not to move now.
    const mover = report.position.endsWith(' w') ? 0 : 1;
    await page.selectOption('#opponent', String(1 - mover));
    const mine = report.moves[0];
    const answered = probe(data, mine.position);
    await page.click(`#moves li[data-move="${mine.move}"] button`);
    if (!answered.terminal && answered.best) {
      const reply = answered.moves.find((m) => m.move === answered.best);
      await expectShown(page, data, reply.position);
      check(await page.$eval('body', (b) => b.dataset.ply) === '3', 'three plies played');
    } else {
      await expectShown(page, data, mine.position);
    }
    await page.selectOption('#opponent', 'none');

    // The chart has a point for every position with a value.
    const points = await page.$$eval('#chart circle[data-ply]', (nodes) => nodes.length);
    check(points >= 4, `chart shows ${points} points`);

    // The screenshot: a piece picked, its destinations coloured by their values.
    const shown = probe(data, await page.$eval('body', (b) => b.dataset.position));
    if (shown.moves.length > 0) {
      await page.click(`rect[data-square="${moveSquares(shown.position, shown.moves[0].move).from}"]`);
      await page.waitForSelector('[data-target]');
    }
    await page.screenshot({ path: join(out, 'explorer.png') });

    // A bad paste is an error message (and the one expected error in the console); the
    // position stays.
    check(problems.length === 0, `no errors in the page: ${problems.join('; ')}`);
    const before = await page.$eval('body', (b) => b.dataset.position);
    await page.fill('#position-text', '7/7/7 w');
    await page.click('#load');
    await page.waitForSelector('#message.error', { timeout: 15000 });
    check(await page.$eval('body', (b) => b.dataset.position) === before, 'a bad paste keeps the position');
    await page.fill('#position-text', before);
    check(afterClick.position === clicked.position, 'the clicked move was played');

    problems.length = 0;
    await millGame(page, data);
    check(problems.length === 0, `no errors in the page (mill game): ${problems.join('; ')}`);
    await checkersGame(page, data, started.port);
    check(problems.length === 0, `no errors in the page (checkers): ${problems.join('; ')}`);
    await dobutsuGame(page, data, problems);
    check(problems.length === 0, `no errors in the page (dobutsu): ${problems.join('; ')}`);
    await proofTree(page, data, store);
    check(problems.length === 0, `no errors in the page (proof tree): ${problems.join('; ')}`);
    console.log(`explorer browser test: ${checks} checks passed; screenshots ${join(out, 'explorer.png')}, ` +
      `${join(out, 'explorer-morris.png')}, ${join(out, 'explorer-checkers.png')}, ${join(out, 'explorer-dobutsu.png')}, ` +
      `${join(out, 'explorer-proof.png')}`);
    return 0;
  } finally {
    if (context) await context.close();
    if (server) server.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code), (error) => {
  console.error(error.stack ?? String(error));
  process.exit(1);
});
