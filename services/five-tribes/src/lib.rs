//! Five Tribes (Days of Wonder, 2014), base game, for 2 to 4 players, as a pure reducer.
//!
//! The rules implemented are those of `shared/rules/five-tribes.pt.md`, with the product's
//! rulings (shared `RULINGS.md` and this game's `data/five-tribes/RULINGS.md`) where the text
//! is silent. Component data (tiles, djinns, cards, counts, costs) is read from
//! `data/five-tribes/`; behaviour is code.
//!
//! A turn is a chain of small decisions, each a [`Move`]: `pick`, one `drop` per step, the
//! builders' or assassins' choice, the tile's choice, djinn powers, sales, `end`. Steps with
//! nothing to decide happen on their own. Chance (the deal, clean-up draws, djinn draws) is a
//! [`Chance`] outcome supplied by the dealer or the table.
//!
//! # Layout
//! - [`data`]: the embedded component data and its checks.
//! - [`ids`], [`board`]: positions, colours, cards, djinns; bit boards and the move search.
//! - [`state`], [`moves`], [`error`]: the position, the decisions, the broken rules;
//!   `sultanate`: the board, with the kept bit boards of each colour's tiles.
//! - `flow`: who acts, check-then-apply, automatic steps, turns, rounds, the end.
//! - `bidding`, `movement`, `tribes`, `tiles`, `djinns`, `market`: the rules, by concept.
//! - `chance`: dealing, drawing and checking outcomes; `determinize`: a state consistent with
//!   what one viewer knows, Sibittis's hidden draw resampled (gold is known from the log).
//! - [`scoring`], [`legal`], [`notation`], [`view`], [`features`] (for position queries);
//!   `encoding`: a position's postcard bytes written by hand, for its state hash;
//!   `reading`: the fast reading of notation in canonical form, tried before [`notation`]'s
//!   parsers.
//! - [`presentation`]: view and layout schemas, the layout, entries in words.

mod bidding;
pub mod board;
mod chance;
pub mod data;
mod determinize;
mod djinns;
mod encoding;
pub mod error;
pub mod features;
mod flow;
pub mod ids;
pub mod legal;
pub mod market;
mod movement;
pub mod moves;
pub mod notation;
pub mod presentation;
mod reading;
pub mod scoring;
pub mod state;
mod sultanate;
mod tiles;
mod tribes;
pub mod view;

pub use chance::Need;
pub use error::{FtError, Rule};
pub use moves::{Chance, Deal, DjinnUse, Goods, Move, Pay, Redirect, Target};
pub use state::State;
pub use view::View;

use rules_core::{
    ChanceRng, Game, GameKind, Notation, NotationError, Outcome, Seat, SeatScore, ToAct, TurnError,
    Viewer,
};
use serde::{Deserialize, Serialize};

/// The game's options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub players: u8,
}

/// Five Tribes as a [`Game`].
pub struct FiveTribes;

impl Game for FiveTribes {
    const KIND: GameKind = GameKind::FiveTribes;
    const RULES_VERSION: &'static str = state::Rules::CURRENT.name();
    type Options = Options;
    type State = State;
    type Move = Move;
    type Chance = Chance;
    type Error = FtError;
    type View = View;
    type MoveList = legal::MoveList;

    fn data_hash() -> String {
        format!("{:016x}", data::data_hash())
    }

