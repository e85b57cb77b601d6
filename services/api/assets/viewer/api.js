// What every page of the viewer shares: the API it talks to, how it asks, and how a value
// is written into markup.
//
// The API is always the origin that served the page. No parameter can point a page at
// another server: a link like `/games/<id>?api=https://evil` would otherwise hand that
// server the seat token (`Authorization`, and the WebSocket's `connection_init`) and let its
// answers into the page. Development uses the same origin too: the binary serves these
// files under `/assets/viewer/`, so `game.html?game=<id>` and `index.html` open there.
export const API = location.origin;
export const WS_URL = `${API.replace(/^http/, 'ws')}/graphql/ws`;

/** `s` as text for HTML: element content and quoted attribute values alike. */
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

/** A link the API gave, if it stays on this origin (a path, or this origin's URL); else null. */
export function localHref(url) {
  try {
    const u = new URL(String(url), location.origin);
    return u.origin === location.origin ? `${u.pathname}${u.search}${u.hash}` : null;
  } catch {
    return null;
  }
}

export class ApiError extends Error {
  constructor(message, code) { super(message); this.code = code; }
}

/** POSTs a GraphQL request to this origin (with `token` as the bearer, if any); its `data`. */
export async function gql(query, variables = {}, token = null) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(`${API}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  } catch (e) {
    throw new ApiError(`The server at ${API} cannot be reached (${e.message}).`, 'NETWORK');
  }
  let body = null;
  try { body = await res.json(); } catch { /* not JSON */ }
  if (!body) throw new ApiError(`The server answered ${res.status} ${res.statusText}.`, `HTTP_${res.status}`);
  if (body.errors && body.errors.length) {
    const e = body.errors[0];
    throw new ApiError(e.message, (e.extensions && e.extensions.code) || `HTTP_${res.status}`);
  }
  if (!res.ok) throw new ApiError(`The server answered ${res.status}.`, `HTTP_${res.status}`);
  return body.data;
}

/** An element with properties (`dataset` merged) and children (nodes or text, never markup). */
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(e.dataset, v);
    else e[k] = v;
  }
  e.append(...children);
  return e;
}
