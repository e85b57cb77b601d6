//! The [`Game`] trait: the one shape every game's rules take.
//!
//! Differences from the sketch in DESIGN.md, and why:
//! - `new_game(options)` returns a state that waits on chance; the initial deal is the first
//!   chance entry of the log like any other, so a game's log alone (plus its options) rebuilds
//!   it and imported real-table games bring their own deal.
//! - `play` takes the seat that claims the move, so a move by the wrong seat is a typed error
//!   rather than something the caller must remember to check.
//! - `sample_chance` lets the game say how to sample its own chance node from an injected
//!   generator; the game never owns randomness, the [`crate::Dealer`] does.
//! - Move lists are a per-game buffer type (a stack `ArrayVec` for the real games), filled by
//!   `legal_moves` without allocating.

use crate::dealer::ChanceRng;
use crate::error::RuleViolation;
use crate::features::{DataCoverage, FeatureSchema, Features};
use crate::ids::{GameKind, Seat, Viewer};
use crate::outcome::{Outcome, SeatScore};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use std::hash::Hash;

/// Who must act next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ToAct {
    /// This seat must choose a move.
    Seat(Seat),
    /// The table must supply a chance outcome (a deal, a draw, a die).
    Chance,
    /// The game is over; nobody acts.
    Over,
}

/// One log entry's effect: a seat's move or a chance outcome.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Action<M, C> {
    Move(Seat, M),
    Chance(C),
}

/// A reusable buffer for legal moves.
pub trait MoveBuf<M> {
    fn clear(&mut self);
    fn push(&mut self, m: M);
    fn as_slice(&self) -> &[M];
}

impl<M> MoveBuf<M> for Vec<M> {
    fn clear(&mut self) {
        Vec::clear(self)
    }
    fn push(&mut self, m: M) {
        Vec::push(self, m)
    }
    fn as_slice(&self) -> &[M] {
        self
    }
}

/// A stack buffer. A game that uses one must prove, in a comment beside its capacity, that
/// no position has more legal moves than that: `push` past capacity is a bug, not an input.
impl<M, const N: usize> MoveBuf<M> for arrayvec::ArrayVec<M, N> {
    fn clear(&mut self) {
        arrayvec::ArrayVec::clear(self)
    }
    fn push(&mut self, m: M) {
        arrayvec::ArrayVec::push(self, m)
    }
    fn as_slice(&self) -> &[M] {
        self
    }
}