    /// `five-tribes/2` (sales at the end of the turn), then `five-tribes/1`.
    fn rules_versions() -> Vec<&'static str> {
        state::Rules::ALL.iter().map(|r| r.name()).collect()
    }

    fn new_game_versioned(
        o: &Options,
        rules_version: &str,
        data_hash: &str,
    ) -> Option<Result<State, FtError>> {
        let rules = state::Rules::from_name(rules_version)?;
        (data_hash == Self::data_hash()).then(|| new_game_under(o, rules))
    }

    fn player_counts() -> &'static [u8] {
        &[2, 3, 4]
    }

    fn new_game(o: &Options) -> Result<State, FtError> {
        new_game_under(o, state::Rules::CURRENT)
    }

    fn player_count(s: &State) -> u8 {
        s.players
    }

    fn to_act(s: &State) -> ToAct {
        s.to_act()
    }

    fn legal_moves(s: &State, out: &mut Self::MoveList) {
        s.legal_moves(out)
    }

    #[inline]
    fn play(s: &mut State, seat: Seat, m: &Move) -> Result<(), FtError> {
        TurnError::expect_seat(s.to_act(), seat)?;
        s.check(seat.0, m)
            .map_err(|rule| FtError::Illegal { rule, mv: *m })?;
        s.apply(seat.0, m);
        Ok(())
    }

    fn sample_chance(s: &State, rng: &mut dyn ChanceRng) -> Option<Chance> {
        s.sample(rng)
    }

    fn resolve(s: &mut State, c: &Chance) -> Result<(), FtError> {
        TurnError::expect_chance(s.to_act())?;
        s.check_chance(c)
            .map_err(|rule| FtError::BadChance { rule })?;
        s.apply_chance(c);
        s.advance();
        Ok(())
    }

    /// Only Sibittis's draw is resampled, for a viewer other than its drawer (Ruling F15);
    /// gold is hidden in the view but told by public entries, so it is kept (`determinize`).
    fn determinize(s: &State, viewer: Viewer, rng: &mut dyn ChanceRng) -> State {
        s.determinize(viewer, rng)
    }

    fn outcome(s: &State) -> Option<Outcome> {
        s.outcome()
    }

    fn scores(s: &State) -> Vec<SeatScore> {
        s.scores()
    }

    fn view(s: &State, viewer: Viewer) -> View {
        s.view(viewer)
    }

    fn round(s: &State) -> u32 {
        u32::from(s.round)
    }

    fn phase(s: &State) -> &'static str {
        match &s.phase {
            state::Phase::Deal => "deal",
            state::Phase::Bid => "bid",
            state::Phase::Turn { .. } => "turn",
            state::Phase::Refill => "refill",
            state::Phase::Over => "over",
        }
    }

    fn feature_schema() -> rules_core::FeatureSchema {
        features::SCHEMA
    }

    fn features(s: &State, out: &mut rules_core::Features) {
        s.features(out);
    }

    fn encode_by_hand(s: &State, out: &mut rules_core::state_hash::HashBytes) -> bool {
        encoding::encode(s, out);
        true
    }

    fn data_coverage() -> rules_core::DataCoverage {
        data::data_coverage()
    }

    /// Each seat's djinns, as `djinn:<slug>`: "which djinn wins?"
    fn tags(s: &State) -> Vec<Vec<String>> {
        s.seats
            .iter()
            .map(|p| p.djinns.iter().map(|d| format!("djinn:{d}")).collect())
            .collect()
    }

    /// Sibittis's draw is seen by its drawer (and the omniscient viewer) only (Ruling F15);
    /// everything else dealt is public.
    fn chance_visible(s: &State, c: &Chance, viewer: Viewer) -> bool {
        match (c, &s.phase) {
            (Chance::Djinns(_), state::Phase::Turn { seat, .. }) => viewer.sees(Seat(*seat)),
            _ => true,
        }
    }
}

fn new_game_under(o: &Options, rules: state::Rules) -> Result<State, FtError> {
    if !(2..=4).contains(&o.players) {
        return Err(TurnError::BadOptions(format!(
            "Five Tribes is for 2 to 4 players, not {}",
            o.players
        ))
        .into());
    }
    Ok(State::new_under(o.players, rules))
}

impl Notation for FiveTribes {
    fn format_move(m: &Move) -> String {
        notation::format_move(m)
    }
    fn parse_move(text: &str) -> Result<Move, NotationError> {
        notation::parse_move(text)
    }
    fn format_chance(c: &Chance) -> String {
        notation::format_chance(c)
    }
    fn parse_chance(text: &str) -> Result<Chance, NotationError> {
        notation::parse_chance(text)
    }
    #[inline(always)]
    fn read_move(text: &str) -> Option<Move> {
        reading::read_move(text)
    }
    fn read_chance(text: &str) -> Option<Chance> {
        reading::read_chance(text)
    }
}
