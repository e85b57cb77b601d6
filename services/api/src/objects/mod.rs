//! The objects queries return — `Game` (`game.rs`), `Position` (`position.rs`),
//! `IndexedPosition` (`indexed.rs`), what a game's journal shows (`journal.rs`: annotations,
//! takebacks, withdrawn entries), a finished game's revisions (`revision.rs`), `Study`
//! (`study.rs`), a finished game's review (`review.rs`: `Game.evaluation`) and `Player` (`player.rs`: a name's games, results and rating history) — and
//! the one way entries are shown (`entries`): as a viewer may see them, numbered by the ply
//! they lead to.
//!
//! Ply numbering, everywhere: position *n* is the game after *n* entries; the entry that turns
//! position *n − 1* into position *n* is entry (or move, or frame) *n*. So the deal is entry 1,
//! `position(ply: 0)` is the game before it, and `playMove(expectedPly: n)` plays entry *n + 1*.

pub(crate) mod branch;
mod entries;
pub mod evaluation;
pub mod explorer;
mod game;
mod indexed;
pub mod journal;
mod player;
mod position;
pub mod review;
pub mod revision;
mod study;

pub use entries::visible_moves;
pub use game::Game;
pub use indexed::IndexedPosition;
pub use player::Player;
pub use position::Position;
pub use study::StudyObject;
