// The evaluation under the board: the win-chance graph (a line per seat in its colour, the
// current ply marked, a click jumps there), the judgement of the move just played with the
// better move when there was one, each seat's accuracy at the end, and the judgement glyphs
// in the move list. It reads the game's review (`Game.evaluation`); while the review is queued
// or running it says how far it is and asks again. A game in play has no review: each position
// the page shows is evaluated on request (`Position.evaluation`, from the perspective shown,
// so nothing the viewer may not see) and the graph grows with them. `?eval=0` hides all of it
// (embeds too).
import { esc } from './api.js';
import { seatName, named } from './names.js';
import { $, state, gql, GAME_ID, params, perspKey, perspVars, revVars, seatColour, total } from './context.js';

export const EVAL_OFF = params.get('eval') === '0';
// The graph is as wide as its box (its width in pixels, measured at each drawing) and a
// strip 72 px high, so it takes little from the board above it.
const GRAPH = { w: 640, h: 72, l: 34, r: 8, t: 6, b: 14 };
const POLL_MS = 3000;
let review = null; // { plies, moves, seats } once done
let live = null; // while the game is in play: `${perspective}@${ply}` -> win chances
let liveTimer = null;
const LIVE_ITERATIONS = 300;
let jump = null;

const QUERY = `query Review($id: ID!, $revision: Int) { game(id: $id, revision: $revision) { status evaluation {
  status progress queuedAhead iterations calibrated
  plies { winChances }
  moves { ply seat move description before after loss judgement glyph best bestDescription bestWinChance }
  seats { seat accuracy moves inaccuracies mistakes blunders } } } }`;

/** Starts the panel: loads the review (polling while it is made); `goTo(ply)` moves the board. */
export function initEvaluation(goTo) {
  const pane = $('eval-pane');
  if (EVAL_OFF || !pane) return;
  jump = goTo;
  pane.hidden = false;
  $('eval-graph').addEventListener('click', (ev) => {
    if (!review && !live) return;
    state.autoplay && state.autoplay.stop();
    jump(graphPly(ev));
  });
  load();
}

async function load() {
  let d;
  try {
    d = await gql(QUERY, { id: GAME_ID, ...revVars() });
  } catch (e) {
    status(`The evaluation is unavailable: ${e.message}`);
    return;
  }
  const g = d.game;
  const e = g.evaluation;
  if (e.status === 'DONE') {
    review = e;
    status('');
    drawEvalGraph();
    markJudgements();
    evalRender();
    return;
  }
  if (e.status === 'PENDING') {
    live = new Map();
    status('In play: each position is evaluated as you reach it, from what you may see; every move is judged once the game ends.');
    evalRender();
    return;
  }
  if (e.status === 'ABSENT') {
    status('This server has not evaluated this game (its reviews are off, or the review failed).');
    return;
  }
  status(e.status === 'RUNNING'
    ? `Evaluating every position… ${Math.round(e.progress * 100)} %`
    : `Queued for evaluation${e.queuedAhead ? ` (${e.queuedAhead} games ahead)` : ''}: opening the game moved it to the front.`);
  setTimeout(load, POLL_MS);
}

function status(text) {
  const s = $('eval-status');
  s.textContent = text;
  s.hidden = !text;
}

function drawEvalGraph() {
  drawLines(review.plies.map((p, i) => [i, p.winChances]), review.plies.length - 1, review.moves);
}

/** The graph of `points` ([ply, chances]) over plies 0 to `n`, with `moves`' mistakes marked. */
function drawLines(points, n, moves = []) {
  const svg = $('eval-graph');
  svg.removeAttribute('hidden'); // an SVG element has no `hidden` property
  GRAPH.w = Math.max(320, Math.round(svg.getBoundingClientRect().width) || GRAPH.w);
  const { w, h, l, r, t, b } = GRAPH;
  n = Math.max(1, n);
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  const x = (p) => l + ((w - l - r) * p) / n;
  const y = (v) => h - b - (h - t - b) * v;
  let out = `<rect class="graph-bg" x="${l}" y="${t}" width="${w - l - r}" height="${h - t - b}"/>`;
  for (const v of [0, 0.5, 1]) out += `<text class="axis" x="${l - 3}" y="${esc(y(v) + 3)}" text-anchor="end">${v * 100}%</text><line class="grid" x1="${l}" x2="${w - r}" y1="${esc(y(v))}" y2="${esc(y(v))}"/>`;
  out += `<text class="axis" x="${w - r}" y="${h - 3}" text-anchor="end">ply ${esc(n)}</text>`;
  const seats = points.length ? points[0][1].length : 0;
  for (let s = 0; s < seats; s++) {
    const d = points.map(([p, c], i) => `${i ? 'L' : 'M'}${x(p).toFixed(1)},${y(c[s]).toFixed(1)}`).join('');
    out += `<path class="series" data-seat="${s}" d="${esc(d)}" stroke="${esc(seatColour(s))}"><title>${esc(seatName(state.game.players, s))}</title></path>`;
  }
  // The mistakes and blunders, as dots on the mover's line.
  const at = new Map(points);
  for (const m of moves) {
    if (m.judgement !== 'MISTAKE' && m.judgement !== 'BLUNDER' || !at.has(m.ply)) continue;
    out += `<circle class="judged ${m.judgement.toLowerCase()}" cx="${x(m.ply).toFixed(1)}" cy="${y(at.get(m.ply)[m.seat]).toFixed(1)}" r="2.5"><title>${esc(m.ply)}. ${esc(m.glyph)}</title></circle>`;
  }
  out += `<line id="eval-cursor" class="cursor" y1="${t}" y2="${h - b}"/>`;
  svg.innerHTML = out;
  svg.dataset.seats = String(seats);
  svg.dataset.points = String(points.length);
  svg.dataset.span = String(n);
}

