// The Ludolog replay viewer: loads a game once per perspective (its first view, every replay
// frame and the score series), steps forward by applying the frames' JSON Patches and
// backward from cached checkpoints, and draws the board with the game's board module.
// Values from the API reach the page as text (`textContent`, `esc` in markup strings); the
// API is this page's own origin (`api.js`), whatever the URL says.
import { WS_URL, ApiError, esc, gql as ask } from './api.js';
import { applyPatch } from './patch.js';
import { showRevisions, withdrawnAt } from './record.js';
import { seatName, named } from './names.js';
import { setupAutoplay, setupSwipe } from './autoplay.js';
import { showCurrentNotes, setupAnnotate } from './notes.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const pathMatch = location.pathname.match(/^\/(embed\/)?games\/([^/]+)\/?$/);
const GAME_ID = pathMatch ? decodeURIComponent(pathMatch[2]) : params.get('game');
const EMBED = (pathMatch && !!pathMatch[1]) || params.get('embed') === '1';
// A finished game's record as of one revision (`?revision=N`): every read names it.
const REVISION = /^\d+$/.test(params.get('revision') || '') ? Number(params.get('revision')) : null;
const revVars = () => (REVISION === null ? {} : { revision: REVISION });
const DEV = !pathMatch; // served as game.html?game=… (development)
// How an embed looks on its host page: `?theme=dark`, `?bg=transparent` (kept in every link).
const THEME = params.get('theme') === 'dark' ? 'dark' : null;
const BG = params.get('bg') === 'transparent' ? 'transparent' : null;
const CHECKPOINT_EVERY = 8;
const TOKEN_KEY = `ludolog.token.${GAME_ID}`;

export const SEAT_COLOURS = ['#8e44ad', '#e67e22', '#16a085', '#d6336c', '#2c3e50', '#7f8c8d'];
const BOARD_MODULES = {
  FIVE_TRIBES: './boards/five-tribes.js',
  CLANS_OF_CALEDONIA: './boards/caledonia.js',
  MOMBASA: './boards/mombasa.js',
};
const KIND_NAMES = { FIVE_TRIBES: 'Five Tribes', CLANS_OF_CALEDONIA: 'Clans of Caledonia', MOMBASA: 'Mombasa' };

const state = {
  game: null, // { id, kind, status, plies, players, mySeat }
  layout: null,
  board: null, // the board module
  persp: { seat: null, perspective: null }, // null/null: the server's default
  data: null, // per perspective: { frames, checkpoints, rounds, tip, series, key }
  cache: new Map(), // perspective key -> data
  ply: 0,
  view: null,
  changed: [],
  scoreCache: new Map(),
  ws: null,
  wsRetry: 0,
  stepTimes: [],
};
window.ludologViewer = state; // for tests: state.ply, state.view, state.stepTimes

// ---------- messages ----------
function showMessage(text, kind = 'error') {
  const m = $('message');
  m.textContent = text;
  m.className = `message ${kind}`;
  m.hidden = false;
  m.dataset.kind = kind;
}
function clearMessage() {
  const m = $('message');
  m.hidden = true;
  m.textContent = '';
  delete m.dataset.kind;
}

// ---------- GraphQL ----------
function token() {
  try { return sessionStorage.getItem(TOKEN_KEY); } catch { return null; }
}
// Every request carries this tab's seat token, to this origin only.
function gql(query, variables = {}) {
  return ask(query, variables, token());
}

function perspVars(p = state.persp) {
  const v = {};
  if (p.seat !== null && p.seat !== undefined) v.seat = p.seat;
  if (p.perspective) v.perspective = p.perspective;
  return v;
}
function perspKey(p = state.persp) {
  return p.seat !== null && p.seat !== undefined ? `seat:${p.seat}` : (p.perspective || 'default').toLowerCase();
}

const MAX_FRAMES_PER_REQUEST = 800;

async function loadMeta() {
  const q = `query Meta($id: ID!, $revision: Int) { game(id: $id, revision: $revision) { id kind status plies players mySeat outcome { winners scores { seat total } } layoutJson journalNotes annotations { ply glyph comment author } revision revisions { number author at reason changes { ply was now } } } }`;
  const d = await gql(q, { id: GAME_ID, ...revVars() });
  return d.game;
}

async function loadPerspective(p) {
  const key = perspKey(p);
  if (state.cache.has(key)) return state.cache.get(key);
  const vars = { id: GAME_ID, ...perspVars(p), ...revVars() };
  const plies = state.game.plies;
  const firstTo = Math.min(plies, MAX_FRAMES_PER_REQUEST);
  const q = `query Load($id: ID!, $seat: Int, $perspective: Perspective, $to: Int!, $revision: Int) {
    game(id: $id, revision: $revision) {
      plies status
      position(ply: 0) { view(seat: $seat, perspective: $perspective) }
      replay(fromPly: 0, toPly: $to, seat: $seat, perspective: $perspective) { ply actor move description patch }
      scoreSeries(seat: $seat, perspective: $perspective) { seat totals }
      withdrawals(seat: $seat, perspective: $perspective) { request toPly by moves { ply actor move description } }
    }
  }`;
  const d = await gql(q, { ...vars, to: firstTo });
  if (!d.game) throw new ApiError(`There is no game ${GAME_ID}.`, 'NOT_FOUND');
  const frames = d.game.replay.slice();
  // Longer games: the rest in pages (a request holds at most so many frames).
  while (frames.length < plies) {
    const from = frames.length;
    const to = Math.min(plies, from + MAX_FRAMES_PER_REQUEST);
    const more = await gql(`query More($id: ID!, $seat: Int, $perspective: Perspective, $from: Int!, $to: Int!, $revision: Int) {
      game(id: $id, revision: $revision) { replay(fromPly: $from, toPly: $to, seat: $seat, perspective: $perspective) { ply actor move description patch } }
    }`, { ...vars, from, to });
    if (!more.game.replay.length) break;
    frames.push(...more.game.replay);
  }
  const data = { key, frames, checkpoints: [], rounds: [], series: d.game.scoreSeries, tip: null, withdrawals: d.game.withdrawals };
  index(data, d.game.position.view);
  state.cache.set(key, data);
  return data;
}

