//! Mombasa (eggertspiele, 2015), base game, for 2 to 4 players, as a pure reducer.
//!
//! The rules implemented are those of `shared/rules/mombasa.pt.md` and
//! `shared/rules/mombasa-phases-and-scoring.zh.txt` (which completes the Portuguese text where
//! it is cut off: preparation and final scoring), with the product's rulings (shared
//! `RULINGS.md`, Mombasa M1–M16) and this game's own (`data/mombasa/RULINGS.md`). Component
//! data is read from `data/mombasa/`; nearly all of it is reconstructed and marked so.
//!
//! Seven rounds of planning (secret, card by card, then a public reveal entry), actions (a
//! turn is a chain of small decisions: choose the cards, then buy, step, enter a region, move
//! the ink, spend bookkeeping points...) and preparation (a chance entry refills the displays).
//!
//! # Layout
//! - [`data`]: the embedded component data and its checks; [`ids`]: component ids.
//! - [`state`], [`moves`], [`error`]: the position, the decisions and outcomes, broken rules;
//!   [`track`]: a seat's bookkeeping track (inline, so a state copies as plain bytes).
//! - `flow`: who acts and check-then-apply; `planning`: secret choices and their reveals;
//!   `display`: dealing, drawing and refilling (all chance); `ending`: the end of a seat's
//!   action phase, turn order, the preparation phase; `undo`: Rules 2's kept position for
//!   `cancel`, and the box it reuses; `determinize`: what a viewer cannot know, resampled
//!   (`Game::determinize`).
//! - The six actions by concept: `goods` (and buying), `map` (expansion), `books`
//!   (bookkeeper and bookkeeping points), `diamonds`, `bonus`; `companies`: tracks, shares,
//!   bases.
//! - [`scoring`], [`legal`], [`notation`] (`reading`: its fast reading of canonical text,
//!   tried first); [`view`] (what a viewer may see) and
//!   [`presentation`] (view and layout schemas, the layout, entries in words).

mod bonus;
mod books;
pub mod companies;
pub mod data;
mod determinize;
mod diamonds;
mod display;
mod ending;
pub mod error;
mod flow;
pub mod goods;
pub mod ids;
pub mod legal;
mod map;
pub mod moves;
pub mod notation;
mod planning;
pub mod presentation;
mod reading;
pub mod scoring;
pub mod state;
pub mod track;
mod undo;
pub mod view;

pub use error::{MbError, Rule};
pub use moves::{BonusArg, Chance, Move};
pub use state::{Options, Phase, Stage, State};
pub use view::View;

use ids::Company;
use rules_core::{
    ChanceRng, DataCoverage, FeatureSchema, Features, Game, GameKind, Notation, NotationError,
    Outcome, Seat, SeatScore, ToAct, TurnError, Viewer,
};

/// Mombasa as a [`Game`].
pub struct Mombasa;

/// The name of a phase, as [`Game::phase`] reports it.
pub const fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Setup => "setup",
        Phase::StartDeal => "start-deal",
        Phase::StartKeep => "start-keep",
        Phase::StartReveal => "start-reveal",
        Phase::Planning => "planning",
        Phase::Reveal => "reveal",
        Phase::Actions => "actions",
        Phase::Prep => "prep",
        Phase::Over => "over",
    }
}

const PHASES: &[&str] = &[
    "setup",
    "start-deal",
    "start-keep",
    "start-reveal",
    "planning",
    "reveal",
    "actions",
    "prep",
    "over",
];

const GLOBAL_FEATURES: &[&str] = &[
    "value_mombasa",
    "value_capetown",
    "value_saintlouis",
    "value_cairo",
    "regions_mombasa",
    "regions_capetown",
    "regions_saintlouis",
    "regions_cairo",
    "deck",
];

const SEAT_FEATURES: &[&str] = &[
    "pounds",
    "diamonds",
    "bookkeeping",
    "books",
    "track_mombasa",
    "track_capetown",
    "track_saintlouis",
    "track_cairo",
    "shares_mombasa",
    "shares_capetown",
    "shares_saintlouis",
    "shares_cairo",
    "hand",
    "slots",
    "score",
];

