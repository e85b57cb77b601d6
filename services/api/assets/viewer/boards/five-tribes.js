// Five Tribes: the Sultanate (30 tiles with type, value, meeples, camels, palms, palaces),
// the bid track and bid queue, the market row, the djinns on offer, the supplies and one
// panel per seat. Drawn from the view (`Position.view`) and the layout (`Game.layoutJson`).
import { esc, attrs, text, fitText, rect, title, plural, seatName, seatHeader, seatColour, group, cap } from './common.js';

const TRIBE_COLOURS = { yellow: '#f4d03f', white: '#fbfcfc', green: '#27ae60', blue: '#2e86de', red: '#e74c3c' };
const TYPE_FILL = {
  'large-market': '#eab07f',
  'small-market': '#f5dc86',
  oasis: '#a8dbb4',
  village: '#dcc3a0',
  'sacred-place': '#c9aee0',
};
const TYPE_NAME = {
  'large-market': 'Large Market',
  'small-market': 'Small Market',
  oasis: 'Oasis',
  village: 'Village',
  'sacred-place': 'Sacred Place',
};
const CARD_FILL = {
  ivory: '#f3ecd6', jewels: '#c0392b', gold: '#f1c40f', papyrus: '#d8c08a', silk: '#e056a0',
  spice: '#d35400', fish: '#5dade2', wheat: '#e1b12c', pottery: '#a0522d', fakir: '#4d4d4d',
};
const DARK_CARDS = new Set(['jewels', 'spice', 'pottery', 'fakir', 'silk']);

const COST_WORDS = {
  none: 'passive', 'elder-or-fakir': 'pay: elder or Fakir', 'two-elders-or-elder-and-fakir': 'pay: 2 elders / elder+Fakir',
  fakir: 'pay: a Fakir', fakirs: 'pay: Fakirs',
};
const TILE_W = 98;
const TILE_H = 94;
const GAP = 4;
const GX = 10;
const GY = 60;
const RX = 640;

function tribes(layout) {
  return (layout.tribes || []).map((t) => ({ ...t, plural: `${t.tribe}s`, fill: TRIBE_COLOURS[t.colour] || '#999' }));
}

function meeple(cx, cy, fill, cls = 'meeple') {
  return `<path class="${esc(cls)}" fill="${esc(fill)}" d="M${cx - 6},${cy + 8} L${cx - 3},${cy} A4.2,4.2 0 1 1 ${cx + 3},${cy} L${cx + 6},${cy + 8} Z"/>`;
}
function palm(x, y) {
  return `<g class="palm"><rect x="${x - 1}" y="${y - 2}" width="2" height="9" fill="#7d5a2c"/><circle cx="${x}" cy="${y - 4}" r="5" fill="#1e8449"/></g>`;
}
function palace(x, y) {
  return `<path class="palace" d="M${x - 6},${y + 6} L${x - 6},${y - 1} L${x},${y - 7} L${x + 6},${y - 1} L${x + 6},${y + 6} Z" fill="#fdfdfd" stroke="#7a5c00" stroke-width="1"/>`;
}
function camel(x, y, fill) {
  return `<path class="camel" fill="${esc(fill)}" stroke="#222" stroke-width="0.8" d="M${x - 9},${y + 6} L${x - 9},${y} Q${x - 6},${y - 7} ${x - 3},${y - 1} Q${x},${y - 8} ${x + 4},${y - 1} L${x + 7},${y - 5} L${x + 10},${y - 4} L${x + 8},${y + 1} L${x + 8},${y + 6} Z"/>`;
}

function meepleWords(m, trs) {
  const parts = [];
  for (const t of trs) if (m[t.plural]) parts.push(plural(m[t.plural], t.tribe));
  return parts.length ? parts.join(', ') : 'no meeples';
}

