//! Ludolog's analysis: what people learn from many games. Knows no game by name: games expose
//! their outcome breakdown, per-seat tags and position features through `rules_core::GameState`.
//!
//! # Layout
//! - `summary`: a finished game reduced to seats, scores, winners, tags, length and times.
//! - `index`: the summaries, kept as a store projection and in memory; updated when games finish.
//! - `stats`: win rates with Wilson intervals, score distributions, lengths, tie rate;
//!   `stats::aggregate`: the same figures as mergeable sums.
//! - `rollups`: the summaries with their aggregates per kind, player count and month, which
//!   serve `statistics` without a scan when the filter allows.
//! - `exports`: the `games` and `moves` tables as CSV or NDJSON, streamed.
//! - `positions`: the per-ply feature index, CEL filters over it, paging, state-hash lookup.
//! - `ratings`: Weng-Lin (OpenSkill) player ratings per game kind, and one player's history.
//! - `players`: one player's results by game kind and player count.
//! - `charts`: SVG charts of the statistics.

pub mod charts;
pub mod exports;
pub mod index;
pub mod players;
pub mod positions;
pub mod ratings;
mod rollups;
pub mod stats;
pub mod summary;

pub use index::{Analysis, AnalysisError};
pub use stats::{Statistics, StatsFilter};
pub use summary::GameSummary;
