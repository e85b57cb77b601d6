//! `Query`: rules, games, players, positions, statistics, ratings, position search.

use super::{app, blocking, page, parse_id};
use crate::error::{ApiError, ApiResult};
use crate::objects::{Game, IndexedPosition, Player};
use crate::types::*;
use crate::App;
use async_graphql::connection::{Connection, Edge, EmptyFields};
use async_graphql::{Context, Interface, Object, Result, ID};
use chrono::Utc;
use std::sync::Arc;
use store::{Filter, GameId, Status, StoreError};

/// An object with a global id (Relay): `node(id:)` fetches it.
#[derive(Interface)]
#[graphql(field(name = "id", ty = "ID"))]
pub enum Node {
    Game(Game),
}

/// The game with this id, if there is one.
async fn find_game(app: &Arc<App>, id: GameId) -> ApiResult<Option<Game>> {
    blocking(app, move |s| match s.header(id) {
        Ok(h) => Ok(Some(Game::new(h))),
        Err(StoreError::NotFound(_)) => Ok(None),
        Err(e) => Err(e.into()),
    })
    .await
}

/// Which finished games `statistics` counts.
#[derive(async_graphql::InputObject, Default)]
pub struct StatsFilterInput {
    pub player_count: Option<u32>,
    /// Games where this player had a seat.
    pub player: Option<String>,
    /// Games where a seat had this tag (e.g. `djinn:baal`).
    pub tag: Option<String>,
    /// Created at or after.
    pub since: Option<chrono::DateTime<Utc>>,
    /// Created before.
    pub until: Option<chrono::DateTime<Utc>>,
}

/// Where this node's game logs live, and how far its projections have read them.
#[derive(async_graphql::SimpleObject)]
pub struct StoreStatus {
    /// `sled` (one node's own folder) or `nats-jetstream` (a cluster that nodes share).
    pub backend: String,
    /// On a shared store: the position (stream sequence, in decimal) of the last entry this
    /// node's projections have read; `null` on a store only this node writes.
    pub caught_up_to: Option<String>,
    /// On a shared store: the position of the last entry of the logs.
    pub log_end: Option<String>,
    /// Whether the projections have read every entry: then `statistics`, `ratings` and
    /// position search agree with every other caught-up node.
    pub caught_up: bool,
}

pub struct Query;

#[Object]
impl Query {
    /// Where the game logs live and how far this node's projections have read them.
    async fn store(&self, ctx: &Context<'_>) -> Result<StoreStatus> {
        let store = app(ctx).store.clone();
        let (backend, followed) =
            tokio::task::spawn_blocking(move || (store.backend(), store.followed()))
                .await
                .map_err(|e| ApiError::Internal(e.to_string()))?;
        let followed = followed.map_err(ApiError::Store)?;
        Ok(StoreStatus {
            backend: backend.into(),
            caught_up_to: followed.map(|f| f.read.to_string()),
            log_end: followed.map(|f| f.end.to_string()),
            caught_up: followed.is_none_or(|f| f.read >= f.end),
        })
    }

    /// The games this server plays, with player counts and rules versions.
    async fn rules(&self, ctx: &Context<'_>) -> Vec<RulesInfo> {
        let app = app(ctx);
        app.rules
            .get_or_init(|| app.store.registry().iter().map(RulesInfo::of).collect())
            .clone()
    }

