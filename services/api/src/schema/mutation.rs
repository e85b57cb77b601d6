//! Games and moves: create a game, play a move, record a table's entry, import a record.

use super::{app, blocking, caller, parse_id};
use crate::auth::{hash_token, new_token, random_seed};
use crate::error::ApiError;
use crate::objects::{visible_moves, Game};
use crate::types::*;
use async_graphql::{Context, Json, Object, Result, ID};
use chrono::Utc;
use rules_core::{Actor, Viewer};
use store::{Append, EnteredBy, NewGame};

#[derive(async_graphql::SimpleObject)]
pub struct CreatedGame {
    pub game: Game,
    /// One secret per seat, in seat order: shown once, stored only hashed; null for a seat
    /// the server plays (`bots`), which no token opens.
    pub seat_tokens: Vec<Option<String>>,
    /// The recorder's secret, shown once: one person may enter every seat's move with it
    /// (`recordEntry`) and, for a game dealt at the table, every chance entry.
    pub recorder_token: String,
}

/// A seat the server plays itself.
#[derive(async_graphql::InputObject)]
pub struct BotSeat {
    /// The seat (0 is the first); its name in `players` left empty, or the level itself.
    pub seat: i64,
    /// `random`, `greedy`, `mcts:N` (N iterations a move, at most the server's
    /// `--bot-max-iterations`) or `mcts:N:greedy` (greedy rollouts).
    pub level: String,
}

#[derive(async_graphql::SimpleObject)]
pub struct PlayResult {
    pub game: Game,
    /// The entry written, then any the dealer added after it.
    pub entries: Vec<Move>,
    /// True when an idempotent retry returned the first result.
    pub replayed: bool,
}

#[derive(Default)]
pub struct GameMutation;

