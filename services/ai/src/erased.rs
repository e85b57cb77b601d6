//! Bots for code that holds games only as trait objects (the service): a table from game kind
//! to that game's typed bot, reached through [`rules_core::typed`].
//!
//! The service's store hands out `Box<dyn GameState>`; the search is generic over a game's
//! own types. The binary, which knows every game, fills a [`Players`] table once
//! (`Players::new().with::<FiveTribes>()…`); the service asks it for a move in notation.
use crate::spec::BotSpec;
use rules_core::{Game, GameKind, GameState, Notation, Seat};
use std::collections::HashMap;

/// Why an erased state got no move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("no bot plays {0}")]
    NoGame(GameKind),
    #[error("the state is not a state of {0}")]
    WrongState(GameKind),
    #[error("seat {0} has no move")]
    NoMove(Seat),
}

type ChooseFn = fn(&dyn GameState, Seat, BotSpec, u64) -> Result<String, PlayError>;

/// The games bots can play, by kind.
#[derive(Default, Clone)]
pub struct Players {
    by_kind: HashMap<GameKind, ChooseFn>,
}

impl std::fmt::Debug for Players {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.by_kind.keys()).finish()
    }
}

impl Players {
    pub fn new() -> Players {
        Players::default()
    }

    /// The table with game `G`'s bots.
    pub fn with<G: Game + Notation>(mut self) -> Players {
        self.by_kind.insert(G::KIND, choose::<G>);
        self
    }

    /// Whether bots play `kind`.
    pub fn plays(&self, kind: GameKind) -> bool {
        self.by_kind.contains_key(&kind)
    }

    /// The move `bot` plays as `seat` in `state`, in notation, decided from `seed` (see
    /// [`BotSpec::choose`]: only what the seat may see counts).
    pub fn choose(
        &self,
        state: &dyn GameState,
        seat: Seat,
        bot: BotSpec,
        seed: u64,
    ) -> Result<String, PlayError> {
        let kind = state.kind();
        let f = self.by_kind.get(&kind).ok_or(PlayError::NoGame(kind))?;
        f(state, seat, bot, seed)
    }
}

fn choose<G: Game + Notation>(
    state: &dyn GameState,
    seat: Seat,
    bot: BotSpec,
    seed: u64,
) -> Result<String, PlayError> {
    let s = rules_core::typed::<G>(state).ok_or(PlayError::WrongState(G::KIND))?;
    bot.choose::<G>(s, seat, seed)
        .map(|m| G::format_move(&m))
        .ok_or(PlayError::NoMove(seat))
}
