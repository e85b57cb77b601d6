// The replay page's shared parts: what the URL names (the game, the revision, embed and
// theme), the page's state, and the few helpers every part of the page calls — messages,
// GraphQL with this tab's token, perspectives, seat colours, links to a moment.
import { gql as ask } from './api.js';

export const $ = (id) => document.getElementById(id);
export const params = new URLSearchParams(location.search);
export const pathMatch = location.pathname.match(/^\/(embed\/)?games\/([^/]+)\/?$/);
export const GAME_ID = pathMatch ? decodeURIComponent(pathMatch[2]) : params.get('game');
export const EMBED = (pathMatch && !!pathMatch[1]) || params.get('embed') === '1';
// A finished game's record as of one revision (`?revision=N`): every read names it.
export const REVISION = /^\d+$/.test(params.get('revision') || '') ? Number(params.get('revision')) : null;
export const revVars = () => (REVISION === null ? {} : { revision: REVISION });
export const DEV = !pathMatch; // served as game.html?game=… (development)
// How an embed looks on its host page: `?theme=dark`, `?bg=transparent` (kept in every link).
export const THEME = params.get('theme') === 'dark' ? 'dark' : null;
export const BG = params.get('bg') === 'transparent' ? 'transparent' : null;
export const CHECKPOINT_EVERY = 8;
export const TOKEN_KEY = `ludolog.token.${GAME_ID}`;

export const SEAT_COLOURS = ['#8e44ad', '#e67e22', '#16a085', '#d6336c', '#2c3e50', '#7f8c8d'];
export const BOARD_MODULES = {
  FIVE_TRIBES: './boards/five-tribes.js',
  CLANS_OF_CALEDONIA: './boards/caledonia.js',
  MOMBASA: './boards/mombasa.js',
};
export const KIND_NAMES = { FIVE_TRIBES: 'Five Tribes', CLANS_OF_CALEDONIA: 'Clans of Caledonia', MOMBASA: 'Mombasa' };

export const state = {
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
export function showMessage(text, kind = 'error') {
  const m = $('message');
  m.textContent = text;
  m.className = `message ${kind}`;
  m.hidden = false;
  m.dataset.kind = kind;
}
export function clearMessage() {
  const m = $('message');
  m.hidden = true;
  m.textContent = '';
  delete m.dataset.kind;
}

// ---------- GraphQL ----------
export function token() {
  try { return sessionStorage.getItem(TOKEN_KEY); } catch { return null; }
}
// Every request carries this tab's seat token, to this origin only.
export function gql(query, variables = {}) {
  return ask(query, variables, token());
}

export function perspVars(p = state.persp) {
  const v = {};
  if (p.seat !== null && p.seat !== undefined) v.seat = p.seat;
  if (p.perspective) v.perspective = p.perspective;
  return v;
}
export function perspKey(p = state.persp) {
  return p.seat !== null && p.seat !== undefined ? `seat:${p.seat}` : (p.perspective || 'default').toLowerCase();
}

export function explain(e) {
  const m = e.message || String(e);
  if (e.code === 'UNAUTHENTICATED' || e.code === 'HTTP_401') return `The seat token was refused: ${m}. Enter the token again or forget it.`;
  if (e.code === 'FORBIDDEN' || e.code === 'HTTP_403') return `This view is not open to you: ${m}`;
  return m;
}

export function total() {
  return state.data ? state.data.frames.length : 0;
}

// ---------- seats, links ----------
export function seatColour(s) {
  const v = (state.data && state.data.tip) || state.view;
  if (state.board && state.board.seatColour && v) {
    const c = state.board.seatColour(v, s);
    if (c) return c;
  }
  return SEAT_COLOURS[s % SEAT_COLOURS.length];
}

export function linkFor(ply, forShare = false, embed = false) {
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
