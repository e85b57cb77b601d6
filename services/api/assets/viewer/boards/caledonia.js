// Clans of Caledonia: the hex map assembled from the layout's module sides (terrain, land
// costs, lochs, rivers, deltas, ports), units and buildings by clan colour, the market with
// its price tracks, the export boxes, the round's scoring tile and one panel per seat.
import { esc, attrs, text, fitText, rect, title, plural, seatName, seatHeader, group, cap } from './common.js';

export const CLAN_COLOURS = {
  buchanan: '#c62828', campbell: '#d4a017', cunningham: '#546e7a', fergusson: '#1e6fd9', macdonald: '#7b1fa2',
  mackenzie: '#00796b', robertson: '#ef6c00', stewart: '#d81b60', macewen: '#5d4037',
};
const SEAT_FALLBACK = ['#8e44ad', '#e67e22', '#16a085', '#d6336c'];
const TERRAIN_FILL = { grassland: '#b9dc8c', forest: '#4f9a57', mountain: '#a8a597' };
const UNIT = {
  sheep: { letter: 'S', shape: 'circle' }, cow: { letter: 'C', shape: 'circle' }, field: { letter: 'F', shape: 'square' },
  dairy: { letter: 'D', shape: 'house' }, bakery: { letter: 'B', shape: 'house' }, distillery: { letter: 'W', shape: 'house' },
  woodcutter: { letter: 'w', shape: 'tri' }, miner: { letter: 'm', shape: 'tri' }, fisherman: { letter: 'f', shape: 'tri' },
};
const DIRS = { e: 0, ne: 60, nw: 120, w: 180, sw: 240, se: 300 };
const S = 27; // hex size: centre to corner
const HW = Math.sqrt(3) * S; // hex width
const MX = 10;
const MY = 52;
const RX = 622;

export function seatColour(v, s) {
  const seat = v && v.seats && v.seats.find((x) => x.seat === s);
  return (seat && seat.clan && CLAN_COLOURS[seat.clan]) || SEAT_FALLBACK[s % SEAT_FALLBACK.length];
}

function centre(h) {
  return [MX + (h.x * HW) / 2 + HW / 2, MY + h.y * 1.5 * S + S];
}
function corner(cx, cy, deg, r = S) {
  const a = (deg * Math.PI) / 180;
  return [cx + r * Math.cos(a), cy - r * Math.sin(a)];
}
function hexPoints(cx, cy, r = S) {
  const pts = [];
  for (let k = 0; k < 6; k++) pts.push(corner(cx, cy, 30 + 60 * k, r).map((n) => n.toFixed(1)).join(','));
  return pts.join(' ');
}

function unitIcon(cx, cy, unit, fill, extra, label) {
  const u = UNIT[unit] || { letter: '?', shape: 'circle' };
  let shape;
  if (u.shape === 'circle') shape = `<circle cx="${cx}" cy="${cy}" r="9" fill="${esc(fill)}"/>`;
  else if (u.shape === 'square') shape = `<rect x="${cx - 8}" y="${cy - 8}" width="16" height="16" fill="${esc(fill)}"/>`;
  else if (u.shape === 'house') shape = `<path d="M${cx - 9},${cy + 8} L${cx - 9},${cy - 2} L${cx},${cy - 10} L${cx + 9},${cy - 2} L${cx + 9},${cy + 8} Z" fill="${esc(fill)}"/>`;
  else shape = `<path d="M${cx},${cy - 10} L${cx + 10},${cy + 8} L${cx - 10},${cy + 8} Z" fill="${esc(fill)}"/>`;
  return group('unit', label, `${shape}<text x="${cx}" y="${cy + 4}" text-anchor="middle" class="unit-letter">${esc(u.letter)}</text>`, extra);
}

