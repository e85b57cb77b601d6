// A player's page (`/players/<name>`): results by game kind, the rating history of each kind
// as a line drawn by hand in SVG, and the player's games, each linked to the viewer. One
// request loads everything the first screen shows (`player(name:)`), "More games" the next
// page. Values are set as text, or escaped (`esc`) where SVG is written as markup.
import { ApiError, el, esc, gql } from './api.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const PREFIX = '/players/';
// Served as /players/<name> by the binary; as player.html?player=<name> beside the viewer's files.
const DEV = !location.pathname.startsWith(PREFIX);
const KINDS = [
  { kind: 'FIVE_TRIBES', name: 'Five Tribes', slug: 'five-tribes', alias: 'fiveTribes' },
  { kind: 'CLANS_OF_CALEDONIA', name: 'Clans of Caledonia', slug: 'clans-of-caledonia', alias: 'caledonia' },
  { kind: 'MOMBASA', name: 'Mombasa', slug: 'mombasa', alias: 'mombasa' },
];
const KIND = Object.fromEntries(KINDS.map((k) => [k.kind, k]));
const PAGE = 25;
/** Rated games drawn as points one can hover and follow; past this, the line alone. */
const MARKERS = 150;

function nameFromUrl() {
  if (DEV) return params.get('player') || '';
  try {
    return decodeURIComponent(location.pathname.slice(PREFIX.length));
  } catch {
    return '';
  }
}
const NAME = nameFromUrl();
let after = null;
/** The histories drawn, by kind, to draw again at a new width. */
const histories = new Map();

function gameLink(id) {
  return DEV ? `game.html?${new URLSearchParams({ game: id })}` : `/games/${encodeURIComponent(id)}`;
}
function playerLink(name) {
  return DEV ? `player.html?${new URLSearchParams({ player: name })}` : `${PREFIX}${encodeURIComponent(name)}`;
}
function chartLink(slug, chart) {
  return `/charts/${slug}/${chart}.svg?${new URLSearchParams({ player: NAME })}`;
}
function say(text) {
  const m = $('message');
  m.textContent = text;
  m.hidden = false;
}
const pct = (r) => (r === null || r === undefined ? '—' : `${(r * 100).toFixed(1)}%`);
const fixed = (x, d) => (x === null || x === undefined ? '—' : Number(x).toFixed(d));
function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th');
  return `${n}${s}`;
}
const day = (t) => new Date(t).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
/** `t`'s date, without its year when `end` is in the same year (the end of a span says it). */
function dayShort(t, end) {
  const same = new Date(t).getFullYear() === new Date(end).getFullYear();
  return same ? new Date(t).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }) : day(t);
}

// ---- results ----

function resultRow(r, k, solo, f, rating) {
  const wins = f.sharedWins ? [String(f.wins), ' ', el('small', { textContent: `(${f.sharedWins} shared)` })] : [String(f.wins)];
  const rated = rating
    ? [el('strong', { textContent: fixed(rating.ordinal, 1) }), el('small', { className: 'mu', textContent: ` μ ${fixed(rating.rating, 1)} σ ${fixed(rating.uncertainty, 2)}` })]
    : ['—'];
  const stats = !solo
    ? [el('a', { href: chartLink(k.slug, 'win-rate-by-seat'), textContent: 'win rate by seat', title: `${k.name} games with ${NAME} at the table: win rate of each seat` }),
      ' · ',
      el('a', { href: chartLink(k.slug, 'score-by-category'), textContent: 'scores', title: `${k.name} games with ${NAME} at the table: scores by category` })]
    : [];
  // `data-label` names each cell where a phone shows the rows as cards (player.css).
  const td = (label, props, ...children) => {
    const cell = el('td', { ...props, dataset: { label } }, ...children);
    if (cell.textContent === '—') cell.dataset.empty = 'true';
    return cell;
  };
  return el('tr', { dataset: { kind: r.kind, games: String(f.games), wins: String(f.wins), solo: String(solo) } },
    el('th', { scope: 'row' }, el('span', { textContent: k ? k.name : r.kind }), solo ? el('small', { className: 'solo', textContent: ' solo' }) : ''),
    td('games', { className: 'num', textContent: String(f.games) }),
    td('won', { className: 'num' }, ...wins),
    td('win rate', { className: 'num', textContent: pct(f.winRate) }),
    td('mean score', { className: 'num', textContent: fixed(f.meanScore, 1) }),
    td('mean place', { className: 'num', textContent: fixed(f.meanRank, 2) }),
    td('rating', { className: 'num rating' }, ...rated),
    td('', { className: 'stats' }, ...stats));
}
function showResults(results) {
  const rows = [];
  for (const r of results) {
    const k = KIND[r.kind];
    if (r.games > 0 || !r.soloGames) rows.push(resultRow(r, k, false, r, r.rating));
    const solo = r.byPlayerCount.find((c) => c.players === 1);
    if (solo) rows.push(resultRow(r, k, true, { ...solo, meanRank: null }, null));
  }
  if (!rows.length) rows.push(el('tr', {}, el('td', { colSpan: 8, textContent: 'No finished game yet.' })));
  $('results-body').replaceChildren(...rows);
}

