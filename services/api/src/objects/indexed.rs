//! `IndexedPosition`: a row of the position index (a finished game's position and its
//! features), as `positions` returns them.

use super::game::Game;
use crate::schema::{app, blocking};
use crate::types::*;
use async_graphql::{Context, Object, Result, ID};

/// A position from the feature index: where it is and its features.
pub struct IndexedPosition {
    pub(crate) row: analysis::positions::PositionRow,
}

#[Object]
impl IndexedPosition {
    async fn game_id(&self) -> ID {
        ID(self.row.game.to_string())
    }
    /// The game, for its players, outcome or the full position (`game { position(ply) }`).
    #[graphql(complexity = "2 + child_complexity")]
    async fn game(&self, ctx: &Context<'_>) -> Result<Game> {
        let id = self.row.game;
        let header = blocking(app(ctx), move |s| Ok(s.header(id)?)).await?;
        Ok(Game::new(header))
    }
    async fn ply(&self) -> u32 {
        self.row.ply
    }
    async fn round(&self) -> i64 {
        self.row.round
    }
    async fn phase(&self) -> &str {
        self.row.phase
    }
    /// The seat to act; null at chance and after the end.
    async fn to_act(&self) -> Option<u8> {
        self.row.to_act
    }
    async fn players(&self) -> u8 {
        self.row.players
    }
    /// The game's global features.
    async fn features(&self) -> Vec<Feature> {
        self.row
            .global
            .iter()
            .map(|(name, value)| Feature {
                name: name.to_string(),
                value: *value,
            })
            .collect()
    }
    async fn seats(&self) -> Vec<SeatFeatures> {
        self.row
            .seats
            .iter()
            .map(|s| SeatFeatures {
                seat: s.seat,
                features: s
                    .values
                    .iter()
                    .map(|(name, value)| Feature {
                        name: name.to_string(),
                        value: *value,
                    })
                    .collect(),
            })
            .collect()
    }
}
