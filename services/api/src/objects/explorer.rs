//! The explorer of decisions in the API: `Position.explorer` (the node of any position of any
//! game, finished or in play) and `Query.explorer` (a node by its hash). Counts come from
//! finished games only (crate `explorer`); the keys are made from what a spectator knows, so
//! asking from a game in play tells nothing of its secrets.

use crate::error::ApiError;
use crate::schema::{app, blocking};
use crate::types::GameKind;
use async_graphql::{Context, Enum, InputObject, Object, Result, SimpleObject};
use chrono::{DateTime, Utc};
use explorer::{By, Filter, MoveStats, Movers};
use rules_core::{Actor, Seat, Viewer};
use std::collections::HashSet;

/// How a node is found: by the line of decisions from the start (games of any setup that
/// opened alike meet: the default), or by the public position (transpositions merge, within
/// games of the same setup).
#[derive(Enum, Copy, Clone, Eq, PartialEq, Debug, Default)]
pub enum ExplorerKey {
    #[default]
    Line,
    Position,
}

impl From<ExplorerKey> for By {
    fn from(k: ExplorerKey) -> By {
        match k {
            ExplorerKey::Line => By::Line,
            ExplorerKey::Position => By::Position,
        }
    }
}

/// Whose moves a node counts.
#[derive(Enum, Copy, Clone, Eq, PartialEq, Debug, Default)]
pub enum ExplorerMovers {
    #[default]
    Any,
    Bots,
    People,
}

/// Which finished games and moves a node counts.
#[derive(InputObject, Default)]
pub struct ExplorerFilterInput {
    /// Games that ended at or after.
    pub since: Option<DateTime<Utc>>,
    /// Games that ended before.
    pub until: Option<DateTime<Utc>>,
    /// Games where this player held a seat ("my games").
    pub player: Option<String>,
    /// Moves by players whose rating (`ratings`' μ, as it is now) is at least this.
    pub rating_min: Option<f64>,
    /// … and below this.
    pub rating_max: Option<f64>,
    /// Games played under this rules version (e.g. `mombasa/4`).
    pub rules_version: Option<String>,
    pub movers: Option<ExplorerMovers>,
}

/// A node of the explorer and the moves played from it, most played first.
#[derive(SimpleObject)]
#[graphql(complex)]
pub struct ExplorerNode {
    pub kind: GameKind,
    pub players: u8,
    pub by: ExplorerKey,
    /// The node's key, 16 hex digits: `explorer(kind, players, hash, by)` finds it again.
    pub hash: String,
    /// Finished games (that the filter counts) that reached the node.
    pub games: u32,
    #[graphql(skip)]
    pub moves: Vec<MoveStats>,
}

#[async_graphql::ComplexObject]
impl ExplorerNode {
    /// The moves played from here: `first` up to 100 (20 when not given).
    async fn moves(&self, first: Option<i32>) -> Result<Vec<ExplorerMove>> {
        let n = first.unwrap_or(20);
        if !(0..=100).contains(&n) {
            return Err(ApiError::LimitExceeded(format!("first is 0 to 100, not {n}")).into());
        }
        Ok(self
            .moves
            .iter()
            .take(n as usize)
            .map(|m| ExplorerMove { m: m.clone() })
            .collect())
    }
}

/// The reviews' verdict on a move of the explorer.
#[derive(SimpleObject)]
pub struct ExplorerEvaluation {
    /// Games among the latest that played it with a current review.
    pub reviewed: u32,
    /// The mover's win chance right after the move, averaged over them.
    pub mean_win_chance: f64,
}

/// A move played from a node, and how it went for the seats that played it.
pub struct ExplorerMove {
    m: MoveStats,
}

#[Object]
impl ExplorerMove {
    /// The move's notation.
    async fn notation(&self) -> &str {
        &self.m.notation
    }
    /// The move in words, as the last game to play it shows it.
    async fn words(&self, ctx: &Context<'_>) -> Result<String> {
        let (id, ply, seat, text) = (
            self.m.last_game,
            self.m.last_ply,
            self.m.last_seat,
            self.m.notation.clone(),
        );
        Ok(blocking(app(ctx), move |store| {
            let s = store.state_at(id, ply)?;
            Ok(s.describe(Actor::Seat(Seat(seat)), &text, Viewer::Omniscient))
        })
        .await?)
    }
    async fn games(&self) -> u32 {
        self.m.games
    }
    /// The movers' wins, a tie counting its share.
    async fn wins(&self) -> f64 {
        self.m.wins
    }
    async fn win_rate(&self) -> f64 {
        self.m.win_rate
    }
    /// The Wilson 95 % interval of the win rate.
    async fn low(&self) -> f64 {
        self.m.low
    }
    async fn high(&self) -> f64 {
        self.m.high
    }
    /// The movers' mean final score.
    async fn mean_score(&self) -> f64 {
        self.m.mean_score
    }
    /// The movers' mean final rank (1 best; equal totals share the better rank).
    async fn mean_rank(&self) -> f64 {
        self.m.mean_rank
    }
    /// The evaluation's view of the move: the mover's win chance after it, averaged over the
    /// reviews of the latest games that played it (up to 32; `reviewed` says how many had a
    /// current review). Null when none had.
    #[graphql(complexity = 20)]
    async fn evaluation(&self, ctx: &Context<'_>) -> Result<Option<ExplorerEvaluation>> {
        let recent = self.m.recent.clone();
        Ok(blocking(app(ctx), move |store| {
            let (mut sum, mut n) = (0.0f64, 0u32);
            for (id, ply, seat) in recent {
                let Ok(h) = store.header(id) else { continue };
                let Ok(review::record::Kept::Current(r)) = review::record::read(store, &h) else {
                    continue;
                };
                let after = r.plies.get(ply as usize + 1);
                if let Some(c) = after.and_then(|p| p.seats.get(usize::from(seat))) {
                    sum += f64::from(c.win);
                    n += 1;
                }
            }
            Ok((n > 0).then(|| ExplorerEvaluation {
                reviewed: n,
                mean_win_chance: sum / f64::from(n),
            }))
        })
        .await?)
    }
    /// The game that played it last (latest end): open it at `lastPly` to see it played.
    async fn last_game(&self) -> String {
        self.m.last_game.to_string()
    }
    async fn last_ply(&self) -> u32 {
        self.m.last_ply
    }
}