// ---- rating history ----

/** Round steps (1, 2 or 5 × 10^k) from below `lo` to above `hi`, about `count` of them. */
function ticks(lo, hi, count) {
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw * 0.75) || raw;
  const out = [];
  for (let v = Math.floor(lo / step) * step; v < hi + step * 0.999; v += step) out.push(Number(v.toFixed(10)));
  return out;
}
/** Whole numbers from `lo` to `hi` at a round step, about `count` of them. */
function intTicks(lo, hi, count) {
  if (hi <= lo) return [lo];
  const step = Math.max(1, ticks(0, hi - lo, count)[1]);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(v);
  if (!out.includes(lo)) out.unshift(lo);
  return out;
}
function drawChart(fig, points) {
  const svg = fig.querySelector('svg');
  const W = Math.max(260, Math.round(fig.clientWidth || 600));
  const H = W < 520 ? 210 : 240;
  const m = { l: 46, r: 14, t: 24, b: 44 };
  const n = points.length;
  const lo = Math.min(...points.map((p) => p.ordinal));
  const hi = Math.max(...points.map((p) => p.rating));
  const ys = ticks(lo, hi, H < 230 ? 4 : 5);
  const [y0, y1] = [ys[0], ys[ys.length - 1]];
  const g0 = points[0].games;
  const g1 = points[n - 1].games;
  const x = (g) => m.l + (g1 === g0 ? (W - m.l - m.r) / 2 : ((W - m.l - m.r) * (g - g0)) / (g1 - g0));
  const y = (v) => H - m.b - ((H - m.t - m.b) * (v - y0)) / (y1 - y0);
  const f = (v) => v.toFixed(1);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', W);
  svg.setAttribute('height', H);
  let out = `<rect class="graph-bg" x="${m.l}" y="${m.t}" width="${W - m.l - m.r}" height="${H - m.t - m.b}"/>`;
  for (const v of ys) {
    out += `<line class="grid" x1="${m.l}" x2="${W - m.r}" y1="${f(y(v))}" y2="${f(y(v))}"/>`;
    out += `<text class="tick" x="${m.l - 5}" y="${f(y(v) + 3.5)}" text-anchor="end">${esc(v)}</text>`;
  }
  for (const g of intTicks(g0, g1, Math.max(2, Math.floor((W - m.l - m.r) / 70)))) {
    out += `<line class="tick-mark" x1="${f(x(g))}" x2="${f(x(g))}" y1="${H - m.b}" y2="${H - m.b + 4}"/>`;
    out += `<text class="tick" x="${f(x(g))}" y="${H - m.b + 15}" text-anchor="middle">${esc(g)}</text>`;
  }
  out += `<text class="axis-title" x="${m.l + (W - m.l - m.r) / 2}" y="${H - 6}" text-anchor="middle">rated games played</text>`;
  out += `<text class="axis-title" transform="translate(12 ${m.t + (H - m.t - m.b) / 2}) rotate(-90)" text-anchor="middle">rating</text>`;
  const line = (key) => points.map((p) => `${f(x(p.games))},${f(y(p[key]))}`).join(' ');
  out += `<polyline class="ordinal-line" data-points="${n}" points="${line('ordinal')}"/>`;
  out += `<polyline class="rating-line" data-points="${n}" points="${line('rating')}"/>`;
  if (n <= MARKERS) {
    for (const p of points) {
      const tip = `Game ${p.gameId}, ${day(p.endedAt)}: μ ${p.rating.toFixed(2)}, σ ${p.uncertainty.toFixed(2)}, μ − 3σ ${p.ordinal.toFixed(2)}`;
      out += `<a href="${esc(gameLink(p.gameId))}" class="point" tabindex="-1"><circle cx="${f(x(p.games))}" cy="${f(y(p.rating))}" r="3"/><title>${esc(tip)}</title></a>`;
    }
  }
  // The legend above the plot, at its right end.
  out += `<g class="legend" transform="translate(${W - m.r - 118} ${m.t - 8})">`
    + '<line class="rating-line" x1="0" x2="18" y1="-4" y2="-4"/><text x="22" y="0">μ</text>'
    + '<line class="ordinal-line" x1="44" x2="62" y1="-4" y2="-4"/><text x="66" y="0">μ − 3σ</text></g>';
  svg.innerHTML = out;
}
function showHistories(player) {
  const box = $('rating-charts');
  const figures = [];
  for (const k of KINDS) {
    const points = player[k.alias] || [];
    if (!points.length) continue;
    histories.set(k.kind, points);
    const last = points[points.length - 1];
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('class', 'rating-graph');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `${k.name}: rating after each of ${points.length} rated games, now μ ${last.rating.toFixed(1)}`);
    const span = points.length > 1 ? `${dayShort(points[0].endedAt, last.endedAt)} – ${day(last.endedAt)}` : day(last.endedAt);
    figures.push(el('figure', { className: 'rating-chart', dataset: { kind: k.kind, points: String(points.length) } },
      el('figcaption', {}, el('strong', { textContent: k.name }),
        ` · ${points.length} rated game${points.length === 1 ? '' : 's'} · `, el('span', { className: 'span', textContent: span })),
      svg));
  }
  if (!figures.length) figures.push(el('p', { className: 'player-note', textContent: 'No rated game yet: a rating starts with a finished game against others.' }));
  box.replaceChildren(...figures);
  redraw();
}
function redraw() {
  for (const fig of document.querySelectorAll('.rating-chart')) drawChart(fig, histories.get(fig.dataset.kind));
}

