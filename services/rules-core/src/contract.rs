//! The [`Game`] contract, checked over a recorded game: what every game's property tests
//! assert, written once. At every position of the log it checks that
//! - every move listed for a seat that may move is accepted, and its notation round-trips;
//! - of many arbitrary moves, those accepted are listed, and those refused change nothing and
//!   name a rule;
//! - a seat that may not move is refused (`turn.wrong-seat`) without effect;
//! - while the table must deal, a move is refused without effect, and the dealt outcome's
//!   notation round-trips;
//! - after the end, a move is refused (`turn.game-over`).

use crate::error::RuleViolation;
use crate::game::{Action, Game, MoveBuf, ToAct};
use crate::ids::Seat;
use crate::notation::Notation;

/// Replays `log` from a new game with `options`, checking the contract at every position.
/// `any_move` yields arbitrary (mostly illegal) moves, `tries` of them per position; `probe`
/// is a move used where none may be accepted. Returns how many moves were checked.
pub fn check_log<G: Game + Notation>(
    options: &G::Options,
    log: &[Action<G::Move, G::Chance>],
    any_move: &mut dyn FnMut() -> G::Move,
    tries: usize,
    probe: &G::Move,
) -> Result<u64, String> {
    let s = G::new_game(options).map_err(|e| format!("new game: {e}"))?;
    check_log_from::<G>(s, log, any_move, tries, probe)
}

/// The same from a given new game: one made under an older rules version (an old game's
/// log), whose behaviour must keep the contract as well.
pub fn check_log_from<G: Game + Notation>(
    mut s: G::State,
    log: &[Action<G::Move, G::Chance>],
    any_move: &mut dyn FnMut() -> G::Move,
    tries: usize,
    probe: &G::Move,
) -> Result<u64, String> {
    let players = G::player_count(&s);
    let mut checked = 0u64;
    let mut list = G::MoveList::default();
    for (ply, a) in log.iter().enumerate() {
        let at = |what: String| format!("ply {ply}: {what}");
        let seats = G::seats_to_act(&s);
        for &seat in &seats {
            G::legal_moves_of(&s, seat, &mut list);
            let listed = list.as_slice();
            for m in listed {
                let mut t = s.clone();
                G::play(&mut t, seat, m).map_err(|e| at(format!("listed {m:?} refused: {e}")))?;
                let text = G::format_move(m);
                if G::parse_move(&text).as_ref() != Ok(m) {
                    return Err(at(format!("`{text}` does not parse back to {m:?}")));
                }
                checked += 1;
            }
            for _ in 0..tries {
                let m = any_move();
                let mut t = s.clone();
                match G::play(&mut t, seat, &m) {
                    Ok(()) if !listed.contains(&m) => {
                        return Err(at(format!("{m:?} accepted but not listed")))
                    }
                    Ok(()) => {}
                    Err(e) => {
                        if listed.contains(&m) {
                            return Err(at(format!("{m:?} listed but refused: {e}")));
                        }
                        if t != s {
                            return Err(at(format!("refused {m:?} changed the state")));
                        }
                        if e.rule().is_empty() || e.to_string().is_empty() {
                            return Err(at(format!("refused {m:?} names no rule")));
                        }
                    }
                }
                checked += 1;
            }
            // A seat that may not move now is refused, whatever the move.
            if let (Some(m), Some(other)) = (
                listed.first(),
                (0..players).map(Seat).find(|o| !seats.contains(o)),
            ) {
                let mut t = s.clone();
                match G::play(&mut t, other, m) {
                    Err(e) if e.rule() == "turn.wrong-seat" && t == s => {}
                    other_result => {
                        return Err(at(format!(
                            "seat {other} played {m:?} out of turn: {other_result:?}"
                        )))
                    }
                }
            }
        }
        if let Action::Chance(c) = a {
            let text = G::format_chance(c);
            if G::parse_chance(&text).as_ref() != Ok(c) {
                return Err(at(format!("`{text}` does not parse back to {c:?}")));
            }
            if G::to_act(&s) == ToAct::Chance {
                let mut t = s.clone();
                if G::play(&mut t, Seat(0), probe).is_ok() || t != s {
                    return Err(at("a move was accepted while the table must deal".into()));
                }
            }
        }
        G::apply(&mut s, a).map_err(|e| at(format!("the log's own entry refused: {e}")))?;
    }
    if G::to_act(&s) == ToAct::Over {
        let mut t = s.clone();
        match G::play(&mut t, Seat(0), probe) {
            Err(e) if e.rule() == "turn.game-over" && t == s => {}
            r => return Err(format!("after the end: {r:?}")),
        }
    }
    Ok(checked)
}
