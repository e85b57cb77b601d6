// The analysis board: "Analyse from here" opens a branch beside the main line at the ply shown.
// Pick a move from the legal list (searchable, in words; at a chance node, deal one), see the
// board, the Explorer follow the branch, step back, close it. Nothing is stored
// (`Position.explore`); in a game in play the branch is played on what this page may see. The
// branch is in the URL (`b=` a move each), so a link shares it and a reload reopens it.
// Whoever may make a study (an analyst's or the admin's token in this tab) saves a finished
// game's branch as one; the server checks the token and that the branch plays.
import { $, state, gql, GAME_ID, EMBED, params, perspVars, revVars, token } from './context.js';
import { localHref } from './api.js';
import { showExplorerNode } from './explorer.js';

const QUERY = `query Branch($id: ID!, $revision: Int, $ply: Int, $m: [String!]!, $seat: Int, $perspective: Perspective, $q: String) {
  game(id: $id, revision: $revision) { position(ply: $ply) { explore(moves: $m, seat: $seat, perspective: $perspective) {
    ply toAct { kind seat } view(seat: $seat, perspective: $perspective)
    legalMoves(first: 60, search: $q) { total moves words }
    explorer { games hash moves(first: 12) { notation words games winRate low high meanScore lastGame lastPly } } } } } }`;

/** The open branch: from which ply of the main line, and its moves. */
export const branch = { open: false, from: 0, moves: [] };
let hooks = null; // { draw(view), restore() }
let timer = null;
let seq = 0;

/** Starts the analysis board (not in embeds); reopens a branch the URL holds. */
export function initBranch(h) {
  hooks = h;
  const pane = $('branch-pane');
  if (!pane || EMBED) return;
  pane.hidden = false;
  $('btn-analyse').addEventListener('click', () => openBranch(state.ply, []));
  $('branch-back').addEventListener('click', () => {
    if (branch.moves.length) {
      branch.moves.pop();
      show();
    }
  });
  $('branch-close').addEventListener('click', closeBranch);
  $('branch-deal').addEventListener('click', () => play('*'));
  $('branch-save').addEventListener('submit', (ev) => {
    ev.preventDefault();
    saveStudy();
  });
  $('branch-search').addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(show, 200);
  });
  const b = params.getAll('b');
  if (b.length || params.get('branch') === '1') openBranch(state.ply, b);
}

function openBranch(from, moves) {
  Object.assign(branch, { open: true, from, moves: [...moves] });
  state.branchOpen = true;
  $('branch-open').hidden = false;
  $('btn-analyse').hidden = true;
  $('branch-search').value = '';
  show();
}

/** Closes the branch: the main line's board and Explorer come back. */
export function closeBranch() {
  if (!branch.open) return;
  branch.open = false;
  state.branchOpen = false;
  $('branch-open').hidden = true;
  $('branch-save').hidden = true;
  $('btn-analyse').hidden = false;
  writeUrl();
  hooks.restore();
}

function play(move) {
  branch.moves.push(move);
  $('branch-search').value = '';
  show();
}

async function show() {
  const n = ++seq;
  writeUrl();
  const st = $('branch-status');
  st.textContent = 'Playing the branch…';
  let p;
  try {
    const d = await gql(QUERY, {
      id: GAME_ID, ...revVars(), ...perspVars(), ply: branch.from, m: branch.moves,
      q: $('branch-search').value || null,
    });
    p = d.game.position.explore;
  } catch (e) {
    if (n !== seq) return;
    // The last move was refused: say why and take it back, the branch as it was.
    st.textContent = `Not played: ${e.message}`;
    branch.moves.pop();
    writeUrl();
    return;
  }
  if (n !== seq || !branch.open) return;
  hooks.draw(p.view);
  drawMoves();
  drawLegal(p);
  showExplorerNode(p.explorer);
  const kind = p.toAct.kind;
  st.textContent = kind === 'OVER' ? `Ply ${p.ply}: the branch's game is over.`
    : kind === 'CHANCE' ? `Ply ${p.ply}: chance decides next.`
      : `Ply ${p.ply}: seat ${p.toAct.seat} to move.`;
  $('branch-deal').hidden = kind !== 'CHANCE';
  $('branch-back').disabled = branch.moves.length === 0;
  showSave();
}

/** The save form: for a finished game's branch of at least one move, in a tab with a token. */
function showSave() {
  const form = $('branch-save');
  const can = !!token() && state.game && state.game.status === 'FINISHED' && branch.moves.length > 0;
  if (form.hidden === can) $('branch-save-status').replaceChildren();
  form.hidden = !can;
}

const SAVE = `mutation SaveBranch($name: String!, $items: [StudyItemInput!]!) {
  createStudy(name: $name, items: $items) { id name url } }`;

async function saveStudy() {
  const status = $('branch-save-status');
  const name = $('branch-study-name').value.trim();
  if (!name) { status.textContent = 'Name the study.'; return; }
  status.textContent = 'Saving…';
  const item = { gameId: GAME_ID, ply: branch.from, comment: $('branch-study-comment').value.trim(), branch: [...branch.moves] };
  try {
    const d = await gql(SAVE, { name, items: [item] });
    const a = document.createElement('a');
    a.href = localHref(d.createStudy.url) || '#';
    a.textContent = `Saved: ${d.createStudy.name}`;
    a.id = 'branch-study-link';
    status.replaceChildren(a);
  } catch (e) {
    status.textContent = `Not saved: ${e.message}`;
  }
}

function drawMoves() {
  const ol = $('branch-moves');
  ol.replaceChildren();
  ol.start = branch.from + 1;
  for (const m of branch.moves) {
    const li = document.createElement('li');
    li.textContent = m === '*' ? 'chance (dealt)' : m;
    ol.append(li);
  }
}

function drawLegal(p) {
  const ul = $('branch-legal');
  ul.replaceChildren();
  const lm = p.legalMoves;
  lm.moves.forEach((m, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'branch-move';
    b.dataset.notation = m;
    b.textContent = lm.words[i];
    b.title = m;
    b.addEventListener('click', () => play(m));
    li.append(b);
    ul.append(li);
  });
  $('branch-count').textContent = lm.total > lm.moves.length
    ? `${lm.moves.length} of ${lm.total} moves: search to narrow`
    : `${lm.total} move${lm.total === 1 ? '' : 's'}`;
}

function writeUrl() {
  const u = new URL(location.href);
  u.searchParams.delete('b');
  u.searchParams.delete('branch');
  if (branch.open) {
    u.searchParams.set('ply', String(branch.from));
    u.searchParams.set('branch', '1');
    for (const m of branch.moves) u.searchParams.append('b', m);
  }
  history.replaceState(null, '', u.pathname + u.search);
}