impl Game for Mombasa {
    const KIND: GameKind = GameKind::Mombasa;
    const RULES_VERSION: &'static str = state::Rules::CURRENT.name();
    type Options = Options;
    type State = State;
    type Move = Move;
    type Chance = Chance;
    type Error = MbError;
    type View = View;
    type MoveList = legal::MoveList;

    fn data_hash() -> String {
        format!("{:016x}", data::data_hash())
    }

    /// The current data first, then every version in `data/mombasa/archive/`.
    fn data_versions() -> Vec<String> {
        data::version_hashes()
            .into_iter()
            .map(|h| format!("{h:016x}"))
            .collect()
    }

    /// A game whose every rule reads the tables of data version `data_hash` (16 lowercase hex
    /// digits, as [`Game::data_hash`] writes it).
    fn new_game_with_data(o: &Options, data_hash: &str) -> Option<Result<State, MbError>> {
        Self::new_game_versioned(o, Self::RULES_VERSION, data_hash)
    }

    /// `mombasa/4` (issue 39), then `mombasa/3` (issue 37), then `mombasa/2` (issue 13), then
    /// `mombasa/1`.
    fn rules_versions() -> Vec<&'static str> {
        state::Rules::ALL.iter().map(|r| r.name()).collect()
    }

    /// A game under rules version `rules_version` whose every rule reads the tables of data
    /// version `data_hash`.
    fn new_game_versioned(
        o: &Options,
        rules_version: &str,
        data_hash: &str,
    ) -> Option<Result<State, MbError>> {
        let rules = state::Rules::from_name(rules_version)?;
        let ok = data_hash.len() == 16
            && data_hash
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        let hash = u64::from_str_radix(data_hash, 16).ok().filter(|_| ok)?;
        data::version(hash)?;
        check_options(o, rules)
            .map(|()| State::new_versioned(o, rules, hash))
            .transpose()
    }

    fn player_counts() -> &'static [u8] {
        &[2, 3, 4]
    }

    /// Secret choices (the start tile kept, each card planned, `ready`) are seen by their
    /// seat (and the omniscient viewer) only; the reveal entry that follows them makes them
    /// public.
    fn move_visible(s: &State, seat: Seat, m: &Move, viewer: Viewer) -> bool {
        let _ = s;
        match m {
            Move::Keep(_) | Move::Plan { .. } | Move::Ready => viewer.sees(seat),
            _ => true,
        }
    }

    fn new_game(o: &Options) -> Result<State, MbError> {
        check_options(o, state::Rules::CURRENT)?;
        Ok(State::new(o))
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

    fn seats_to_act(s: &State) -> Vec<Seat> {
        s.seats_to_act()
    }

    fn legal_moves_of(s: &State, seat: Seat, out: &mut Self::MoveList) {
        s.legal_moves_of(seat.0, out)
    }

    #[inline]
    fn play(s: &mut State, seat: Seat, m: &Move) -> Result<(), MbError> {
        // Planning and the start-tile choice are simultaneous: any seat still deciding may
        // move, whatever seat `to_act` names first. (No seat may act in a finished game, so
        // who is to act is only worked out to explain a refusal.)
        if !s.may_act(seat.0) {
            return Err(match s.to_act() {
                ToAct::Over => TurnError::GameOver.into(),
                other => TurnError::wrong_seat(seat, other).into(),
            });
        }
        s.check(seat.0, m).map_err(|rule| match rule {
            // The limit is named: it depends on the seat's diamond and bookkeeping tracks.
            Rule::SlotClosed => MbError::SlotLimit {
                open: s.open_slots(seat.0) as u8,
                mv: *m,
            },
            _ => MbError::Illegal { rule, mv: *m },
        })?;
        s.apply(seat.0, m);
        Ok(())
    }

    fn sample_chance(s: &State, rng: &mut dyn ChanceRng) -> Option<Chance> {
        if s.to_act() == ToAct::Chance {
            s.sample(rng)
        } else {
            None
        }
    }

    fn resolve(s: &mut State, c: &Chance) -> Result<(), MbError> {
        TurnError::expect_chance(s.to_act())?;
        s.check_chance(c)
            .map_err(|rule| MbError::BadChance { rule })?;
        s.apply_chance(c);
        Ok(())
    }

    /// Resamples what `viewer` cannot know — another seat's planned cards (among the cards it
    /// is known to hold) and the start tiles dealt to it — and keeps what public entries told
    /// (its hand, once the plans are set aside): the reasoning is in `determinize.rs`.
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
        phase_name(s.phase)
    }

    /// `start:<tile>` once the start tiles are revealed, and `company:<id>` for each company
    /// the seat holds shares in (track or cards).
    fn tags(s: &State) -> Vec<Vec<String>> {
        let revealed = !matches!(
            s.phase,
            Phase::Setup | Phase::StartDeal | Phase::StartKeep | Phase::StartReveal
        );
        (0..s.players)
            .map(|seat| {
                let mut t = Vec::new();
                if let Some(p) = s.player(seat) {
                    if revealed && p.start != ids::NONE {
                        t.push(format!("start:{}", notation::tile_code(p.start)));
                    }
                }
                for co in Company::ALL {
                    if s.shares(seat, co) > 0 {
                        t.push(format!("company:{}", co.slug()));
                    }
                }
                t
            })
            .collect()
    }

    fn feature_schema() -> FeatureSchema {
        FeatureSchema {
            phases: PHASES,
            global: GLOBAL_FEATURES,
            seat: SEAT_FEATURES,
        }
    }

    fn features(s: &State, out: &mut Features) {
        for co in Company::ALL {
            out.global.push(i64::from(s.share_value(co)));
        }
        for co in Company::ALL {
            out.global.push(s.regions_of(co).count() as i64);
        }
        out.global.push(i64::from(s.deck.count_ones()));
        for seat in 0..s.players {
            let Some(p) = s.player(seat) else { continue };
            out.seats.push(i64::from(p.pounds));
            out.seats.push(i64::from(p.diamond));
            out.seats.push(i64::from(p.ink));
            out.seats.push(p.books.len() as i64);
            for co in Company::ALL {
                out.seats.push(i64::from(p.track[co.index()]));
            }
            for co in Company::ALL {
                out.seats.push(i64::from(s.shares(seat, co)));
            }
            out.seats.push(i64::from(p.hand.count_ones()));
            out.seats.push(p.open_slots(s.data()) as i64);
            out.seats.push(i64::from(s.seat_score(seat).total));
        }
    }

    fn data_coverage() -> DataCoverage {
        data::coverage()
    }

    /// A seat's two start tiles are seen by that seat (and the omniscient viewer) only; all
    /// else dealt is public (the deck's order is never dealt: each draw names only the cards
    /// it turns face up).
    fn chance_visible(s: &State, c: &Chance, viewer: Viewer) -> bool {
        let _ = s;
        match c {
            Chance::StartTiles { seat, .. } => viewer.sees(Seat(*seat)),
            _ => true,
        }
    }
}