function drawTile(tile, index, space, trs, persp, turn) {
  const x = GX + space.column * (TILE_W + GAP);
  const y = GY + space.row * (TILE_H + GAP);
  const fill = TYPE_FILL[tile.type] || '#ddd';
  const owner = tile.owner === null || tile.owner === undefined ? null : tile.owner;
  const words = [`${tile.id}: ${TYPE_NAME[tile.type] || tile.type} ${tile.value}${tile.blue ? ' (blue)' : ''}`, meepleWords(tile.meeples, trs)];
  if (owner !== null) words.push(`camel of ${seatName(persp, owner)}`);
  if (tile.palms) words.push(plural(tile.palms, 'palm tree'));
  if (tile.palaces) words.push(plural(tile.palaces, 'palace'));
  const roles = [];
  if (turn && turn.at === tile.id) roles.push('walk');
  if (turn && turn.from === tile.id) roles.push('from');
  if (turn && turn.tile === tile.id) roles.push('end');
  if (roles.length) words.push(roles.includes('walk') ? 'the walk stands here' : roles.includes('end') ? 'the move ended here' : 'the walk came from here');
  const label = words.join('; ');
  let b = rect(x, y, TILE_W, TILE_H, `tile-bg${roles.length ? ` turn-${roles[0]}` : ''}`, { rx: 6, fill });
  // value disc (blue background for builders' tiles)
  b += `<circle cx="${x + 14}" cy="${y + 14}" r="11" fill="${tile.blue ? '#1f5fbf' : '#9c3a1a'}" stroke="#fff" stroke-width="1.5"/>`;
  b += text(x + 14, y + 18.5, tile.value, 'tile-value', { 'text-anchor': 'middle' });
  b += text(x + 29, y + 13, tile.id, 'tile-id');
  b += fitText(x + 29, y + 25, TYPE_NAME[tile.type] || tile.type, TILE_W - 33, 'tile-type');
  // The camel sits in the bottom-right corner, clear of the name and the meeples; its seat's
  // number beside it (the colour alone is not enough for everyone).
  if (owner !== null) b += camel(x + TILE_W - 16, y + TILE_H - 12, seatColour(persp, owner)) + text(x + TILE_W - 29, y + TILE_H - 6, owner, 'camel-seat', { 'text-anchor': 'end' });
  // meeples: up to three per row, two rows
  const present = trs.filter((t) => tile.meeples[t.plural] > 0);
  present.forEach((t, i) => {
    const col = i % 3;
    const row = Math.floor(i / 3);
    const mx = x + 14 + col * 30;
    const my = y + 40 + row * 22;
    b += `<g class="meeples" data-tribe="${esc(t.tribe)}" data-count="${esc(tile.meeples[t.plural])}">${meeple(mx, my, t.fill)}${text(mx + 8, my + 8, `×${tile.meeples[t.plural]}`, 'count')}</g>`;
  });
  let px = x + 10;
  for (let i = 0; i < tile.palms; i++) { b += palm(px, y + TILE_H - 10); px += 12; }
  for (let i = 0; i < tile.palaces; i++) { b += palace(px, y + TILE_H - 10); px += 14; }
  const m = tile.meeples;
  return group('tile', label, b, {
    'data-path': `/tiles/${index}`, 'data-id': tile.id, 'data-type': tile.type, 'data-value': tile.value, 'data-code': tile.code,
    'data-blue': tile.blue, 'data-owner': owner === null ? '' : owner, 'data-palms': tile.palms, 'data-palaces': tile.palaces,
    'data-viziers': m.viziers, 'data-elders': m.elders, 'data-merchants': m.merchants, 'data-builders': m.builders, 'data-assassins': m.assassins,
    'data-meeples': m.viziers + m.elders + m.merchants + m.builders + m.assassins,
  });
}

function drawEmptySpace(space) {
  const x = GX + space.column * (TILE_W + GAP);
  const y = GY + space.row * (TILE_H + GAP);
  return group('space empty', `${space.id}: no tile yet`, rect(x, y, TILE_W, TILE_H, 'space-bg', { rx: 6 }) + text(x + 8, y + 18, space.id, 'tile-id'), { 'data-id': space.id });
}

function cardGlyph(x, y, w, h, card, layout, extra = {}, cls = 'card') {
  const info = (layout.cards || []).find((c) => c.card === card);
  const code = info ? info.code : card.slice(0, 2);
  const fill = CARD_FILL[card] || '#ccc';
  const tc = DARK_CARDS.has(card) ? '#fff' : '#222';
  const body = rect(x, y, w, h, 'card-bg', { rx: 4, fill }) + `<text x="${x + w / 2}" y="${y + h / 2 + 4}" text-anchor="middle" class="card-code" fill="${tc}">${esc(code)}</text>`;
  return group(cls, `${cap(card)}${info && info.kind === 'merchandise' ? ' (merchandise)' : ''}`, body, { 'data-card': card, ...extra });
}

