//! `Mutation`: create a game, play a move, import a record.

use super::{app, blocking, caller, parse_id};
use crate::auth::{hash_token, new_token, random_seed};
use crate::error::ApiError;
use crate::objects::{visible_moves, Game};
use crate::types::*;
use async_graphql::{Context, Json, Object, Result, ID};
use chrono::Utc;
use rules_core::{Actor, Viewer};
use store::{Append, NewGame};

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
        kind: GameKind,
        players: Vec<String>,
        options: Option<Json<serde_json::Value>>,
        seed: Option<String>,
    ) -> Result<CreatedGame> {
        let app = app(ctx);
        let kind: rules_core::GameKind = kind.into();
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
            game: Game::new(header),
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
        let first = appended.entries.first().map_or(0, |e| e.ply);
        let entries = appended.entries.clone();
        let viewer = Viewer::Seat(seat);
        let moves = blocking(app, move |s| {
            visible_moves(s.state_at(id, first)?, &entries, viewer)
        })
        .await?;
        Ok(PlayResult {
            game: Game::new(appended.header),
            entries: moves,
            replayed: appended.replayed,
        })
    }

    /// Imports one game: a record (one NDJSON line of `schema/game-record.schema.json`), or a
    /// game text written by hand (`schema/notation/game-text.md`) — exactly one of the two.
    /// Needs the admin token; with none configured, imports are refused.
    async fn import_game(
        &self,
        ctx: &Context<'_>,
        record: Option<String>,
        text: Option<String>,
    ) -> Result<Game> {
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
            let record = match (record, text) {
                (Some(r), None) => r,
                (None, Some(t)) => text_record(s.registry(), &t)?,
                _ => {
                    return Err(ApiError::BadInput(
                        "give either `record` or `text`, not both or neither".into(),
                    ))
                }
            };
            let h = s.import_line(1, &record).map_err(ApiError::BadRecord)?;
            s.flush()?;
            Ok(h)
        })
        .await?;
        Ok(Game::new(header))
    }
}

/// The record of the one game a game text holds.
fn text_record(registry: &rules_core::Registry, text: &str) -> Result<String, ApiError> {
    let mut games = store::portable::text::parse_all(registry, text);
    if games.len() != 1 {
        return Err(ApiError::BadInput(format!(
            "the text holds {} games; importGame takes one (`ludolog import --text` takes many)",
            games.len()
        )));
    }
    let game = games
        .pop()
        .ok_or_else(|| ApiError::BadInput("no game".into()))?
        .map_err(ApiError::BadRecord)?;
    serde_json::to_string(&game.record).map_err(|e| ApiError::Internal(e.to_string()))
}
