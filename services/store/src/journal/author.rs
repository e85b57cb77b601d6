//! Who writes a journal's notes ([`Author`]) and the judgements of moves they may give
//! ([`Glyph`]), with their text forms.

use rules_core::Seat;
use serde::{Deserialize, Serialize};

/// Who wrote a note.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Author {
    /// A seat, with its own token.
    Seat(Seat),
    /// The game's recorder.
    Recorder,
    /// An analyst with an annotation token, by the name the server gives that token.
    Analyst(String),
    /// The server's admin.
    Admin,
    /// Written in an imported record or game text (its `#` comments).
    Imported,
}

impl std::fmt::Display for Author {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Author::Seat(s) => write!(f, "{}", s.0),
            Author::Recorder => f.write_str("recorder"),
            Author::Analyst(n) => write!(f, "analyst:{n}"),
            Author::Admin => f.write_str("admin"),
            Author::Imported => f.write_str("imported"),
        }
    }
}

impl std::str::FromStr for Author {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "recorder" => Ok(Author::Recorder),
            "admin" => Ok(Author::Admin),
            "imported" => Ok(Author::Imported),
            _ => match s.strip_prefix("analyst:") {
                Some(n) if !n.is_empty() => Ok(Author::Analyst(n.to_string())),
                _ => s.parse::<u8>().map(|n| Author::Seat(Seat(n))).map_err(|_| {
                    format!(
                        "`{s}`: a seat number, `recorder`, `analyst:NAME`, `admin` or `imported`"
                    )
                }),
            },
        }
    }
}

impl Serialize for Author {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Author {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A judgement of a move, as chess writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Glyph {
    /// `!`
    #[serde(rename = "!")]
    Good,
    /// `?`
    #[serde(rename = "?")]
    Mistake,
    /// `!!`
    #[serde(rename = "!!")]
    Brilliant,
    /// `??`
    #[serde(rename = "??")]
    Blunder,
    /// `!?`
    #[serde(rename = "!?")]
    Interesting,
    /// `?!`
    #[serde(rename = "?!")]
    Dubious,
}

impl Glyph {
    pub const ALL: [Glyph; 6] = [
        Glyph::Brilliant,
        Glyph::Blunder,
        Glyph::Interesting,
        Glyph::Dubious,
        Glyph::Good,
        Glyph::Mistake,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Glyph::Good => "!",
            Glyph::Mistake => "?",
            Glyph::Brilliant => "!!",
            Glyph::Blunder => "??",
            Glyph::Interesting => "!?",
            Glyph::Dubious => "?!",
        }
    }

    pub fn parse(s: &str) -> Option<Glyph> {
        Glyph::ALL.into_iter().find(|g| g.as_str() == s)
    }
}