// Walks the frames once: checkpoints every CHECKPOINT_EVERY plies, the round at each
// position, and the latest view (the tip, kept current by live updates).
function index(data, initial) {
  let v = structuredClone(initial);
  data.checkpoints[0] = structuredClone(v);
  data.rounds[0] = roundOf(v);
  data.frames.forEach((f, i) => {
    v = applyPatch(v, f.patch);
    const p = i + 1;
    data.rounds[p] = roundOf(v);
    if (p % CHECKPOINT_EVERY === 0) data.checkpoints[p] = structuredClone(v);
  });
  data.tip = v;
}
function roundOf(v) {
  return v && typeof v.round === 'number' ? v.round : 0;
}
function extend(data, frame) {
  data.frames.push(frame);
  data.tip = applyPatch(data.tip, frame.patch);
  const p = data.frames.length;
  data.rounds[p] = roundOf(data.tip);
  if (p % CHECKPOINT_EVERY === 0) data.checkpoints[p] = structuredClone(data.tip);
}

// ---------- stepping ----------
function viewAt(n) {
  const data = state.data;
  if (n === state.ply && state.view) return state.view;
  if (n === state.ply + 1 && state.view) return applyPatch(state.view, data.frames[n - 1].patch);
  if (n > state.ply && n - state.ply <= CHECKPOINT_EVERY && state.view) {
    let v = state.view;
    for (let p = state.ply; p < n; p++) v = applyPatch(v, data.frames[p].patch);
    return v;
  }
  let c = n - (n % CHECKPOINT_EVERY);
  while (c > 0 && !data.checkpoints[c]) c -= CHECKPOINT_EVERY;
  let v = structuredClone(data.checkpoints[c]);
  for (let p = c; p < n; p++) v = applyPatch(v, data.frames[p].patch);
  return v;
}

function total() {
  return state.data ? state.data.frames.length : 0;
}

function goTo(n, opts = {}) {
  if (!state.data) return;
  const max = total();
  n = Math.max(0, Math.min(max, Math.round(n)));
  const t0 = performance.now();
  state.view = viewAt(n);
  state.ply = n;
  state.changed = n > 0 ? state.data.frames[n - 1].patch.map((op) => op.path) : [];
  render();
  const dt = performance.now() - t0;
  state.stepTimes.push(dt);
  if (state.stepTimes.length > 2000) state.stepTimes.shift();
  if (!opts.keepUrl) scheduleUrl();
  scheduleScores();
}

function roundStart(p) {
  const r = state.data.rounds;
  let s = p;
  while (s > 0 && r[s - 1] === r[p]) s--;
  return s;
}
function nextRound() {
  const r = state.data.rounds;
  let p = state.ply;
  while (p < total() && r[p] === r[state.ply]) p++;
  goTo(p);
}
function prevRound() {
  const s = roundStart(state.ply);
  goTo(s < state.ply ? s : roundStart(Math.max(0, s - 1)));
}

// ---------- rendering ----------
function perspectiveInfo() {
  return {
    seat: state.persp.seat,
    perspective: state.view && state.view.perspective,
    players: state.game.players,
    colours: SEAT_COLOURS,
  };
}

function render() {
  const svg = $('board');
  try {
    state.board.draw(svg, state.view, state.layout, perspectiveInfo());
  } catch (e) {
    console.warn('draw failed', e);
    showMessage(`The board could not be drawn at ply ${state.ply}: ${e.message}`);
  }
  fitTexts(svg);
  highlight(svg, state.changed);
  const cur = $('ply-current');
  cur.textContent = String(state.ply);
  cur.dataset.ply = String(state.ply);
  cur.value = String(state.ply);
  $('ply-total').textContent = String(total());
  const round = state.data.rounds[state.ply];
  const rd = $('round-display');
  rd.dataset.round = String(round);
  rd.textContent = round ? `round ${round}` : 'setup';
  const slider = $('ply-slider');
  slider.max = String(total());
  slider.value = String(state.ply);
  slider.setAttribute('aria-valuetext', `ply ${state.ply} of ${total()}`);
  const f = state.ply > 0 ? state.data.frames[state.ply - 1] : null;
  const cm = $('current-move');
  cm.textContent = f ? `${state.ply}. ${named(f.description, state.game.players)}` : 'The start of the game, before the deal.';
  cm.dataset.ply = String(state.ply);
  for (const g of showCurrentNotes($('current-notes'), state.game.annotations, state.ply)) {
    const el = document.createElement('span');
    el.className = 'glyph';
    el.textContent = g;
    cm.append(el);
  }
  if (state.annotator) state.annotator.showPly(state.ply);
  markMove();
  drawGraphCursor();
  showResult();
}

// The result, at the end of a finished game: who won, with what, and the others' totals.
function showResult() {
  const el = $('result');
  const o = state.game.outcome;
  if (!o || state.ply !== total()) { el.hidden = true; return; }
  const name = (s) => seatName(state.game.players, s);
  const byTotal = [...o.scores].sort((a, b) => b.total - a.total || a.seat - b.seat);
  const best = o.winners.map(name);
  const top = byTotal.find((s) => o.winners.includes(s.seat));
  const others = byTotal.filter((s) => !o.winners.includes(s.seat)).map((s) => `${name(s.seat)} ${s.total}`);
  el.textContent = `${best.length > 1 ? `${best.join(' and ')} share the win` : `${best[0]} wins`} with ${top ? top.total : '?'}${others.length ? ` · ${others.join(' · ')}` : ''}`;
  el.dataset.winners = o.winners.join(',');
  el.hidden = false;
}