// ---- games ----

function resultCell(g) {
  if (g.status !== 'FINISHED' || !g.outcome) return el('td', { className: 'result', textContent: `in play · ply ${g.plies}` });
  const o = g.outcome;
  const mine = g.players.map((p, s) => (p === NAME ? s : -1)).filter((s) => s >= 0);
  const total = (s) => (o.scores.find((x) => x.seat === s) || { total: 0 }).total;
  const place = Math.min(...mine.map((s) => 1 + o.scores.filter((x) => x.total > total(s)).length));
  const won = mine.some((s) => o.winners.includes(s));
  const totals = [...o.scores].sort((a, b) => b.total - a.total).map((s) => s.total).join('–');
  const winners = o.winners.map((s) => g.players[s] || `seat ${s}`).join(' & ');
  let head;
  if (won) head = o.winners.length > 1 ? 'Shared win' : 'Won';
  else if (g.players.length === 1) head = 'Lost';
  else head = `${ordinal(place)} of ${g.players.length}`;
  const rest = won || !winners ? ` · ${totals}` : ` · ${winners} won · ${totals}`;
  return el('td', { className: 'result', dataset: { place: String(place), won: String(won) } }, el('strong', { textContent: head }), rest);
}
function row(g) {
  // Each name with its comma, unbroken: a line breaks between names only.
  const seats = g.players.map((p, i) => el('span', { className: 'seat' },
    p === NAME
      ? el('strong', { className: 'me', textContent: p })
      : el('a', { href: playerLink(p), className: 'player', textContent: p }),
    i + 1 < g.players.length ? ', ' : ''));
  const k = KIND[g.kind];
  return el('tr', { dataset: { game: g.id, kind: g.kind, status: g.status } },
    el('td', { className: 'game' }, el('a', { href: gameLink(g.id), className: 'game-link', textContent: k ? k.name : g.kind }), ' ', el('code', { textContent: g.id })),
    el('td', { className: 'date', textContent: day(g.createdAt) }),
    el('td', { className: 'seats' }, ...seats, ' '),
    resultCell(g));
}
function showGames(conn, append) {
  const body = $('games-body');
  if (!append) body.replaceChildren();
  body.append(...conn.edges.map(({ node }) => row(node)));
  if (!body.children.length) body.append(el('tr', {}, el('td', { colSpan: 4, textContent: 'No game.' })));
  after = conn.pageInfo.endCursor;
  $('more').hidden = !conn.pageInfo.hasNextPage;
}

