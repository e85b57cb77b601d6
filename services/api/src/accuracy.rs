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
    let mut counts: Vec<u8> = seats.iter().map(|s| s.players).collect();
    counts.sort_unstable();
    counts.dedup();
    let by_player_count = counts
        .into_iter()
        .map(|n| {
            let mut bands = Vec::new();
            let mut from = 0;
            while from < 100 {
                let inside: Vec<&review::stats::SeatAccuracy> = seats
                    .iter()
                    .filter(|s| s.players == n && analysis::charts::band(s.accuracy, width) == from)
                    .collect();
                if !inside.is_empty() {
                    let won: f64 = inside.iter().map(|s| s.won).sum();
                    let wins = inside.iter().filter(|s| s.won > 0.0).count() as u64;
                    let rate = analysis::stats::Rate::new(inside.len() as u64, wins, won);
                    let score = inside.iter().map(|s| s.score).sum::<f64>() / inside.len() as f64;
                    bands.push(AccuracyBand {
                        from,
                        to: (from + width).min(100),
                        win: WinRate::from(&rate),
                        mean_score: analysis::stats::round2(score),
                    });
                }
                from += width;
            }
            AccuracyByPlayers {
                players: u32::from(n),
                bands,
            }
        })
        .collect();
    let mut by: Vec<(String, Vec<i64>)> = Vec::new();
    for s in seats {
        let a = s.accuracy.round() as i64;
        match by.iter_mut().find(|(p, _)| *p == s.player) {
            Some((_, v)) => v.push(a),
            None => by.push((s.player.clone(), vec![a])),
        }
    }
    by.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let by_player = by
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
