// The score panel: the table of each seat's points by category at the position shown, and
// the graph of every seat's total over the game (a click on it names a ply).
import { esc } from './api.js';
import { seatName } from './names.js';
import { $, state, gql, GAME_ID, perspVars, perspKey, revVars, seatColour, total } from './context.js';

let scoreTimer = null;
export function scheduleScores() {
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
export function drawScores(scores) {
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
export function drawGraph() {
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
export function drawGraphCursor() {
  const c = document.getElementById('graph-cursor');
  if (!c) return;
  const { w, l, r } = GRAPH;
  const xx = l + ((w - l - r) * state.ply) / Math.max(1, total());
  c.setAttribute('x1', xx);
  c.setAttribute('x2', xx);
}
/** The ply under a click on the graph. */
export function graphPly(ev) {
  const svg = $('score-graph');
  const rect = svg.getBoundingClientRect();
  const { w, l, r } = GRAPH;
  const vx = ((ev.clientX - rect.left) / rect.width) * w;
  return ((vx - l) / (w - l - r)) * total();
}
