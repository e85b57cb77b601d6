// Autoplay: steps one ply at the chosen speed until the last position (or a key, a click,
// a swipe: anything that moves by hand stops it). A game followed live keeps playing as
// moves arrive.

export function setupAutoplay({ button, speed, step, atEnd }) {
  let timer = null;
  const set = (on) => {
    button.setAttribute('aria-pressed', String(on));
    button.textContent = on ? 'Pause' : 'Play';
    document.body.dataset.autoplay = on ? 'on' : 'off';
  };
  const tick = () => {
    if (atEnd()) { stop(); return; }
    step();
    timer = setTimeout(tick, Number(speed.value) || 1000);
  };
  function start() {
    if (timer !== null) return;
    if (atEnd()) return;
    set(true);
    timer = setTimeout(tick, Math.min(300, Number(speed.value) || 1000));
  }
  function stop() {
    clearTimeout(timer);
    timer = null;
    set(false);
  }
  const toggle = () => (timer === null ? start() : stop());
  button.addEventListener('click', toggle);
  speed.addEventListener('change', () => {
    if (timer !== null) { clearTimeout(timer); timer = setTimeout(tick, Number(speed.value) || 1000); }
  });
  set(false);
  return { start, stop, toggle, running: () => timer !== null };
}

/** Horizontal swipes on `el` (a phone): left steps forward, right back. Vertical movement
 *  scrolls the page as usual (`touch-action: pan-y` on the element). */
export function setupSwipe(el, { next, prev }) {
  let start = null;
  el.addEventListener('touchstart', (ev) => {
    if (ev.touches.length !== 1) { start = null; return; }
    start = { x: ev.touches[0].clientX, y: ev.touches[0].clientY, t: ev.timeStamp };
  }, { passive: true });
  el.addEventListener('touchend', (ev) => {
    if (!start || !ev.changedTouches.length) return;
    const dx = ev.changedTouches[0].clientX - start.x;
    const dy = ev.changedTouches[0].clientY - start.y;
    start = null;
    if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
    if (dx < 0) next(); else prev();
  }, { passive: true });
}
