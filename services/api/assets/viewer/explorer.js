// The Explorer panel: at the ply shown, the moves finished games played from the same node
// (`Position.explorer`), most played first — how many games, the movers' win rate as a bar with
// its Wilson interval in the title, mean final score — each a link to the last game that played
// it, opened at that move. "By line" (the default) meets every game that opened with the same
// decisions, whatever its setup; "by position" merges transpositions within one setup. A game in
// play is asked about like any other: the node comes from what a spectator knows.
import { $, state, gql, GAME_ID, EMBED, revVars } from './context.js';

const QUERY = `query Explorer($id: ID!, $revision: Int, $ply: Int, $by: ExplorerKey) {
  game(id: $id, revision: $revision) { position(ply: $ply) { explorer(by: $by) {
    games hash moves(first: 12) { notation words games winRate low high meanScore lastGame lastPly } } } } }`;
const cache = new Map(); // `${by}@${ply}` -> node
let by = 'LINE';
let timer = null;
let asked = null;

/** Starts the panel (absent from embeds: it is part of the page's chrome). */
export function initExplorer() {
  const pane = $('explorer-pane');
  if (!pane || EMBED) return;
  pane.hidden = false;
  $('explorer-by').addEventListener('change', (ev) => {
    by = ev.target.value === 'POSITION' ? 'POSITION' : 'LINE';
    explorerRender();
  });
}

/** Shows the node of the ply on the board; asks for it once the stepping pauses. */
export function explorerRender() {
  const pane = $('explorer-pane');
  if (!pane || pane.hidden || !state.game || state.branchOpen) return;
  const key = `${by}@${state.ply}`;
  if (cache.has(key)) {
    draw(cache.get(key));
    return;
  }
  $('explorer-status').textContent = 'Looking…';
  clearTimeout(timer);
  timer = setTimeout(() => ask(key, state.ply, by), 150);
}

async function ask(key, ply, how) {
  asked = key;
  let node;
  try {
    const d = await gql(QUERY, { id: GAME_ID, ...revVars(), ply, by: how });
    node = d.game.position.explorer;
  } catch (e) {
    if (asked === key && !state.branchOpen) {
      $('explorer-status').textContent = `The explorer is unavailable: ${e.message}`;
    }
    return;
  }
  if (cache.size > 500) cache.clear();
  cache.set(key, node);
  // A branch opened meanwhile shows its own node: the main line's answer waits in the cache.
  if (`${by}@${state.ply}` === key && !state.branchOpen) draw(node);
}

/** Shows `node` (an analysis board's branch gives its own). */
export function showExplorerNode(node) {
  if ($('explorer-pane') && !$('explorer-pane').hidden) draw(node);
}

function draw(node) {
  const table = $('explorer-moves');
  table.replaceChildren();
  const st = $('explorer-status');
  if (!node.moves.length) {
    st.textContent = node.games
      ? `${node.games} finished game${node.games === 1 ? '' : 's'} reached this point; none moved from it.`
      : 'No finished game reached this point.';
    return;
  }
  st.textContent = `${node.games} finished game${node.games === 1 ? '' : 's'} reached this point.`;
  const head = table.createTHead().insertRow();
  for (const h of ['Move', 'Games', 'Win rate', 'Score']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const m of node.moves) {
    const tr = body.insertRow();
    tr.className = 'explorer-move';
    tr.dataset.notation = m.notation;
    const name = tr.insertCell();
    const a = document.createElement('a');
    a.href = `/games/${encodeURIComponent(m.lastGame)}?ply=${m.lastPly}`;
    a.textContent = m.words;
    a.title = `${m.notation} — open the last game that played it, at this move`;
    name.append(a);
    tr.insertCell().textContent = String(m.games);
    const rate = tr.insertCell();
    const bar = document.createElement('meter');
    bar.min = 0;
    bar.max = 1;
    bar.value = m.winRate;
    bar.title = `won ${pct(m.winRate)} (95 % interval ${pct(m.low)}–${pct(m.high)})`;
    const label = document.createElement('span');
    label.textContent = pct(m.winRate);
    rate.append(bar, label);
    tr.insertCell().textContent = m.meanScore.toFixed(1);
  }
}

const pct = (x) => `${Math.round(x * 100)} %`;
