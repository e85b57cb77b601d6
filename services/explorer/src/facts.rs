//! What the explorer keeps of each finished game: who sat where, how each seat did, when it
//! ended and under which rules — what a node's statistics and filters read, by the game's
//! ordinal, without opening the game.

use serde::{Deserialize, Serialize};
use store::{GameId, Header};

/// A finished game as the projection `explorer-games` keeps it (postcard).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Facts {
    pub id: GameId,
    pub revision: u32,
    /// When the game ended: its last entry, seconds since the epoch (UTC).
    pub ended: i64,
    pub rules_version: String,
    pub seats: Vec<SeatFacts>,
    /// Replaced by a correction (a later ordinal holds the game now): its rows are skipped.
    pub dead: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatFacts {
    pub player: String,
    /// The seat's share of the win (ties shared): 1, 1/k for k winners, or 0.
    pub share: f32,
    pub score: i32,
    /// 1 for the best total; seats with equal totals share the better rank.
    pub rank: u8,
}

impl Facts {
    /// The facts of a finished game; `None` while it is not over.
    pub fn of(header: &Header, state: &dyn rules_core::GameState) -> Option<Facts> {
        let outcome = state.outcome()?;
        let winners = outcome.winners.len().max(1) as f32;
        let mut seats: Vec<SeatFacts> = (0..usize::from(state.player_count()))
            .map(|i| SeatFacts {
                player: header.players.get(i).cloned().unwrap_or_default(),
                share: 0.0,
                score: 0,
                rank: 0,
            })
            .collect();
        for s in &outcome.scores {
            if let Some(f) = seats.get_mut(s.seat.index()) {
                f.score = s.total;
                if outcome.winners.contains(&s.seat) {
                    f.share = 1.0 / winners;
                }
            }
        }
        let totals: Vec<i32> = seats.iter().map(|s| s.score).collect();
        for (i, f) in seats.iter_mut().enumerate() {
            let better = totals.iter().filter(|&&t| t > totals[i]).count();
            f.rank = u8::try_from(better + 1).unwrap_or(u8::MAX);
        }
        Some(Facts {
            id: header.id,
            revision: header.revision,
            ended: header.updated_at.timestamp(),
            rules_version: header.rules_version.clone(),
            seats,
            dead: false,
        })
    }
}
