//! `statistics { byAccuracy }` and the `accuracy` chart: the seats of the reviewed games that a
//! statistics filter selects, by accuracy band (win rate with its Wilson interval, mean score)
//! and by player (their accuracy per game). Read from the kept reviews on the blocking pool,
//! one game at a time: linear in the reviewed games the filter selects (a few milliseconds per
//! hundred games), where the other statistics fold kept summaries.
use crate::error::ApiError;
use crate::stats::{Distribution, Statistics, WinRate};
use crate::App;
use async_graphql::{ComplexObject, Context, SimpleObject};
use rules_core::GameKind;
use std::sync::Arc;

/// The seats of the reviewed games of `kind` that `filter` selects, and how many games.
pub fn seats(
    app: &App,
    kind: GameKind,
    filter: &analysis::StatsFilter,
) -> Result<(Vec<review::stats::SeatAccuracy>, u64), ApiError> {
    let ids: Vec<store::GameId> = app
        .analysis
        .summaries()
        .into_iter()
        .filter(|g| g.kind == kind && filter.accepts(g))
        .map(|g| g.id)
        .collect();
    let seats = review::stats::seat_accuracies(&*app.store, &ids)
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut games: Vec<store::GameId> = seats.iter().map(|s| s.game).collect();
    games.dedup();
    Ok((seats, games.len() as u64))
}

/// Accuracy in the games counted.
#[derive(SimpleObject)]
pub struct AccuracyStatistics {
    /// Games counted that have a review (the others are not reviewed yet).
    pub reviewed_games: u64,
    /// Per player count, fewest first: the seats in each accuracy band.
    pub by_player_count: Vec<AccuracyByPlayers>,
    /// Each player's accuracy per game (rounded to whole points), most games first, at most 50.
    pub by_player: Vec<PlayerAccuracy>,
}

#[derive(SimpleObject)]
pub struct AccuracyByPlayers {
    pub players: u32,
    pub bands: Vec<AccuracyBand>,
}

/// The seats whose accuracy in a game was in `[from, to)` (the last band holds 100).
#[derive(SimpleObject)]
pub struct AccuracyBand {
    pub from: u32,
    pub to: u32,
    pub win: WinRate,
    /// To 2 decimals.
    pub mean_score: f64,
}

#[derive(SimpleObject)]
pub struct PlayerAccuracy {
    pub player: String,
    pub accuracy: Distribution,
}

#[ComplexObject]
impl Statistics {
    /// Win rate and mean score by accuracy band (`band` points wide, 10 when not given), and
    /// each player's accuracy, over the counted games that have been reviewed (see
    /// `Game.evaluation`).
    #[graphql(complexity = 500)]
    async fn by_accuracy(
        &self,
        ctx: &Context<'_>,
        band: Option<i32>,
    ) -> async_graphql::Result<AccuracyStatistics> {
        let width = match band {
            None => 10,
            Some(b) if (1..=100).contains(&b) => b as u32,
            Some(b) => {
                return Err(
                    ApiError::BadInput(format!("`band` is 1 to 100 points, not {b}")).into(),
                )
            }
        };
        let app: Arc<App> = crate::schema::app(ctx).clone();
        let (kind, filter) = (self.kind, self.filter.clone());
        let (seats, reviewed) = tokio::task::spawn_blocking(move || seats(&app, kind, &filter))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))??;
        Ok(summarise(&seats, reviewed, width))
    }
}

fn summarise(
    seats: &[review::stats::SeatAccuracy],
    reviewed: u64,
    width: u32,
) -> AccuracyStatistics {
    let rows = chart_rows(seats);
    let mut counts: Vec<u32> = rows.iter().map(|s| s.players).collect();
    counts.sort_unstable();
    counts.dedup();
    let by_player_count = counts
        .into_iter()
        .map(|n| AccuracyByPlayers {
            players: n,
            bands: analysis::charts::bands(&rows, n, width)
                .into_iter()
                .map(|(from, rate)| {
                    let inside: Vec<&review::stats::SeatAccuracy> = seats
                        .iter()
                        .filter(|s| {
                            u32::from(s.players) == n
                                && analysis::charts::band(s.accuracy, width) == from
                        })
                        .collect();
                    let score =
                        inside.iter().map(|s| s.score).sum::<f64>() / inside.len().max(1) as f64;
                    AccuracyBand {
                        from,
                        to: (from + width).min(100),
                        win: WinRate::from(&rate),
                        mean_score: analysis::stats::round2(score),
                    }
                })
                .collect(),
        })
        .collect();
    let by_player = analysis::charts::by_player(&rows)
        .into_iter()
        .take(50)
        .filter_map(|(player, v)| {
            Some(PlayerAccuracy {
                player,
                accuracy: Distribution::from(&analysis::stats::distribution(v)?),
            })
        })
        .collect();
    AccuracyStatistics {
        reviewed_games: reviewed,
        by_player_count,
        by_player,
    }
}

/// The seats as the chart draws them.
pub fn chart_rows(seats: &[review::stats::SeatAccuracy]) -> Vec<analysis::charts::AccuracySeat> {
    seats
        .iter()
        .map(|s| analysis::charts::AccuracySeat {
            players: u32::from(s.players),
            player: s.player.clone(),
            accuracy: s.accuracy,
            won: s.won,
        })
        .collect()
}