export function draw(svg, v, layout, persp) {
  const trs = tribes(layout);
  const players = v.players || (v.seats || []).length;
  const seatsH = 150;
  const H = GY + layout.rows * (TILE_H + GAP) + 20 + seatsH + 10;
  const W = 1000;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('aria-label', `Five Tribes board, round ${v.round}, ${v.phase} phase`);
  let out = rect(0, 0, W, H, 'board-bg');

  // status line
  const turn = v.turn || null;
  let status = `Round ${v.round} · ${v.phase}`;
  if (turn) {
    status += ` · ${seatName(persp, turn.seat)} to play (${turn.stage})`;
    if (turn.at) status += ` · walk at ${turn.at}${turn.from ? ` from ${turn.from}` : ''}`;
    if (turn.hand) status += ` · in hand: ${meepleWords(turn.hand, trs)}`;
    if (turn.tile && !turn.at) status += ` · move ended on ${turn.tile}`;
    if (turn.tribeCount) status += ` · ${turn.tribeCount} taken`;
    if (turn.sibittisCount) status += ` · Sibittis drew ${turn.sibittisCount}${turn.sibittis ? `: ${turn.sibittis.join(', ')}` : ''}`;
  }
  const endings = { 'last-camel': 'a seat placed its last camel', 'no-meeple-move': 'a seat had no meeple move' };
  if (v.phase === 'over') status = 'Game over';
  else if (v.ending) status += ` · last round: ${endings[v.ending] || v.ending}`;
  if (v.waitingOn) status += ` · waiting on the dealer (${v.waitingOn.kind})`;
  out += fitText(GX, 26, status, 980, 'status', { 'data-path': '/turn', 'data-leaf': 1, id: 'ft-status' });
  out += text(GX, 46, `Viewed as: ${v.perspective}${v.viewerSeat !== undefined && v.viewerSeat !== null ? ` (seat ${v.viewerSeat})` : ''}`, 'muted');

  // the Sultanate
  const tiles = v.tiles || [];
  const byId = new Map(tiles.map((t, i) => [t.id, [t, i]]));
  out += '<g class="sultanate" role="list" aria-label="The Sultanate">';
  for (const space of layout.spaces) {
    const hit = byId.get(space.id);
    out += `<g role="listitem">${hit ? drawTile(hit[0], hit[1], space, trs, persp, turn) : drawEmptySpace(space)}</g>`;
  }
  out += '</g>';
  // walk arrow (from → at)
  if (turn && turn.from && turn.at) {
    const sp = (id) => layout.spaces.find((s) => s.id === id);
    const a = sp(turn.from);
    const b = sp(turn.at);
    if (a && b) {
      const c = (s) => [GX + s.column * (TILE_W + GAP) + TILE_W / 2, GY + s.row * (TILE_H + GAP) + TILE_H / 2];
      const [x1, y1] = c(a);
      const [x2, y2] = c(b);
      out += `<line class="walk-arrow" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" marker-end="url(#ft-arrow)"/>`;
    }
  }
  out += '<defs><marker id="ft-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 Z" fill="#222"/></marker></defs>';

  // bid track
  let y = GY;
  out += text(RX, y + 4, 'Turn order track (highest plays first)', 'section-title');
  y += 12;
  const spots = v.turnOrderTrack && v.turnOrderTrack.length ? v.turnOrderTrack : layout.turnOrderTrack.map((s) => ({ ...s, seat: null }));
  spots.forEach((s, i) => {
    const sx = RX + i * 38;
    const lay = layout.turnOrderTrack.find((t) => t.spot === s.spot) || {};
    const who = s.seat === null || s.seat === undefined ? null : s.seat;
    let b = rect(sx, y, 34, 46, `spot${lay.free ? ' free' : ''}`, { rx: 3 });
    b += text(sx + 17, y + 42, s.cost, 'spot-cost', { 'text-anchor': 'middle' });
    if (who !== null) b += `<circle cx="${sx + 17}" cy="${y + 17}" r="11" fill="${esc(seatColour(persp, who))}" stroke="#222"/>` + text(sx + 17, y + 21, who, 'marker-seat', { 'text-anchor': 'middle' });
    out += group('track-spot', `Turn order spot ${s.spot}, cost ${s.cost}${lay.free ? ' (free)' : ''}: ${who === null ? 'empty' : `marker of ${seatName(persp, who)}`}`, b,
      { 'data-path': `/turnOrderTrack/${i}`, 'data-spot': s.spot, 'data-cost': s.cost, 'data-seat': who === null ? '' : who });
  });
  y += 60;
  out += text(RX, y + 4, 'Bid order (front bids next)', 'section-title');
  y += 12;
  (layout.bidOrderTrack || []).forEach((q, i) => {
    const who = (v.bidOrder || [])[i];
    const sx = RX + i * 38;
    let b = rect(sx, y, 34, 30, 'spot', { rx: 3 });
    if (who !== undefined && who !== null) b += `<circle cx="${sx + 17}" cy="${y + 15}" r="10" fill="${esc(seatColour(persp, who))}" stroke="#222"/>` + text(sx + 17, y + 19, who, 'marker-seat', { 'text-anchor': 'middle' });
    out += group('bid-spot', `Bid queue spot ${q.spot}: ${who === undefined || who === null ? 'empty' : seatName(persp, who)}`, b,
      { 'data-path': `/bidOrder/${i}`, 'data-spot': q.spot, 'data-seat': who === undefined || who === null ? '' : who });
  });
  if (v.turnOrder && v.turnOrder.length) out += text(RX + (layout.bidOrderTrack.length) * 38 + 8, y + 20, `to play: ${v.turnOrder.join(' → ')}`, 'muted', { 'data-path': '/turnOrder', 'data-leaf': 1 });

  // market row
  y += 46;
  out += text(RX, y + 4, `Market row (deck ${v.resourceDeckSize})`, 'section-title', { 'data-path': '/resourceDeckSize', 'data-leaf': 1 });
  y += 12;
  (v.resourceRow || []).forEach((c, i) => {
    const cx = RX + i * 38;
    out += cardGlyph(cx, y, 34, 48, c.card, layout, { 'data-path': `/resourceRow/${i}`, 'data-position': c.position }, 'card market-card');
    out += text(cx + 17, y + 60, c.position, 'tiny', { 'text-anchor': 'middle' });
  });
  if (!(v.resourceRow || []).length) out += text(RX, y + 24, 'empty', 'muted');

  // djinns on offer
  y += 74;
  out += text(RX, y + 4, `Djinns on offer (pile ${v.djinnDeckSize})`, 'section-title');
  y += 12;
  (v.djinnRow || []).forEach((d, i) => {
    const info = (layout.djinns || []).find((x) => x.djinn === d) || { name: d, vp: '?', power: '' };
    const dx = RX + i * 116;
    let b = rect(dx, y, 110, 62, 'djinn-bg', { rx: 5 });
    b += fitText(dx + 6, y + 16, info.name, 98, 'djinn-name');
    b += text(dx + 6, y + 32, `${info.vp} VP`, 'djinn-vp');
    b += fitText(dx + 6, y + 48, COST_WORDS[info.cost] || info.cost, 98, 'tiny');
    out += group('djinn', `Djinn ${info.name}, ${info.vp} victory points: ${info.power}`, b, { 'data-path': `/djinnRow/${i}`, 'data-djinn': d });
  });

  // supplies
  y += 82;
  out += text(RX, y, 'Bag', 'section-title', { 'data-path': '/bag', 'data-leaf': 1 });
  trs.forEach((t, i) => {
    const bx = RX + 40 + i * 40;
    out += `<g class="bag-tribe" data-tribe="${esc(t.tribe)}" data-count="${esc(v.bag ? v.bag[t.plural] : 0)}">${title(`${v.bag ? v.bag[t.plural] : 0} ${t.plural} in the bag`)}${meeple(bx, y - 8, t.fill)}${text(bx + 8, y, v.bag ? v.bag[t.plural] : 0, 'count')}</g>`;
  });
  y += 22;
  out += `<g class="supply" data-palms="${esc(v.palmsLeft)}" data-palaces="${esc(v.palacesLeft)}">${palm(RX + 6, y - 4)}${text(RX + 16, y, `${v.palmsLeft} palm trees left`, 'small')}${palace(RX + 146, y - 4)}${text(RX + 156, y, `${v.palacesLeft} palaces left`, 'small')}</g>`;
  y += 18;
  const disc = (v.resourceDiscard || []).filter((c) => c.count > 0).map((c) => `${c.card}×${c.count}`).join(', ');
  // The discard on as many lines as it needs (at most three), each kept inside the board.
  const lines = [];
  for (const part of [`Discard: ${disc || 'none'}`, (v.djinnDiscard || []).length ? `Djinns discarded: ${v.djinnDiscard.join(', ')}` : null]) {
    if (!part) continue;
    let cur = '';
    for (const w of part.split(' ')) {
      if (cur && (cur + w).length > 58) { lines.push(cur.trimEnd()); cur = '  '; }
      cur += `${w} `;
    }
    lines.push(cur.trimEnd());
  }
  lines.slice(0, 3).forEach((l, i) => {
    out += fitText(RX, y + i * 12, l, 1000 - RX - 10, 'tiny', i === 0 ? { 'data-path': '/resourceDiscard', 'data-leaf': 1 } : {});
  });

  // seats
  const sy = GY + layout.rows * (TILE_H + GAP) + 14;
  const seats = v.seats || [];
  const sw = (W - 20) / Math.max(1, seats.length);
  seats.forEach((s, i) => {
    const sx = 10 + i * sw;
    const colour = seatColour(persp, s.seat);
    const toPlay = turn && turn.seat === s.seat;
    let b = rect(sx, sy, sw - 8, seatsH - 8, `seat-bg${toPlay ? ' to-play' : ''}`, { rx: 6, stroke: colour });
    b += rect(sx, sy, sw - 8, 22, '', { rx: 6, fill: colour });
    b += seatHeader(sx, sy, sw - 8, `${seatName(persp, s.seat)}${toPlay ? ' ▶' : ''}`, s.seat);
    const gold = s.gold === null || s.gold === undefined ? 'hidden' : `${s.gold}`;
    b += text(sx + 8, sy + 40, `Gold: ${gold}`, 'seat-line seat-gold', { 'data-gold': s.gold === null || s.gold === undefined ? '' : s.gold });
    b += text(sx + 8, sy + 56, `Viziers ${s.viziers} · Elders ${s.elders}`, 'seat-line');
    b += text(sx + 8, sy + 72, `Camels left ${s.camels} · Tiles ${s.tilesOwned}`, 'seat-line');
    const cards = (s.cards || []).filter((c) => c.count > 0);
    let cx = sx + 8;
    cards.forEach((c) => {
      b += cardGlyph(cx, sy + 80, 26, 22, c.card, layout, { 'data-count': c.count }, 'card seat-card');
      b += text(cx + 13, sy + 114, `×${c.count}`, 'tiny', { 'text-anchor': 'middle' });
      cx += 29;
    });
    if (!cards.length) b += text(sx + 8, sy + 96, 'no cards', 'muted');
    const dj = (s.djinns || []).map((d) => ((layout.djinns || []).find((x) => x.djinn === d) || { name: d }).name);
    b += fitText(sx + 8, sy + 134, dj.length ? `Djinns: ${dj.join(', ')}` : 'No djinns', sw - 24, 'tiny');
    const cardWords = cards.map((c) => `${c.count} ${c.card}`).join(', ') || 'no cards';
    out += group('seat-panel', `${seatName(persp, s.seat)}: gold ${gold}, ${s.viziers} viziers, ${s.elders} elders, ${s.camels} camels left, ${s.tilesOwned} tiles; cards: ${cardWords}; djinns: ${dj.join(', ') || 'none'}`, b, {
      'data-path': `/seats/${i}`, 'data-seat': s.seat, 'data-gold': s.gold === null || s.gold === undefined ? '' : s.gold,
      'data-viziers': s.viziers, 'data-elders': s.elders, 'data-camels': s.camels, 'data-tiles-owned': s.tilesOwned,
    });
  });
  void players;
  svg.innerHTML = out;
}

export function legendNotes() {
  return [];
}
