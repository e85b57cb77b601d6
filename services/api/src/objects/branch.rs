//! `Position.explore`: the analysis board. Other moves played from a position without storing
//! anything — each checked by the game's rules like a stored move, chance entries dealt from a
//! seed (`*`) or typed in. A finished game's branch starts from the position itself; a game in
//! play's from the position as the caller might believe it to be (the game's determinization
//! from the caller's viewer), so no branch shows a secret the caller may not see. The branch's
//! line key for the explorer goes on from the stored line with the branch's public texts.

use crate::error::ApiError;
use rules_core::{Actor, GameState, Ply, Seat, ToAct, Viewer};
use store::{Header, Status, StoreError};

/// Most entries one branch may hold.
pub const MAX_BRANCH: usize = 200;

/// A branch played out: its position and its entries as applied (sampled chance included).
pub struct Branch {
    pub state: Box<dyn GameState>,
    pub entries: Vec<(Actor, String)>,
    /// The explorer's line key after the branch (when the stored line was given).
    pub line: Option<u64>,
}

/// Plays `moves` from `state` (the game's position after `ply` entries) for `viewer`.
/// Each is a seat's move (the seat to act's; `<seat>: <move>` to name one of several seats
/// that may move), or at a chance node an outcome in the game's notation, or `*` to deal one
/// from `seed`. The first entry refused ends it with the rule, nothing kept.
pub fn play(
    header: &Header,
    ply: u32,
    state: &dyn GameState,
    viewer: Viewer,
    moves: &[String],
    seed: u64,
    line: Option<(u64, [u8; 16])>,
) -> Result<Branch, ApiError> {
    if moves.len() > MAX_BRANCH {
        return Err(ApiError::LimitExceeded(format!(
            "a branch holds at most {MAX_BRANCH} entries, not {}",
            moves.len()
        )));
    }
    let mut s = if header.status == Status::Finished || viewer == Viewer::Omniscient {
        state.clone_box()
    } else {
        state.determinized(viewer, seed)
    };
    let mut entries = Vec::with_capacity(moves.len());
    let mut key_line = line;
    for (i, text) in moves.iter().enumerate() {
        let at = ply + i as u32;
        let refuse = |error: rules_core::EntryError| {
            ApiError::Store(StoreError::Rejected {
                game: header.id,
                ply: at + 1,
                error,
            })
        };
        let (actor, notation) = match s.to_act() {
            ToAct::Over => {
                return Err(ApiError::BadInput(format!(
                    "entry {} of the branch (`{}`): the game is over",
                    i + 1,
                    text.chars().take(80).collect::<String>()
                )))
            }
            ToAct::Chance if text.trim() == "*" => {
                let dealt = s
                    .deal(seed, Ply(at))
                    .ok_or_else(|| ApiError::Internal(format!("no outcome to deal at ply {at}")))?;
                (Actor::Dealer, dealt)
            }
            ToAct::Chance => (Actor::Dealer, text.trim().to_string()),
            ToAct::Seat(first) => match text.split_once(':') {
                Some((seat, m)) if seat.trim().parse::<u8>().is_ok() => {
                    let seat = Seat(seat.trim().parse::<u8>().unwrap_or(first.0));
                    (Actor::Seat(seat), m.trim().to_string())
                }
                _ => (Actor::Seat(first), text.trim().to_string()),
            },
        };
        let public = match actor {
            Actor::Seat(seat) => Some((seat, s.entry_text(actor, &notation, Viewer::Spectator))),
            Actor::Dealer => None,
        };
        s.apply(actor, &notation).map_err(refuse)?;
        if let (Some((line, key)), Some((seat, public))) = (key_line.as_mut(), public) {
            *line = explorer::key::next_line(*key, *line, seat, &public);
        }
        entries.push((actor, notation));
    }
    Ok(Branch {
        state: s,
        entries,
        line: key_line.map(|(l, _)| l),
    })
}
