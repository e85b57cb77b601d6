// The move list: every ply in words (seats named by their players), grouped by round, with
// the game's annotations and the entries takebacks withdrew; the current move kept in view.
import { esc } from './api.js';
import { withdrawnAt } from './record.js';
import { seatName, named } from './names.js';
import { $, state, linkFor, seatColour } from './context.js';

export function buildMoves() {
  const box = $('moves');
  const frag = document.createDocumentFragment();
  const data = state.data;
  let group = null;
  let lastRound = null;
  let lastActor = null;
  const startLi = document.createElement('div');
  startLi.className = 'move start';
  startLi.dataset.ply = '0';
  startLi.innerHTML = `<a href="${esc(linkFor(0))}" data-ply="0">Start</a>`;
  annotate(startLi.firstChild, 0);
  frag.appendChild(startLi);
  data.frames.forEach((f, i) => {
    const p = i + 1;
    const round = data.rounds[p - 1] || data.rounds[p] || 0;
    if (round !== lastRound) {
      const sec = document.createElement('section');
      sec.className = 'round';
      sec.dataset.round = String(round);
      sec.innerHTML = `<h3>${round ? `Round ${esc(round)}` : 'Setup'}</h3>`;
      group = document.createElement('ol');
      group.className = 'round-moves';
      sec.appendChild(group);
      frag.appendChild(sec);
      lastRound = round;
      lastActor = null;
    }
    group.appendChild(moveItem(f, p, f.actor !== lastActor));
    lastActor = f.actor;
    const withdrawn = withdrawnAt(data.withdrawals, p, actorLabel);
    if (withdrawn) { group.appendChild(withdrawn); lastActor = null; }
  });
  box.replaceChildren(frag);
  state.moveEls = box.querySelectorAll('[data-ply]');
}
export function actorLabel(actor) {
  if (actor === 'dealer') return 'dealer';
  const s = Number(actor);
  if (Number.isInteger(s) && state.game.players[s] !== undefined) return seatName(state.game.players, s);
  return actor;
}
export function moveItem(f, p, newTurn) {
  const li = document.createElement('li');
  li.className = `move${newTurn ? ' new-turn' : ''}${f.actor === 'dealer' ? ' dealer' : ''}`;
  li.dataset.ply = String(p);
  li.dataset.actor = f.actor;
  const s = Number(f.actor);
  if (Number.isInteger(s)) li.style.setProperty('--seat-colour', seatColour(s));
  const a = document.createElement('a');
  a.href = linkFor(p);
  a.dataset.ply = String(p);
  a.innerHTML = `<span class="ply-no">${esc(p)}</span>${newTurn ? `<span class="actor">${esc(actorLabel(f.actor))}</span>` : ''}<span class="desc">${esc(named(f.description, state.game.players))}</span><code class="notation">${esc(f.move)}</code>`;
  li.appendChild(a);
  annotate(a, p);
  return li;
}
// The game's annotations on position `p`: glyphs after the move's words, comments under it.
function annotate(a, p) {
  const notes = ((state.game && state.game.annotations) || []).filter((n) => n.ply === p);
  for (const n of notes) {
    if (n.glyph) {
      const g = document.createElement('span');
      g.className = 'glyph';
      g.textContent = n.glyph;
      (a.querySelector('.desc') || a).appendChild(g);
    }
    if (n.comment) {
      const c = document.createElement('span');
      c.className = 'annotation';
      c.textContent = `${n.comment} — ${n.author.replace(/^analyst:/, '')}`;
      a.appendChild(c);
    }
  }
}
export function markMove() {
  const box = $('moves');
  const old = box.querySelector('.current');
  if (old) { old.classList.remove('current'); old.removeAttribute('aria-current'); }
  const el = box.querySelector(`.move[data-ply="${state.ply}"]`);
  if (el) {
    el.classList.add('current');
    el.setAttribute('aria-current', 'step');
    cancelAnimationFrame(markMove.raf);
    markMove.raf = requestAnimationFrame(() => scrollMoveIntoView(box, el));
  } else if (state.ply === 0) {
    box.scrollTop = 0; // the start: the list from its first move
  }
}
function scrollMoveIntoView(box, el) {
  // Scroll inside the list only (never the page). Measured from the boxes on screen, so
  // it holds whatever the list's offset parent is (the list is `position: relative`, which
  // made `offsetTop` already relative to it); a sticky round heading covers the list's top.
  const b = box.getBoundingClientRect();
  const e = el.getBoundingClientRect();
  const heading = box.querySelector('h3');
  const covered = heading ? heading.getBoundingClientRect().height : 0;
  const top = e.top - b.top + box.scrollTop;
  if (e.top < b.top + covered || e.bottom > b.top + box.clientHeight) {
    box.scrollTop = Math.max(0, top - covered - box.clientHeight / 3);
  }
}
