//! Which games a node counts: the explorer's filters, checked once, then tested per game.

use crate::facts::Facts;
use chrono::{DateTime, Utc};
use std::collections::HashSet;

/// Whose moves are counted, by who entered them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Movers {
    #[default]
    Any,
    /// Moves a bot entered (self-play, a seat given to a bot).
    Bots,
    /// Moves a person entered (a seat's own, a recorder's, an import's).
    People,
}

/// The games and moves a node counts. Empty: every finished game of the kind.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Games that ended at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Games that ended before this time.
    pub until: Option<DateTime<Utc>>,
    /// Games where this player held a seat ("my games").
    pub player: Option<String>,
    /// Moves by a seat whose player is one of these (a rating band, resolved by the caller
    /// from the ratings it keeps).
    pub movers_named: Option<HashSet<String>>,
    pub rules_version: Option<String>,
    pub movers: Movers,
}

/// Why a filter was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    #[error("the date range ends ({until}) before it starts ({since})")]
    EmptyRange { since: String, until: String },
    #[error("a player name is 1 to 64 characters; got {0}")]
    BadPlayer(usize),
}

impl Filter {
    /// Refuses a filter that can match nothing by construction.
    pub fn check(&self) -> Result<(), FilterError> {
        if let (Some(s), Some(u)) = (self.since, self.until) {
            if u < s {
                return Err(FilterError::EmptyRange {
                    since: s.to_rfc3339(),
                    until: u.to_rfc3339(),
                });
            }
        }
        if let Some(p) = &self.player {
            let n = p.chars().count();
            if n == 0 || n > 64 {
                return Err(FilterError::BadPlayer(n));
            }
        }
        Ok(())
    }

    /// Whether a game that ended at `ended` (seconds) is in the date range.
    pub(crate) fn timed(&self, ended: i64) -> bool {
        self.since.is_none_or(|s| ended >= s.timestamp())
            && self.until.is_none_or(|u| ended < u.timestamp())
    }

    /// Whether a move entered by a bot (or not) counts.
    pub(crate) fn by(&self, bot: bool) -> bool {
        match self.movers {
            Movers::Any => true,
            Movers::Bots => bot,
            Movers::People => !bot,
        }
    }

    /// Whether the game counts at all.
    pub(crate) fn game(&self, f: &Facts) -> bool {
        !f.dead
            && self.timed(f.ended)
            && self
                .rules_version
                .as_deref()
                .is_none_or(|v| v == f.rules_version)
            && self
                .player
                .as_deref()
                .is_none_or(|p| f.seats.iter().any(|s| s.player == p))
    }

    /// Whether the move counts, its game counting.
    pub(crate) fn mover(&self, f: &Facts, seat: u8, bot: bool) -> bool {
        self.by(bot)
            && self.movers_named.as_ref().is_none_or(|names| {
                f.seats
                    .get(usize::from(seat))
                    .is_some_and(|s| names.contains(&s.player))
            })
    }
}
