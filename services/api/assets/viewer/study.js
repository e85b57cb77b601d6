// A study's page (`/study/<id>`): its name, author and moments, each a link to the viewer at
// that position with the study's comment beside it (and a branch's moves, its link opening it
// on the analysis board). Everything is set as text; a moment's link is followed only if it
// stays on this origin.
import { ApiError, gql, localHref } from './api.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const STUDY_ID = params.get('study') || decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const KIND_NAMES = { FIVE_TRIBES: 'Five Tribes', CLANS_OF_CALEDONIA: 'Clans of Caledonia', MOMBASA: 'Mombasa' };

function say(text) {
  const m = $('message');
  m.textContent = text;
  m.hidden = false;
}

function moment(it) {
  const g = it.game;
  const what = g ? `${KIND_NAMES[g.kind] || g.kind}: ${g.players.join(', ')}` : 'a game no longer stored';
  const li = document.createElement('li');
  li.className = 'moment';
  const a = document.createElement('a');
  a.href = localHref(it.url) || `/games/${encodeURIComponent(it.gameId)}?ply=${encodeURIComponent(it.ply)}`;
  const branch = it.branch || [];
  a.textContent = `${what} · position ${it.ply}${branch.length ? ` · a branch of ${branch.length} move${branch.length === 1 ? '' : 's'}` : ''}`;
  li.append(a);
  if (branch.length) {
    // The moves played from the position on the analysis board (`*`: chance dealt).
    const ol = document.createElement('ol');
    ol.className = 'moment-branch';
    ol.start = it.ply + 1;
    for (const m of branch) {
      const mi = document.createElement('li');
      mi.textContent = m === '*' ? 'chance (dealt)' : m;
      ol.append(mi);
    }
    li.append(ol);
  }
  if (it.comment) {
    const p = document.createElement('p');
    p.className = 'moment-comment';
    p.textContent = it.comment;
    li.append(p);
  }
  return li;
}

async function load() {
  let d;
  try {
    d = await gql('query($id: ID!) { study(id: $id) { name author createdAt items { gameId ply comment url branch game { id kind players } } } }', { id: STUDY_ID });
  } catch (e) {
    say(e instanceof ApiError && e.code !== 'NETWORK' ? e.message : `Could not load the study: ${e.message}`);
    return;
  }
  const s = d.study;
  if (!s) {
    say(`No study ${STUDY_ID}.`);
    return;
  }
  document.title = `Ludolog · ${s.name}`;
  $('study-name').textContent = s.name;
  $('study-meta').textContent = `by ${s.author.replace(/^analyst:/, '')} · ${String(s.createdAt).slice(0, 10)} · ${s.items.length} moment${s.items.length === 1 ? "" : "s"}`;
  $('moments').replaceChildren(...s.items.map(moment));
}

load().catch((e) => say(`Could not load the study: ${e.message}`));
