// Seats named by their players: "bot-3", not "seat 0 (bot-3)". A seat's number is shown
// only where it matters (the markers on a track carry it) or where two seats share a name.

/** The name of seat `s` among `players`: the player's name, with the seat number only when
 *  another seat has the same name; `seat N` for a seat without a name. */
export function seatName(players, s) {
  const n = players && players[s];
  if (n === undefined || n === null || n === '') return `seat ${s}`;
  const twins = players.filter((p) => p === n).length;
  return twins > 1 ? `${n} (seat ${s})` : n;
}

/** A move's words from the server ("Seat 2 bids 0", "… seat 0 S1 in slot 1 …") with every
 *  seat named by its player. The server's words stay as they are for API clients. */
export function named(text, players) {
  if (!players || !players.length) return text;
  return String(text).replace(/\b([Ss])eat (\d+)\b/g, (all, _s, n) => {
    const s = Number(n);
    return s < players.length ? seatName(players, s) : all;
  });
}
