// The evaluation under the board: the win-chance graph (a line per seat in its colour, the
// current ply marked, a click jumps there), the judgement of the move just played with the
// better move when there was one, each seat's accuracy at the end, and the judgement glyphs
// in the move list. It reads the game's review (`Game.evaluation`); while the review is queued
// or running it says how far it is and asks again. `?eval=0` hides all of it (embeds too).
import { esc } from './api.js';
import { seatName, named } from './names.js';
import { $, state, gql, GAME_ID, params, revVars, seatColour, total } from './context.js';

export const EVAL_OFF = params.get('eval') === '0';
const GRAPH = { w: 640, h: 120, l: 34, r: 8, t: 8, b: 18 };
const POLL_MS = 3000;
let review = null; // { plies, moves, seats } once done
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
    if (!review) return;
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
    status('This game is in play: it is evaluated, and every move judged, once it ends.');
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
  const svg = $('eval-graph');
  const { w, h, l, r, t, b } = GRAPH;
  const plies = review.plies;
  const n = Math.max(1, plies.length - 1);
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  const x = (p) => l + ((w - l - r) * p) / n;
  const y = (v) => h - b - (h - t - b) * v;
  let out = `<rect class="graph-bg" x="${l}" y="${t}" width="${w - l - r}" height="${h - t - b}"/>`;
  for (const v of [0, 0.5, 1]) out += `<text class="axis" x="${l - 3}" y="${esc(y(v) + 3)}" text-anchor="end">${v * 100}%</text><line class="grid" x1="${l}" x2="${w - r}" y1="${esc(y(v))}" y2="${esc(y(v))}"/>`;
  out += `<text class="axis" x="${w - r}" y="${h - 4}" text-anchor="end">ply ${esc(n)}</text>`;
  const seats = plies[0] ? plies[0].winChances.length : 0;
  for (let s = 0; s < seats; s++) {
    const d = plies.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.winChances[s]).toFixed(1)}`).join('');
    out += `<path class="series" data-seat="${s}" d="${esc(d)}" stroke="${esc(seatColour(s))}"><title>${esc(seatName(state.game.players, s))}</title></path>`;
  }
  // The mistakes and blunders, as dots on the mover's line.
  for (const m of review.moves) {
    if (m.judgement !== 'MISTAKE' && m.judgement !== 'BLUNDER') continue;
    out += `<circle class="judged ${m.judgement.toLowerCase()}" cx="${x(m.ply).toFixed(1)}" cy="${y(plies[m.ply].winChances[m.seat]).toFixed(1)}" r="2.5"><title>${esc(m.ply)}. ${esc(m.glyph)}</title></circle>`;
  }
  out += `<line id="eval-cursor" class="cursor" y1="${t}" y2="${h - b}"/>`;
  svg.innerHTML = out;
  svg.dataset.seats = String(seats);
  evalRender();
}

function graphPly(ev) {
  const rect = $('eval-graph').getBoundingClientRect();
  const { w, l, r } = GRAPH;
  const vx = ((ev.clientX - rect.left) / rect.width) * w;
  return ((vx - l) / (w - l - r)) * Math.max(1, review.plies.length - 1);
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

const pct = (v) => `${Math.round(v * 100)} %`;

/** The cursor, the judgement of the move just played and, at the end, each seat's accuracy. */
export function evalRender() {
  if (!review) return;
  const c = document.getElementById('eval-cursor');
  if (c) {
    const { w, l, r } = GRAPH;
    const xx = l + ((w - l - r) * Math.min(state.ply, review.plies.length - 1)) / Math.max(1, review.plies.length - 1);
    c.setAttribute('x1', xx);
    c.setAttribute('x2', xx);
  }
  const chances = review.plies[state.ply];
  const here = $('eval-here');
  here.innerHTML = chances ? chances.winChances.map((v, s) => `<span class="chance" data-seat="${s}"><span class="swatch" data-seat="${s}"></span>${esc(seatName(state.game.players, s))} ${esc(pct(v))}</span>`).join(' ') : '';
  for (const sw of here.querySelectorAll('.swatch')) sw.style.background = seatColour(Number(sw.dataset.seat));
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
