// Small helpers shared by the board modules: SVG strings (drawn with one innerHTML per step).
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
/** Attributes from an object: {x: 1, 'data-id': 'c3'} → ` x="1" data-id="c3"` (null/undefined skipped). */
export function attrs(o) {
  let s = '';
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined && v !== false) s += ` ${k}="${esc(v)}"`;
  return s;
}
export function text(x, y, str, cls = '', extra = {}) {
  return `<text${attrs({ x, y, class: cls || null, ...extra })}>${esc(str)}</text>`;
}
export function rect(x, y, w, h, cls = '', extra = {}) {
  return `<rect${attrs({ x, y, width: w, height: h, class: cls || null, ...extra })}/>`;
}
export function title(str) {
  return `<title>${esc(str)}</title>`;
}
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many || `${one}s`}`;
}
export function seatName(persp, s) {
  const n = persp && persp.players && persp.players[s];
  return n ? `seat ${s} (${n})` : `seat ${s}`;
}
export function seatColour(persp, s) {
  const c = (persp && persp.colours) || ['#8e44ad', '#e67e22', '#16a085', '#d6336c', '#2c3e50'];
  return c[s % c.length];
}
/** A group with an accessible name: role="img" + aria-label + <title>. */
export function group(cls, label, body, extra = {}) {
  return `<g${attrs({ class: cls, role: 'img', 'aria-label': label, ...extra })}>${title(label)}${body}</g>`;
}
export function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
