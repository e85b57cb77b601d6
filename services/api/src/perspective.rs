//! Whose eyes a view is seen through — decided here, once, for every field that shows a
//! position (`view`, `board`, `scores`, `replay`, `moves`, `scoreSeries`, `gameUpdates`).
//!
//! While a game is on, a caller sees what its seat token opens (its own secrets) or, without
//! one, what a spectator sees; asking for another seat or for everything is refused. Once the
//! game is over nothing is secret: by default every ply opens completely (omniscient), and any
//! seat's perspective — what that seat knew at that ply — or a spectator's may be picked.

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use async_graphql::Enum;
use rules_core::{Seat, Viewer};
use store::{Header, Status};

/// A perspective other than a seat's.
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Perspective {
    /// The public table: what an audience saw.
    Spectator,
    /// Every seat's secrets as they stood at that ply (finished games only).
    Omniscient,
}

/// Who the caller sees a position of `game` as, given the `seat` or `perspective` it asks for.
pub fn viewer(
    game: &Header,
    caller: &Caller,
    seat: Option<u8>,
    perspective: Option<Perspective>,
) -> ApiResult<Viewer> {
    let finished = game.status == Status::Finished;
    let players = game.players.len();
    match (seat, perspective) {
        (Some(_), Some(_)) => Err(ApiError::BadInput(
            "give `seat` or `perspective`, not both".into(),
        )),
        (Some(s), None) if usize::from(s) >= players => Err(ApiError::BadInput(format!(
            "seat {s} is not in this {players}-player game (seats 0 to {})",
            players - 1
        ))),
        (Some(s), None) => {
            let wanted = Viewer::Seat(Seat(s));
            if finished || caller.viewer(game) == wanted {
                Ok(wanted)
            } else {
                Err(ApiError::Unauthorized(format!(
                    "seat {s}'s view of a game in play needs seat {s}'s token"
                )))
            }
        }
        (None, Some(Perspective::Spectator)) => Ok(Viewer::Spectator),
        (None, Some(Perspective::Omniscient)) if finished => Ok(Viewer::Omniscient),
        (None, Some(Perspective::Omniscient)) => Err(ApiError::Unauthorized(
            "the omniscient view opens once the game is over".into(),
        )),
        (None, None) if finished => Ok(Viewer::Omniscient),
        (None, None) => Ok(caller.viewer(game)),
    }
}