    /// Positions of finished games whose features pass `where`, a CEL expression such as
    /// `round == 3 && seats.exists(s, s.viziers >= 5)` (the names are in `rules.features`),
    /// in (game, ply) order. Served from the per-ply feature index: no game is replayed. A
    /// page examines at most the server's scan budget of positions and says so in `scan`;
    /// resume from `pageInfo.endCursor`. An expression that does not compile or fails is a
    /// BAD_QUERY error with the `line` and `column` it points at.
    #[graphql(complexity = "first.unwrap_or(20).max(0) as usize * child_complexity + 1")]
    async fn positions(
        &self,
        ctx: &Context<'_>,
        kind: GameKind,
        #[graphql(name = "where")] filter: Option<String>,
        first: Option<i32>,
        after: Option<String>,
    ) -> Result<Connection<String, IndexedPosition, PositionScan, EmptyFields>> {
        use analysis::positions::{self, Cursor, Filter, Query};
        let app = app(ctx);
        let first = page(app, first)?;
        if first == 0 {
            // A page must move forward, and the complexity limit counts `first` rows.
            return Err(ApiError::BadInput("`first` must be at least 1".into()).into());
        }
        let kind: rules_core::GameKind = kind.into();
        let after = after
            .map(|a| a.parse::<Cursor>())
            .transpose()
            .map_err(ApiError::from)?;
        let schema = positions::schema(app.store.registry(), kind).map_err(ApiError::from)?;
        let filter = filter
            .map(|f| Filter::compile(&f, schema))
            .transpose()
            .map_err(ApiError::BadQuery)?;
        let budget = app.config.scan_budget;
        let analysis = app.analysis.clone();
        let page = blocking(app, move |_| {
            Ok(positions::page(
                analysis.positions(),
                &Query {
                    kind,
                    filter: filter.as_ref(),
                    after,
                    first,
                    budget,
                },
            )?)
        })
        .await?;
        let mut conn = Connection::with_additional_fields(
            after.is_some(),
            page.next.is_some(),
            PositionScan {
                scanned: page.scanned,
                budget_exhausted: page.budget_exhausted,
                resume_after: page.next.map(|c| c.to_string()),
            },
        );
        let last = page.next;
        let n = page.rows.len();
        conn.edges
            .extend(page.rows.into_iter().enumerate().map(|(i, row)| {
                // The last edge's cursor is where the scan stopped, which may be past the last
                // match: resuming from it skips nothing and rescans nothing.
                let cursor = match last {
                    Some(c) if i + 1 == n => c.to_string(),
                    _ => Cursor {
                        game: row.game,
                        ply: row.ply,
                    }
                    .to_string(),
                };
                Edge::new(cursor, IndexedPosition { row })
            }));
        Ok(conn)
    }

    /// Every finished game and ply whose state has this `stateHash` (as `Position.stateHash`
    /// shows it): the same position reached in different games, or twice in one. A node given
    /// a state-hash key its deployment does not keep answers `HASH_KEY_MISMATCH`.
    #[graphql(complexity = "first.unwrap_or(100).max(0) as usize * child_complexity + 5")]
    async fn positions_by_hash(
        &self,
        ctx: &Context<'_>,
        state_hash: String,
        first: Option<i32>,
    ) -> Result<Vec<PositionHit>> {
        let app = app(ctx);
        app.hashes_served()?;
        let first = page(app, first.or(Some(100)))?;
        let hash = u64::from_str_radix(state_hash.trim(), 16).map_err(|_| {
            ApiError::BadInput(format!(
                "`{state_hash}` is not a state hash (16 hexadecimal digits)"
            ))
        })?;
        let hits = blocking(app, move |store| {
            Ok(analysis::positions::by_hash(store, hash, first)?)
        })
        .await?;
        Ok(hits
            .into_iter()
            .map(|h| PositionHit {
                game_id: ID(h.game.to_string()),
                kind: h.kind.into(),
                ply: h.ply,
            })
            .collect())
    }

    /// A node of the explorer of decisions by its hash (`ExplorerNode.hash`): the moves the
    /// finished games of `kind` with `players` seats played from it. A hash no finished game
    /// reached is `NOT_FOUND`.
    #[graphql(complexity = 50)]
    async fn explorer(
        &self,
        ctx: &Context<'_>,
        kind: GameKind,
        players: u8,
        hash: String,
        by: Option<crate::objects::explorer::ExplorerKey>,
        filter: Option<crate::objects::explorer::ExplorerFilterInput>,
    ) -> Result<crate::objects::explorer::ExplorerNode> {
        use crate::objects::explorer;
        if !(1..=8).contains(&players) {
            return Err(ApiError::BadInput(format!("players is 1 to 8, not {players}")).into());
        }
        let key = explorer::parse_hash(&hash)?;
        let by = by.unwrap_or_default();
        Ok(explorer::node(ctx, kind.into(), players, by, key, filter, true).await?)
    }

