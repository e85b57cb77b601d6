//! `Player`: everything one name did — its games (the store's `by_player` listing), its results
//! by game kind and player count, and its rating history — for the player pages
//! (`/players/{name}`).
//!
//! Results and ratings come from the analysis (`analysis::players`, `analysis::ratings`): the
//! history is the very walk `ratings` makes, kept for this one player and computed on request
//! (nothing is stored per player; a request walks the kind's finished games once, as `ratings`
//! does), and at most the last [`MAX_RATING_POINTS`] points are sent.

use crate::error::ApiError;
use crate::schema::{app, games_filter, list_games};
use crate::types::{GameKind, GameStatus, PlayerRating};
use async_graphql::connection::{Connection, EmptyFields};
use async_graphql::{Context, Object, Result, SimpleObject, ID};
use chrono::{DateTime, Utc};

/// Most points `ratingHistory` gives (the last ones), and its default.
pub const MAX_RATING_POINTS: usize = 1000;

/// A name that has a seat in at least one game.
pub struct Player {
    pub(crate) name: String,
}

/// A player's results in one kind of game. Figures count seats, as `ratings` does (a name at
/// two seats of one game counts both); the headline figures are over games against others
/// (two seats or more: the rated games), solo games are counted apart and shown by player
/// count. Shared wins are wins. Rates to 4 decimals, means to 2.
#[derive(SimpleObject)]
pub struct PlayerKindResult {
    pub kind: GameKind,
    /// Finished games against others (two seats or more).
    pub games: u64,
    /// Of those, games won (shared wins included).
    pub wins: u64,
    /// Of those wins, the ones shared with another seat.
    pub shared_wins: u64,
    /// `wins / games`; null without such games.
    pub win_rate: Option<f64>,
    pub mean_score: Option<f64>,
    /// Mean place (1 is first; tied seats share the better place).
    pub mean_rank: Option<f64>,
    /// Finished solo games.
    pub solo_games: u64,
    /// The rating now (what `ratings` lists for this player); null before a rated game.
    pub rating: Option<PlayerRating>,
    /// The same figures for each number of seats, fewest first (solo games included).
    pub by_player_count: Vec<PlayerCountResult>,
}

/// A player's results in the games of one kind with one number of seats.
#[derive(SimpleObject)]
pub struct PlayerCountResult {
    pub players: u32,
    pub games: u64,
    pub wins: u64,
    pub shared_wins: u64,
    pub win_rate: Option<f64>,
    pub mean_score: Option<f64>,
    pub mean_rank: Option<f64>,
}

/// A player's rating right after one of their finished, rated games.
#[derive(SimpleObject)]
pub struct RatingPoint {
    pub game_id: ID,
    /// When the game ended (its last entry).
    pub ended_at: DateTime<Utc>,
    /// Estimated skill (μ).
    pub rating: f64,
    /// Uncertainty (σ).
    pub uncertainty: f64,
    /// μ − 3σ, what `ratings` orders by.
    pub ordinal: f64,
    /// Seats rated so far, this game's included.
    pub games: u64,
}

fn rating(r: analysis::ratings::PlayerRating) -> PlayerRating {
    PlayerRating {
        player: r.player,
        rating: r.rating,
        uncertainty: r.uncertainty,
        ordinal: r.ordinal,
        games: r.games,
    }
}

fn count_result(players: usize, f: analysis::players::Figures) -> PlayerCountResult {
    PlayerCountResult {
        players: players as u32,
        games: f.games,
        wins: f.wins,
        shared_wins: f.shared_wins,
        win_rate: f.win_rate,
        mean_score: f.mean_score,
        mean_rank: f.mean_rank,
    }
}

#[Object]
impl Player {
    async fn name(&self) -> &str {
        &self.name
    }

    /// The player's games, newest first, filtered by kind and status (Relay connection; the
    /// cursor is a game id), as `games(player:)` lists them.
    #[graphql(complexity = "first.unwrap_or(20).max(0) as usize * child_complexity + 2")]
    async fn games(
        &self,
        ctx: &Context<'_>,
        kind: Option<GameKind>,
        status: Option<GameStatus>,
        first: Option<i32>,
        after: Option<String>,
    ) -> Result<Connection<String, super::Game, EmptyFields, EmptyFields>> {
        let filter = games_filter(kind, status, Some(self.name.clone()));
        list_games(app(ctx), filter, first, after).await
    }

    /// Results in each kind of game the player has finished a game of, in the order `rules`
    /// lists the kinds.
    #[graphql(complexity = "50 + child_complexity")]
    async fn results(&self, ctx: &Context<'_>) -> Result<Vec<PlayerKindResult>> {
        let analysis = app(ctx).analysis.clone();
        let name = self.name.clone();
        let results = tokio::task::spawn_blocking(move || analysis.player_results(&name))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(results
            .into_iter()
            .map(|k| PlayerKindResult {
                kind: k.kind.into(),
                games: k.figures.games,
                wins: k.figures.wins,
                shared_wins: k.figures.shared_wins,
                win_rate: k.figures.win_rate,
                mean_score: k.figures.mean_score,
                mean_rank: k.figures.mean_rank,
                solo_games: k.solo_games,
                rating: k.rating.map(rating),
                by_player_count: k
                    .by_player_count
                    .into_iter()
                    .map(|(n, f)| count_result(n, f))
                    .collect(),
            })
            .collect())
    }

    /// The player's rating in `kind` after each of their finished games against others,
    /// oldest first: the last `last` of them (1000 at most, and by default). The last point
    /// is the rating `ratings(kind:)` lists for them; empty before their first rated game.
    #[graphql(complexity = "50 + child_complexity")]
    async fn rating_history(
        &self,
        ctx: &Context<'_>,
        kind: GameKind,
        last: Option<i32>,
    ) -> Result<Vec<RatingPoint>> {
        let last = match last {
            None => MAX_RATING_POINTS,
            Some(n) if (0..=MAX_RATING_POINTS as i64).contains(&i64::from(n)) => n as usize,
            Some(n) => {
                return Err(ApiError::LimitExceeded(format!(
                    "`last` is 0 to {MAX_RATING_POINTS}, not {n}"
                ))
                .into())
            }
        };
        let analysis = app(ctx).analysis.clone();
        let name = self.name.clone();
        let (points, _) =
            tokio::task::spawn_blocking(move || analysis.rating_history(kind.into(), &name, last))
                .await
                .map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(points
            .into_iter()
            .map(|p| RatingPoint {
                game_id: ID(p.game.to_string()),
                ended_at: p.ended_at,
                rating: p.rating,
                uncertainty: p.uncertainty,
                ordinal: p.ordinal,
                games: p.games,
            })
            .collect())
    }
}
