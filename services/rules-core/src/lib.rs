//! The reducer contract shared by every Ludolog game.
//!
//! A game is a pure, deterministic reducer: a state, the moves a seat may make, the chance
//! outcomes the table supplies, and the final outcome. This crate fixes that contract
//! ([`Game`]) and the small vocabulary around it, so that the store, the API and the analysis
//! code can treat Five Tribes, Clans of Caledonia and Mombasa alike.
//!
//! Nothing here does I/O, reads a clock or owns randomness: chance enters a game only as an
//! explicit outcome ([`Game::resolve`]), sampled by the [`Dealer`] from a seed or typed in
//! from a real table.
//!
//! # Layout
//! - [`ids`]: `Seat`, `Ply`, `GameKind`, `Actor`, `Viewer` — small newtypes with text forms.
//! - [`game`]: the [`Game`] trait, [`ToAct`], move buffers.
//! - [`features`]: named position features for position queries; data coverage.
//! - [`copy_list`]: [`CopyList`], a short list that is `Copy` (no drop glue in a position's
//!   hot parts), read and written as an `ArrayVec`.
//! - [`kept`]: [`Kept`], a value worked out from a position and kept beside it, outside it;
//!   [`Memo`], a small answer kept once asked for.
//! - [`outcome`]: per-seat scores with a breakdown by category, and winners (ties share).
//! - [`error`]: errors every game shares (wrong actor, game over, bad notation).
//! - [`notation`]: short text forms of moves and chance outcomes, and the parsing helpers the
//!   games share on the replay path (words on the stack, component names by hash).
//! - [`dealer`]: the seeded, version-pinned generator that samples chance outcomes.
//! - [`contract`]: the `Game` contract checked over a recorded game, for property tests.
//! - [`determinize`]: [`Game::determinize`] checked at a position, for property tests.
//! - [`playout`]: a generic random-playout driver for tests, simulation and benchmarks.
//! - [`replay`]: a recorded log replayed from its notation text (what a store does to rebuild
//!   a position) or from parsed actions, without a store; what the replay benchmarks measure.
//! - [`presentation`]: a game's view schema, board layout and entries in words.
//! - [`erased`]: games as trait objects speaking notation and JSON, for the store and the API.
//! - [`state_hash`]: the keyed hash of a state, streamed from its serialisation, or of the
//!   bytes a game writes by hand ([`state_hash::HashBytes`]).

pub mod contract;
pub mod copy_list;
pub mod dealer;
pub mod determinize;
pub mod erased;
pub mod error;
pub mod features;
pub mod game;
pub mod ids;
pub mod kept;
pub mod notation;
pub mod outcome;
pub mod playout;
pub mod presentation;
pub mod replay;
pub mod state_hash;

pub use copy_list::CopyList;
pub use dealer::{ChanceRng, Dealer};
pub use erased::{typed, EntryError, Erased, GameRules, GameState, Registry};
pub use error::{NotationError, RuleViolation, TurnError};
pub use features::{DataCoverage, FeatureSchema, Features};
pub use game::{Action, Game, MoveBuf, ToAct};
pub use ids::{Actor, GameKind, ParseIdError, Ply, Seat, Viewer};
pub use kept::{Kept, Memo};
pub use notation::Notation;
pub use outcome::{Outcome, SeatScore};
pub use playout::{playout, Playout, PlayoutError};
pub use presentation::Presentation;