const GAME_FIELDS = 'pageInfo { hasNextPage endCursor } edges { node { id kind status plies players createdAt outcome { winners scores { seat total } } } }';
const POINT_FIELDS = 'gameId endedAt rating uncertainty ordinal games';
const FIGURES = 'games wins sharedWins winRate meanScore meanRank';

async function load() {
  if (!NAME) {
    say('No player named: the page is /players/<name>.');
    return;
  }
  $('player-name').textContent = NAME;
  document.title = `Ludolog · ${NAME}`;
  const kind = $('filter-kind').value || null;
  const historyFields = KINDS.map((k) => `${k.alias}: ratingHistory(kind: ${k.kind}) { ${POINT_FIELDS} }`).join(' ');
  let d;
  try {
    d = await gql(`query Player($name: String!, $first: Int, $kind: GameKind) {
      player(name: $name) {
        name
        results { kind ${FIGURES} soloGames rating { rating uncertainty ordinal games } byPlayerCount { players ${FIGURES} } }
        ${historyFields}
        games(kind: $kind, first: $first) { ${GAME_FIELDS} }
      }
    }`, { name: NAME, first: PAGE, kind });
  } catch (e) {
    say(e instanceof ApiError && e.code !== 'NETWORK' ? e.message : `The player could not be loaded: ${e.message}`);
    return;
  }
  const p = d.player;
  if (!p) {
    say(`No game has a player named “${NAME}”.`);
    for (const s of document.querySelectorAll('.player-section')) s.hidden = true;
    return;
  }
  const finished = p.results.reduce((n, r) => n + r.games + r.soloGames, 0);
  $('player-summary').textContent = `${finished} finished game${finished === 1 ? '' : 's'} in ${p.results.length} kind${p.results.length === 1 ? '' : 's'} of game.`;
  showResults(p.results);
  showHistories(p);
  showGames(p.games, false);
  document.body.dataset.ready = 'true';
}
async function loadGames(append) {
  const kind = $('filter-kind').value || null;
  try {
    const d = await gql(`query PlayerGames($name: String!, $first: Int, $after: String, $kind: GameKind) {
      player(name: $name) { games(kind: $kind, first: $first, after: $after) { ${GAME_FIELDS} } }
    }`, { name: NAME, first: PAGE, after: append ? after : null, kind });
    if (d.player) showGames(d.player.games, append);
  } catch (e) {
    say(`The games could not be listed: ${e.message}`);
  }
}

$('more').addEventListener('click', () => loadGames(true));
$('filter-kind').addEventListener('change', () => loadGames(false));
$('games-filter').addEventListener('submit', (ev) => { ev.preventDefault(); loadGames(false); });
let pending = false;
let width = 0;
new ResizeObserver(() => {
  const w = $('rating-charts').clientWidth;
  if (pending || w === width) return;
  width = w;
  pending = true;
  requestAnimationFrame(() => { pending = false; redraw(); });
}).observe($('rating-charts'));
load().catch((e) => say(`The player could not be loaded: ${e.message}`));
