//! The GraphQL schema's roots: `Query`, `Mutation`, `Subscription` (the objects they return
//! are in `objects`).
//!
//! Every store call runs on the blocking pool (`spawn_blocking`): sled is synchronous and must
//! never stall the async runtime. What a caller sees of an unfinished game is decided here,
//! once, by `Caller::viewer`: views, logs, replays, scores and legal moves all go through it.

use crate::auth::{hash_token, new_token, random_seed, Caller};
use crate::error::{ApiError, ApiResult};
use crate::objects::{Game, IndexedPosition};
use crate::types::*;
use crate::App;
use async_graphql::connection::{Connection, Edge, EmptyFields};
use async_graphql::{Context, Json, Object, Result, Schema, Subscription, ID};
use chrono::Utc;
use futures_util::Stream;
use rules_core::{Actor, GameKind, GameState, Viewer};
use std::sync::Arc;
use store::{Append, Entry, Filter, GameId, NewGame, Status, Store};

pub type LudologSchema = Schema<Query, Mutation, Subscription>;

pub(crate) fn app<'a>(ctx: &Context<'a>) -> &'a Arc<App> {
    ctx.data_unchecked::<Arc<App>>()
}

pub(crate) fn caller<'a>(ctx: &Context<'a>) -> Caller {
    ctx.data_opt::<Caller>().cloned().unwrap_or_default()
}

/// Runs a store call on the blocking pool.
pub async fn blocking<T: Send + 'static>(
    app: &Arc<App>,
    f: impl FnOnce(&Store) -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    let store = app.store.clone();
    tokio::task::spawn_blocking(move || f(&store))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
}

pub(crate) fn parse_id(id: &str) -> ApiResult<GameId> {
    id.parse::<GameId>()
        .map_err(|e| ApiError::NotFound(e.to_string()))
}

pub(crate) fn page(app: &App, first: Option<i32>) -> ApiResult<usize> {
    let n = first.unwrap_or(20);
    if n < 0 || n as usize > app.config.max_page {
        return Err(ApiError::LimitExceeded(format!(
            "page size is 0 to {}, not {n}",
            app.config.max_page
        )));
    }
    Ok(n as usize)
}

/// Entries as `viewer` may see them: chance outcomes the rules keep secret are hidden while the
/// game is unfinished. `state` is the position before the first entry.
pub(crate) fn visible_moves(
    mut state: Box<dyn GameState>,
    entries: &[Entry],
    viewer: Viewer,
    finished: bool,
) -> ApiResult<Vec<Move>> {
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let text = if finished {
            e.notation.clone()
        } else {
            state.entry_text(e.actor, &e.notation, viewer)
        };
        out.push(Move::from_entry(e, text));
        state
            .apply(e.actor, &e.notation)
            .map_err(|err| ApiError::Internal(err.to_string()))?;
    }
    Ok(out)
}

/// Which finished games `statistics` counts.
#[derive(async_graphql::InputObject, Default)]
pub struct StatsFilterInput {
    pub player_count: Option<u32>,
    /// Games where this player had a seat.
    pub player: Option<String>,
    /// Games where a seat had this tag (e.g. `djinn:baal`).
    pub tag: Option<String>,
    /// Created at or after (RFC 3339).
    pub since: Option<String>,
    /// Created before (RFC 3339).
    pub until: Option<String>,
}

pub struct Query;

