//! `Position.evaluation` and `Position.bestMoves`: a position judged by the search
//! (`ai::evaluate`) for the perspective the caller may take — per seat its chance to win with
//! an interval, its expected score and rank, and the seat to act's best moves.
//!
//! An evaluation is CPU work, so it is bounded three ways: its iterations (at most the
//! server's `--bot-max-iterations`), how many run at once (`--eval-threads` permits, and one at
//! a time per client: `crate::evaluation_slots`), and how many one request may
//! ask for (each costs [`COST`] complexity points). It runs on the blocking pool, never on a
//! request thread. The seed is the game's id and the ply, so the same position, perspective
//! and budget always give the same figures. One position computes each (perspective,
//! budget) once, however many of its fields ask.
use crate::error::ApiError;
use crate::schema::app;
use async_graphql::{Context, Object, SimpleObject};
use rules_core::{Actor, GameState, Viewer};
use std::sync::Arc;
use store::Header;

/// Iterations when the request names none.
pub const DEFAULT_ITERATIONS: u32 = 1_000;
/// Most best moves an evaluation keeps.
pub const MAX_BEST: usize = 10;
/// Complexity points of one evaluation (the request limit is 10,000: five a request).
pub const COST: usize = 2_000;

/// What one evaluation was asked: a perspective and a budget.
type Key = (Viewer, u32);

/// The evaluations a position has computed, by perspective and budget.
#[derive(Default)]
pub struct Evaluations(tokio::sync::Mutex<Vec<(Key, Arc<ai::Evaluation<String>>)>>);

impl Evaluations {
    /// The evaluation of `state` for `viewer` at `iterations`, computed once.
    pub async fn get(
        &self,
        ctx: &Context<'_>,
        header: &Header,
        ply: u32,
        state: &Arc<Box<dyn GameState>>,
        viewer: Viewer,
        iterations: Option<i32>,
    ) -> Result<Arc<ai::Evaluation<String>>, ApiError> {
        let app = app(ctx);
        let max = app.config.bots.max_iterations;
        let iterations = match iterations {
            None => DEFAULT_ITERATIONS.min(max),
            Some(n) if n < 1 => {
                return Err(ApiError::BadInput(format!(
                    "`iterations` is 1 or more, not {n}"
                )))
            }
            Some(n) if n as u64 > u64::from(max) => {
                return Err(ApiError::LimitExceeded(format!(
                    "an evaluation of {n} iterations is over this server's most, {max} (--bot-max-iterations)"
                )))
            }
            Some(n) => n as u32,
        };
        let mut done = self.0.lock().await;
        if let Some((_, e)) = done.iter().find(|(k, _)| *k == (viewer, iterations)) {
            return Ok(e.clone());
        }
        let players = app.config.bots.players.clone().ok_or_else(|| {
            ApiError::LimitExceeded("this server runs no evaluations (no bots)".into())
        })?;
        let client = ctx.data_opt::<crate::evaluation_slots::ClientIp>().copied();
        let permit = app.evaluations.take(client).await?;
        let ask = ai::Ask {
            viewer,
            mover: None,
            played: None,
            playouts: 0,
            raw: false,
            iterations,
            best: MAX_BEST,
            seed: header.id.0 ^ (u64::from(ply) << 40),
        };
        let state = state.clone();
        let e = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            players.evaluate(&**state, &ask)
        })
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
        let e = Arc::new(e);
        done.push(((viewer, iterations), e.clone()));
        Ok(e)
    }
}

/// A position judged by the search, for one perspective.
pub struct Evaluation {
    pub(crate) e: Arc<ai::Evaluation<String>>,
    pub(crate) state: Arc<Box<dyn GameState>>,
    pub(crate) viewer: Viewer,
}

/// One seat's prospects.
#[derive(SimpleObject)]
pub struct SeatOutlook {
    pub seat: u8,
    /// Chance to win, ties shared, from 0 to 1.
    pub win_chance: f64,
    /// The 95 % interval of `winChance` over the playouts behind it (Wilson's).
    pub low: f64,
    pub high: f64,
    pub expected_score: f64,
    /// 1 is first; tied seats share the better rank.
    pub expected_rank: f64,
}

/// A move the search would consider for the seat to act.
#[derive(SimpleObject)]
pub struct BestMove {
    pub seat: u8,
    pub notation: String,
    /// The move in words, as the perspective may know it.
    pub words: String,
    /// The mover's chance to win after it, with its interval, and expected score.
    pub win_chance: f64,
    pub low: f64,
    pub high: f64,
    pub expected_score: f64,
    /// Iterations of the search that tried it.
    pub visits: u32,
}

impl Evaluation {
    pub(crate) fn best(&self, first: Option<i32>) -> Result<Vec<BestMove>, ApiError> {
        let first = match first {
            None => 3,
            Some(n) if (0..=MAX_BEST as i32).contains(&n) => n as usize,
            Some(n) => {
                return Err(ApiError::BadInput(format!(
                    "`first` is 0 to {MAX_BEST}, not {n}"
                )))
            }
        };
        Ok(self
            .e
            .best
            .iter()
            .take(first)
            .map(|m| BestMove {
                seat: m.seat.0,
                words: self.state.describe(Actor::Seat(m.seat), &m.mv, self.viewer),
                notation: m.mv.clone(),
                win_chance: m.win,
                low: m.low,
                high: m.high,
                expected_score: m.score,
                visits: m.visits,
            })
            .collect())
    }
}

#[Object]
impl Evaluation {
    /// Every seat's prospects, in seat order.
    async fn seats(&self) -> Vec<SeatOutlook> {
        self.e
            .seats
            .iter()
            .map(|s| SeatOutlook {
                seat: s.seat.0,
                win_chance: s.win,
                low: s.low,
                high: s.high,
                expected_score: s.score,
                expected_rank: s.rank,
            })
            .collect()
    }
    /// The seat to act's moves the search liked best, most tried first (none once the game is
    /// over or while chance acts); `first` up to 10, 3 when not given.
    async fn best_moves(&self, first: Option<i32>) -> async_graphql::Result<Vec<BestMove>> {
        Ok(self.best(first)?)
    }
    /// Iterations searched (0 for a finished game, whose outcome is exact).
    async fn iterations(&self) -> u32 {
        self.e.iterations
    }
    /// Playouts behind the seats' figures: the iterations through the move the search would
    /// play.
    async fn playouts(&self) -> u32 {
        self.e.playouts
    }
    /// Whether this is the game's final outcome rather than a search's estimate.
    async fn exact(&self) -> bool {
        self.e.exact
    }
    /// Whether the win chances went through the calibration fitted for this game and player
    /// count on held-out self-play (`data/<game>/calibration.json`); when not, they are the
    /// share of the search's own playouts won.
    async fn calibrated(&self) -> bool {
        self.e.calibrated
    }
}
