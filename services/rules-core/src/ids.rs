//! Identifiers with a stable text form: seats, plies, game kinds, actors, viewers.
//!
//! Each has `Display` and `FromStr` that round-trip, because logs, exports and the API carry
//! them as text and a Rust refactor must never change what stored games say.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A text form that does not name an id of the expected kind.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{text}` is not a valid {what}")]
pub struct ParseIdError {
    pub what: &'static str,
    pub text: String,
}

impl ParseIdError {
    fn new(what: &'static str, text: &str) -> Self {
        // Keep error messages bounded even for hostile input.
        let text: String = text.chars().take(64).collect();
        ParseIdError { what, text }
    }
}

/// A player's place at the table, counted from 0. Text form: `0`, `1`, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Seat {
    type Err = ParseIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseIdError::new("seat", s));
        }
        s.parse::<u8>()
            .map(Seat)
            .map_err(|_| ParseIdError::new("seat", s))
    }
}

/// The number of entries applied to a game so far; entry `n` moves the game from ply `n` to
/// ply `n + 1`. Ply 0 is the state before the initial deal.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Ply(pub u32);

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Ply {
    type Err = ParseIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseIdError::new("ply", s));
        }
        s.parse::<u32>()
            .map(Ply)
            .map_err(|_| ParseIdError::new("ply", s))
    }
}

/// The games Ludolog knows. Text form: `five-tribes`, `clans-of-caledonia`, `mombasa`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    FiveTribes,
    ClansOfCaledonia,
    Mombasa,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [
        GameKind::FiveTribes,
        GameKind::ClansOfCaledonia,
        GameKind::Mombasa,
    ];

    /// The kind's name as a type-name prefix (`FiveTribes`, `Caledonia`, `Mombasa`): the
    /// GraphQL types of its views are named after it (`FiveTribesView`).
    pub const fn type_prefix(self) -> &'static str {
        match self {
            GameKind::FiveTribes => "FiveTribes",
            GameKind::ClansOfCaledonia => "Caledonia",
            GameKind::Mombasa => "Mombasa",
        }
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            GameKind::FiveTribes => "five-tribes",
            GameKind::ClansOfCaledonia => "clans-of-caledonia",
            GameKind::Mombasa => "mombasa",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameKind {
    type Err = ParseIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| ParseIdError::new("game kind", s))
    }
}

/// Who produced a log entry: a seat's decision or the dealer's chance outcome.
/// Text form: the seat number, or `dealer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Actor {
    Seat(Seat),
    Dealer,
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Seat(s) => s.fmt(f),
            Actor::Dealer => f.write_str("dealer"),
        }
    }
}

impl FromStr for Actor {
    type Err = ParseIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "dealer" {
            return Ok(Actor::Dealer);
        }
        s.parse::<Seat>()
            .map(Actor::Seat)
            .map_err(|_| ParseIdError::new("actor", s))
    }
}

/// Who is looking at a position: a seat (sees its own secrets), a spectator (public table
/// only), or — for a finished game only, where nothing is secret any more — the omniscient
/// viewer, who sees every seat's secrets as they stood at that ply. Text form: the seat number,
/// `spectator` or `omniscient`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
    Omniscient,
}

impl Viewer {
    /// Whether this viewer may see `seat`'s secrets.
    pub fn sees(self, seat: Seat) -> bool {
        match self {
            Viewer::Seat(s) => s == seat,
            Viewer::Spectator => false,
            Viewer::Omniscient => true,
        }
    }
}

impl fmt::Display for Viewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Viewer::Seat(s) => s.fmt(f),
            Viewer::Spectator => f.write_str("spectator"),
            Viewer::Omniscient => f.write_str("omniscient"),
        }
    }
}

impl FromStr for Viewer {
    type Err = ParseIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "spectator" => return Ok(Viewer::Spectator),
            "omniscient" => return Ok(Viewer::Omniscient),
            _ => {}
        }
        s.parse::<Seat>()
            .map(Viewer::Seat)
            .map_err(|_| ParseIdError::new("viewer", s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn text_forms_round_trip() {
        for k in GameKind::ALL {
            assert_eq!(k.to_string().parse::<GameKind>(), Ok(k));
        }
        for a in [Actor::Dealer, Actor::Seat(Seat(0)), Actor::Seat(Seat(3))] {
            assert_eq!(a.to_string().parse::<Actor>(), Ok(a));
        }
        for v in [Viewer::Spectator, Viewer::Omniscient, Viewer::Seat(Seat(2))] {
            assert_eq!(v.to_string().parse::<Viewer>(), Ok(v));
        }
        assert_eq!("17".parse::<Ply>(), Ok(Ply(17)));
        assert_eq!(Ply(17).to_string(), "17");
    }

    #[test]
    fn bad_text_is_a_typed_error() {
        assert!("".parse::<Seat>().is_err());
        assert!("-1".parse::<Seat>().is_err());
        assert!("+1".parse::<Ply>().is_err());
        assert!("999".parse::<Seat>().is_err());
        assert!("chess".parse::<GameKind>().is_err());
        let e = "x".repeat(1000).parse::<Actor>().unwrap_err();
        assert!(e.text.len() <= 64);
    }

    proptest! {
        #[test]
        fn parsing_never_panics(s in ".{0,40}") {
            let _ = s.parse::<Seat>();
            let _ = s.parse::<Ply>();
            let _ = s.parse::<GameKind>();
            let _ = s.parse::<Actor>();
            let _ = s.parse::<Viewer>();
        }

        #[test]
        fn seat_round_trips(n in 0u8..100) {
            prop_assert_eq!(Seat(n).to_string().parse::<Seat>(), Ok(Seat(n)));
        }
    }
}
