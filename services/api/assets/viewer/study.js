// A study's page (`/study/<id>`): its name, author and moments, each a link to the viewer at
// that position with the study's comment beside it.
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const API = (params.get('api') || location.origin).replace(/\/+$/, '');
const STUDY_ID = params.get('study') || decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const KIND_NAMES = { FIVE_TRIBES: 'Five Tribes', CLANS_OF_CALEDONIA: 'Clans of Caledonia', MOMBASA: 'Mombasa' };

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

async function load() {
  const res = await fetch(`${API}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'query($id: ID!) { study(id: $id) { name author createdAt items { ply comment url game { id kind players } } } }',
      variables: { id: STUDY_ID },
    }),
  });
  const body = await res.json();
  const m = $('message');
  if (body.errors && body.errors.length) {
    m.textContent = body.errors[0].message;
    m.hidden = false;
    return;
  }
  const s = body.data.study;
  if (!s) {
    m.textContent = `No study ${STUDY_ID}.`;
    m.hidden = false;
    return;
  }
  document.title = `Ludolog · ${s.name}`;
  $('study-name').textContent = s.name;
  $('study-meta').textContent = `by ${s.author.replace(/^analyst:/, '')} · ${s.createdAt.slice(0, 10)} · ${s.items.length} moments`;
  $('moments').innerHTML = s.items.map((it) => {
    const g = it.game;
    const what = g ? `${KIND_NAMES[g.kind] || g.kind}: ${g.players.join(', ')}` : 'a game no longer stored';
    return `<li class="moment"><a href="${esc(it.url)}">${esc(what)} · position ${it.ply}</a>`
      + (it.comment ? `<p class="moment-comment">${esc(it.comment)}</p>` : '') + '</li>';
  }).join('');
}

load().catch((e) => {
  $('message').textContent = `Could not load the study: ${e.message}`;
  $('message').hidden = false;
});