// Texts the board drew with a width to keep (`data-fit`): measured once drawn and squeezed
// when they run over, so a long name is narrower, never cut off by what is drawn next to it.
function fitTexts(svg) {
  for (const t of svg.querySelectorAll('text[data-fit]')) {
    const max = Number(t.dataset.fit);
    if (!(max > 0)) continue;
    if (t.getComputedTextLength() > max) {
      t.setAttribute('textLength', String(max));
      t.setAttribute('lengthAdjust', 'spacingAndGlyphs');
    }
  }
}

// Highlights the board elements whose data-path is a prefix of a changed path (or the
// other way round): tiles, track spots, cards named by their JSON Pointer in the view.
function highlight(svg, paths) {
  if (!paths.length) return;
  const els = svg.querySelectorAll('[data-path]');
  for (const el of els) {
    const dp = el.getAttribute('data-path');
    for (const p of paths) {
      if (p === dp || p.startsWith(dp + '/') || (dp.startsWith(p + '/') && el.hasAttribute('data-leaf'))) {
        el.classList.add('changed');
        break;
      }
    }
  }
}

// ---------- move list ----------
function buildMoves() {
  const box = $('moves');
  const frag = document.createDocumentFragment();
  const data = state.data;
  let group = null;
  let lastRound = null;
  let lastActor = null;
  const startLi = document.createElement('div');
  startLi.className = 'move start';
  startLi.dataset.ply = '0';
  startLi.innerHTML = `<a href="${esc(linkFor(0))}" data-ply="0">Start</a>`;
  annotate(startLi.firstChild, 0);
  frag.appendChild(startLi);
  data.frames.forEach((f, i) => {
    const p = i + 1;
    const round = data.rounds[p - 1] || data.rounds[p] || 0;
    if (round !== lastRound) {
      const sec = document.createElement('section');
      sec.className = 'round';
      sec.dataset.round = String(round);
      sec.innerHTML = `<h3>${round ? `Round ${esc(round)}` : 'Setup'}</h3>`;
      group = document.createElement('ol');
      group.className = 'round-moves';
      sec.appendChild(group);
      frag.appendChild(sec);
      lastRound = round;
      lastActor = null;
    }
    group.appendChild(moveItem(f, p, f.actor !== lastActor));
    lastActor = f.actor;
    const withdrawn = withdrawnAt(data.withdrawals, p, actorLabel);
    if (withdrawn) { group.appendChild(withdrawn); lastActor = null; }
  });
  box.replaceChildren(frag);
  state.moveEls = box.querySelectorAll('[data-ply]');
}
function actorLabel(actor) {
  if (actor === 'dealer') return 'dealer';
  const s = Number(actor);
  if (Number.isInteger(s) && state.game.players[s] !== undefined) return seatName(state.game.players, s);
  return actor;
}
function moveItem(f, p, newTurn) {
  const li = document.createElement('li');
  li.className = `move${newTurn ? ' new-turn' : ''}${f.actor === 'dealer' ? ' dealer' : ''}`;
  li.dataset.ply = String(p);
  li.dataset.actor = f.actor;
  const s = Number(f.actor);
  if (Number.isInteger(s)) li.style.setProperty('--seat-colour', seatColour(s));
  const a = document.createElement('a');
  a.href = linkFor(p);
  a.dataset.ply = String(p);
  a.innerHTML = `<span class="ply-no">${esc(p)}</span>${newTurn ? `<span class="actor">${esc(actorLabel(f.actor))}</span>` : ''}<span class="desc">${esc(named(f.description, state.game.players))}</span><code class="notation">${esc(f.move)}</code>`;
  li.appendChild(a);
  annotate(a, p);
  return li;
}
// The game's annotations on position `p`: glyphs after the move's words, comments under it.
function annotate(a, p) {
  const notes = ((state.game && state.game.annotations) || []).filter((n) => n.ply === p);
  for (const n of notes) {
    if (n.glyph) {
      const g = document.createElement('span');
      g.className = 'glyph';
      g.textContent = n.glyph;
      (a.querySelector('.desc') || a).appendChild(g);
    }
    if (n.comment) {
      const c = document.createElement('span');
      c.className = 'annotation';
      c.textContent = `${n.comment} — ${n.author.replace(/^analyst:/, '')}`;
      a.appendChild(c);
    }
  }
}
function markMove() {
  const box = $('moves');
  const old = box.querySelector('.current');
  if (old) { old.classList.remove('current'); old.removeAttribute('aria-current'); }
  const el = box.querySelector(`.move[data-ply="${state.ply}"]`);
  if (el) {
    el.classList.add('current');
    el.setAttribute('aria-current', 'step');
    cancelAnimationFrame(markMove.raf);
    markMove.raf = requestAnimationFrame(() => scrollMoveIntoView(box, el));
  } else if (state.ply === 0) {
    box.scrollTop = 0; // the start: the list from its first move
  }
}
function scrollMoveIntoView(box, el) {
  // Scroll inside the list only (never the page). Measured from the boxes on screen, so
  // it holds whatever the list's offset parent is (the list is `position: relative`, which
  // made `offsetTop` already relative to it); a sticky round heading covers the list's top.
  const b = box.getBoundingClientRect();
  const e = el.getBoundingClientRect();
  const heading = box.querySelector('h3');
  const covered = heading ? heading.getBoundingClientRect().height : 0;
  const top = e.top - b.top + box.scrollTop;
  if (e.top < b.top + covered || e.bottom > b.top + box.clientHeight) {
    box.scrollTop = Math.max(0, top - covered - box.clientHeight / 3);
  }
}

