//! A game reviewed: its log replayed once, then every position evaluated by the search with
//! everything known (the game is over, so nothing is secret), from the end backwards.
//!
//! Backwards so that a position where the seat that moved had one legal move costs nothing:
//! its chances are the next position's (the move changed nothing the seat could choose). Each
//! other position is one search of the configured iterations, seeded by the game id and the
//! ply as `Position.evaluation` seeds it, advising the seat that actually moved there (in a
//! simultaneous step the rules may name another first). The chance of a position where
//! chance acts is the search's mean over what chance may bring.
//!
//! Each search also values the move actually played, with at least [`PLAYOUTS`] playouts
//! through it (`ai::Judge`): a judgement compares it with the best move's value from the same
//! tree, both raw — a calibration map can be flat over a range of raw chances (Mombasa's,
//! for two players, maps 0.2–0.8 to 0.5), which would hide every difference inside it. Two searches, one per position, would differ by their noise and, worse, by which
//! seat each puts at its root: the seat at a search's root is played well and the others
//! worse, so every move would look like a loss for its mover.
use crate::record::{Chances, Head, PlyEval, Review};
use crate::ReviewError;
use rules_core::{Actor, GameState, Seat, Viewer};
use std::sync::atomic::{AtomicBool, Ordering};
use store::{GameLog, Header};

/// Playouts through the played move each position's search makes sure of (after its own
/// iterations, more are sent through that move until it has them): its value's Wilson
/// interval is then about ±0.1 at worst, and far narrower for the moves a search likes.
pub const PLAYOUTS: u32 = 100;

/// The seed of the evaluation of `ply` of game `id` (as `Position.evaluation` seeds it).
pub fn seed(id: store::GameId, ply: u32) -> u64 {
    id.0 ^ (u64::from(ply) << 40)
}

/// Reviews `h`'s game at `iterations` a position; `progress(done, total)` after each
/// position; `stop` set ends it early (`ReviewError::Stopped`).
pub fn review_game(
    store: &dyn GameLog,
    players: &ai::Players,
    h: &Header,
    iterations: u32,
    progress: &dyn Fn(u32, u32),
    stop: &AtomicBool,
) -> Result<Review, ReviewError> {
    let rules = store
        .registry()
        .get(h.kind)
        .ok_or_else(|| ReviewError::NoRules(h.kind.to_string()))?;
    let entries = store.entries(h.id, 0, h.plies)?;
    let mut state = rules
        .new_game_recorded(&h.options_json(), &h.rules_version, &h.data_hash)
        .map_err(|e| ReviewError::Replay(0, e.to_string()))?;
    let mut states: Vec<Box<dyn GameState>> = Vec::with_capacity(entries.len() + 1);
    for e in &entries {
        states.push(state.clone_box());
        state
            .apply(e.actor, &e.notation)
            .map_err(|err| ReviewError::Replay(e.ply, err.to_string()))?;
    }
    states.push(state);
    let total = states.len() as u32;
    let mut plies: Vec<Option<PlyEval>> = vec![None; states.len()];
    let mut after: Option<Vec<Chances>> = None;
    for p in (0..states.len()).rev() {
        if stop.load(Ordering::Relaxed) {
            return Err(ReviewError::Stopped);
        }
        let s = &*states[p];
        let mover = match entries.get(p).map(|e| e.actor) {
            Some(Actor::Seat(x)) => Some(x),
            _ => None,
        };
        let forced = match (mover, &after) {
            (Some(x), Some(next)) => {
                let own = s.legal_moves_of(x);
                (own.len() == 1).then(|| (own[0].clone(), next.clone(), x))
            }
            _ => None,
        };
        let eval = match forced {
            Some((mv, next, x)) => PlyEval {
                best: Some((mv, next[usize::from(x.0)].win)),
                raw: None,
                seats: next,
                forced: true,
                exact: false,
            },
            None => evaluate(
                players,
                s,
                mover,
                entries.get(p).map(|e| e.notation.as_str()),
                iterations,
                seed(h.id, p as u32),
            )?,
        };
        after = Some(eval.seats.clone());
        plies[p] = Some(eval);
        progress(total - p as u32, total);
    }
    let calibrated = players.calibrates(h.kind, states[0].player_count());
    Ok(Review {
        head: Head::of(h, iterations),
        plies: plies.into_iter().flatten().collect(),
        calibrated,
    })
}

fn evaluate(
    players: &ai::Players,
    s: &dyn GameState,
    mover: Option<Seat>,
    played: Option<&str>,
    iterations: u32,
    seed: u64,
) -> Result<PlyEval, ReviewError> {
    let ask = ai::Ask {
        viewer: Viewer::Omniscient,
        mover,
        played,
        playouts: PLAYOUTS,
        raw: true,
        iterations,
        best: 1,
        seed,
    };
    let mut e = players.evaluate(s, &ask)?;
    // The judgement's two figures, raw; everything else shown calibrated.
    let raw = match (e.best.first(), &e.played) {
        (Some(b), Some(p)) if Some(b.seat) == mover => Some((b.win as f32, p.win as f32)),
        _ => None,
    };
    players.calibrate(s.kind(), s.player_count(), &mut e);
    let best = e
        .best
        .first()
        .filter(|m| Some(m.seat) == mover)
        .map(|m| (m.mv.clone(), m.win as f32));
    Ok(PlyEval {
        seats: e
            .seats
            .iter()
            .map(|c| Chances {
                win: c.win as f32,
                low: c.low as f32,
                high: c.high as f32,
                score: c.score as f32,
                rank: c.rank as f32,
            })
            .collect(),
        best,
        raw,
        forced: false,
        exact: e.exact,
    })
}