#[Object]
impl GameMutation {
    /// Creates a game; the store deals it from `seed` (default: random). `bots` are seats the
    /// server plays itself, on threads of its own, each bot deciding from what its seat may
    /// see; their moves are marked `enteredBy: "bot"` and their seats have no token. Refused,
    /// writing nothing: an unknown level (`UNKNOWN_BOT`), a budget over the server's most
    /// (`BOT_BUDGET`), a seat named for a person or given twice (`SEAT_TAKEN`), a server
    /// that plays no bots (`BOTS_DISABLED`).
    #[allow(clippy::too_many_arguments)]
    async fn create_game(
        &self,
        ctx: &Context<'_>,
        kind: GameKind,
        mut players: Vec<String>,
        options: Option<Json<serde_json::Value>>,
        seed: Option<String>,
        #[graphql(default)] dealing: Dealing,
        #[graphql(default)] bots: Vec<BotSeat>,
    ) -> Result<CreatedGame> {
        let app = app(ctx);
        let asked: Vec<(i64, String)> = bots.into_iter().map(|b| (b.seat, b.level)).collect();
        let bot_slots = crate::bots::seat_bots(&app.config.bots, &mut players, &asked)
            .map_err(ApiError::Bot)?;
        let kind: rules_core::GameKind = kind.into();
        let seed = match (dealing, seed) {
            (Dealing::Table, Some(_)) => return Err(ApiError::BadInput(
                "a game dealt at the table has no seed: give `seed` or `dealing: TABLE`, not both"
                    .into(),
            )
            .into()),
            (Dealing::Table, None) => None,
            (Dealing::Seeded, Some(s)) => Some(s.parse::<u64>().map_err(|_| {
                ApiError::BadInput(format!("seed `{s}` is not a 64-bit unsigned integer"))
            })?),
            (Dealing::Seeded, None) => {
                Some(random_seed().map_err(|e| ApiError::Internal(e.to_string()))?)
            }
        };
        let options = options
            .map(|o| o.0)
            .unwrap_or_else(|| serde_json::json!({ "players": players.len() }));
        // A person's seat gets a token; a bot's slot holds its mark, which no token hashes to.
        let tokens = bot_slots
            .iter()
            .map(|bot| match bot {
                Some(_) => Ok(None),
                None => new_token().map(Some),
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let hashes = tokens
            .iter()
            .zip(bot_slots)
            .map(|(token, bot)| match (token, bot) {
                (Some(t), _) => hash_token(t),
                (None, mark) => mark.unwrap_or_default(),
            })
            .collect();
        let recorder = new_token().map_err(|e| ApiError::Internal(e.to_string()))?;
        let recorder_hash = hash_token(&recorder);
        let (header, _) = blocking(app, move |s| {
            Ok(s.create(NewGame {
                kind,
                players,
                options,
                seed,
                at: Utc::now(),
                seat_token_hashes: hashes,
                recorder_token_hash: Some(recorder_hash),
            })?)
        })
        .await?;
        app.metrics
            .games_created
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        app.bots.wake(&header);
        Ok(CreatedGame {
            game: Game::new(header),
            seat_tokens: tokens,
            recorder_token: recorder,
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
        let header = blocking(app, move |s| Ok(s.header(id)?)).await?;
        let seat = caller(ctx).seat_in(&header).ok_or_else(|| {
            ApiError::Unauthorized("playMove needs the token of a seat of this game".into())
        })?;
        let at = Actor::Seat(seat);
        enter(
            app,
            id,
            expected_ply,
            at,
            notation,
            idempotency_key,
            EnteredBy::Seat(seat),
        )
        .await
    }

    /// Enters one entry of a game played at a real table, as the person recording it: any
    /// seat's move (`actor`: the seat number) or, for a game dealt at the table
    /// (`dealing: TABLE`), a chance outcome as the table dealt it (`actor: "dealer"`), which
    /// the rules check against the components left. Needs the game's recorder token; a seat's
    /// token may enter that seat's own moves. The answer shows the entries as a spectator sees
    /// them. An idempotency key belongs to whoever entered the move under it: reused by the
    /// other (the recorder for a seat's key, or a seat for the recorder's), it answers
    /// `IDEMPOTENCY_KEY_TAKEN` whatever move is sent, and writes nothing.
    async fn record_entry(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        expected_ply: u32,
        actor: String,
        notation: String,
        idempotency_key: Option<String>,
    ) -> Result<PlayResult> {
        let app = app(ctx);
        let id = parse_id(&game_id)?;
        let header = blocking(app, move |s| Ok(s.header(id)?)).await?;
        let actor: Actor = actor.parse().map_err(|_| {
            ApiError::BadInput(format!("actor `{actor}`: a seat number or `dealer`"))
        })?;
        if let Actor::Seat(s) = actor {
            if usize::from(s.0) >= header.players.len() {
                return Err(ApiError::BadInput(format!("this game has no seat {}", s.0)).into());
            }
        }
        let c = caller(ctx);
        let by = if c.is_recorder(&header) {
            EnteredBy::Recorder
        } else if let Some(s) = c.seat_in(&header).filter(|s| actor == Actor::Seat(*s)) {
            EnteredBy::Seat(s)
        } else {
            return Err(ApiError::Unauthorized(
                "recordEntry needs the game's recorder token (or a seat's own, for its moves)"
                    .into(),
            )
            .into());
        };
        enter(app, id, expected_ply, actor, notation, idempotency_key, by).await
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
            let (record, notes) = match (record, text) {
                (Some(r), None) => (r, Vec::new()),
                (None, Some(t)) => text_record(s.registry(), &t)?,
                _ => {
                    return Err(ApiError::BadInput(
                        "give either `record` or `text`, not both or neither".into(),
                    ))
                }
            };
            let h = s.import_line(1, &record).map_err(ApiError::BadRecord)?;
            // The text's comments become the game's annotations.
            for (ply, glyph, comment) in notes {
                s.write_note(store::journal::NewNote {
                    game: h.id,
                    by: store::journal::Author::Imported,
                    at: Utc::now(),
                    request: store::journal::NoteRequest::Annotate {
                        ply,
                        glyph,
                        comment,
                    },
                })?;
            }
            s.flush()?;
            Ok(h)
        })
        .await?;
        Ok(Game::new(header))
    }
}

/// The record of the one game a game text holds, and the annotations its comments make.
fn text_record(
    registry: &rules_core::Registry,
    text: &str,
) -> Result<(String, Vec<store::portable::text::TextNote>), ApiError> {
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
    let notes = store::portable::text::annotations(&game).map_err(ApiError::BadRecord)?;
    let record =
        serde_json::to_string(&game.record).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok((record, notes))
}

/// Appends one entry for `actor`, typed in `by` a seat or the recorder, and tells the live
/// subscribers; the entries written, as the seat (or, for the recorder, a spectator) may see
/// them.
async fn enter(
    app: &std::sync::Arc<crate::App>,
    id: store::GameId,
    expected_ply: u32,
    actor: Actor,
    notation: String,
    key: Option<String>,
    by: EnteredBy,
) -> Result<PlayResult> {
    let viewer = match by {
        EnteredBy::Seat(s) => Viewer::Seat(s),
        EnteredBy::Recorder | EnteredBy::Bot => Viewer::Spectator,
    };
    let appended = blocking(app, move |s| {
        Ok(s.append(Append {
            game: id,
            expected_ply,
            actor,
            notation: &notation,
            key: key.as_deref(),
            at: Utc::now(),
            entered_by: Some(by),
        })?)
    })
    .await?;
    if !appended.replayed {
        app.metrics
            .appends
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        app.hub.publish(id, appended.header.plies);
        app.bots.wake(&appended.header);
    }
    // The caller sees its own move; dealt entries as the rules let it.
    let first = appended.entries.first().map_or(0, |e| e.ply);
    let entries = appended.entries.clone();
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
