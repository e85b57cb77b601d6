// Mombasa: the (schematic) map with trading posts by company colour, the four company bases
// and share values, the card display, the round track with the book display, the bonus
// spaces, and one board per seat (action slots with backs for hidden plans, rest piles,
// diamond and bookkeeping tracks, company tracks, pounds, hand size).
import { esc, attrs, text, fitText, rect, seatName, seatHeader, seatColour, group, cap } from './common.js';

const COMPANY_FILL = { black: '#222', red: '#c62828', white: '#fafafa', orange: '#ef8a17' };
const KIND_FILL = { coffee: '#8d6e63', banana: '#f9d949', cotton: '#eceff1', expansion: '#90a4ae', bookkeeper: '#5c6bc0', diamond: '#4dd0e1' };
const DARK_KIND = new Set(['coffee', 'bookkeeper']);
const SC = 0.8; // map scale
const MX = 10;
const MY = 50;
const RX = 590;

function companyInfo(layout) {
  const m = new Map();
  for (const b of layout.map.bases) m.set(b.company, { ...b, fill: COMPANY_FILL[b.colour] || '#999' });
  return m;
}
function rewardWords(r) {
  if (!r) return '';
  const p = [];
  if (r.pounds) p.push(`£${r.pounds}`);
  if (r.diamonds) p.push(`${r.diamonds}◆`);
  if (r.trackSteps) p.push(`${r.trackSteps} step${r.trackSteps > 1 ? 's' : ''}`);
  if (r.bookkeeping) p.push(`${r.bookkeeping} bk`);
  if (r.bonusMarkers) p.push(`${r.bonusMarkers} bonus`);
  return p.join(' ');
}
function sharesWords(sh) {
  return Object.entries(sh || {}).filter(([, n]) => n > 0).map(([c, n]) => `${n} ${c}`).join(', ');
}
function cardWords(c) {
  let w = `${c.id} ${c.kind} ${c.value}, red value ${c.cost}`;
  const sh = sharesWords(c.shares);
  if (sh) w += `, shares ${sh}`;
  if (c.kind === 'diamond') w += `, £${c.pounds}${c.minesCompany ? `, ${c.perMines} per ${c.minesCompany} mine` : ''}`;
  return w;
}
function post(cx, cy, fill, r = 5) {
  return `<circle class="post" cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${esc(r)}" fill="${esc(fill)}"/>`;
}

function cardFace(x, y, w, h, c, comps, extra = {}, label = null) {
  const fill = KIND_FILL[c.kind] || '#ddd';
  const tc = DARK_KIND.has(c.kind) ? '#fff' : '#222';
  let b = rect(x, y, w, h, 'mcard-bg', { rx: 4, fill });
  b += `<text x="${x + 4}" y="${y + 12}" class="mcard-id" fill="${tc}">${esc(c.id)}</text>`;
  b += `<text x="${x + w - 4}" y="${y + 12}" class="mcard-val" text-anchor="end" fill="${tc}">${esc(c.value)}</text>`;
  b += `<text x="${x + 4}" y="${y + 24}" class="mcard-kind" fill="${tc}">${esc(c.kind)}</text>`;
  b += `<circle cx="${x + w - 8}" cy="${y + h - 8}" r="6" fill="#c62828"/><text x="${x + w - 8}" y="${y + h - 5}" text-anchor="middle" class="mcard-cost">${esc(c.cost)}</text>`;
  let sx = x + 4;
  for (const [co, n] of Object.entries(c.shares || {})) {
    for (let k = 0; k < n; k++) { b += `<rect x="${sx}" y="${y + h - 12}" width="7" height="7" fill="${esc((comps.get(co) || {}).fill || '#999')}" stroke="#333" stroke-width="0.6"/>`; sx += 9; }
  }
  return group('mcard', label || cardWords(c), b, { 'data-card': c.id, 'data-kind': c.kind, 'data-value': c.value, ...extra });
}
function cardBack(x, y, w, h, extra = {}, label = 'a hidden card') {
  return group('mcard back', label, rect(x, y, w, h, 'mcard-back', { rx: 4 }) + text(x + w / 2, y + h / 2 + 4, '?', 'back-q', { 'text-anchor': 'middle' }), extra);
}