/// A game's rules as a pure, deterministic reducer.
///
/// Contract (checked by each game's property tests):
/// - `m` is in `legal_moves(s)` exactly when `play(s, seat_to_act, m)` succeeds;
/// - `play` and `resolve` leave the state untouched when they return an error;
/// - no method panics, reads a clock, or draws randomness of its own.
pub trait Game: 'static {
    const KIND: GameKind;
    /// Bumped whenever a rules change could alter how an old log replays. The version new
    /// games are created under; older ones stay playable (see [`Game::rules_versions`]).
    const RULES_VERSION: &'static str;

    type Options: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    type State: Clone + Eq + Hash + Debug;
    type Move: Clone + Eq + Hash + Debug;
    type Chance: Clone + Eq + Hash + Debug;
    type Error: RuleViolation;
    type View: Serialize + Debug;
    type MoveList: MoveBuf<Self::Move> + Default;

    /// A hash of the component data the rules read (hex), recorded with stored games.
    fn data_hash() -> String;

    /// Every component-data version this build can replay (hex hashes), the current one first.
    /// A stored game records the hash it was created under and keeps replaying under that data
    /// after a correction: a game that corrects its data keeps the old version in an archive.
    fn data_versions() -> Vec<String> {
        vec![Self::data_hash()]
    }

    /// A new game under the component data whose hash is `data_hash`; `None` when this build
    /// does not have that version.
    fn new_game_with_data(
        options: &Self::Options,
        data_hash: &str,
    ) -> Option<Result<Self::State, Self::Error>> {
        (data_hash == Self::data_hash()).then(|| Self::new_game(options))
    }

    /// Every rules version this build replays, the current one ([`Game::RULES_VERSION`])
    /// first. A stored game records the version it was created under and keeps replaying
    /// under it after a rules change: a game that changes a rule keeps the old behaviour
    /// reachable (its state records the version it plays under, and the reducer branches on it
    /// where behaviour changed).
    fn rules_versions() -> Vec<&'static str> {
        vec![Self::RULES_VERSION]
    }

    /// A new game under rules version `rules_version` and the component data whose hash is
    /// `data_hash`; `None` when this build does not have that rules version or that data.
    fn new_game_versioned(
        options: &Self::Options,
        rules_version: &str,
        data_hash: &str,
    ) -> Option<Result<Self::State, Self::Error>> {
        if rules_version == Self::RULES_VERSION {
            Self::new_game_with_data(options, data_hash)
        } else {
            None
        }
    }

    /// Player counts the game supports, lowest to highest.
    fn player_counts() -> &'static [u8];

    /// A new game with these options, waiting on its initial deal (a chance entry).
    fn new_game(options: &Self::Options) -> Result<Self::State, Self::Error>;

    fn player_count(s: &Self::State) -> u8;

    fn to_act(s: &Self::State) -> ToAct;

    /// Fills `out` with every legal move of the seat to act (nothing at chance or game end).
    fn legal_moves(s: &Self::State, out: &mut Self::MoveList);

    /// Every seat that may move now. Usually only the seat to act; in a simultaneous step
    /// (Mombasa's planning: everyone decides face down, in any order) every seat still
    /// deciding, and [`Game::to_act`] names the first of them, so a driver that knows nothing
    /// of simultaneity still plays a valid order.
    fn seats_to_act(s: &Self::State) -> Vec<Seat> {
        match Self::to_act(s) {
            ToAct::Seat(x) => vec![x],
            ToAct::Chance | ToAct::Over => Vec::new(),
        }
    }

    /// Fills `out` with every legal move of `seat`: empty unless `seat` is in
    /// [`Game::seats_to_act`]. Contract: `m` is listed exactly when `play(s, seat, m)` succeeds.
    fn legal_moves_of(s: &Self::State, seat: Seat, out: &mut Self::MoveList) {
        if Self::to_act(s) == ToAct::Seat(seat) {
            Self::legal_moves(s, out);
        } else {
            out.clear();
        }
    }

    /// Applies `seat`'s move. On error the state is unchanged.
    fn play(s: &mut Self::State, seat: Seat, m: &Self::Move) -> Result<(), Self::Error>;

    /// Samples the outcome the current chance node needs, or `None` when none is needed.
    fn sample_chance(s: &Self::State, rng: &mut dyn ChanceRng) -> Option<Self::Chance>;

    /// Applies a chance outcome. On error the state is unchanged.
    fn resolve(s: &mut Self::State, c: &Self::Chance) -> Result<(), Self::Error>;
    /// A full state consistent with everything `viewer` knows of `s` — what
    /// `view(s, viewer)` shows and what the entries `viewer` saw told it — with the secrets
    /// `viewer` may not know (another seat's private draw, its face-down plans, a start tile
    /// dealt to it) resampled with `rng` from the components they could be, and everything
    /// else as it is. OpenSpiel's `ResampleFromInfostate`: the one place a search meets
    /// hidden information, so a player searching from it plays on what its seat knows only.
    /// Pure and seeded. Decks are never ordered in a state (each draw is dealt when it
    /// happens), so their order needs nothing here; a value hidden from a view but told by
    /// public entries (Five Tribes' gold) is known, and kept. The default is for a game with
    /// no such secret: the state itself.
    fn determinize(s: &Self::State, viewer: Viewer, rng: &mut dyn ChanceRng) -> Self::State {
        let _ = (viewer, rng);
        s.clone()
    }

    /// Final scores and winners, once the game is over.
    fn outcome(s: &Self::State) -> Option<Outcome>;

    /// Scores as they would stand if the game ended now, with their breakdown.
    fn scores(s: &Self::State) -> Vec<SeatScore>;

    /// What `viewer` may see of the position.
    fn view(s: &Self::State, viewer: Viewer) -> Self::View;

    /// The round number (from 1; 0 before the deal).
    fn round(s: &Self::State) -> u32;

    /// A short name of the phase (e.g. `bid`, `turn`, `over`).
    fn phase(s: &Self::State) -> &'static str;

    /// Labels of what each seat did, for statistics by tag (e.g. `djinn:baal`). One list per
    /// seat, in seat order.
    fn tags(s: &Self::State) -> Vec<Vec<String>> {
        let _ = s;
        Vec::new()
    }

    /// Whether `viewer` may see `seat`'s move `m` made in position `s` (before it). Secret
    /// choices (Mombasa's planned cards, a kept start tile) answer `false` for everyone but
    /// the seat while the game is on; a later public entry reveals them.
    fn move_visible(s: &Self::State, seat: Seat, m: &Self::Move, viewer: Viewer) -> bool {
        let _ = (s, seat, m, viewer);
        true
    }

    /// The position features this game declares beyond the common ones (see
    /// [`crate::features`]).
    fn feature_schema() -> FeatureSchema {
        FeatureSchema::EMPTY
    }

    /// Fills `out` (cleared by the caller) with the values of [`Game::feature_schema`] for `s`:
    /// all global values, then each seat's block in seat order.
    fn features(s: &Self::State, out: &mut Features) {
        let _ = (s, out);
    }

    /// The state's postcard encoding (what [`crate::GameState::encode`] stores after its
    /// prefix), written by hand into `out`: the position index hashes every ply of every game
    /// it indexes, and serde's element-by-element path was over four tenths of an import. A
    /// game that writes it must write exactly postcard's bytes (its tests compare the two on
    /// every ply of many games); `false` (the default: nothing written) leaves it to postcard.
    fn encode_by_hand(s: &Self::State, out: &mut crate::state_hash::HashBytes) -> bool {
        let _ = (s, out);
        false
    }

    /// How many component data items are verified and how many reconstructed.
    fn data_coverage() -> DataCoverage {
        DataCoverage::default()
    }

    /// Whether `viewer` may see the chance outcome `c` dealt in position `s` (before it).
    /// Outcomes the rules keep secret from some seats (a private draw) answer `false` for
    /// them; logs served to those viewers show the outcome hidden.
    fn chance_visible(s: &Self::State, c: &Self::Chance, viewer: Viewer) -> bool {
        let _ = (s, c, viewer);
        true
    }

    /// Applies one log entry's action, checking that the right actor supplies it.
    fn apply(
        s: &mut Self::State,
        action: &Action<Self::Move, Self::Chance>,
    ) -> Result<(), Self::Error> {
        match action {
            Action::Move(seat, m) => Self::play(s, *seat, m),
            Action::Chance(c) => Self::resolve(s, c),
        }
    }
}