    /// Statistics of the finished games of `kind`: per player count (solo games never pool with
    /// multiplayer ones), win rate by seat and by tag, tags grouped (`djinn`, `clan`, `port`),
    /// all with 95% Wilson intervals; score distributions overall and per category; lengths in
    /// plies, rounds and wall time. Filters: player count, a player's name, a tag, and creation
    /// time (`since` inclusive, `until` exclusive). Figures are rounded (rates to 4 decimals,
    /// means to 2). Read from projections kept as games finish: a query never rescans logs.
    #[graphql(complexity = 50)]
    async fn statistics(
        &self,
        ctx: &Context<'_>,
        kind: GameKind,
        filter: Option<StatsFilterInput>,
    ) -> Result<crate::stats::Statistics> {
        let StatsFilterInput {
            player_count,
            player,
            tag,
            since,
            until,
        } = filter.unwrap_or_default();
        let kind: rules_core::GameKind = kind.into();
        let filter = analysis::StatsFilter {
            player_count: player_count.map(|n| n as usize),
            player,
            tag,
            since,
            until,
        };
        // A cache miss computes over every summary (milliseconds): not on the async runtime.
        let analysis = app(ctx).analysis.clone();
        let counted = filter.clone();
        let stats = tokio::task::spawn_blocking(move || analysis.statistics(kind, &filter))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(crate::stats::Statistics::of(&stats, kind, counted))
    }

    /// Player ratings of a game kind (Weng-Lin, as OpenSkill), best first, with games played.
    #[graphql(complexity = "first.unwrap_or(100).max(0) as usize * child_complexity + 20")]
    async fn ratings(
        &self,
        ctx: &Context<'_>,
        kind: GameKind,
        first: Option<i32>,
    ) -> Result<Vec<PlayerRating>> {
        let app = app(ctx);
        let first = page(app, first.or(Some(100)))?;
        let kind: rules_core::GameKind = kind.into();
        let analysis = app.analysis.clone();
        let ratings = tokio::task::spawn_blocking(move || analysis.ratings(kind))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(ratings
            .into_iter()
            .take(first)
            .map(|r| PlayerRating {
                player: r.player,
                rating: r.rating,
                uncertainty: r.uncertainty,
                ordinal: r.ordinal,
                games: r.games,
            })
            .collect())
    }

    /// A game by id: null when there is no such game; a malformed id is a `BAD_INPUT` error.
    /// With `revision`, a finished game as of that revision of its record (`Game.revisions`;
    /// `NOT_FOUND` when it has none such): an answer that never changes, which HTTP caches
    /// may keep for good. Without it, the latest.
    async fn game(&self, ctx: &Context<'_>, id: ID, revision: Option<i32>) -> Result<Option<Game>> {
        let id = parse_id(&id)?;
        let reads = ctx.data_opt::<Arc<crate::http::cache::ReadSet>>();
        let Some(revision) = revision else {
            let game = find_game(app(ctx), id).await?;
            // The answer cache keeps what depends on finished games alone; a correction may
            // still change them (its key follows corrections: see `http::cache`).
            if let Some(reads) = reads {
                match &game {
                    Some(g) if g.header.status == store::Status::Finished => {
                        reads.finished_game();
                        reads.latest_revision();
                    }
                    _ => reads.volatile(),
                }
            }
            return Ok(game);
        };
        let revision = u32::try_from(revision).map_err(|_| {
            ApiError::BadInput(format!("revision {revision}: revisions count from 0"))
        })?;
        let Some(found) = find_game(app(ctx), id).await? else {
            if let Some(reads) = reads {
                reads.volatile();
            }
            return Ok(None);
        };
        if found.header.status != store::Status::Finished {
            return Err(ApiError::Store(StoreError::NotFinished(id)).into());
        }
        let game = Game::pinned(ctx, id, revision).await?;
        if let Some(reads) = reads {
            reads.finished_game();
        }
        Ok(Some(game))
    }