// ---------- scores ----------
function seatColour(s) {
  const v = (state.data && state.data.tip) || state.view;
  if (state.board && state.board.seatColour && v) {
    const c = state.board.seatColour(v, s);
    if (c) return c;
  }
  return SEAT_COLOURS[s % SEAT_COLOURS.length];
}
let scoreTimer = null;
function scheduleScores() {
  clearTimeout(scoreTimer);
  const key = `${perspKey()}@${state.ply}`;
  if (state.scoreCache.has(key)) { drawScores(state.scoreCache.get(key)); return; }
  scoreTimer = setTimeout(async () => {
    const ply = state.ply;
    try {
      const d = await gql(`query Scores($id: ID!, $ply: Int!, $seat: Int, $perspective: Perspective, $revision: Int) {
        game(id: $id, revision: $revision) { position(ply: $ply) { ply round phase scores(seat: $seat, perspective: $perspective) { seat total breakdown { category points } } } }
      }`, { id: GAME_ID, ply, ...perspVars(), ...revVars() });
      const scores = d.game.position.scores;
      state.scoreCache.set(`${perspKey()}@${ply}`, scores);
      if (ply === state.ply) drawScores(scores);
    } catch (e) {
      // An answer for a position left meanwhile (a takeback) is not this one's.
      if (ply === state.ply) $('score-table').innerHTML = `<caption>Scores unavailable: ${esc(e.message)}</caption>`;
    }
  }, 120);
}
function drawScores(scores) {
  $('score-ply').textContent = `at ply ${state.ply}`;
  const t = $('score-table');
  t.dataset.ply = String(state.ply);
  if (!scores.length) { t.innerHTML = '<caption>No score is visible from this perspective.</caption>'; return; }
  const cats = [];
  for (const s of scores) for (const b of s.breakdown) if (!cats.includes(b.category)) cats.push(b.category);
  // One column per seat, one row per category: narrow enough for the side panel.
  let h = '<thead><tr><th scope="col">Category</th>';
  for (const s of scores) h += `<th scope="col" data-seat="${esc(s.seat)}"><span class="swatch" data-seat="${esc(s.seat)}"></span>${esc(seatName(state.game.players, s.seat))}</th>`;
  h += '</tr></thead><tbody>';
  for (const c of cats) {
    h += `<tr data-category="${esc(c)}"><th scope="row">${esc(c.replace(/[-_]/g, ' '))}</th>`;
    for (const s of scores) {
      const b = s.breakdown.find((x) => x.category === c);
      h += `<td data-seat="${esc(s.seat)}" data-category="${esc(c)}">${b ? esc(b.points) : ''}</td>`;
    }
    h += '</tr>';
  }
  h += '<tr class="total-row"><th scope="row">Total</th>';
  for (const s of scores) h += `<td class="total" data-seat="${esc(s.seat)}" data-total="${esc(s.total)}">${esc(s.total)}</td>`;
  t.innerHTML = h + '</tr></tbody>';
  // The colours through the style object, not a `style` attribute in the markup: the page's
  // policy allows no inline style.
  for (const sw of t.querySelectorAll('.swatch')) sw.style.background = seatColour(Number(sw.dataset.seat));
}

