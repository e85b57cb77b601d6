// A small RFC 6902 (JSON Patch) apply, enough for the server's replay frames:
// add, remove, replace, move, copy, test. Mutates `doc` in place and returns the new root
// (a patch may replace the root itself).

function unescape(token) {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function parsePointer(path) {
  if (path === '') return [];
  if (path[0] !== '/') throw new Error(`bad JSON pointer ${path}`);
  const tokens = path.slice(1).split('/').map(unescape);
  // `__proto__` names no member of a JSON document: assigning to it would swap an object's
  // prototype instead of adding a key. The server's views never use it.
  if (tokens.includes('__proto__')) throw new Error(`bad JSON pointer ${path}`);
  return tokens;
}

function arrayIndex(arr, token, forAdd) {
  if (token === '-') return forAdd ? arr.length : arr.length - 1;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`bad array index ${token}`);
  const i = Number(token);
  if (i > arr.length || (!forAdd && i === arr.length)) throw new Error(`array index ${i} out of range`);
  return i;
}

function parentOf(doc, tokens) {
  let node = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i];
    if (Array.isArray(node)) node = node[arrayIndex(node, t, false)];
    else if (node !== null && typeof node === 'object' && Object.prototype.hasOwnProperty.call(node, t)) node = node[t];
    else throw new Error(`path not found at /${tokens.slice(0, i + 1).join('/')}`);
  }
  return node;
}

export function getAt(doc, path) {
  let node = doc;
  for (const t of parsePointer(path)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(t)] : node[t];
  }
  return node;
}

function clone(v) {
  return v === null || typeof v !== 'object' ? v : JSON.parse(JSON.stringify(v));
}

function add(doc, tokens, value) {
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens);
  const key = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else if (parent !== null && typeof parent === 'object') parent[key] = value;
  else throw new Error('add: parent is not a container');
  return doc;
}

function remove(doc, tokens) {
  if (tokens.length === 0) return null;
  const parent = parentOf(doc, tokens);
  const key = tokens[tokens.length - 1];
  let old;
  if (Array.isArray(parent)) {
    const i = arrayIndex(parent, key, false);
    old = parent[i];
    parent.splice(i, 1);
  } else {
    if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new Error(`remove: no member ${key}`);
    old = parent[key];
    delete parent[key];
  }
  return [doc, old];
}

function equal(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Applies one operation; returns the (possibly new) root. */
export function applyOperation(doc, op) {
  const tokens = parsePointer(op.path);
  switch (op.op) {
    case 'add':
      return add(doc, tokens, clone(op.value));
    case 'remove':
      return tokens.length === 0 ? null : remove(doc, tokens)[0];
    case 'replace': {
      if (tokens.length === 0) return clone(op.value);
      const parent = parentOf(doc, tokens);
      const key = tokens[tokens.length - 1];
      if (Array.isArray(parent)) parent[arrayIndex(parent, key, false)] = clone(op.value);
      else parent[key] = clone(op.value);
      return doc;
    }
    case 'move': {
      const from = parsePointer(op.from);
      if (op.from === op.path) return doc;
      const [d, value] = remove(doc, from);
      return add(d, tokens, value);
    }
    case 'copy':
      return add(doc, tokens, clone(getAt(doc, op.from)));
    case 'test':
      if (!equal(getAt(doc, op.path), op.value)) throw new Error(`test failed at ${op.path}`);
      return doc;
    default:
      throw new Error(`unknown patch op ${op.op}`);
  }
}

/** Applies a whole patch (an array of operations) to `doc`, in place; returns the root. */
export function applyPatch(doc, patch) {
  let root = doc;
  for (const op of patch || []) root = applyOperation(root, op);
  return root;
}
