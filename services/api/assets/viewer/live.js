// Following a game in play: a graphql-transport-ws subscription from the last ply read, each
// new entry appended to the line and the move list (the position follows if it was at the
// end), takebacks and corrections read again, reconnecting with backoff.
import { WS_URL, esc } from './api.js';
import { $, state, gql, GAME_ID, token, perspVars, showMessage, explain, total } from './context.js';
import { moveItem, buildMoves } from './moves.js';
import { drawGraph } from './scores.js';

// What lives in the page's main module: stepping, drawing and reading the game.
let hooks = null;
export function initLive(h) {
  hooks = h;
}

export function restartLive() {
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
  hooks.extend(data, u);
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
  if (atTip) hooks.goTo(data.frames.length); else hooks.render();
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
      const meta = await hooks.loadMeta();
      if (!meta) return;
      state.game = meta;
      // Positions past the takeback are another line's now: nothing read of them is kept.
      state.cache.clear();
      state.scoreCache.clear();
      state.data = await hooks.loadPerspective(state.persp);
      state.view = null;
      const ply = atTip ? total() : Math.min(state.ply, total());
      state.ply = 0;
      buildMoves();
      drawGraph();
      hooks.goTo(ply);
      if (u.kind === 'WITHDRAWN') showMessage(`Takeback: ${u.description}.`, 'warning');
      restartLive();
    } catch (e) {
      showMessage(explain(e));
    } finally {
      reloading = null;
    }
  })();
}
