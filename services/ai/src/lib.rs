//! Players that play well without seeing what their seat cannot: information-set Monte Carlo
//! tree search (Cowling, Powley & Whitehouse, IEEE TCIAIG 2012) over any game of the
//! [`rules_core::Game`] contract, with pluggable rollout policies, bots named by a short spec
//! (`random`, `greedy`, `mcts:1000`, `mcts:4000:greedy`) and an arena that plays them in
//! rotated seats.
//!
//! The search knows a game only through its contract: `determinize` (the one place hidden
//! information is sampled, from the searcher's own view), `legal_moves`, `play`,
//! `sample_chance`/`resolve` for chance, `outcome` and `scores`. Its budget is a number of
//! iterations, never wall time, and every random choice comes from a seeded stream, so a
//! search is a pure function of the position, the seat, the budget and the seed.
//!
//! # Layout
//! - [`spec`]: [`BotSpec`], what a bot is (parsed from its text form), and its errors.
//! - [`mcts`]: the search (single-observer ISMCTS with availability counts and progressive
//!   widening for long move lists).
//! - [`policy`]: rollout policies — uniform random, and greedy (prefers what scores now).
//! - [`reward`]: an outcome as a reward per seat (wins shared, a little for the score; a solo
//!   game's score placed among those the search has seen).
//! - [`evaluate`]: a position's evaluation for one viewer — per seat the win chance with
//!   its interval, expected score and rank; the best moves of the seat to act.
//! - [`judge`]: moves judged by the win chance they cost — the classes and their thresholds,
//!   a move's and a game's accuracy, turning points; the one place they are defined.
//! - [`calibrate`]: raw win chances to probabilities (an isotonic fit), and the figures
//!   that judge a forecast (reliability by decile, calibration error, Brier skill).
//! - [`arena`]: games between bots, seats rotated; per bot, wins with a Wilson interval.
//! - [`erased`]: [`Players`], bots for code holding games as trait objects (the service).

pub mod arena;
pub mod calibrate;
pub mod erased;
pub mod evaluate;
pub mod judge;
pub mod mcts;
pub mod policy;
pub mod reward;
pub mod spec;

pub use arena::{arena, play_game, ArenaError, ArenaReport, BotResult};
pub use erased::{Ask, PlayError, Players};
pub use evaluate::{evaluate, evaluate_for, Evaluation, Judge, MoveOutlook, SeatOutlook};
pub use mcts::{search, SearchConfig, SearchStats};
pub use policy::Rollout;
pub use spec::{BotError, BotSpec, MAX_ITERATIONS};
