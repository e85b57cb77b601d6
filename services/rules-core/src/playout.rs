//! A generic random-playout driver: plays a game from its deal to the end, choosing uniformly
//! among legal moves, with chance dealt by the [`Dealer`]. Used by tests (every ply must have a
//! legal move), the `simulate` command and benchmarks.

use crate::dealer::{ChanceRng, Dealer};
use crate::game::{Action, Game, MoveBuf, ToAct};
use crate::ids::{Ply, Seat};
use crate::outcome::Outcome;
use thiserror::Error;

/// The dealer stream the playout's move choices come from: far above any real ply, so choices
/// never reuse a chance entry's stream.
pub const POLICY_STREAM: u64 = 1 << 62;

#[derive(Debug, Error)]
pub enum PlayoutError<E: std::error::Error> {
    #[error("bad options: {0}")]
    Setup(E),
    #[error("seat {seat} has no legal move at ply {ply}")]
    NoLegalMove { seat: Seat, ply: Ply },
    #[error("the game waits on chance at ply {ply} but samples none")]
    NoChance { ply: Ply },
    #[error("a move listed as legal was refused at ply {ply}: {error}")]
    LegalMoveRefused { ply: Ply, error: E },
    #[error("a dealt outcome was refused at ply {ply}: {error}")]
    ChanceRefused { ply: Ply, error: E },
    #[error("no end after {0} plies")]
    TooLong(u32),
    #[error("the game is over but has no outcome")]
    NoOutcome,
}

/// A finished random game.
#[derive(Debug, Clone)]
pub struct Playout<G: Game> {
    pub state: G::State,
    pub outcome: Outcome,
    pub plies: u32,
    /// Every entry, when the playout was asked to keep them.
    pub log: Vec<Action<G::Move, G::Chance>>,
}

/// Plays one random game seeded with `seed`. `keep_log` records every action.
pub fn playout<G: Game>(
    options: &G::Options,
    seed: u64,
    max_plies: u32,
    keep_log: bool,
) -> Result<Playout<G>, PlayoutError<G::Error>> {
    let state = G::new_game(options).map_err(PlayoutError::Setup)?;
    playout_from(state, seed, max_plies, keep_log)
}

/// [`playout`] from a state of the caller's (a game under an older rules version, say).
pub fn playout_from<G: Game>(
    mut state: G::State,
    seed: u64,
    max_plies: u32,
    keep_log: bool,
) -> Result<Playout<G>, PlayoutError<G::Error>> {
    let mut policy = Dealer::new(seed, POLICY_STREAM);
    let mut moves = G::MoveList::default();
    let mut log = Vec::new();
    let mut ply = 0u32;
    loop {
        if ply >= max_plies {
            return Err(PlayoutError::TooLong(ply));
        }
        let action = match G::to_act(&state) {
            ToAct::Over => break,
            ToAct::Chance => {
                let mut dealer = Dealer::for_ply(seed, Ply(ply));
                let c = G::sample_chance(&state, &mut dealer)
                    .ok_or(PlayoutError::NoChance { ply: Ply(ply) })?;
                G::resolve(&mut state, &c).map_err(|error| PlayoutError::ChanceRefused {
                    ply: Ply(ply),
                    error,
                })?;
                Action::Chance(c)
            }
            ToAct::Seat(seat) => {
                moves.clear();
                G::legal_moves(&state, &mut moves);
                let list = moves.as_slice();
                if list.is_empty() {
                    return Err(PlayoutError::NoLegalMove {
                        seat,
                        ply: Ply(ply),
                    });
                }
                let m = list[policy.below(list.len() as u32) as usize].clone();
                G::play(&mut state, seat, &m).map_err(|error| PlayoutError::LegalMoveRefused {
                    ply: Ply(ply),
                    error,
                })?;
                Action::Move(seat, m)
            }
        };
        if keep_log {
            log.push(action);
        }
        ply += 1;
    }
    let outcome = G::outcome(&state).ok_or(PlayoutError::NoOutcome)?;
    Ok(Playout {
        state,
        outcome,
        plies: ply,
        log,
    })
}

/// Plays `s` on to its end with uniformly random moves and chance from `rng`: the plies
/// played. What a sampled state must survive (`determinize::check_at`) and what the search
/// benchmark times beside a search's own playouts.
pub fn play_on<G: Game>(
    mut s: G::State,
    rng: &mut dyn ChanceRng,
    max_plies: u32,
) -> Result<u32, String> {
    let mut list = G::MoveList::default();
    for ply in 0..max_plies {
        match G::to_act(&s) {
            ToAct::Over => {
                return G::outcome(&s)
                    .map(|_| ply)
                    .ok_or_else(|| "over without an outcome".to_string())
            }
            ToAct::Chance => {
                let c = G::sample_chance(&s, rng)
                    .ok_or_else(|| format!("ply {ply}: chance waited on, none sampled"))?;
                G::resolve(&mut s, &c).map_err(|e| format!("ply {ply}: {c:?} refused: {e}"))?;
            }
            ToAct::Seat(seat) => {
                G::legal_moves(&s, &mut list);
                let moves = list.as_slice();
                if moves.is_empty() {
                    return Err(format!("ply {ply}: seat {seat} has no legal move"));
                }
                let m = moves[rng.below(moves.len() as u32) as usize].clone();
                G::play(&mut s, seat, &m).map_err(|e| format!("ply {ply}: {m:?} refused: {e}"))?;
            }
        }
    }
    Err(format!("no end within {max_plies} plies"))
}