    /// A study by id: null when there is none.
    async fn study(
        &self,
        ctx: &Context<'_>,
        id: ID,
    ) -> Result<Option<crate::objects::StudyObject>> {
        let id = super::journal::parse_study_id(&id)?;
        crate::objects::journal::volatile(ctx);
        let found = blocking(app(ctx), move |s| match s.study(id) {
            Ok(st) => Ok(Some(st)),
            Err(StoreError::NoSuchStudy(_)) => Ok(None),
            Err(e) => Err(e.into()),
        })
        .await?;
        Ok(found.map(crate::objects::StudyObject))
    }

    /// Any object with an id (Relay's `Node`): today, games.
    async fn node(&self, ctx: &Context<'_>, id: ID) -> Result<Option<Node>> {
        let id = parse_id(&id)?;
        Ok(find_game(app(ctx), id).await?.map(Node::Game))
    }

    /// Games, newest first, filtered by kind, status and player (Relay connection; the cursor
    /// is a game id).
    #[graphql(complexity = "first.unwrap_or(20).max(0) as usize * child_complexity + 2")]
    async fn games(
        &self,
        ctx: &Context<'_>,
        kind: Option<GameKind>,
        status: Option<GameStatus>,
        player: Option<String>,
        first: Option<i32>,
        after: Option<String>,
    ) -> Result<Connection<String, Game, EmptyFields, EmptyFields>> {
        list_games(app(ctx), games_filter(kind, status, player), first, after).await
    }

    /// A player by name: their games, results by game kind and rating history (the player
    /// pages, `/players/{name}`). Null when no game has a seat of that name; a name no game
    /// could have (empty, longer than 64 characters, control characters) is a `BAD_INPUT`
    /// error.
    #[graphql(complexity = "5 + child_complexity")]
    async fn player(&self, ctx: &Context<'_>, name: String) -> Result<Option<Player>> {
        store::store::check_name(&name).map_err(ApiError::from)?;
        let filter = games_filter(None, None, Some(name.clone()));
        let page = blocking(app(ctx), move |s| Ok(s.list(&filter, 1, None)?)).await?;
        Ok((!page.games.is_empty()).then_some(Player { name }))
    }
}

/// The store's filter of `games(kind:, status:, player:)`.
pub(crate) fn games_filter(
    kind: Option<GameKind>,
    status: Option<GameStatus>,
    player: Option<String>,
) -> Filter {
    Filter {
        kind: kind.map(rules_core::GameKind::from),
        status: status.map(|s| match s {
            GameStatus::Active => Status::Active,
            GameStatus::Finished => Status::Finished,
        }),
        player,
    }
}

/// A page of the games `filter` accepts, newest first, after the game `after` (a cursor, which
/// is a game id): `games` and `Player.games`.
pub(crate) async fn list_games(
    app: &Arc<App>,
    filter: Filter,
    first: Option<i32>,
    after: Option<String>,
) -> Result<Connection<String, Game, EmptyFields, EmptyFields>> {
    let first = page(app, first)?;
    let after = after.map(|a| parse_id(&a)).transpose()?;
    let page = blocking(app, move |s| Ok(s.list(&filter, first, after)?)).await?;
    let mut conn = Connection::new(after.is_some(), page.next.is_some());
    conn.edges.extend(
        page.games
            .into_iter()
            .map(|h| Edge::new(h.id.to_string(), Game::new(h))),
    );
    Ok(conn)
}
