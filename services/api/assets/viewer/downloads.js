// Downloads of a finished game: its record (as `ludolog export` writes it) and its game text
// from the API, and every position's view as JSON from what the page has read.
import { $, state, gql, GAME_ID, REVISION, revVars, showMessage, explain, total } from './context.js';

function save(name, type, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
export function setupDownloads(viewAt) {
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
