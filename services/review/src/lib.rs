//! Finished games judged in the background: every position evaluated by the search
//! ([`ai::evaluate_for`], everything known once the game is over), every seat move classed by
//! the win chance it cost ([`ai::judge`]), each seat's accuracy and the game's turning points.
//! A review is derived data, kept in a node-local projection of the store and made again when
//! it is missing or stale (another revision, rules version or evaluator).
//!
//! # Layout
//! - [`record`]: what is kept of a review (per position, every seat's chances and the mover's
//!   best move), its head (game revision, rules and evaluator versions) and its key.
//! - [`run`]: one game reviewed — replayed once, evaluated from the end backwards (a forced
//!   move costs no search).
//! - [`judged`]: a review read as judgements, seat reports (accuracy, counts by class) and
//!   the win-chance graph.
//! - [`export`]: the `evaluations` table (CSV, NDJSON) of a kind's reviewed games.
//! - [`stats`]: each seat's accuracy in the reviewed games beside its result (statistics by
//!   accuracy band, the accuracy chart).
//! - [`projection`]: the queue (a game opened in the viewer jumps it), the threads that empty
//!   it, each game's progress, totals for `/metrics`; it resumes after a restart and drops a
//!   review when its game is corrected.

pub mod export;
pub mod judged;
pub mod projection;
pub mod record;
pub mod run;
pub mod stats;

pub use judged::{judgements, seat_reports, Judged, SeatReport};
pub use projection::{Config, Progress, Projection};
pub use record::{Review, EVALUATOR};
pub use run::review_game;

/// Why a game was not reviewed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error("no rules for {0}")]
    NoRules(String),
    #[error("the log does not replay at ply {0}: {1}")]
    Replay(u32, String),
    #[error(transparent)]
    Search(#[from] ai::PlayError),
    #[error("the review could not be encoded: {0}")]
    Encode(String),
    #[error("stopped (the projection closed or the game was corrected)")]
    Stopped,
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