/** Evaluates the position shown, in a game in play (once per position and perspective). */
function liveRender() {
  if (state.game.status === 'FINISHED') { live = null; load(); return; }
  const mine = [...live].filter(([k]) => k.startsWith(`${perspKey()}@`))
    .map(([k, c]) => [Number(k.slice(k.indexOf('@') + 1)), c]).sort((a, b) => a[0] - b[0]);
  drawLines(mine, total());
  const key = `${perspKey()}@${state.ply}`;
  showHere(live.get(key));
  placeCursor(total());
  if (live.has(key)) return;
  clearTimeout(liveTimer);
  liveTimer = setTimeout(async () => {
    const ply = state.ply;
    const k = `${perspKey()}@${ply}`;
    try {
      const d = await gql(`query LiveEvaluation($id: ID!, $ply: Int!, $seat: Int, $perspective: Perspective) {
        game(id: $id) { position(ply: $ply) { evaluation(iterations: ${LIVE_ITERATIONS}, seat: $seat, perspective: $perspective) { seats { winChance } } } } }`,
      { id: GAME_ID, ply, ...perspVars() });
      live.set(k, d.game.position.evaluation.seats.map((x) => x.winChance));
      if (ply === state.ply && live) liveRender();
    } catch (e) {
      // Busy (every evaluation slot taken) or refused: said, and asked again at the next move.
      status(`This position is not evaluated: ${e.message}`);
    }
  }, 250);
}

function showHere(chances) {
  const here = $('eval-here');
  here.innerHTML = chances ? chances.map((v, s) => `<span class="chance" data-seat="${s}"><span class="swatch" data-seat="${s}"></span>${esc(seatName(state.game.players, s))} ${esc(pct(v))}</span>`).join(' ') : '';
  for (const sw of here.querySelectorAll('.swatch')) sw.style.background = seatColour(Number(sw.dataset.seat));
}

function placeCursor(n) {
  const c = document.getElementById('eval-cursor');
  if (!c) return;
  const { w, l, r } = GRAPH;
  const xx = l + ((w - l - r) * Math.min(state.ply, n)) / Math.max(1, n);
  c.setAttribute('x1', xx);
  c.setAttribute('x2', xx);
}

function graphPly(ev) {
  const rect = $('eval-graph').getBoundingClientRect();
  const { w, l, r } = GRAPH;
  const vx = ((ev.clientX - rect.left) / rect.width) * w;
  return ((vx - l) / (w - l - r)) * Math.max(1, review ? review.plies.length - 1 : total());
}

/** The glyph of every judged move in the move list (call after the list is built). */
export function markJudgements() {
  if (!review) return;
  for (const m of review.moves) {
    if (!m.glyph) continue;
    const a = document.querySelector(`#moves .move[data-ply="${m.ply}"] a`);
    if (!a || a.querySelector('.judgement')) continue;
    const g = document.createElement('span');
    g.className = `judgement ${m.judgement.toLowerCase()}`;
    g.textContent = m.glyph;
    g.title = `${m.judgement.toLowerCase()}: cost ${Math.round(m.loss * 100)} points of win chance`;
    (a.querySelector('.desc') || a).appendChild(g);
  }
}

function pct(v) { return `${Math.round(v * 100)} %`; }

/** The cursor, the judgement of the move just played and, at the end, each seat's accuracy. */
export function evalRender() {
  if (live) { liveRender(); return; }
  if (!review) return;
  placeCursor(review.plies.length - 1);
  showHere(review.plies[state.ply]?.winChances);
  const m = review.moves.find((x) => x.ply === state.ply);
  const best = $('eval-best');
  if (m) {
    const verdict = { BEST: 'the best move', GOOD: 'a good move', INACCURACY: 'an inaccuracy ?!', MISTAKE: 'a mistake ?', BLUNDER: 'a blunder ??' }[m.judgement];
    let text = `${seatName(state.game.players, m.seat)}'s move was ${verdict} (win chance ${pct(m.before)} → ${pct(m.after)}).`;
    if (m.judgement !== 'BEST' && m.best && m.bestDescription) text += ` Best was ${named(m.bestDescription, state.game.players)} (${pct(m.bestWinChance)}).`;
    best.textContent = text;
    best.dataset.judgement = m.judgement;
  } else {
    best.textContent = '';
    delete best.dataset.judgement;
  }
  const acc = $('eval-accuracy');
  if (state.ply === total() && review.seats.length) {
    acc.innerHTML = `<caption>Accuracy</caption><tbody>${review.seats.map((s) => `<tr data-seat="${s.seat}"><th scope="row">${esc(seatName(state.game.players, s.seat))}</th><td class="accuracy">${s.accuracy === null ? '—' : esc(s.accuracy.toFixed(1))}</td><td>${esc(s.inaccuracies)} ?!</td><td>${esc(s.mistakes)} ?</td><td>${esc(s.blunders)} ??</td></tr>`).join('')}</tbody>`;
    acc.hidden = false;
  } else {
    acc.hidden = true;
  }
}
