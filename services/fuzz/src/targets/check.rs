//! The reducer invariants the game targets assert on every entry they try
//! (ARCHITECTURE.md, invariants 1, 3 and 4):
//! - a refused entry leaves the state unchanged (its `encode()` bytes);
//! - only a seat that may move, or the dealer at a chance node, has an entry accepted;
//! - an accepted move is one of the listed legal moves (its text parses to what a listed
//!   move's notation parses to: the notation round-trips);
//! - the same entry on the same state gives the same state (determinism);
//! - the state an accepted entry leads to is sound: every query answers, snapshots round-trip,
//!   a seat to act has a legal move, a chance node can be dealt, a finished game has an outcome.

use crate::target::{Feedback, Violation};
use rules_core::{Actor, Features, GameRules, GameState, Ply, Seat, ToAct, Viewer};

/// A position to try entries at.
pub struct At<'a> {
    pub rules: &'a dyn GameRules,
    pub state: &'a dyn GameState,
    /// `state.encode()`.
    pub encoded: &'a [u8],
    /// The game's seed, for the dealer.
    pub seed: u64,
    pub ply: u32,
}

/// Tries `text` as `actor`'s entry at `at`, asserting the invariants. Returns the state it led
/// to when accepted.
pub fn attempt(
    at: &At<'_>,
    actor: Actor,
    text: &str,
    fb: &mut Feedback,
) -> Result<Option<Box<dyn GameState>>, Violation> {
    let (rules, before, before_enc, seed, ply) = (at.rules, at.state, at.encoded, at.seed, at.ply);
    let kind = rules.kind().as_str().as_bytes();
    let phase = before.phase().as_bytes();
    // What a viewer is shown of the entry (parses it; never fails).
    let _ = before.entry_text(actor, text, Viewer::Spectator);
    let _ = before.entry_text(actor, text, Viewer::Seat(Seat(0)));
    let mut s = before.clone_box();
    match s.apply(actor, text) {
        Err(e) => {
            fb.note(&[kind, phase, b"refused", e.code().as_bytes()]);
            if s.encode() != before_enc {
                return Err(Violation::new(
                    "refused-entry-changed-state",
                    format!(
                        "{} at ply {ply} ({}): entry {:?} by {actor} refused ({e}) but the state changed",
                        rules.kind(),
                        before.phase(),
                        text
                    ),
                ));
            }
            Ok(None)
        }
        Ok(()) => {
            fb.note(&[kind, phase, b"accepted", actor_kind(actor)]);
            accepted(rules, before, actor, text, s.as_ref(), ply)?;
            health(rules, s.as_ref(), seed, ply + 1, fb)?;
            Ok(Some(s))
        }
    }
}

fn actor_kind(a: Actor) -> &'static [u8] {
    match a {
        Actor::Dealer => b"dealer",
        Actor::Seat(_) => b"seat",
    }
}

/// An accepted entry was allowed, listed and deterministic.
fn accepted(
    rules: &dyn GameRules,
    before: &dyn GameState,
    actor: Actor,
    text: &str,
    after: &dyn GameState,
    ply: u32,
) -> Result<(), Violation> {
    let place = || format!("{} at ply {ply} ({})", rules.kind(), before.phase());
    let after_enc = after.encode();
    let mut again = before.clone_box();
    if again.apply(actor, text).is_err() || again.encode() != after_enc {
        return Err(Violation::new(
            "nondeterministic-entry",
            format!("{}: {text:?} by {actor} gave different results", place()),
        ));
    }
    match actor {
        Actor::Dealer => {
            if before.to_act() != ToAct::Chance {
                return Err(Violation::new(
                    "dealer-entry-out-of-turn",
                    format!(
                        "{}: the dealer's {text:?} accepted where {:?} acts",
                        place(),
                        before.to_act()
                    ),
                ));
            }
        }
        Actor::Seat(seat) => {
            if !before.seats_to_act().contains(&seat) {
                return Err(Violation::new(
                    "wrong-seat-accepted",
                    format!(
                        "{}: {text:?} by seat {seat} accepted, but seats to act are {:?}",
                        place(),
                        before.seats_to_act()
                    ),
                ));
            }
            let legal = before.legal_moves_of(seat);
            if legal.iter().any(|m| m == text) {
                return Ok(());
            }
            // Not listed verbatim: it must still be some listed move, written otherwise.
            let same = legal.iter().any(|m| {
                let mut t = before.clone_box();
                t.apply(actor, m).is_ok() && t.encode() == after_enc
            });
            if !same {
                return Err(Violation::new(
                    "accepted-move-not-listed",
                    format!(
                        "{}: {text:?} by seat {seat} accepted, but it is none of the {} listed moves",
                        place(),
                        legal.len()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Every query of a state answers, and the state can go on.
pub fn health(
    rules: &dyn GameRules,
    s: &dyn GameState,
    seed: u64,
    ply: u32,
    fb: &mut Feedback,
) -> Result<(), Violation> {
    let place = || format!("{} at ply {ply} ({})", rules.kind(), s.phase());
    let to_act = s.to_act();
    let seats = s.seats_to_act();
    let players = s.player_count();
    let _ = (s.round(), s.tags(), s.scores());
    let mut f = Features::default();
    s.features(&mut f);
    for v in std::iter::once(Viewer::Spectator).chain((0..players).map(|p| Viewer::Seat(Seat(p)))) {
        if s.view(v).is_null() {
            return Err(Violation::new(
                "view-not-serializable",
                format!("{}: the view for {v} is null", place()),
            ));
        }
    }
    let enc = s.encode();
    match rules.decode_state(&enc) {
        Ok(d) if d.encode() == enc && d.state_hash([7; 16]) == s.state_hash([7; 16]) => {}
        Ok(_) => {
            return Err(Violation::new(
                "snapshot-round-trip",
                format!("{}: decode(encode(state)) differs", place()),
            ))
        }
        Err(e) => {
            return Err(Violation::new(
                "snapshot-round-trip",
                format!("{}: a snapshot of this state is refused: {e}", place()),
            ))
        }
    }
    match to_act {
        ToAct::Over => {
            if s.outcome().is_none() {
                return Err(Violation::new(
                    "over-without-outcome",
                    format!("{}: the game is over but has no outcome", place()),
                ));
            }
        }
        ToAct::Chance => {
            let Some(c) = s.deal(seed, Ply(ply)) else {
                return Err(Violation::new(
                    "chance-not-dealable",
                    format!(
                        "{}: the game waits on chance but the dealer deals nothing",
                        place()
                    ),
                ));
            };
            let mut t = s.clone_box();
            if let Err(e) = t.apply(Actor::Dealer, &c) {
                return Err(Violation::new(
                    "dealt-outcome-refused",
                    format!("{}: the dealer's {c:?} is refused: {e}", place()),
                ));
            }
        }
        ToAct::Seat(seat) => {
            if !seats.contains(&seat) {
                return Err(Violation::new(
                    "to-act-not-in-seats-to-act",
                    format!(
                        "{}: seat {seat} acts but seats to act are {seats:?}",
                        place()
                    ),
                ));
            }
            for &p in &seats {
                if s.legal_moves_of(p).is_empty() {
                    return Err(Violation::new(
                        "no-legal-move",
                        format!("{}: seat {p} may act but has no legal move", place()),
                    ));
                }
            }
        }
    }
    fb.note(&[
        rules.kind().as_str().as_bytes(),
        s.phase().as_bytes(),
        b"healthy",
    ]);
    Ok(())
}
