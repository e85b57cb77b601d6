// Small helpers shared by the board modules: SVG strings (drawn with one innerHTML per step).
import { seatName as nameOf } from '../names.js';

/** A text that must stay inside `width` units: the viewer measures it once drawn and
 *  squeezes it (`textLength`) if it runs over, so a long name is narrower, never cut. */
export function fitText(x, y, str, width, cls = '', extra = {}) {
  return text(x, y, str, cls, { 'data-fit': width, ...extra });
}
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
/** A seat by its player's name (the number only where two seats share a name). */
export function seatName(persp, s) {
  return nameOf(persp && persp.players, s);
}
/** A seat panel's header bar text: the player's name (squeezed to fit, never cut) and, at
 *  the right, the seat's number — what the markers on the tracks carry. */
export function seatHeader(x, y, w, str, seat) {
  return fitText(x + 8, y + 16, str, w - 62, 'seat-name')
    + text(x + w - 8, y + 15, `seat ${seat}`, 'seat-no', { 'text-anchor': 'end' });
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