function drawBase(base, comp, vc, ci) {
  const r = base.rect;
  const tall = r.height > r.width;
  // space 1 on the edge facing the map's centre
  const mcx = 350;
  const mcy = 350;
  const cx = r.x + r.width / 2;
  const cy = r.y + r.height / 2;
  let b = `<rect class="base-bg" x="${MX + r.x * SC}" y="${MY + r.y * SC}" width="${r.width * SC}" height="${r.height * SC}" stroke="${esc(comp.fill === '#fafafa' ? '#777' : comp.fill)}"/>`;
  const posts = new Map((vc ? vc.base : []).map((s) => [s.id, s.post]));
  for (const sp of base.spaces) {
    let x;
    let y;
    if (tall) {
      const colW = r.height / 3;
      const rowW = r.width / 5;
      const along = r.y + (sp.column - 0.5) * colW;
      const k = sp.space - 0.5;
      const across = cx < mcx ? r.x + r.width - k * rowW : r.x + k * rowW;
      x = across; y = along;
    } else {
      const colW = r.width / 3;
      const rowH = r.height / 5;
      const along = r.x + (sp.column - 0.5) * colW;
      const k = sp.space - 0.5;
      const across = cy < mcy ? r.y + r.height - k * rowH : r.y + k * rowH;
      x = along; y = across;
    }
    const X = MX + x * SC;
    const Y = MY + y * SC;
    const has = posts.get(sp.id);
    b += `<g class="base-space" data-space="${esc(sp.id)}" data-post="${has ? 1 : 0}">${has ? post(X, Y, comp.fill, 4) : `<text x="${X.toFixed(1)}" y="${(Y + 3).toFixed(1)}" text-anchor="middle" class="coin">${esc(sp.coins)}</text>`}</g>`;
  }
  const lx = MX + (r.x + (tall ? r.width / 2 : 4)) * SC;
  const ly = MY + (r.y + (tall ? -4 : -3)) * SC;
  b += text(lx, ly, `${base.name}: ${vc ? vc.shareValue : 0}`, 'base-name', tall ? { 'text-anchor': 'middle' } : {});
  const label = `${base.name} base (${base.colour} posts): share value ${vc ? vc.shareValue : 0}, ${vc ? vc.postsInBase : 15} posts in base, ${vc ? vc.postsBoxed : 0} boxed, side ${vc ? vc.side : ''}`;
  return group('base', label, b, { 'data-path': `/companies/${ci}`, 'data-company': base.company, 'data-share-value': vc ? vc.shareValue : 0, 'data-posts-in-base': vc ? vc.postsInBase : '' });
}