const GRAPH = { w: 320, h: 160, l: 30, r: 8, t: 8, b: 18 };
function drawGraph() {
  const svg = $('score-graph');
  const series = (state.data.series || []).filter((s) => s.totals.some((v) => v !== null));
  const n = total();
  const { w, h, l, r, t, b } = GRAPH;
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  if (!series.length || n === 0) { svg.innerHTML = '<text x="10" y="20" class="muted">No score series for this perspective.</text>'; return; }
  let max = 1;
  for (const s of series) for (const v of s.totals) if (v !== null && v > max) max = v;
  const x = (p) => l + ((w - l - r) * p) / n;
  const y = (v) => h - b - ((h - t - b) * v) / max;
  let out = `<rect class="graph-bg" x="${l}" y="${t}" width="${w - l - r}" height="${h - t - b}"/>`;
  for (const gv of [0, Math.round(max / 2), max]) out += `<text class="axis" x="${l - 3}" y="${esc(y(gv) + 3)}" text-anchor="end">${esc(gv)}</text><line class="grid" x1="${l}" x2="${w - r}" y1="${esc(y(gv))}" y2="${esc(y(gv))}"/>`;
  out += `<text class="axis" x="${w - r}" y="${h - 4}" text-anchor="end">ply ${esc(n)}</text>`;
  for (const s of series) {
    let d = '';
    let pen = false;
    s.totals.forEach((v, p) => {
      if (v === null) { pen = false; return; }
      d += `${pen ? 'L' : 'M'}${x(p).toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
    });
    out += `<path class="series" data-seat="${esc(s.seat)}" d="${esc(d)}" stroke="${esc(seatColour(s.seat))}"><title>${esc(seatName(state.game.players, s.seat))}</title></path>`;
  }
  out += `<line id="graph-cursor" class="cursor" y1="${t}" y2="${h - b}"/>`;
  svg.innerHTML = out;
  drawGraphCursor();
}
function drawGraphCursor() {
  const c = document.getElementById('graph-cursor');
  if (!c) return;
  const { w, l, r } = GRAPH;
  const xx = l + ((w - l - r) * state.ply) / Math.max(1, total());
  c.setAttribute('x1', xx);
  c.setAttribute('x2', xx);
}
function graphClick(ev) {
  const svg = $('score-graph');
  const rect = svg.getBoundingClientRect();
  const { w, l, r } = GRAPH;
  const vx = ((ev.clientX - rect.left) / rect.width) * w;
  goTo(((vx - l) / (w - l - r)) * total());
}

// ---------- URL, share ----------
function linkFor(ply, forShare = false, embed = false) {
  const q = new URLSearchParams();
  if (DEV) {
    q.set('game', GAME_ID);
    if (embed) q.set('embed', '1');
  }
  if (REVISION !== null) q.set('revision', String(REVISION));
  if (THEME) q.set('theme', THEME);
  if (BG) q.set('bg', BG);
  q.set('ply', String(ply));
  if (state.persp.seat !== null && state.persp.seat !== undefined) q.set('seat', String(state.persp.seat));
  else if (state.persp.perspective) q.set('perspective', state.persp.perspective.toLowerCase());
  const path = DEV ? location.pathname : `/${embed ? 'embed/' : ''}games/${encodeURIComponent(GAME_ID)}`;
  const rel = `${path}?${q}`;
  return forShare ? new URL(rel, location.href).href : rel;
}
let urlTimer = null;
function scheduleUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(updateUrl, 100);
}
function updateUrl() {
  const url = linkFor(state.ply, false, EMBED);
  history.replaceState(null, '', url);
}
function openShare() {
  $('share-link').value = linkFor(state.ply, true, false);
  const src = linkFor(state.ply, true, true);
  // Markup for another site's page: escaped as that page will read it.
  $('share-embed').value = `<iframe src="${esc(src)}" width="800" height="600" style="border:0" title="Ludolog replay ${esc(GAME_ID)}" loading="lazy"></iframe>`;
  openOverlay('share');
}
async function copy(text, btn) {
  try {
    await navigator.clipboard.writeText(text);
    flash(btn, 'Copied');
  } catch {
    flash(btn, 'Select and copy');
  }
}
function flash(btn, text) {
  const old = btn.dataset.label || btn.textContent;
  btn.dataset.label = old;
  btn.textContent = text;
  setTimeout(() => { btn.textContent = old; }, 1200);
}

// ---------- overlays ----------
let lastFocus = null;
function openOverlay(id) {
  lastFocus = document.activeElement;
  const o = $(id);
  o.hidden = false;
  const f = o.querySelector('button, input, textarea');
  if (f) f.focus();
}
function closeOverlays() {
  let closed = false;
  for (const id of ['help', 'share']) if (!$(id).hidden) { $(id).hidden = true; closed = true; }
  if (closed && lastFocus) lastFocus.focus();
  return closed;
}

// ---------- perspectives ----------
function perspectiveOptions() {
  const g = state.game;
  const opts = [];
  if (g.status === 'FINISHED') {
    opts.push({ label: 'Everything (omniscient)', seat: null, perspective: 'OMNISCIENT' });
    opts.push({ label: 'Spectator', seat: null, perspective: 'SPECTATOR' });
    g.players.forEach((_, s) => opts.push({ label: `${seatName(g.players, s)} (seat ${s})`, seat: s, perspective: null }));
  } else {
    opts.push({ label: 'Spectator', seat: null, perspective: 'SPECTATOR' });
    if (g.mySeat !== null && g.mySeat !== undefined) opts.push({ label: `My seat: ${seatName(g.players, g.mySeat)} (seat ${g.mySeat})`, seat: g.mySeat, perspective: null });
  }
  return opts;
}
function fillPerspectiveSelect() {
  const sel = $('perspective-select');
  const opts = perspectiveOptions();
  sel.innerHTML = opts.map((o, i) => `<option value="${i}">${esc(o.label)}</option>`).join('');
  const cur = opts.findIndex((o) => samePersp(o, state.persp));
  sel.value = String(cur >= 0 ? cur : 0);
  sel.dataset.perspective = perspKey();
}
function samePersp(a, b) {
  const norm = (p) => (p.seat !== null && p.seat !== undefined ? `seat:${p.seat}` : (p.perspective || defaultPerspective()));
  return norm(a) === norm(b);
}
function defaultPerspective() {
  return state.game.status === 'FINISHED' ? 'OMNISCIENT' : (state.game.mySeat !== null && state.game.mySeat !== undefined ? `seat:${state.game.mySeat}` : 'SPECTATOR');
}
async function setPerspective(p) {
  const ply = state.ply;
  const old = state.persp;
  state.persp = { seat: p.seat, perspective: p.perspective };
  try {
    $('board-pane').setAttribute('aria-busy', 'true');
    const data = await loadPerspective(state.persp);
    state.data = data;
    state.view = null;
    state.ply = 0;
    clearMessage();
    buildMoves();
    drawGraph();
    fillPerspectiveSelect();
    goTo(Math.min(ply, total()));
    restartLive();
  } catch (e) {
    state.persp = old;
    fillPerspectiveSelect();
    showMessage(explain(e));
  } finally {
    $('board-pane').removeAttribute('aria-busy');
  }
}
function cyclePerspective(dir) {
  const opts = perspectiveOptions();
  if (opts.length < 2) return;
  const i = opts.findIndex((o) => samePersp(o, state.persp));
  const next = opts[(Math.max(0, i) + dir + opts.length) % opts.length];
  setPerspective(next);
}

function explain(e) {
  const m = e.message || String(e);
  if (e.code === 'UNAUTHENTICATED' || e.code === 'HTTP_401') return `The seat token was refused: ${m}. Enter the token again or forget it.`;
  if (e.code === 'FORBIDDEN' || e.code === 'HTTP_403') return `This view is not open to you: ${m}`;
  return m;
}

// ---------- live following ----------
function restartLive() {
  if (state.ws) { state.ws.onclose = null; state.ws.close(); state.ws = null; }
  if (state.game.status !== 'ACTIVE') { $('live-status').hidden = true; return; }
  connectLive();
}
function setLive(text, cls) {
  const el = $('live-status');
  el.hidden = false;
  el.textContent = text;
  el.dataset.state = cls;
}
function connectLive() {
  const data = state.data;
  let ws;
  try { ws = new WebSocket(WS_URL, 'graphql-transport-ws'); } catch (e) { setLive('offline', 'off'); return; }
  state.ws = ws;
  const from = data.frames.length;
  ws.onopen = () => {
    const t = token();
    ws.send(JSON.stringify({ type: 'connection_init', payload: t ? { authorization: `Bearer ${t}` } : {} }));
  };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === 'connection_ack') {
      state.wsRetry = 0;
      setLive('live', 'on');
      ws.send(JSON.stringify({
        id: '1', type: 'subscribe',
        payload: {
          query: `subscription Follow($id: ID!, $from: Int, $note: Int, $seat: Int, $perspective: Perspective) {
            gameUpdates(gameId: $id, fromPly: $from, fromNote: $note, seat: $seat, perspective: $perspective) { kind ply journal actor move description patch finished }
          }`,
          // The journal as it was read before the line (`loadMeta`), or as far as updates told
          // it: a takeback since is told, whenever it came.
          variables: { id: GAME_ID, from: data.frames.length, note: state.game.journalNotes, ...perspVars() },
        },
      }));
    } else if (msg.type === 'ping') {
      ws.send(JSON.stringify({ type: 'pong' }));
    } else if (msg.type === 'next') {
      if (msg.payload.errors && msg.payload.errors.length) { showMessage(`Live updates: ${msg.payload.errors[0].message}`); return; }
      onUpdate(data, msg.payload.data.gameUpdates);
    } else if (msg.type === 'error') {
      showMessage(`Live updates refused: ${(msg.payload && msg.payload[0] && msg.payload[0].message) || 'error'}`);
    } else if (msg.type === 'complete') {
      setLive('finished', 'done');
    }
  };
  ws.onclose = () => {
    if (state.ws !== ws) return;
    if (state.game.status !== 'ACTIVE') { setLive('finished', 'done'); return; }
    setLive('reconnecting…', 'retry');
    const delay = Math.min(10000, 500 * 2 ** state.wsRetry++);
    setTimeout(() => { if (state.ws === ws) connectLive(); }, delay);
  };
  void from;
}
let seriesTimer = null;
function onUpdate(data, u) {
  if (!u || data !== state.data) return;
  if (u.journal > state.game.journalNotes) state.game.journalNotes = u.journal;
  if (u.kind && u.kind !== 'ENTRY') { onJournal(u); return; }
  if (u.ply <= data.frames.length) return; // seen already (a resumed stream)
  if (u.ply !== data.frames.length + 1) { console.warn('gap in live updates', u.ply, data.frames.length); return; }
  const atTip = state.ply === data.frames.length;
  extend(data, u);
  state.game.plies = data.frames.length;
  const box = $('moves');
  const round = data.rounds[u.ply - 1] || 0;
  let sec = box.querySelector('section.round:last-of-type');
  if (!sec || Number(sec.dataset.round) !== round) {
    sec = document.createElement('section');
    sec.className = 'round';
    sec.dataset.round = String(round);
    sec.innerHTML = `<h3>${round ? `Round ${esc(round)}` : 'Setup'}</h3><ol class="round-moves"></ol>`;
    box.appendChild(sec);
  }
  const prev = data.frames[u.ply - 2];
  sec.querySelector('ol').appendChild(moveItem(u, u.ply, !prev || prev.actor !== u.actor));
  if (u.finished) {
    state.game.status = 'FINISHED';
    $('game-status').textContent = 'finished';
    setLive('finished', 'done');
  }
  if (atTip) goTo(data.frames.length); else render();
  clearTimeout(seriesTimer);
  seriesTimer = setTimeout(async () => {
    try {
      const d = await gql(`query S($id: ID!, $seat: Int, $perspective: Perspective) { game(id: $id) { scoreSeries(seat: $seat, perspective: $perspective) { seat totals } } }`, { id: GAME_ID, ...perspVars() }); // a game in play: no revision
      data.series = d.game.scoreSeries;
      if (data === state.data) drawGraph();
    } catch { /* keep the old graph */ }
  }, 400);
}

// A takeback asked or answered is told; one carried out, an annotation or a correction
// changes the record shown, which is read again (and followed from its new end).
let reloading = null;
function onJournal(u) {
  if (u.kind === 'TAKEBACK_ASKED' || u.kind === 'TAKEBACK_ANSWERED') {
    showMessage(`Takeback: ${u.description}.`, 'warning');
    return;
  }
  if (reloading) return;
  reloading = (async () => {
    const atTip = state.ply === total();
    try {
      const meta = await loadMeta();
      if (!meta) return;
      state.game = meta;
      // Positions past the takeback are another line's now: nothing read of them is kept.
      state.cache.clear();
      state.scoreCache.clear();
      state.data = await loadPerspective(state.persp);
      state.view = null;
      const ply = atTip ? total() : Math.min(state.ply, total());
      state.ply = 0;
      buildMoves();
      drawGraph();
      goTo(ply);
      if (u.kind === 'WITHDRAWN') showMessage(`Takeback: ${u.description}.`, 'warning');
      restartLive();
    } catch (e) {
      showMessage(explain(e));
    } finally {
      reloading = null;
    }
  })();
}

// ---------- legend ----------
function buildLegend() {
  const groups = new Map();
  const walk = (node, path) => {
    if (Array.isArray(node)) { node.forEach((x) => walk(x, `${path}[]`)); return; }
    if (node === null || typeof node !== 'object') return;
    if (node.reconstructed === true) {
      const name = node.name || node.good || node.id || node.module || node.tile || node.good || null;
      const g = groups.get(path) || { count: 0, names: [] };
      g.count++;
      if (name !== null && g.names.length < 12) g.names.push(String(name));
      groups.set(path, g);
    }
    for (const [k, v] of Object.entries(node)) if (v && typeof v === 'object') walk(v, path ? `${path}.${k}` : k);
  };
  walk(state.layout, '');
  const el = $('legend');
  const notes = (state.board.legendNotes && state.board.legendNotes(state.layout)) || [];
  if (!groups.size && !notes.length) { el.hidden = true; return; }
  let h = '<h2>Legend: reconstructed components</h2><p>These layout items are not verified against a public source; they are drawn plainly from the data:</p><ul>';
  for (const [path, g] of groups) {
    h += `<li data-layout-path="${esc(path)}" data-count="${esc(g.count)}"><code>${esc(path || '(layout)')}</code> × ${esc(g.count)}${g.names.length ? `: ${esc(g.names.join(', '))}${g.count > g.names.length ? ', …' : ''}` : ''}</li>`;
  }
  h += '</ul>';
  if (notes.length) h += `<ul>${notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`;
  el.innerHTML = h;
  el.hidden = false;
}

// ---------- token ----------
function setupToken() {
  if (EMBED) return;
  $('token-pane').hidden = false;
  // A game in play: the token (which seat am I?) comes first; a finished game: after the rest.
  if (state.game.status !== 'ACTIVE') $('side').append($('token-pane'));
  const st = $('token-status');
  const seat = state.game.mySeat !== null && state.game.mySeat !== undefined;
  st.textContent = token()
    ? (seat ? `The token opens seat ${state.game.mySeat} (${seatName(state.game.players, state.game.mySeat)}); you may annotate.`
      : (state.game.status === 'ACTIVE' ? 'The token opens no seat of this game; a recorder\'s or an analyst\'s token may annotate.' : 'A token is set: annotate any position below the board (the server checks it).'))
    : (state.game.status === 'ACTIVE' ? 'No token: you see the game as a spectator. A token also lets you annotate.' : 'To annotate this game, enter a seat\'s, the recorder\'s or an analyst\'s token.');
  state.annotator = setupAnnotate({
    form: $('annotate-form'),
    hasToken: () => !!token(),
    ply: () => state.ply,
    save: async (ply, glyph, comment) => {
      await gql('mutation Annotate($id: ID!, $ply: Int!, $glyph: String, $comment: String!) { annotate(gameId: $id, ply: $ply, glyph: $glyph, comment: $comment) { ply } }',
        { id: GAME_ID, ply, glyph, comment });
      const d = await gql('query Notes($id: ID!, $revision: Int) { game(id: $id, revision: $revision) { annotations { ply glyph comment author } } }', { id: GAME_ID, ...revVars() });
      return d.game.annotations;
    },
    onSaved: (annotations) => {
      state.game.annotations = annotations;
      buildMoves();
      render();
    },
  });
  state.annotator.showPly(state.ply);
  $('token-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const t = $('token-input').value.trim();
    if (!t) return;
    try { sessionStorage.setItem(TOKEN_KEY, t); } catch { /* private mode */ }
    location.reload();
  });
  $('token-forget').addEventListener('click', () => {
    try { sessionStorage.removeItem(TOKEN_KEY); } catch { /* ignore */ }
    const q = new URLSearchParams(location.search);
    q.delete('seat');
    location.search = q.toString();
  });
}

// ---------- keyboard ----------
function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tag = (ev.target && ev.target.tagName) || '';
  if (tag === 'INPUT' && ev.target.type !== 'range') return;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return;
  if (ev.key === 'Escape') { if (closeOverlays()) ev.preventDefault(); return; }
  if (ev.key === '?') { ev.preventDefault(); if (!closeOverlays()) openOverlay('help'); return; }
  if (!$('help').hidden || !$('share').hidden) return;
  if (!state.data) return;
  if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(ev.key)) state.autoplay.stop();
  switch (ev.key) {
    case 'ArrowLeft': goTo(state.ply - 1); break;
    case 'ArrowRight': goTo(state.ply + 1); break;
    case 'ArrowUp': prevRound(); break;
    case 'ArrowDown': nextRound(); break;
    case 'Home': goTo(0); break;
    case 'End': goTo(total()); break;
    case 'p': state.autoplay.toggle(); return ev.preventDefault();
    case 'f': cyclePerspective(1); break;
    case 's': cyclePerspective(-1); break;
    default: return;
  }
  ev.preventDefault();
}

// ---------- downloads (a finished game: its record, its text, its positions) ----------
function save(name, type, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
function setupDownloads() {
  const box = $('downloads');
  box.hidden = state.game.status !== 'FINISHED';
  if (box.hidden) return;
  const name = `${GAME_ID}${REVISION === null ? '' : `-r${REVISION}`}`;
  const fetchField = async (field) => {
    const d = await gql(`query($id: ID!, $revision: Int) { game(id: $id, revision: $revision) { ${field} } }`, { id: GAME_ID, ...revVars() });
    return d.game[field];
  };
  const guard = (f) => async () => {
    try { await f(); } catch (e) { showMessage(explain(e)); }
  };
  $('dl-record').onclick = guard(async () => save(`${name}.ndjson`, 'application/x-ndjson', `${await fetchField('record')}\n`));
  $('dl-text').onclick = guard(async () => save(`${name}.txt`, 'text/plain', await fetchField('text')));
  $('dl-positions').onclick = guard(async () => {
    const views = [];
    for (let n = 0; n <= total(); n++) views.push({ ply: n, view: viewAt(n) });
    save(`${name}-positions.json`, 'application/json', JSON.stringify(views));
  });
}

// ---------- title: the players, each a link to their page; the game kind's charts ----------
const KIND_PATHS = { FIVE_TRIBES: 'five-tribes', CLANS_OF_CALEDONIA: 'clans-of-caledonia', MOMBASA: 'mombasa' };
function showTitle(meta, kindName) {
  const h = $('game-title');
  h.replaceChildren(`${kindName}: `);
  meta.players.forEach((p, i) => {
    if (i) h.append(', ');
    const a = document.createElement('a');
    a.href = `/players/${encodeURIComponent(p)}`;
    a.className = 'player';
    a.textContent = p;
    h.append(a);
  });
  const nav = $('kind-links');
  const path = KIND_PATHS[meta.kind];
  if (!path || EMBED) return;
  const n = meta.players.length;
  const link = (file, text) => {
    const a = document.createElement('a');
    a.href = `/charts/${path}/${file}.svg?players=${n}`;
    a.textContent = text;
    return a;
  };
  nav.replaceChildren(`${kindName} with ${n}: `, link('win-rate-by-seat', 'wins by seat'), ' · ', link('score-by-category', 'scores'), ' · ', link('win-rate-by-tag', 'wins by choice'));
  nav.hidden = false;
}

// ---------- start ----------
async function main() {
  if (EMBED) document.body.classList.add('embed');
  if (THEME) document.documentElement.classList.add(THEME);
  if (BG) document.documentElement.classList.add(BG);
  state.autoplay = setupAutoplay({ button: $('btn-play'), speed: $('play-speed'), step: () => goTo(state.ply + 1), atEnd: () => !state.data || state.ply >= total() });
  if (DEV) $('home-link').href = 'index.html';
  if (!GAME_ID) { showMessage('No game given: open /games/<id>, or game.html?game=<id> in development.'); return; }
  let meta;
  try {
    meta = await loadMeta();
  } catch (e) {
    showMessage(e.code === 'BAD_INPUT' ? `“${GAME_ID}” is not a game id: ${e.message}` : explain(e));
    return;
  }
  if (!meta) { showMessage(`There is no game with id “${GAME_ID}”.`, 'error'); document.title = 'Unknown game · Ludolog'; return; }
  state.game = meta;
  state.layout = meta.layoutJson;
  document.body.dataset.kind = meta.kind;
  const kindName = KIND_NAMES[meta.kind] || meta.kind;
  showTitle(meta, kindName);
  document.title = `${kindName} ${meta.id} · Ludolog`;
  $('game-status').textContent = meta.status.toLowerCase();
  $('game-status').dataset.status = meta.status;
  showRevisions($('revisions'), meta);
  setupDownloads();
  try {
    state.board = await import(BOARD_MODULES[meta.kind]);
  } catch (e) {
    showMessage(`No board for ${meta.kind}: ${e.message}`);
    return;
  }

  // The perspective from the URL.
  const warnings = [];
  const seatParam = params.get('seat');
  const perspParam = (params.get('perspective') || '').toUpperCase();
  if (seatParam !== null && seatParam !== '') {
    const s = Number(seatParam);
    if (!Number.isInteger(s) || s < 0 || s >= meta.players.length) {
      warnings.push(`There is no seat ${seatParam} in this ${meta.players.length}-player game (seats 0 to ${meta.players.length - 1}); showing the default view.`);
    } else if (meta.status === 'ACTIVE' && meta.mySeat !== s) {
      warnings.push(`Seat ${s}'s view of a game in progress needs that seat's token${token() ? ' (the token given opens ' + (meta.mySeat === null ? 'no seat' : 'seat ' + meta.mySeat) + ')' : ''}; showing the spectator's view.`);
      state.persp = { seat: null, perspective: 'SPECTATOR' };
    } else {
      state.persp = { seat: s, perspective: null };
    }
  } else if (perspParam === 'SPECTATOR' || perspParam === 'OMNISCIENT') {
    if (perspParam === 'OMNISCIENT' && meta.status !== 'FINISHED') warnings.push('The omniscient view opens once the game is over; showing the spectator\'s view.');
    else state.persp = { seat: null, perspective: perspParam };
  } else if (perspParam) {
    warnings.push(`Unknown perspective “${params.get('perspective')}” (spectator or omniscient); showing the default view.`);
  }
  if (token() && meta.status === 'ACTIVE' && (meta.mySeat === null || meta.mySeat === undefined)) {
    warnings.push('The seat token in this tab opens no seat of this game (bad or wrong token): forget it or enter another.');
  }
  if (state.persp.seat === null && !state.persp.perspective) {
    state.persp = meta.status === 'FINISHED' ? { seat: null, perspective: 'OMNISCIENT' }
      : (meta.mySeat !== null && meta.mySeat !== undefined ? { seat: meta.mySeat, perspective: null } : { seat: null, perspective: 'SPECTATOR' });
  }

  try {
    state.data = await loadPerspective(state.persp);
  } catch (e) {
    showMessage(explain(e));
    return;
  }
  $('viewer').hidden = false;
  buildLegend();
  buildMoves();
  drawGraph();
  fillPerspectiveSelect();
  setupToken();

  let start = total();
  const plyParam = params.get('ply');
  if (plyParam !== null && plyParam !== '') {
    const n = Number(plyParam);
    if (!Number.isInteger(n) || n < 0 || n > total()) {
      start = Number.isFinite(n) && n < 0 ? 0 : total();
      warnings.push(Number.isFinite(n)
        ? `Ply ${plyParam} is out of range: this game has positions 0 to ${total()}; showing ${start === 0 ? 'the first' : 'the last'} position.`
        : `“${plyParam}” is not a ply number (0 to ${total()}); showing the last position.`);
    } else start = n;
  }
  goTo(start);
  if (warnings.length) showMessage(warnings.join(' '), 'warning');

  // Wiring. Moving by hand stops autoplay.
  const byHand = (f) => (ev) => { state.autoplay.stop(); f(ev); };
  $('btn-first').addEventListener('click', byHand(() => goTo(0)));
  $('btn-last').addEventListener('click', byHand(() => goTo(total())));
  $('btn-prev').addEventListener('click', byHand(() => goTo(state.ply - 1)));
  $('btn-next').addEventListener('click', byHand(() => goTo(state.ply + 1)));
  $('btn-prev-round').addEventListener('click', byHand(prevRound));
  $('btn-next-round').addEventListener('click', byHand(nextRound));
  $('ply-slider').addEventListener('input', byHand((ev) => goTo(Number(ev.target.value))));
  setupSwipe($('board-wrap'), { next: byHand(() => goTo(state.ply + 1)), prev: byHand(() => goTo(state.ply - 1)) });
  $('perspective-select').addEventListener('change', (ev) => setPerspective(perspectiveOptions()[Number(ev.target.value)]));
  $('btn-help').addEventListener('click', () => openOverlay('help'));
  $('help-close').addEventListener('click', closeOverlays);
  $('btn-share').addEventListener('click', openShare);
  $('share-close').addEventListener('click', closeOverlays);
  $('btn-copy-link').addEventListener('click', (ev) => copy(linkFor(state.ply, true, false), ev.currentTarget));
  $('share-copy-embed').addEventListener('click', (ev) => copy($('share-embed').value, ev.currentTarget));
  $('moves').addEventListener('click', (ev) => {
    const a = ev.target.closest('a[data-ply]');
    if (!a) return;
    ev.preventDefault();
    state.autoplay.stop();
    goTo(Number(a.dataset.ply));
  });
  $('score-graph').addEventListener('click', byHand(graphClick));
  for (const id of ['help', 'share']) $(id).addEventListener('click', (ev) => { if (ev.target.id === id) closeOverlays(); });
  document.addEventListener('keydown', onKey);
  restartLive();
}

main().catch((e) => {
  console.warn(e);
  showMessage(`The viewer failed: ${e.message}`);
});
