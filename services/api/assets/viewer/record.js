// What a game's record holds beside its line of play, drawn as plain DOM (every text set as
// text: reasons and notations are whatever people typed): the revisions of a corrected record,
// and the entries takebacks withdrew, shown struck through where they were taken back.

// The revisions box: which revision is shown, then — folded, so a long history never pushes
// the board down — what each correction changed, by whom and why, with a link to every
// revision (the latest is the game's own page).
export function showRevisions(box, meta) {
  const revs = meta.revisions || [];
  if (revs.length < 2) { box.hidden = true; return; }
  const latest = revs[revs.length - 1].number;
  box.replaceChildren();
  const head = document.createElement('p');
  head.textContent = meta.revision === latest
    ? `Corrected record: revision ${meta.revision}, the latest.`
    : `An earlier revision of a corrected record: revision ${meta.revision} of ${latest}.`;
  box.append(head);
  const list = document.createElement('ol');
  list.start = 0;
  for (const r of revs) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    const q = new URLSearchParams(location.search);
    q.delete('ply');
    if (r.number === latest) q.delete('revision'); else q.set('revision', String(r.number));
    a.href = `${location.pathname}${q.toString() ? `?${q}` : ''}`;
    a.textContent = r.number === 0 ? 'as recorded' : `revision ${r.number}`;
    if (r.number === meta.revision) a.setAttribute('aria-current', 'page');
    li.append(a);
    if (r.number > 0) {
      const changes = r.changes.map((c) => `entry ${c.ply}: ${c.was} → ${c.now}`).join('; ');
      const when = r.at ? new Date(r.at).toISOString().slice(0, 10) : '';
      li.append(` — ${r.author || ''}, ${when}: ${r.reason} (${changes})`);
    }
    list.append(li);
  }
  const more = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = `Every revision (${revs.length}): what each correction changed`;
  more.append(summary, list);
  box.append(more);
  box.hidden = false;
}

// The entries withdrawn back to position `ply`, one item per takeback, or null when none
// was. They are not positions of the line, so they are not links and carry no `data-ply`.
export function withdrawnAt(withdrawals, ply, actorLabel) {
  const here = (withdrawals || []).filter((w) => w.toPly === ply);
  if (!here.length) return null;
  const frag = document.createDocumentFragment();
  for (const w of here) {
    const li = document.createElement('li');
    li.className = 'withdrawn-group';
    li.dataset.request = String(w.request);
    const label = document.createElement('span');
    label.className = 'withdrawn-label';
    label.textContent = `Taken back to ply ${w.toPly} (request ${w.request}, ${w.by === 'recorder' ? 'by the recorder' : `accepted by ${actorLabel(w.by)}`}):`;
    li.append(label);
    const ol = document.createElement('ol');
    for (const m of w.moves) {
      const item = document.createElement('li');
      item.className = 'move withdrawn';
      item.dataset.withdrawnPly = String(m.ply);
      const no = document.createElement('span');
      no.className = 'ply-no';
      no.textContent = String(m.ply);
      const desc = document.createElement('span');
      desc.className = 'desc';
      desc.textContent = m.description;
      const code = document.createElement('code');
      code.className = 'notation';
      code.textContent = m.move;
      item.append(no, desc, code);
      ol.append(item);
    }
    li.append(ol);
    frag.append(li);
  }
  return frag;
}