#[Object]
impl Query {
    /// The games this server plays, with player counts and rules versions.
    async fn rules(&self, ctx: &Context<'_>) -> Vec<RulesInfo> {
        app(ctx)
            .store
            .registry()
            .iter()
            .map(RulesInfo::of)
            .collect()
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
        kind: String,
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
        let kind: GameKind = kind
            .parse()
            .map_err(|e: rules_core::ParseIdError| ApiError::BadInput(e.to_string()))?;
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
        let page = blocking(app, move |store| {
            Ok(positions::page(
                store,
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
    /// shows it): the same position reached in different games, or twice in one.
    async fn positions_by_hash(
        &self,
        ctx: &Context<'_>,
        state_hash: String,
        first: Option<i32>,
    ) -> Result<Vec<PositionHit>> {
        let app = app(ctx);
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
                kind: h.kind.to_string(),
                ply: h.ply,
            })
            .collect())
    }

    /// Statistics of the finished games of `kind`: games, win rate by seat (95% Wilson
    /// intervals), win rate and mean score by tag, score distributions overall and per
    /// category, length in plies, rounds and wall time, tie rate. Filters: player count, a
    /// player's name, a tag, and creation time (`since` inclusive, `until` exclusive, RFC 3339).
    /// Read from projections kept as games finish: a query never rescans logs.
    async fn statistics(
        &self,
        ctx: &Context<'_>,
        kind: String,
        filter: Option<StatsFilterInput>,
    ) -> Result<Json<serde_json::Value>> {
        let StatsFilterInput {
            player_count,
            player,
            tag,
            since,
            until,
        } = filter.unwrap_or_default();
        let kind: GameKind = kind
            .parse()
            .map_err(|e: rules_core::ParseIdError| ApiError::BadInput(e.to_string()))?;
        let time = |t: Option<String>| -> ApiResult<Option<chrono::DateTime<Utc>>> {
            t.map(|t| {
                chrono::DateTime::parse_from_rfc3339(&t)
                    .map(|d| d.with_timezone(&Utc))
                    .map_err(|e| ApiError::BadInput(format!("`{t}` is not an RFC 3339 time: {e}")))
            })
            .transpose()
        };
        let filter = analysis::StatsFilter {
            player_count: player_count.map(|n| n as usize),
            player,
            tag,
            since: time(since)?,
            until: time(until)?,
        };
        // A cache miss computes over every summary (milliseconds): not on the async runtime.
        let analysis = app(ctx).analysis.clone();
        let stats = tokio::task::spawn_blocking(move || analysis.statistics(kind, &filter))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(Json(
            serde_json::to_value(&*stats).map_err(|e| ApiError::Internal(e.to_string()))?,
        ))
    }

    /// Player ratings of a game kind (Weng-Lin, as OpenSkill), best first, with games played.
    async fn ratings(
        &self,
        ctx: &Context<'_>,
        kind: String,
        first: Option<i32>,
    ) -> Result<Vec<PlayerRating>> {
        let app = app(ctx);
        let first = page(app, first.or(Some(100)))?;
        let kind: GameKind = kind
            .parse()
            .map_err(|e: rules_core::ParseIdError| ApiError::BadInput(e.to_string()))?;
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

    /// A game by id.
    async fn game(&self, ctx: &Context<'_>, id: ID) -> Result<Game> {
        let id = parse_id(&id)?;
        let header = blocking(app(ctx), move |s| Ok(s.header(id)?)).await?;
        Ok(Game { header })
    }

    /// Games, newest first, filtered by kind, status and player (Relay connection; the cursor
    /// is a game id).
    async fn games(
        &self,
        ctx: &Context<'_>,
        kind: Option<String>,
        status: Option<GameStatus>,
        player: Option<String>,
        first: Option<i32>,
        after: Option<String>,
    ) -> Result<Connection<String, Game, EmptyFields, EmptyFields>> {
        let app = app(ctx);
        let first = page(app, first)?;
        let kind = match kind {
            Some(k) => Some(
                k.parse::<GameKind>()
                    .map_err(|e| ApiError::BadInput(e.to_string()))?,
            ),
            None => None,
        };
        let after = after.map(|a| parse_id(&a)).transpose()?;
        let filter = Filter {
            kind,
            status: status.map(|s| match s {
                GameStatus::Active => Status::Active,
                GameStatus::Finished => Status::Finished,
            }),
            player,
        };
        let page = blocking(app, move |s| Ok(s.list(&filter, first, after)?)).await?;
        let mut conn = Connection::new(after.is_some(), page.next.is_some());
        conn.edges.extend(
            page.games
                .into_iter()
                .map(|h| Edge::new(h.id.to_string(), Game { header: h })),
        );
        Ok(conn)
    }
}

#[derive(async_graphql::SimpleObject)]
pub struct CreatedGame {
    pub game: Game,
    /// One secret per seat, in seat order: shown once, stored only hashed.
    pub seat_tokens: Vec<String>,
}

#[derive(async_graphql::SimpleObject)]
pub struct PlayResult {
    pub game: Game,
    /// The entry written, then any the dealer added after it.
    pub entries: Vec<Move>,
    /// True when an idempotent retry returned the first result.
    pub replayed: bool,
}

pub struct Mutation;

#[Object]
impl Mutation {
    /// Creates a game; the store deals it from `seed` (default: random).
    async fn create_game(
        &self,
        ctx: &Context<'_>,
        kind: String,
        players: Vec<String>,
        options: Option<Json<serde_json::Value>>,
        seed: Option<String>,
    ) -> Result<CreatedGame> {
        let app = app(ctx);
        let kind: GameKind = kind
            .parse()
            .map_err(|e: rules_core::ParseIdError| ApiError::BadInput(e.to_string()))?;
        let seed = match seed {
            Some(s) => s.parse::<u64>().map_err(|_| {
                ApiError::BadInput(format!("seed `{s}` is not a 64-bit unsigned integer"))
            })?,
            None => random_seed().map_err(|e| ApiError::Internal(e.to_string()))?,
        };
        let options = options
            .map(|o| o.0)
            .unwrap_or_else(|| serde_json::json!({ "players": players.len() }));
        let tokens = (0..players.len())
            .map(|_| new_token())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let hashes = tokens.iter().map(|t| hash_token(t)).collect();
        let (header, _) = blocking(app, move |s| {
            Ok(s.create(NewGame {
                kind,
                players,
                options,
                seed,
                at: Utc::now(),
                seat_token_hashes: hashes,
            })?)
        })
        .await?;
        app.metrics
            .games_created
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(CreatedGame {
            game: Game { header },
            seat_tokens: tokens,
        })
    }

    /// Plays the caller's move (the seat is the one the `Authorization: Bearer` token opens).
    async fn play_move(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        expected_ply: u32,
        #[graphql(name = "move")] notation: String,
        idempotency_key: Option<String>,
    ) -> Result<PlayResult> {
        let app = app(ctx);
        let id = parse_id(&game_id)?;
        let caller = caller(ctx);
        let header = blocking(app, move |s| Ok(s.header(id)?)).await?;
        let seat = caller.seat_in(&header).ok_or_else(|| {
            ApiError::Unauthorized("playMove needs the token of a seat of this game".into())
        })?;
        let appended = blocking(app, move |s| {
            Ok(s.append(Append {
                game: id,
                expected_ply,
                actor: Actor::Seat(seat),
                notation: &notation,
                key: idempotency_key.as_deref(),
                at: Utc::now(),
            })?)
        })
        .await?;
        if !appended.replayed {
            app.metrics
                .appends
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            app.hub.publish(id, appended.header.plies);
        }
        // The caller sees its own move; dealt entries as the rules let it.
        let finished = appended.header.status == Status::Finished;
        let first = appended.entries.first().map_or(0, |e| e.ply);
        let entries = appended.entries.clone();
        let viewer = Viewer::Seat(seat);
        let moves = blocking(app, move |s| {
            visible_moves(s.state_at(id, first)?, &entries, viewer, finished)
        })
        .await?;
        Ok(PlayResult {
            game: Game {
                header: appended.header,
            },
            entries: moves,
            replayed: appended.replayed,
        })
    }

    /// Imports a game record (one NDJSON line of `schema/game-record.schema.json`). Needs the
    /// admin token; with none configured, imports are refused.
    async fn import_game(&self, ctx: &Context<'_>, record: String) -> Result<Game> {
        let app = app(ctx);
        if app.config.admin_token.is_none() {
            return Err(ApiError::Unauthorized(
                "imports are disabled: no admin token is configured".into(),
            )
            .into());
        }
        if !caller(ctx).is_admin(app.config.admin_token.as_deref()) {
            return Err(ApiError::Unauthorized("importGame needs the admin token".into()).into());
        }
        let header = blocking(app, move |s| {
            let h = s.import_line(1, &record).map_err(ApiError::BadRecord)?;
            s.flush()?;
            Ok(h)
        })
        .await?;
        Ok(Game { header })
    }
}

pub struct Subscription;

#[Subscription]
impl Subscription {
    /// Every entry from `fromPly` on, then each new one as it is played: in order, no gap, no
    /// duplicate, as the caller may see them.
    async fn game_updates(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        from_ply: Option<u32>,
    ) -> Result<impl Stream<Item = Move>> {
        let app = app(ctx).clone();
        let id = parse_id(&game_id)?;
        let caller = caller(ctx);
        let header = blocking(&app, move |s| Ok(s.header(id)?)).await?;
        let viewer = caller.viewer(&header);
        let rx = app.hub.subscribe(id);
        app.metrics
            .subscriptions
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let start = from_ply.unwrap_or(0);
        // The broadcast only wakes the stream: entries always come from the store, from the next
        // ply not yet sent, so a lagging subscriber catches up and nothing is sent twice.
        let state = (
            app,
            rx,
            start,
            std::collections::VecDeque::<Move>::new(),
            false,
        );
        Ok(futures_util::stream::unfold(
            state,
            move |(app, mut rx, mut next, mut buf, mut done)| async move {
                loop {
                    if let Some(m) = buf.pop_front() {
                        return Some((m, (app, rx, next, buf, done)));
                    }
                    if done {
                        return None;
                    }
                    let from = next;
                    let read = blocking(&app, move |s| {
                        let h = s.header(id)?;
                        if from >= h.plies {
                            return Ok((Vec::new(), h.status == Status::Finished));
                        }
                        let to = h.plies.min(from + 100);
                        let finished = h.status == Status::Finished;
                        let moves = visible_moves(
                            s.state_at(id, from)?,
                            &s.entries(id, from, to)?,
                            viewer,
                            finished,
                        )?;
                        Ok((moves, finished && to == h.plies))
                    })
                    .await;
                    match read {
                        Ok((moves, finished)) if !moves.is_empty() => {
                            next = moves.last().map_or(next, |m| m.ply + 1);
                            buf.extend(moves);
                            done = finished;
                            continue;
                        }
                        Ok((_, true)) => return None,
                        Ok(_) => {}
                        Err(_) => return None,
                    }
                    match rx.recv().await {
                        Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                            continue
                        }
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                    }
                }
            },
        ))
    }
}
