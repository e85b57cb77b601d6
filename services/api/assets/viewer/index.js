// The list page: recent games, filtered by kind, status and player (the API's `games`).
// Rows are built as DOM nodes with every value set as text or as a property, never as markup.
import { el, gql } from './api.js';
import { seatName } from './names.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// Served as `/` by the binary; as `index.html` beside the viewer's files in development.
const DEV = location.pathname !== '/';
const KIND_NAMES = { FIVE_TRIBES: 'Five Tribes', CLANS_OF_CALEDONIA: 'Clans of Caledonia', MOMBASA: 'Mombasa' };
const PAGE = 25;
let after = null;

function gameLink(id, embed = false) {
  if (DEV) {
    const q = new URLSearchParams({ game: id });
    if (embed) q.set('embed', '1');
    return `game.html?${q}`;
  }
  return `/${embed ? 'embed/' : ''}games/${encodeURIComponent(id)}`;
}
// A finished game's result: the winner(s) by name, then every total, best first.
function result(g) {
  if (!g.outcome) return el('td', { className: 'result', textContent: '—' });
  const o = g.outcome;
  const winners = o.winners.map((s) => seatName(g.players, s)).join(' & ');
  const totals = [...o.scores].sort((a, b) => b.total - a.total).map((s) => s.total).join('–');
  return el('td', { className: 'result', dataset: { winners: o.winners.join(',') } },
    el('strong', { textContent: winners }), ` ${o.winners.length > 1 ? 'share' : 'won'} ${totals}`);
}
function row(g) {
  const players = [];
  g.players.forEach((p, i) => {
    if (i) players.push(', ');
    players.push(el('a', { href: `/players/${encodeURIComponent(p)}`, className: 'player', textContent: p }));
  });
  return el('tr', { dataset: { game: g.id, kind: g.kind, status: g.status } },
    el('td', {}, el('a', { href: gameLink(g.id), textContent: KIND_NAMES[g.kind] || g.kind }), ' ', el('code', { textContent: g.id })),
    el('td', {}, ...players),
    el('td', { textContent: String(g.status).toLowerCase() }),
    result(g),
    el('td', { textContent: String(g.plies) }),
    el('td', { textContent: new Date(g.createdAt).toLocaleString() }),
    el('td', {}, el('a', { href: gameLink(g.id), textContent: 'view' }), ' · ', el('a', { href: gameLink(g.id, true), textContent: 'embed' })));
}
function filters() {
  const v = {};
  const kind = $('filter-kind').value;
  const status = $('filter-status').value;
  const player = $('filter-player').value.trim();
  if (kind) v.kind = kind;
  if (status) v.status = status;
  if (player) v.player = player;
  return v;
}
async function load(append) {
  const m = $('message');
  m.hidden = true;
  const vars = { ...filters(), first: PAGE, after: append ? after : null };
  try {
    const d = await gql(`query Games($kind: GameKind, $status: GameStatus, $player: String, $first: Int, $after: String) {
      games(kind: $kind, status: $status, player: $player, first: $first, after: $after) {
        pageInfo { hasNextPage endCursor }
        edges { node { id kind status plies players createdAt outcome { winners scores { seat total } } } }
      }
    }`, vars);
    const body = $('games-body');
    if (!append) body.replaceChildren();
    body.append(...d.games.edges.map(({ node }) => row(node)));
    if (!append && !d.games.edges.length) body.replaceChildren(el('tr', {}, el('td', { colSpan: 7, textContent: 'No game matches.' })));
    after = d.games.pageInfo.endCursor;
    $('more').hidden = !d.games.pageInfo.hasNextPage;
    const q = new URLSearchParams(filters());
    history.replaceState(null, '', `${location.pathname}${q.toString() ? `?${q}` : ''}`);
  } catch (e) {
    m.textContent = `The games could not be listed: ${e.message}`;
    m.hidden = false;
  }
}
for (const k of ['kind', 'status', 'player']) {
  const v = params.get(k);
  if (v) $(`filter-${k}`).value = v;
}
$('filters').addEventListener('submit', (ev) => { ev.preventDefault(); load(false); });
$('filter-kind').addEventListener('change', () => load(false));
$('filter-status').addEventListener('change', () => load(false));
$('more').addEventListener('click', () => load(true));
load(false);