export function draw(svg, v, layout, persp) {
  const W = 1000;
  const comps = companyInfo(layout);
  const seats = v.seats || [];
  const mapBottom = MY + layout.map.height * SC;
  const seatTop = mapBottom + 14;
  const seatH = 250;
  const H = seatTop + seatH + 10;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('aria-label', `Mombasa board, round ${v.round}, ${v.phase} phase`);
  let out = rect(0, 0, W, H, 'board-bg');

  let status = v.phase === 'over' ? 'Game over' : `Round ${v.round} · ${v.phase}`;
  if (v.turn !== null && v.turn !== undefined) status += ` · ${seatName(persp, v.turn)} to act`;
  if (v.stage && v.stage.kind && v.stage.kind !== 'top') status += ` · ${v.stage.kind}${v.stage.left ? ` (${v.stage.left} left)` : ''}${v.stage.company ? ` for ${v.stage.company}` : ''}`;
  if (v.phase !== 'over' && v.firstPlayer !== null && v.firstPlayer !== undefined) status += ` · first player: ${seatName(persp, v.firstPlayer)}`;
  out += fitText(MX, 24, status, W - 2 * MX, 'status', { id: 'mb-status', 'data-path': '/turn', 'data-leaf': 1 });
  out += text(MX, 42, `Deck a${v.deck ? v.deck.a : 0} b${v.deck ? v.deck.b : 0} c${v.deck ? v.deck.c : 0} d${v.deck ? v.deck.d : 0} e${v.deck ? v.deck.e : 0} · discard ${v.discard} · boxed ${v.boxedCards}`, 'muted', { 'data-path': '/deck', 'data-leaf': 1 });

  // map: borders, regions, bases
  const M = layout.map;
  const L = (p) => `x1="${(MX + p.from.x * SC).toFixed(1)}" y1="${(MY + p.from.y * SC).toFixed(1)}" x2="${(MX + p.to.x * SC).toFixed(1)}" y2="${(MY + p.to.y * SC).toFixed(1)}"`;
  out += `<rect class="map-bg" x="${MX}" y="${MY}" width="${M.width * SC}" height="${M.height * SC}"/>`;
  let borders = '';
  for (const b of M.borders) borders += `<line class="border ${b.kind}" ${L(b.line)}/>`;
  for (const base of M.bases) for (const b of base.borders || []) borders += `<line class="border base-border ${b.kind}" ${L(b.line)}/>`;
  out += `<g aria-hidden="true">${borders}</g>`;
  const regionView = new Map((v.map || []).map((r, i) => [r.id, { ...r, i }]));
  out += '<g class="regions" role="list" aria-label="Map regions">';
  for (const reg of M.regions) {
    const rv = regionView.get(reg.id) || {};
    const x = MX + reg.rect.x * SC;
    const y = MY + reg.rect.y * SC;
    const w = reg.rect.width * SC;
    const h = reg.rect.height * SC;
    let b = rect(x, y, w, h, 'region-bg', { rx: 4 });
    b += fitText(x + 3, y + 11, `${reg.id} ${reg.name}`, w - 6, 'region-name');
    b += fitText(x + 3, y + 23, rewardWords(reg.reward), w - 6, 'tiny');
    for (let k = 0; k < reg.mines; k++) b += `<path class="mine" d="M${x + w - 8 - k * 9},${y + h - 4} l4,-8 l4,8 z"/>`;
    const comp = rv.company ? comps.get(rv.company) : null;
    if (comp) b += `<rect class="tpost" x="${x + w / 2 - 9}" y="${y + h / 2 - 2}" width="18" height="18" rx="3" fill="${esc(comp.fill)}"/>`;
    const label = `Region ${reg.id} ${reg.name}: reward ${rewardWords(reg.reward) || 'none'}${reg.mines ? `, ${reg.mines} mine${reg.mines > 1 ? 's' : ''}` : ''}; ${comp ? `trading post of ${comp.name}` : 'no trading post'}`;
    out += `<g role="listitem">${group('region', label, b, { 'data-path': rv.i !== undefined ? `/map/${rv.i}` : null, 'data-region': reg.id, 'data-company': rv.company || '' })}</g>`;
  }
  out += '</g>';
  (v.companies || []).forEach((vc, ci) => {
    const base = M.bases.find((b) => b.company === vc.id);
    if (base) out += drawBase(base, comps.get(vc.id), vc, ci);
  });

  // card display: 3 columns x 4 rows
  let y = MY;
  out += text(RX, y + 4, 'Card display (price to buy)', 'section-title');
  y += 10;
  const disp = new Map((v.display || []).map((d, i) => [d.id, { ...d, i }]));
  for (const ds of layout.displaySpaces) {
    const d = disp.get(ds.id) || {};
    const x = RX + (ds.column - 1) * 134;
    const yy = y + (ds.row - 1) * 58;
    let b = '';
    if (d.card) b += cardFace(x, yy, 100, 52, d.card, comps, {}, `${ds.id}: ${cardWords(d.card)}; price ${d.price}`);
    else b += rect(x, yy, 100, 52, 'mcard-empty', { rx: 4 }) + text(x + 6, yy + 28, `${ds.id} empty`, 'muted');
    b += text(x + 104, yy + 20, ds.id, 'tiny');
    if (d.card) b += text(x + 104, yy + 36, `£${d.price}`, 'price-now');
    out += `<g${attrs({ class: 'display-space', 'data-path': d.i !== undefined ? `/display/${d.i}` : '', 'data-space': ds.id, 'data-card': d.card ? d.card.id : '', 'data-price': d.card ? d.price : '' })}>${b}</g>`;
  }
  y += 4 * 58 + 14;

  // round track + books
  out += text(RX, y, `Round track and books (supply a${v.bookSupply ? v.bookSupply.a : 0} b${v.bookSupply ? v.bookSupply.b : 0} c${v.bookSupply ? v.bookSupply.c : 0})`, 'section-title');
  y += 8;
  const rcoins = new Map((v.roundTrack || []).map((r) => [r.round, r.coins]));
  const books = new Map((v.bookDisplay || []).map((b, i) => [b.id, { ...b, i }]));
  for (let r = 1; r <= (layout.rounds || 7); r++) {
    const x = RX + (r - 1) * 57;
    const cur = r === v.round;
    let b = rect(x, y, 54, 20, `round-cell${cur ? ' current' : ''}`, { rx: 3 });
    b += text(x + 4, y + 14, `R${r}`, 'tiny bold');
    if (rcoins.has(r)) b += text(x + 50, y + 14, `${rcoins.get(r)}¢`, 'tiny', { 'text-anchor': 'end' });
    out += group('round-space', `Round ${r}${cur ? ' (now)' : ''}${rcoins.has(r) ? `: ${rcoins.get(r)} coins` : ''}`, b, { 'data-round': r, 'data-current': cur });
    for (const bs of layout.bookSpaces.filter((s) => s.round === r)) {
      const bk = books.get(bs.id) || {};
      const by = y + 24 + (bs.row - 1) * 34;
      let bb = rect(x, by, 54, 31, `book${bk.book ? '' : ' empty'}`, { rx: 3 });
      if (bk.book) {
        const req = Object.entries(bk.book.requires).filter(([, n]) => n > 0).map(([k, n]) => `${n}${k[0]}`).join(' ');
        bb += text(x + 3, by + 11, `${bk.book.id}`, 'tiny bold');
        bb += text(x + 3, by + 22, req, 'tiny');
        bb += text(x + 51, by + 11, bk.coins ? `${bk.coins}¢` : '', 'tiny', { 'text-anchor': 'end' });
      } else bb += text(x + 3, by + 18, `${bs.id} —`, 'muted');
      const lab = bk.book ? `Book ${bk.book.id} on ${bs.id}: needs ${sharesWords(bk.book.requires)}, reward ${rewardWords(bk.book.reward)}, ${bk.coins} coins on it` : `Book space ${bs.id}: empty`;
      out += group('book-space', lab, bb, { 'data-path': bk.i !== undefined ? `/bookDisplay/${bk.i}` : null, 'data-space': bs.id, 'data-book': bk.book ? bk.book.id : '', 'data-coins': bk.coins || 0 });
    }
  }
  y += 24 + 2 * 34 + 16;

  // bonus spaces and tiles
  out += text(RX, y, 'Bonus spaces', 'section-title');
  y += 6;
  const bsv = new Map((v.bonusSpaces || []).map((b, i) => [b.id, { ...b, i }]));
  layout.bonusSpaces.forEach((bs, k) => {
    const x = RX + k * 57;
    const bv = bsv.get(bs.id) || {};
    const who = bv.seat === null || bv.seat === undefined ? null : bv.seat;
    let b = rect(x, y, 54, 34, 'bonus-space', { rx: 3 });
    b += text(x + 3, y + 12, bs.id, 'tiny bold');
    if (who !== null) b += `<circle cx="${x + 40}" cy="${y + 22}" r="8" fill="${esc(seatColour(persp, who))}" stroke="#222"/>` + text(x + 40, y + 26, who, 'marker-seat', { 'text-anchor': 'middle' });
    const tile = (v.bonusTiles || []).find((t) => t.id === bs.tile);
    if (tile) b += text(x + 3, y + 28, `tile ${tile.value}${tile.holder !== null && tile.holder !== undefined ? ` →${tile.holder}` : ''}`, 'tiny');
    out += group('bonus', `Bonus space ${bs.id} (${bs.kind}): ${who === null ? 'empty' : `marker of ${seatName(persp, who)}`}`, b, { 'data-path': bv.i !== undefined ? `/bonusSpaces/${bv.i}` : null, 'data-bonus': bs.id, 'data-seat': who === null ? '' : who });
  });

  // seats
  const sw = (W - 20) / Math.max(1, seats.length);
  const sides = new Map((v.companies || []).map((c) => [c.id, c.side]));
  seats.forEach((s, i) => {
    const sx = 10 + i * sw;
    const colour = seatColour(persp, s.seat);
    const act = v.turn === s.seat;
    const P = (f) => `/seats/${i}/${f}`;
    let b = rect(sx, seatTop, sw - 8, seatH - 8, `seat-bg${act ? ' to-play' : ''}`, { rx: 6, stroke: colour });
    b += rect(sx, seatTop, sw - 8, 22, '', { rx: 6, fill: colour });
    b += seatHeader(sx, seatTop, sw - 8, `${seatName(persp, s.seat)}${act ? ' ▶' : ''}${s.ready ? ' · ready' : ''}${s.ended ? ' · done' : ''}`, s.seat);
    b += fitText(sx + 8, seatTop + 38, `£${s.pounds} · hand ${s.handSize}${s.hand ? `: ${s.hand.map((c) => c.id).join(' ')}` : ''}`, sw - 24, 'seat-line', { 'data-path': P('pounds'), 'data-leaf': 1 });
    b += fitText(sx + 8, seatTop + 53, `bonus markers ${s.bonusMarkers} · markers left ${s.markersLeft}${(s.tiles || []).length ? ` · tiles ${s.tiles.join(', ')}` : ''}`, sw - 24, 'tiny');
    // slots
    const slotW = Math.min(44, (sw - 24) / 5);
    (s.slots || []).forEach((sl, k) => {
      const x = sx + 8 + k * (slotW + 2);
      const yy = seatTop + 60;
      const pile = (s.restPiles || []).find((p) => p.pile === sl.slot);
      let pb = '';
      if (pile) {
        pb += rect(x, yy, slotW, 16, 'rest-pile', { rx: 2 });
        pb += text(x + 3, yy + 12, `${pile.cards.length} rest`, 'tiny');
      }
      b += pile ? group('rest', `Rest pile ${pile.pile}: ${pile.cards.length} cards${pile.cards.length ? `: ${pile.cards.map((c) => c.id).join(', ')}` : ''}`, pb, { 'data-path': `/seats/${i}/restPiles/${(s.restPiles || []).indexOf(pile)}`, 'data-pile': pile.pile, 'data-count': pile.cards.length }) : '';
      const cy = yy + 19;
      let slb;
      const extra = { 'data-path': `/seats/${i}/slots/${k}`, 'data-slot': sl.slot, 'data-open': sl.open, 'data-cards': sl.cards };
      if (sl.card) slb = cardFace(x, cy, slotW, 46, sl.card, comps, { ...extra, 'data-face-up': sl.faceUp }, `Slot ${sl.slot}: ${cardWords(sl.card)}${sl.faceUp ? '' : ' (used)'}`);
      else if (sl.cards > 0) slb = cardBack(x, cy, slotW, 46, extra, `Slot ${sl.slot}: a planned card, hidden until the reveal`);
      else slb = group(`slot${sl.open ? '' : ' closed'}`, `Slot ${sl.slot}: ${sl.open ? 'open, empty' : 'closed'}`, rect(x, cy, slotW, 46, `slot-bg${sl.open ? '' : ' closed'}`, { rx: 3 }) + text(x + slotW / 2, cy + 28, sl.slot, 'tiny', { 'text-anchor': 'middle' }), extra);
      b += slb;
    });
    // tracks
    const trackRow = (k, label, n, at, path, values) => {
      const ty = seatTop + 140 + k * 17;
      let t = fitText(sx + 8, ty + 10, label, 55, 'tiny bold');
      const cw = Math.min(12, (sw - 80) / n);
      for (let q = 0; q < n; q++) {
        const x = sx + 66 + q * cw;
        t += rect(x, ty, cw - 1, 12, `track-cell${q === at ? ' at' : ''}`, q === at ? { 'data-fill': colour } : {});
        if (values && values[q] !== null && values[q] !== undefined && cw >= 10) t += text(x + (cw - 1) / 2, ty + 9, values[q], 'track-val', { 'text-anchor': 'middle' });
      }
      return `<g class="track"${attrs({ 'data-track': label, 'data-space': at, 'data-path': path, 'data-leaf': 1 })}>${t}</g>`;
    };
    b += trackRow(0, 'diamonds', layout.diamondTrack.spaces.length, s.diamondSpace, P('diamondSpace'), layout.diamondTrack.spaces.map((x) => x.value));
    b += trackRow(1, 'bookkeeping', layout.bookkeepingTrack.spaces.length, s.bookkeepingSpace, P('bookkeepingSpace'), layout.bookkeepingTrack.spaces.map((x) => x.value));
    (s.companyTracks || []).forEach((ct, k) => {
      const side = (layout.trackSides || []).find((t) => t.id === sides.get(ct.company));
      const n = side ? side.spaces.length : 15;
      b += trackRow(2 + k, (comps.get(ct.company) || { name: ct.company }).name, n, ct.space, `/seats/${i}/companyTracks/${k}`, side ? side.spaces.map((x) => x.shares || null) : null)
        .replace('class="track"', `class="track company-track"${attrs({ 'data-company': ct.company, 'data-track-shares': ct.trackShares, 'data-card-shares': ct.cardShares === null || ct.cardShares === undefined ? '' : ct.cardShares })}`);
    });
    const bookWords = (s.books || []).map((bk) => `${bk.book.id}${bk.faceUp ? '' : '(used)'}`).join(' ');
    b += fitText(sx + 8, seatTop + 140 + 6 * 17 + 4, `books: ${bookWords || 'none'}${s.startTile ? ` · start ${s.startTile.id}` : ''}`, sw - 24, 'tiny');
    const shares = (s.companyTracks || []).map((ct) => `${ct.company} space ${ct.space}`).join(', ');
    out += group('seat-panel', `${seatName(persp, s.seat)}: £${s.pounds}, ${s.handSize} cards in hand, diamonds space ${s.diamondSpace}, bookkeeping space ${s.bookkeepingSpace}; company tracks: ${shares}`, b, {
      'data-seat': s.seat, 'data-pounds': s.pounds, 'data-hand-size': s.handSize, 'data-diamond-space': s.diamondSpace, 'data-bookkeeping-space': s.bookkeepingSpace,
    });
  });
  void cap;
  svg.innerHTML = out;
  // The seat's colour on its track markers through the style object: a `style` attribute in
  // the markup would be refused by the page's policy (no inline style), and the style sheet's
  // fill for track cells outranks a `fill` attribute.
  for (const el of svg.querySelectorAll('[data-fill]')) el.style.fill = el.dataset.fill;
}

export function legendNotes(layout) {
  return layout && layout.map && layout.map.reconstructed ? ['Schematic map: regions, borders and bases are our own drawing, not the printed board; component values reconstructed, not verified.'] : [];
}
