// Annotations beside the current move (its glyph after the move's words, its comments under
// them), and annotating from the page: whoever holds a seat's, the recorder's or an
// analyst's token writes a glyph and a comment on the position shown. The server decides
// who may; its refusal is shown as it words it.

/** The glyphs and comments of position `ply`, drawn into `box` (as text, never markup). */
export function showCurrentNotes(box, annotations, ply) {
  const notes = (annotations || []).filter((n) => n.ply === ply);
  box.replaceChildren();
  box.dataset.ply = String(ply);
  for (const n of notes) {
    if (!n.comment) continue;
    const c = document.createElement('span');
    c.className = 'annotation';
    c.textContent = `${n.comment} — ${String(n.author || '').replace(/^analyst:/, '')}`;
    box.append(c);
  }
  return notes.map((n) => n.glyph).filter(Boolean);
}

/** Wires the annotate form: shown when this tab holds a token, for the position shown. */
export function setupAnnotate({ form, hasToken, ply, save, onSaved }) {
  const status = form.querySelector('#annotate-status');
  form.hidden = !hasToken();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const glyph = form.querySelector('#annotate-glyph').value || null;
    const comment = form.querySelector('#annotate-comment').value.trim();
    if (!glyph && !comment) { status.textContent = 'Write a comment or choose a glyph.'; return; }
    const at = ply();
    status.textContent = 'Saving…';
    try {
      const annotations = await save(at, glyph, comment);
      form.querySelector('#annotate-comment').value = '';
      form.querySelector('#annotate-glyph').value = '';
      status.textContent = `Saved on ply ${at}.`;
      onSaved(annotations);
    } catch (e) {
      status.textContent = `Not saved: ${e.message}`;
    }
  });
  return { showPly: (n) => { form.querySelector('#annotate-ply').textContent = String(n); } };
}
