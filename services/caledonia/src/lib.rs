//! Clans of Caledonia (Karma Games, 2017), base game for 1 to 4 players (with the optional
//! Kickstarter clan, port and scoring tile), as a pure, deterministic reducer.
//!
//! The rules are those of `shared/rules/clans-of-caledonia.pt.md`, with the product's rulings
//! (shared `RULINGS.md`, section Clans of Caledonia, and this game's
//! `data/caledonia/RULINGS.md`) where the text is silent. Component data (map sides, market
//! tracks, contracts, clans, start tiles, ports, scoring tiles, costs) is read from
//! `data/caledonia/`; behaviour is code. Reconstructed data is marked there.
//!
//! A turn is a short chain of decisions, each a [`Move`]: free port uses (and MacDonald's
//! rowing, MacKenzie's cellar) then one main action, then what it triggers (neighbour-bonus
//! purchases, a building-bonus keep, export bonuses), then — only when one is possible —
//! free actions again, closed by `done`. Chance (the deal, each preparation's refills and
//! market drift, building-bonus draws) is a [`Chance`] outcome.
//!
//! # Layout
//! - [`data`]: the embedded component data (`raw`: the file shapes; `validate`: its
//!   invariants); [`ids`]: names and ids.
//! - [`grid`]: the hex grid's geometry (directions, neighbours), the same under every map.
//! - [`map`]: the assembled map as bit masks; reach and settlements.
//! - [`state`], [`moves`], [`error`]: the position, the decisions, the broken rules.
//! - `flow`: who acts, check-then-apply dispatch, turns, rounds.
//! - `setup`, `actions`, `contracts`, `ports`, `production`: the rules, by concept.
//! - `chance`: dealing, refills, drift, draws. [`scoring`]: round tiles and the final sheet.
//! - `determinize`: a state consistent with what one viewer knows, another seat's
//!   building-bonus draw dealt again (`Game::determinize`).
//! - [`legal`], [`notation`], [`view`], [`features`]; `reading`: the fast reading of notation
//!   in canonical form, tried before [`notation`]'s parsers.
//! - [`layout`] and `presentation`: the layout a viewer draws, the view and layout schemas,
//!   entries in words (`rules_core::Presentation`).
//! - [`versions`]: the component-data versions a stored game may have been recorded under.
//!
//! Rules versions: `clans-of-caledonia/4` (issue 37) is current; games recorded under
//! `clans-of-caledonia/3` (issue 13) and `clans-of-caledonia/2` replay under theirs
//! ([`state::Rules`]: the state records its version and the rules branch on it where
//! behaviour changed).

mod actions;
mod chance;
mod contracts;
pub mod data;
mod determinize;
pub mod error;
pub mod features;
mod flow;
pub mod grid;
pub mod ids;
pub mod layout;
pub mod legal;
pub mod map;
pub mod moves;
pub mod notation;
mod ports;
mod presentation;
mod production;
mod raw;
mod reading;
pub mod scoring;
mod setup;
pub mod state;
mod validate;
pub mod versions;
pub mod view;

pub use error::{CalError, Rule};
pub use moves::{Chance, Deal, Move, PortArgs, Upgrade};
pub use state::{Options, State};
pub use view::View;

use rules_core::{
    ChanceRng, DataCoverage, FeatureSchema, Features, Game, GameKind, Notation, NotationError,
    Outcome, Seat, SeatScore, ToAct, TurnError, Viewer,
};

/// Clans of Caledonia as a [`Game`].
pub struct Caledonia;

impl Game for Caledonia {
    const KIND: GameKind = GameKind::ClansOfCaledonia;
    const RULES_VERSION: &'static str = state::Rules::CURRENT.name();
    type Options = Options;
    type State = State;
    type Move = Move;
    type Chance = Chance;
    type Error = CalError;
    type View = View;
    type MoveList = legal::MoveList;

    fn data_hash() -> String {
        format!("{:016x}", data::data_hash())
    }

    /// The current data, then the archived versions (`data/caledonia/archive/`).
    fn data_versions() -> Vec<String> {
        versions::version_hashes()
    }

    fn new_game_with_data(o: &Options, data_hash: &str) -> Option<Result<State, CalError>> {
        Self::new_game_versioned(o, Self::RULES_VERSION, data_hash)
    }

