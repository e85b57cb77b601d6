// The Ludolog replay viewer: loads a game once per perspective (its first view, every replay
// frame and the score series), steps forward by applying the frames' JSON Patches and
// backward from cached checkpoints, and draws the board with the game's board module.
// Values from the API reach the page as text (`textContent`, `esc` in markup strings); the
// API is this page's own origin (`api.js`), whatever the URL says.
//
// # Layout
// - `context.js`: what the URL names, the page's state, messages, GraphQL, links
// - `moves.js`: the move list; `scores.js`: the score table and graph
// - `live.js`: following a game in play; `notes.js`: annotations and annotating
// - `autoplay.js`: autoplay and swipes; `legend.js`, `downloads.js`, `record.js`
// - `evaluation.js`: the win-chance graph and judgements; `explorer.js`: the Explorer panel;
//   `branch.js`: the analysis board (a branch beside the main line)
// - `boards/*.js`: one board per game, drawn from a view and the game's layout
import { ApiError, esc } from './api.js';
import { applyPatch } from './patch.js';
import { showRevisions } from './record.js';
import { seatName, named } from './names.js';
import { setupAutoplay, setupSwipe } from './autoplay.js';
import { showCurrentNotes, setupAnnotate } from './notes.js';
import {
  $, params, GAME_ID, EMBED, revVars, DEV, THEME, BG, CHECKPOINT_EVERY, TOKEN_KEY, SEAT_COLOURS,
  BOARD_MODULES, KIND_NAMES, state, showMessage, clearMessage, token, gql, perspVars, perspKey, explain, total, linkFor,
} from './context.js';
import { buildMoves, markMove } from './moves.js';
import { initEvaluation, evalRender, markJudgements } from './evaluation.js';
import { initExplorer, explorerRender } from './explorer.js';
import { initBranch, closeBranch, branch } from './branch.js';
import { scheduleScores, drawGraph, drawGraphCursor, graphPly } from './scores.js';
import { initLive, restartLive } from './live.js';
import { buildLegend } from './legend.js';
import { setupDownloads } from './downloads.js';

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

function goTo(n, opts = {}) {
  if (!state.data) return;
  // Stepping the main line leaves an open branch.
  if (branch.open) closeBranch();
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
  evalRender();
  explorerRender();
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


// ---------- URL, share ----------
let urlTimer = null;
function scheduleUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(updateUrl, 100);
}
function updateUrl() {
  if (state.branchOpen) return; // the branch keeps its own address (`branch.js`)
  const url = linkFor(state.ply, false, EMBED);
  history.replaceState(null, '', url);
}
function openShare() {
  $('share-link').value = linkFor(state.ply, true, false);
  shareEmbed();
  openOverlay('share');
}
// The embed's snippet, with the look chosen in the dialog (dark, transparent background).
function shareEmbed() {
  const src = new URL(linkFor(state.ply, true, true));
  for (const [box, key, value] of [['share-dark', 'theme', 'dark'], ['share-transparent', 'bg', 'transparent']]) {
    if ($(box).checked) src.searchParams.set(key, value); else src.searchParams.delete(key);
  }
  // Markup for another site's page: escaped as that page will read it.
  $('share-embed').value = `<iframe src="${esc(src.href)}" width="800" height="600" style="border:0" title="Ludolog replay ${esc(GAME_ID)}" loading="lazy"${$('share-transparent').checked ? ' allowtransparency="true"' : ''}></iframe>`;
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
    markJudgements();
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
  initLive({ goTo, render, loadMeta, loadPerspective, extend });
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
  setupDownloads(viewAt);
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
  initEvaluation(goTo);
  initExplorer();
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
  initBranch({
    draw(view) {
      const svg = $('board');
      try {
        state.board.draw(svg, view, state.layout, perspectiveInfo());
      } catch (e) {
        showMessage(`The branch's board could not be drawn: ${e.message}`);
      }
      fitTexts(svg);
    },
    restore: render,
  });

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
  for (const id of ['share-dark', 'share-transparent']) $(id).addEventListener('change', shareEmbed);
  $('btn-copy-link').addEventListener('click', (ev) => copy(linkFor(state.ply, true, false), ev.currentTarget));
  $('share-copy-embed').addEventListener('click', (ev) => copy($('share-embed').value, ev.currentTarget));
  $('moves').addEventListener('click', (ev) => {
    const a = ev.target.closest('a[data-ply]');
    if (!a) return;
    ev.preventDefault();
    state.autoplay.stop();
    goTo(Number(a.dataset.ply));
  });
  $('score-graph').addEventListener('click', byHand((ev) => goTo(graphPly(ev))));
  for (const id of ['help', 'share']) $(id).addEventListener('click', (ev) => { if (ev.target.id === id) closeOverlays(); });
  document.addEventListener('keydown', onKey);
  restartLive();
}

main().catch((e) => {
  console.warn(e);
  showMessage(`The viewer failed: ${e.message}`);
});