/// The explorer's filter from the API's, a rating band resolved to the players in it.
async fn filter(
    ctx: &Context<'_>,
    kind: rules_core::GameKind,
    f: Option<ExplorerFilterInput>,
) -> Result<Filter, ApiError> {
    let f = f.unwrap_or_default();
    let movers_named = if f.rating_min.is_some() || f.rating_max.is_some() {
        let (lo, hi) = (
            f.rating_min.unwrap_or(f64::MIN),
            f.rating_max.unwrap_or(f64::MAX),
        );
        if lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) {
            return Err(ApiError::BadInput(format!(
                "the rating band is empty: ratingMin {lo} is not below ratingMax {hi}"
            )));
        }
        let analysis = app(ctx).analysis.clone();
        let ratings = tokio::task::spawn_blocking(move || analysis.ratings(kind))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        Some(
            ratings
                .into_iter()
                .filter(|r| r.rating >= lo && r.rating < hi)
                .map(|r| r.player)
                .collect::<HashSet<String>>(),
        )
    } else {
        None
    };
    let filter = Filter {
        since: f.since,
        until: f.until,
        player: f.player,
        movers_named,
        rules_version: f.rules_version,
        movers: match f.movers.unwrap_or_default() {
            ExplorerMovers::Any => Movers::Any,
            ExplorerMovers::Bots => Movers::Bots,
            ExplorerMovers::People => Movers::People,
        },
    };
    filter
        .check()
        .map_err(|e| ApiError::BadInput(e.to_string()))?;
    Ok(filter)
}

/// The node `key` of `kind` with `players` seats; `NOT_FOUND` when `must_exist` and no
/// finished game reached it.
pub async fn node(
    ctx: &Context<'_>,
    kind: rules_core::GameKind,
    players: u8,
    by: ExplorerKey,
    key: u64,
    f: Option<ExplorerFilterInput>,
    must_exist: bool,
) -> Result<ExplorerNode, ApiError> {
    // A node's key is keyed with the state-hash key: another key's would find nothing.
    app(ctx).hashes_served()?;
    let filter = filter(ctx, kind, f).await?;
    let analysis = app(ctx).analysis.clone();
    let node = tokio::task::spawn_blocking(move || {
        analysis
            .explorer()
            .node(kind, players, by.into(), key, &filter)
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))??;
    if must_exist && !node.stored {
        return Err(ApiError::NotFound(format!(
            "no finished game of {kind} with {players} players reached node {key:016x} (by {by:?})"
        )));
    }
    Ok(ExplorerNode {
        kind: kind.into(),
        players,
        by,
        hash: format!("{key:016x}"),
        games: node.games,
        moves: node.moves,
    })
}

/// A node's key from its text: 16 hex digits.
pub fn parse_hash(hash: &str) -> Result<u64, ApiError> {
    if hash.len() != 16 {
        return Err(ApiError::BadInput(format!(
            "a node hash is 16 hex digits, as `ExplorerNode.hash` gives it; got {} characters",
            hash.chars().count()
        )));
    }
    u64::from_str_radix(hash, 16)
        .map_err(|_| ApiError::BadInput(format!("`{hash}` is not 16 hex digits")))
}

/// The key of a game's position after `ply` entries, by line or by position.
pub async fn key_of(
    ctx: &Context<'_>,
    header: &store::Header,
    ply: u32,
    state: &dyn rules_core::GameState,
    by: ExplorerKey,
) -> Result<u64, ApiError> {
    let key = app(ctx).analysis.explorer().key();
    match by {
        ExplorerKey::Position => Ok(state.public_hash(key)),
        ExplorerKey::Line => {
            let header = header.clone();
            blocking(app(ctx), move |store| {
                let entries = store.entries(header.id, 0, ply)?;
                let rules = store
                    .registry()
                    .get(header.kind)
                    .ok_or_else(|| ApiError::Internal(format!("no rules for {}", header.kind)))?;
                Ok(explorer::line_at(rules, &header, &entries, key)?)
            })
            .await
        }
    }
}