    /// `clans-of-caledonia/4` (issue 37), then `clans-of-caledonia/3` (issue 13) and
    /// `clans-of-caledonia/2`.
    fn rules_versions() -> Vec<&'static str> {
        state::Rules::ALL.iter().map(|r| r.name()).collect()
    }

    /// Every known data version plays with the current tables (see [`versions`]).
    fn new_game_versioned(
        o: &Options,
        rules_version: &str,
        data_hash: &str,
    ) -> Option<Result<State, CalError>> {
        let rules = state::Rules::from_name(rules_version)?;
        versions::known(data_hash).then(|| new_game_under(o, rules))
    }

    fn player_counts() -> &'static [u8] {
        &[1, 2, 3, 4]
    }

    fn new_game(o: &Options) -> Result<State, CalError> {
        new_game_under(o, state::Rules::CURRENT)
    }

    fn player_count(s: &State) -> u8 {
        s.players()
    }

    fn to_act(s: &State) -> ToAct {
        s.to_act()
    }

    fn legal_moves(s: &State, out: &mut Self::MoveList) {
        s.legal_moves(out)
    }

    #[inline]
    fn play(s: &mut State, seat: Seat, m: &Move) -> Result<(), CalError> {
        let illegal = |rule| CalError::Illegal {
            rule,
            mv: Box::new(*m),
        };
        if let Some(played) = s.play_turn(seat.0, m) {
            return played.map_err(illegal);
        }
        TurnError::expect_seat(s.to_act(), seat)?;
        s.check(seat.0, m).map_err(illegal)?;
        s.apply(seat.0, m);
        Ok(())
    }

    fn sample_chance(s: &State, rng: &mut dyn ChanceRng) -> Option<Chance> {
        s.sample(rng)
    }

    fn resolve(s: &mut State, c: &Chance) -> Result<(), CalError> {
        TurnError::expect_chance(s.to_act())?;
        s.check_chance(c).map_err(|rule| match c {
            Chance::Deal(d) if rule == Rule::BadDeal => CalError::BadDeal {
                what: s.deal_problem(d).unwrap_or(Rule::BadDeal.text()),
            },
            _ => CalError::BadChance { rule },
        })?;
        s.apply_chance(c);
        Ok(())
    }

    /// Another seat's pending building-bonus draw (Ruling C11) dealt again from itself and
    /// the unseen contracts, for every viewer but its drawer (and the omniscient viewer); all
    /// else is public or hidden from every viewer alike, and kept. See `determinize`.
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
        s.phase_name()
    }

    /// `clan:<slug>` and `port:<id>` for every port a seat used.
    fn tags(s: &State) -> Vec<Vec<String>> {
        s.seats
            .iter()
            .map(|p| {
                let mut t = Vec::new();
                if p.start_tile != 0 {
                    t.push(format!("clan:{}", p.clan));
                }
                for id in 1..=9u8 {
                    if p.ports_used & (1 << id) != 0 {
                        t.push(format!("port:{id}"));
                    }
                }
                t
            })
            .collect()
    }

    fn feature_schema() -> FeatureSchema {
        features::SCHEMA
    }

    fn features(s: &State, out: &mut Features) {
        s.features(out)
    }

    fn data_coverage() -> DataCoverage {
        data::coverage()
    }

    /// A building-bonus draw is seen by its drawer only (Ruling C11), and by the omniscient
    /// viewer (a finished game's replay shows every secret).
    fn chance_visible(s: &State, c: &Chance, viewer: Viewer) -> bool {
        match (c, &s.phase) {
            (Chance::Draw(_), state::Phase::Draw(t)) => viewer.sees(Seat(t.seat)),
            _ => true,
        }
    }
}

fn new_game_under(o: &Options, rules: state::Rules) -> Result<State, CalError> {
    if !(1..=4).contains(&o.players) {
        return Err(TurnError::BadOptions(format!(
            "Clans of Caledonia is for 1 to 4 players, not {}",
            o.players
        ))
        .into());
    }
    if o.static_imports && rules < state::Rules::V3 {
        return Err(TurnError::BadOptions(format!(
            "the static_imports option needs rules {}",
            state::Rules::V3.name()
        ))
        .into());
    }
    Ok(State::new_under(*o, rules))
}

impl Notation for Caledonia {
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
        let mut slot = None;
        reading::read_chance_into(text, &mut slot);
        slot
    }
    fn read_chance_into(text: &str, slot: &mut Option<Chance>) {
        reading::read_chance_into(text, slot);
    }
}
