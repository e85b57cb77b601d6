//! Bots for code that holds games only as trait objects (the service): a table from game kind
//! to that game's typed bot, reached through [`rules_core::typed`].
//!
//! The service's store hands out `Box<dyn GameState>`; the search is generic over a game's
//! own types. The binary, which knows every game, fills a [`Players`] table once
//! (`Players::new().with::<FiveTribes>()…`); the service asks it for a move in notation.
use crate::calibrate::Isotonic;
use crate::evaluate::{Evaluation, MoveOutlook};
use crate::spec::BotSpec;
use rules_core::{Game, GameKind, GameState, Notation, Seat, Viewer};
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
type EvaluateFn = fn(&dyn GameState, &Ask<'_>) -> Result<Evaluation<String>, PlayError>;

/// What an evaluation is asked for: the viewer whose view it may read, the search's
/// iterations, how many best moves to keep, and the seed.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    pub viewer: Viewer,
    /// The seat whose moves to advise when several may act (see [`crate::evaluate_for`]).
    pub mover: Option<Seat>,
    /// The move `mover` played, in notation, to value from the same tree with at least
    /// `playouts` playouts (a review's judgement; see [`crate::Judge`]).
    pub played: Option<&'a str>,
    pub playouts: u32,
    /// Leave the chances as the search found them (no calibration): what judgements compare,
    /// since a calibration map may be flat over a range of raw chances.
    pub raw: bool,
    pub iterations: u32,
    pub best: usize,
    pub seed: u64,
}

/// The games bots can play, by kind, and the calibration of each kind's evaluations by
/// player count.
#[derive(Default, Clone)]
pub struct Players {
    by_kind: HashMap<GameKind, (ChooseFn, EvaluateFn)>,
    maps: HashMap<(GameKind, u8), std::sync::Arc<Isotonic>>,
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
        self.by_kind.insert(G::KIND, (choose::<G>, evaluate::<G>));
        self
    }

    /// The table with `map` calibrating `kind`'s evaluations of `players` seats.
    pub fn calibrated(mut self, kind: GameKind, players: u8, map: Isotonic) -> Players {
        self.maps.insert((kind, players), std::sync::Arc::new(map));
        self
    }

    /// Whether evaluations of `kind` with `players` seats are calibrated.
    pub fn calibrates(&self, kind: GameKind, players: u8) -> bool {
        self.maps.contains_key(&(kind, players))
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
        f.0(state, seat, bot, seed)
    }

    /// `state` evaluated as [`crate::evaluate()`] does, its moves in notation.
    pub fn evaluate(
        &self,
        state: &dyn GameState,
        ask: &Ask<'_>,
    ) -> Result<Evaluation<String>, PlayError> {
        let kind = state.kind();
        let f = self.by_kind.get(&kind).ok_or(PlayError::NoGame(kind))?;
        let mut e = f.1(state, ask)?;
        if !ask.raw {
            self.calibrate(kind, state.player_count(), &mut e);
        }
        Ok(e)
    }

    /// Passes a raw evaluation of a `kind` game of `players` seats through its calibration
    /// (nothing when there is none, or for a finished game's outcome).
    pub fn calibrate(&self, kind: GameKind, players: u8, e: &mut Evaluation<String>) {
        if let Some(map) = self.maps.get(&(kind, players)) {
            if !e.exact {
                crate::calibrate::apply(e, map);
            }
        }
    }
}

fn evaluate<G: Game + Notation>(
    state: &dyn GameState,
    ask: &Ask<'_>,
) -> Result<Evaluation<String>, PlayError> {
    let s = rules_core::typed::<G>(state).ok_or(PlayError::WrongState(G::KIND))?;
    // A played move that does not parse is valued as none (the review falls back to the next
    // position's evaluation).
    let played = ask.played.and_then(|t| G::parse_move(t).ok());
    let judge = crate::Judge {
        mover: ask.mover,
        played: played.as_ref(),
        playouts: ask.playouts,
    };
    let e = crate::evaluate_for::<G>(s, ask.viewer, judge, ask.iterations, ask.best, ask.seed);
    let text = |m: MoveOutlook<G::Move>| MoveOutlook {
        mv: G::format_move(&m.mv),
        seat: m.seat,
        visits: m.visits,
        win: m.win,
        low: m.low,
        high: m.high,
        score: m.score,
    };
    Ok(Evaluation {
        seats: e.seats,
        best: e.best.into_iter().map(text).collect(),
        iterations: e.iterations,
        playouts: e.playouts,
        exact: e.exact,
        calibrated: e.calibrated,
        played: e.played.map(text),
    })
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
