//! Move notation: the short, stable text that logs, exports and the API carry.
//!
//! Stored games are text, not Rust values, so a refactor of a game's types can never make an
//! old log unreadable. Every game documents its notation in `schema/notation/<game>.md` and
//! tests `parse(format(m)) == m` for every legal move.

use crate::error::NotationError;
use crate::game::Game;

pub trait Notation: Game {
    fn format_move(m: &Self::Move) -> String;
    fn parse_move(text: &str) -> Result<Self::Move, NotationError>;
    fn format_chance(c: &Self::Chance) -> String;
    fn parse_chance(text: &str) -> Result<Self::Chance, NotationError>;
}
