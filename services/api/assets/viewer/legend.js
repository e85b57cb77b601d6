// The legend under the side panel: the layout's reconstructed components (not verified
// against a public source), grouped by where they sit in the layout, and the board's notes.
import { esc } from './api.js';
import { $, state } from './context.js';

export function buildLegend() {
  const groups = new Map();
  const walk = (node, path) => {
    if (Array.isArray(node)) { node.forEach((x) => walk(x, `${path}[]`)); return; }
    if (node === null || typeof node !== 'object') return;
    if (node.reconstructed === true) {
      const name = node.name || node.good || node.id || node.module || node.tile || node.good || null;
      const g = groups.get(path) || { count: 0, names: [] };
      g.count++;
      if (name !== null && g.names.length < 12) g.names.push(String(name));
      groups.set(path, g);
    }
    for (const [k, v] of Object.entries(node)) if (v && typeof v === 'object') walk(v, path ? `${path}.${k}` : k);
  };
  walk(state.layout, '');
  const el = $('legend');
  const notes = (state.board.legendNotes && state.board.legendNotes(state.layout)) || [];
  if (!groups.size && !notes.length) { el.hidden = true; return; }
  let h = '<h2>Legend: reconstructed components</h2><p>These layout items are not verified against a public source; they are drawn plainly from the data:</p><ul>';
  for (const [path, g] of groups) {
    h += `<li data-layout-path="${esc(path)}" data-count="${esc(g.count)}"><code>${esc(path || '(layout)')}</code> × ${esc(g.count)}${g.names.length ? `: ${esc(g.names.join(', '))}${g.count > g.names.length ? ', …' : ''}` : ''}</li>`;
  }
  h += '</ul>';
  if (notes.length) h += `<ul>${notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`;
  el.innerHTML = h;
  el.hidden = false;
}