fn check_options(o: &Options, rules: state::Rules) -> Result<(), MbError> {
    let bad = |why: String| Err(TurnError::BadOptions(why).into());
    if !(2..=4).contains(&o.players) {
        return bad(format!("Mombasa is for 2 to 4 players, not {}", o.players));
    }
    match (o.first_player, rules) {
        (Some(_), state::Rules::V1) => bad(format!(
            "the first_player option needs rules {} or later",
            state::Rules::V2.name()
        )),
        (Some(f), _) if f >= o.players => bad(format!(
            "first_player is a seat, 0 to {}, not {f}",
            o.players - 1
        )),
        _ => Ok(()),
    }
}

impl Notation for Mombasa {
    fn format_move(m: &Move) -> String {
        notation::format_move(m)
    }
    fn parse_move(text: &str) -> Result<Move, NotationError> {
        notation::parse_move(text)
    }
    #[inline(always)]
    fn read_move(text: &str) -> Option<Move> {
        reading::read_move(text)
    }
    fn read_chance(text: &str) -> Option<Chance> {
        reading::read_chance(text)
    }
    fn format_chance(c: &Chance) -> String {
        notation::format_chance(c)
    }
    fn parse_chance(text: &str) -> Result<Chance, NotationError> {
        notation::parse_chance(text)
    }
}
