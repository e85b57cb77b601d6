//! A finished game reduced to what statistics need: seats, scores with their breakdown,
//! winners, tags, length and times. Made once when the game finishes, kept as a projection.

use chrono::{DateTime, Utc};
use rules_core::{GameKind, GameState};
use serde::{Deserialize, Serialize};
use store::{GameId, Header};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatSummary {
    pub player: String,
    pub total: i32,
    /// (category, points) in score-sheet order.
    pub breakdown: Vec<(String, i32)>,
    pub won: bool,
    /// Game-defined labels of what this seat did (Five Tribes: `djinn:<slug>` per djinn held).
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub id: GameId,
    pub kind: GameKind,
    pub seats: Vec<SeatSummary>,
    pub plies: u32,
    pub rounds: u32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl GameSummary {
    /// A summary as the `summaries` projection keeps it (postcard).
    pub fn decode(bytes: &[u8]) -> Result<GameSummary, crate::AnalysisError> {
        postcard::from_bytes(bytes).map_err(|e| crate::AnalysisError::BadSummary(e.to_string()))
    }

    /// The summary of a finished game; `None` if `state` is not over.
    pub fn of(header: &Header, state: &dyn GameState) -> Option<GameSummary> {
        let outcome = state.outcome()?;
        let tags = state.tags();
        let seats = outcome
            .scores
            .iter()
            .map(|s| SeatSummary {
                player: header
                    .players
                    .get(s.seat.index())
                    .cloned()
                    .unwrap_or_default(),
                total: s.total,
                breakdown: s
                    .breakdown
                    .iter()
                    .map(|(c, p)| ((*c).to_string(), *p))
                    .collect(),
                won: outcome.winners.contains(&s.seat),
                tags: tags.get(s.seat.index()).cloned().unwrap_or_default(),
            })
            .collect();
        Some(GameSummary {
            id: header.id,
            kind: header.kind,
            seats,
            plies: header.plies,
            rounds: state.round(),
            created_at: header.created_at,
            updated_at: header.updated_at,
        })
    }

    pub fn winners(&self) -> usize {
        self.seats.iter().filter(|s| s.won).count()
    }

    /// Time from creation to the last entry, in milliseconds.
    pub fn wall_millis(&self) -> i64 {
        (self.updated_at - self.created_at).num_milliseconds()
    }
}
