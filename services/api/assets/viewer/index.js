// The list page: recent games, filtered by kind, status and player (the API's `games`).
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const API = (params.get('api') || location.origin).replace(/\/+$/, '');
const DEV = location.pathname !== '/';
const KIND_NAMES = { FIVE_TRIBES: 'Five Tribes', CLANS_OF_CALEDONIA: 'Clans of Caledonia', MOMBASA: 'Mombasa' };
const PAGE = 25;
let after = null;

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
function gameLink(id, embed = false) {
  if (DEV) {
    const q = new URLSearchParams({ game: id });
    if (params.get('api')) q.set('api', params.get('api'));
    if (embed) q.set('embed', '1');
    return `game.html?${q}`;
  }
  return `/${embed ? 'embed/' : ''}games/${encodeURIComponent(id)}`;
}
async function gql(query, variables) {
  const res = await fetch(`${API}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = await res.json();
  if (body.errors && body.errors.length) throw new Error(body.errors[0].message);
  return body.data;
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
        edges { node { id kind status plies players createdAt } }
      }
    }`, vars);
    const body = $('games-body');
    if (!append) body.innerHTML = '';
    const rows = d.games.edges.map(({ node: g }) => `<tr data-game="${esc(g.id)}" data-kind="${g.kind}" data-status="${g.status}">
      <td><a href="${gameLink(g.id)}">${esc(KIND_NAMES[g.kind] || g.kind)}</a> <code>${esc(g.id)}</code></td>
      <td>${g.players.map((p) => `<a href="?${new URLSearchParams({ ...(params.get('api') ? { api: params.get('api') } : {}), player: p })}" class="player">${esc(p)}</a>`).join(', ')}</td>
      <td>${g.status.toLowerCase()}</td><td>${g.plies}</td><td>${esc(new Date(g.createdAt).toLocaleString())}</td>
      <td><a href="${gameLink(g.id)}">view</a> · <a href="${gameLink(g.id, true)}">embed</a></td></tr>`).join('');
    body.insertAdjacentHTML('beforeend', rows);
    if (!append && !d.games.edges.length) body.innerHTML = '<tr><td colspan="6">No game matches.</td></tr>';
    after = d.games.pageInfo.endCursor;
    $('more').hidden = !d.games.pageInfo.hasNextPage;
    const q = new URLSearchParams(filters());
    if (params.get('api')) q.set('api', params.get('api'));
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