// The path of every hex edge between two modules, or between a module and the outside.
function moduleEdges(hexes) {
  const edges = new Map();
  for (const h of hexes) {
    if (h.kind === 'off-map') continue;
    const [cx, cy] = centre(h);
    for (let k = 0; k < 6; k++) {
      const a = corner(cx, cy, 30 + 60 * k);
      const b = corner(cx, cy, 90 + 60 * k);
      const key = [a, b].map((p) => p.map((n) => Math.round(n * 10)).join(',')).sort().join('|');
      const e = edges.get(key) || { a, b, modules: [] };
      e.modules.push(h.module);
      edges.set(key, e);
    }
  }
  let d = '';
  for (const e of edges.values()) {
    if (e.modules.length === 2 && e.modules[0] === e.modules[1]) continue;
    d += `M${e.a[0].toFixed(1)},${e.a[1].toFixed(1)}L${e.b[0].toFixed(1)},${e.b[1].toFixed(1)}`;
  }
  return d;
}

function itemWords(list) {
  return (list || []).map((i) => `${i.count} ${i.item}`).join(', ');
}

export function draw(svg, v, layout, persp) {
  const W = 1000;
  const seats = v.seats || [];
  const mapH = 9 * 1.5 * S + 2 * S;
  const seatTop = MY + mapH + 16;
  const seatH = 200;
  const H = seatTop + seatH + 10;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('aria-label', `Clans of Caledonia board, round ${v.round}, ${v.phase} phase`);
  const colourOf = (s) => seatColour(v, s);
  const nameOf = (s) => {
    const seat = seats.find((x) => x.seat === s);
    return `${seatName(persp, s)}${seat && seat.clan ? `, ${cap(seat.clan)}` : ''}`;
  };
  let out = rect(0, 0, W, H, 'board-bg');

  // status
  let status = v.phase === 'over' ? 'Game over' : `Round ${v.round} · ${v.phase}`;
  if (v.toAct !== null && v.toAct !== undefined) status += ` · ${nameOf(v.toAct)} to act`;
  if (v.turn) status += ` (${v.turn.step}${v.turn.mainActionDone ? ', main action done' : ''})`;
  if (v.draw) status += ` · bonus draw for seat ${v.draw.seat}: ${v.draw.contracts ? v.draw.contracts.map((c) => `#${c.id}`).join(', ') : `${v.draw.count} contracts drawn`}`;
  out += fitText(MX, 24, status, W - 2 * MX, 'status', { id: 'cc-status', 'data-path': '/toAct', 'data-leaf': 1 });
  const order = (v.turnOrder || []).map((s) => s).join(' → ');
  out += text(MX, 42, `Turn order: ${order || '—'}${(v.nextTurnOrder || []).length ? ` · passed: ${v.nextTurnOrder.join(', ')}` : ''}`, 'muted');

  // map: the sides the view names
  const sideOf = new Map((v.modules || []).map((m) => [m.module, m.side]));
  const hexes = [];
  for (const mod of layout.modules || []) {
    const side = sideOf.get(mod.module);
    if (side === undefined) continue;
    const sd = mod.sides.find((x) => x.side === side);
    if (sd) for (const h of sd.hexes) hexes.push({ ...h, module: mod.module });
  }
  const units = new Map();
  seats.forEach((s, si) => (s.units || []).forEach((u, ui) => units.set(u.hex, { ...u, seat: s.seat, si, ui })));
  const ports = new Map((v.ports || []).map((p, i) => [p.hex, { ...p, i }]));
  const blocked = new Set(v.blocked || []);
  const portInfo = (n) => (layout.ports || []).find((p) => p.port === n);

  out += '<g class="map" role="list" aria-label="Map">';
  if (!hexes.length) out += text(MX + 200, MY + 200, 'The map is not dealt yet', 'muted');
  for (const h of hexes) {
    if (h.kind === 'off-map') continue;
    const [cx, cy] = centre(h);
    const words = [h.id];
    let body = '';
    if (h.kind === 'loch') {
      body += `<polygon class="hex-bg loch" points="${hexPoints(cx, cy)}"/>`;
      words.push('loch');
    } else if (h.kind === 'port') {
      body += `<polygon class="hex-bg port" points="${hexPoints(cx, cy)}"/>`;
      const p = ports.get(h.id);
      const info = p ? portInfo(p.port) : null;
      words.push(p ? `port ${p.port}: ${info ? info.text : p.effect}` : 'port space');
      body += text(cx, cy - 8, p ? `P${p.port}` : 'port', 'hex-label', { 'text-anchor': 'middle' });
    } else {
      const t = h.terrain || [];
      body += `<polygon class="hex-bg land" points="${hexPoints(cx, cy)}" fill="${esc(TERRAIN_FILL[t[0]] || '#ddd')}"/>`;
      if (t.length > 1) {
        const half = [[cx, cy - S], corner(cx, cy, 30), corner(cx, cy, -30), [cx, cy + S]].map((p) => p.map((n) => n.toFixed(1)).join(',')).join(' ');
        body += `<polygon class="hex-half" points="${half}" fill="${esc(TERRAIN_FILL[t[1]] || '#ddd')}"/>`;
      }
      words.push(`${t.join(' and ') || 'land'}, £${h.landCost}`);
      body += text(cx, cy - 12, `£${h.landCost}`, 'hex-cost', { 'text-anchor': 'middle' });
      if (h.delta) { body += `<path class="delta" d="M${cx - 5},${cy + 19} L${cx + 5},${cy + 19} L${cx},${cy + 12} Z"/>`; words.push('river delta'); }
    }
    if (blocked.has(h.id)) { body += `<circle cx="${cx}" cy="${cy + 4}" r="8" class="neutral"/>`; words.push('neutral worker'); }
    const u = units.get(h.id);
    if (u) {
      const label = `${u.unit} of ${nameOf(u.seat)}`;
      words.push(label);
      body += unitIcon(cx, cy + 6, u.unit, colourOf(u.seat), { 'data-path': `/seats/${u.si}/units/${u.ui}`, 'data-unit': u.unit, 'data-seat': u.seat }, label);
    }
    if (h.rivers && h.rivers.length) words.push(`river on the ${h.rivers.join(', ')} edge${h.rivers.length > 1 ? 's' : ''}`);
    out += `<g role="listitem">${group('hex', words.join('; '), body, {
      'data-id': h.id, 'data-kind': h.kind, 'data-terrain': (h.terrain || []).join(' '), 'data-land-cost': h.landCost,
      'data-unit': u ? u.unit : '', 'data-seat': u ? u.seat : '', 'data-port': ports.has(h.id) ? ports.get(h.id).port : '',
      'data-module': h.module, 'data-path': u ? `/seats/${u.si}/units/${u.ui}` : null,
    })}</g>`;
  }
  out += '</g>';
  // rivers, once per edge
  const seen = new Set();
  let rivers = '';
  for (const h of hexes) {
    if (h.kind === 'off-map') continue;
    const [cx, cy] = centre(h);
    for (const d of h.rivers || []) {
      const deg = DIRS[d];
      if (deg === undefined) continue;
      const a = corner(cx, cy, deg - 30);
      const b = corner(cx, cy, deg + 30);
      const key = [a, b].map((p) => p.map((n) => Math.round(n)).join(',')).sort().join('|');
      if (seen.has(key)) continue;
      seen.add(key);
      rivers += `<line class="river" x1="${a[0].toFixed(1)}" y1="${a[1].toFixed(1)}" x2="${b[0].toFixed(1)}" y2="${b[1].toFixed(1)}"/>`;
    }
  }
  out += `<g class="rivers" aria-hidden="true">${rivers}</g>`;
  // module outlines: the hex edges between two modules or at the map's rim, each once
  out += `<path class="module-outline" d="${moduleEdges(hexes)}"/>`;
  for (const mod of layout.modules || []) {
    if (!sideOf.has(mod.module)) continue;
    const x0 = MX + (mod.firstColumn * HW);
    const y0 = MY + mod.firstRow * 1.5 * S;
    out += text(x0 + 4, y0 + 10, `${mod.module.toUpperCase()}${sideOf.get(mod.module)}`, 'module-label');
  }

  // market
  let y = MY + 4;
  out += text(RX, y, 'Market (marker = current price)', 'section-title');
  y += 8;
  (v.market || []).forEach((m, i) => {
    const lay = (layout.market || []).find((x) => x.good === m.good) || { prices: [] };
    let b = text(RX, y + 16, m.good, 'good-name');
    lay.prices.forEach((p, k) => {
      const x = RX + 52 + k * 24;
      b += rect(x, y + 2, 22, 20, `price-cell${k === m.step ? ' current' : ''}`, { rx: 3 });
      b += text(x + 11, y + 16, p, 'price', { 'text-anchor': 'middle' });
    });
    b += text(RX + 52 + lay.prices.length * 24 + 4, y + 16, `£${m.sellPrice}`, 'price-now');
    out += group('market-good', `${m.good}: step ${m.step}, buy and sell at £${m.buyPrice}, neighbour price £${m.neighbourPrice}${lay.reconstructed ? ' (reconstructed track)' : ''}`, b, {
      'data-path': `/market/${i}`, 'data-good': m.good, 'data-step': m.step, 'data-price': m.sellPrice, 'data-buy-price': m.buyPrice,
    });
    y += 24;
  });

  // export boxes
  y += 14;
  out += text(RX, y, `Export contracts (pile ${v.pile})`, 'section-title', { 'data-path': '/pile', 'data-leaf': 1 });
  y += 6;
  (v.exportBoxes || []).forEach((box, i) => {
    const bx = RX + (i % 3) * 122;
    const by = y + Math.floor(i / 3) * 62;
    const c = box.contract;
    let b = rect(bx, by, 118, 58, `contract${c ? '' : ' empty'}`, { rx: 4 });
    if (c) {
      b += fitText(bx + 5, by + 13, `#${c.id} (box ${box.number})`, 108, 'contract-id');
      b += fitText(bx + 5, by + 28, `asks ${itemWords(c.asks)}`, 108, 'tiny');
      b += fitText(bx + 5, by + 42, `pays ${itemWords(c.pays.slice(0, 2))}`, 108, 'tiny');
      if (c.pays.length > 2) b += fitText(bx + 5, by + 54, itemWords(c.pays.slice(2)), 108, 'tiny');
    } else b += text(bx + 5, by + 30, `box ${box.number}: empty`, 'muted');
    out += group('export-box', c ? `Export box ${box.number}: contract ${c.id}, asks ${itemWords(c.asks)}; pays ${itemWords(c.pays)}` : `Export box ${box.number}: empty`, b,
      { 'data-path': `/exportBoxes/${i}`, 'data-box': box.number, 'data-contract': c ? c.id : '' });
  });
  y += Math.ceil((v.exportBoxes || []).length / 3) * 62 + 14;

  // rounds and scoring tiles
  out += text(RX, y, 'Rounds and scoring tiles', 'section-title');
  y += 6;
  (v.scoringTiles || []).forEach((st, i) => {
    const info = (layout.scoringTiles || []).find((t) => t.tile === st.tile) || {};
    const bx = RX + i * 73;
    const cur = st.round === v.round;
    let b = rect(bx, y, 69, 50, `scoring${cur ? ' current' : ''}`, { rx: 4 });
    b += fitText(bx + 4, y + 13, `R${st.round}: tile ${st.tile}`, 61, 'tiny bold');
    const cond = (info.condition || '').replace(/-/g, ' ');
    b += fitText(bx + 4, y + 27, cond, 61, 'tiny');
    b += fitText(bx + 4, y + 41, `${info.glory} glory / ${info.per}${info.fieldGlory ? ` (fields ${info.fieldGlory})` : ''}`, 61, 'tiny');
    out += group('scoring-tile', `Round ${st.round} scoring tile ${st.tile}: ${cond}, ${info.glory} glory per ${info.per}${cur ? ' (this round)' : ''}`, b,
      { 'data-round': st.round, 'data-tile': st.tile, 'data-current': cur });
  });
  y += 66;
  const it = v.importTrack || {};
  out += fitText(RX, y, `Imports delivered: cotton ${it.cotton || 0}, tobacco ${it.tobacco || 0}, sugar cane ${it.sugarCane || 0}`, W - RX - 10, 'small', { 'data-path': '/importTrack', 'data-leaf': 1 });
  if (v.phase === 'clans' || (v.clanOffer && v.round === 0)) {
    y += 16;
    out += fitText(RX, y, `Clans on offer: ${(v.clanOffer || []).map((c) => `${c.clan} (start tile ${c.startTile})`).join(', ')}`, W - RX - 10, 'tiny');
  }
  y += 16;
  out += `<g class="unit-key" aria-hidden="true">${Object.entries(UNIT).map(([k, u], i) => `<text x="${RX + (i % 5) * 74}" y="${y + Math.floor(i / 5) * 13}" class="tiny">${u.letter} ${k}</text>`).join('')}</g>`;

  // seats
  const sw = (W - 20) / Math.max(1, seats.length);
  seats.forEach((s, i) => {
    const sx = 10 + i * sw;
    const colour = colourOf(s.seat);
    const toAct = v.toAct === s.seat;
    const P = (f) => `/seats/${i}/${f}`;
    let b = rect(sx, seatTop, sw - 8, seatH - 8, `seat-bg${toAct ? ' to-play' : ''}`, { rx: 6, stroke: colour });
    b += rect(sx, seatTop, sw - 8, 22, '', { rx: 6, fill: colour });
    b += seatHeader(sx, seatTop, sw - 8, `${nameOf(s.seat)}${s.passed ? ' · passed' : ''}${toAct ? ' ▶' : ''}`, s.seat);
    const line = (k, str, path) => fitText(sx + 8, seatTop + 38 + k * 15, str, sw - 24, 'seat-line', path ? { 'data-path': path, 'data-leaf': 1 } : {});
    b += line(0, `£${s.money} · glory ${s.glory} · hops ${s.hops} · meat ${s.meat}`, P('money'));
    const g = s.goods || {};
    b += line(1, `wool ${g.wool} milk ${g.milk} grain ${g.grain}`, P('goods'));
    b += line(2, `cheese ${g.cheese} bread ${g.bread} whisky ${g.whisky}`, P('goods'));
    const im = s.imports || {};
    b += line(3, `imports: cotton ${im.cotton} tobacco ${im.tobacco} sugar ${im.sugarCane}`, P('imports'));
    b += line(4, `shipping ${s.shipping} · upgrades: ${[s.technology && s.technology.woodcutter ? 'woodcutter' : null, s.technology && s.technology.miner ? 'miner' : null].filter(Boolean).join(', ') || 'none'}`, P('technology'));
    b += line(5, `merchants: track ${s.merchants ? s.merchants.track : '?'}, stock ${s.merchants ? s.merchants.stock : '?'}`, P('merchants'));
    b += line(6, `contracts held: ${(s.heldContracts || []).map((c) => `#${c.id}`).join(' ') || 'none'}`, P('heldContracts'));
    b += line(7, `fulfilled: ${(s.fulfilledContracts || []).map((c) => `#${c.id !== undefined ? c.id : c}`).join(' ') || 'none'}`, P('fulfilledContracts'));
    const sup = s.supply || {};
    b += line(8, `in supply: ${Object.entries(sup).filter(([, n]) => n > 0).map(([k, n]) => `${UNIT[k] ? UNIT[k].letter : k}${n}`).join(' ')}`, P('supply'));
    b += line(9, `start tile ${s.startTile ?? '—'}${(s.portsUsed || []).length ? ` · ports used ${s.portsUsed.join(',')}` : ''}${(s.cellar || []).length ? ` · cellar ${s.cellar.length}` : ''}`);
    out += group('seat-panel', `${nameOf(s.seat)}: £${s.money}, glory ${s.glory}, hops ${s.hops}; goods wool ${g.wool}, milk ${g.milk}, grain ${g.grain}, cheese ${g.cheese}, bread ${g.bread}, whisky ${g.whisky}; shipping ${s.shipping}${s.passed ? '; passed' : ''}`, b, {
      'data-seat': s.seat, 'data-clan': s.clan || '', 'data-money': s.money, 'data-glory': s.glory, 'data-shipping': s.shipping,
      'data-wool': g.wool, 'data-milk': g.milk, 'data-grain': g.grain, 'data-cheese': g.cheese, 'data-bread': g.bread, 'data-whisky': g.whisky,
    });
  });
  void attrs; void title; void plural;
  svg.innerHTML = out;
}

export function legendNotes() {
  return [
    'Also reconstructed but not flagged in the data: the start tiles (hence starting money and goods), the number of export boxes with 3–4 players, MacKenzie\'s cellar spots, MacEwen\'s £9 per beer, pass money for 2 and 3 players and the import track\'s bonus steps.',
  ];
}
