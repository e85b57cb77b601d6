//! The objects queries return — `Game`, `Position` (a game's position at a ply) and
//! `IndexedPosition` (a row of the position index) — and how each field resolves through the
//! store, as the caller may see it.

use crate::error::ApiError;
use crate::types::*;
use async_graphql::connection::{Connection, Edge, EmptyFields};
use async_graphql::{Context, Json, Object, Result, ID};
use rules_core::{GameState, Viewer};
use std::sync::Arc;
use store::{Header, Status};

use crate::schema::{app, blocking, caller, page, visible_moves};

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
    async fn game(&self, ctx: &Context<'_>) -> Result<Game> {
        let id = self.row.game;
        let header = blocking(app(ctx), move |s| Ok(s.header(id)?)).await?;
        Ok(Game { header })
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

/// A game.
pub struct Game {
    pub(crate) header: Header,
}

impl Game {
    fn finished(&self) -> bool {
        self.header.status == Status::Finished
    }
}

#[Object]
impl Game {
    async fn id(&self) -> ID {
        ID(self.header.id.to_string())
    }
    async fn kind(&self) -> String {
        self.header.kind.to_string()
    }
    /// Player names by seat.
    async fn players(&self) -> &[String] {
        &self.header.players
    }
    async fn options(&self) -> Json<serde_json::Value> {
        Json(self.header.options_json())
    }
    /// The dealer's seed, once the game is over (before that it would reveal future draws).
    async fn seed(&self) -> Option<String> {
        self.finished()
            .then(|| self.header.seed.map(|s| s.to_string()))
            .flatten()
    }
    async fn status(&self) -> GameStatus {
        self.header.status.into()
    }
    /// Number of entries.
    async fn plies(&self) -> u32 {
        self.header.plies
    }
    async fn rules_version(&self) -> &str {
        &self.header.rules_version
    }
    async fn data_hash(&self) -> &str {
        &self.header.data_hash
    }
    async fn created_at(&self) -> String {
        self.header.created_at.to_rfc3339()
    }
    async fn updated_at(&self) -> String {
        self.header.updated_at.to_rfc3339()
    }
    /// The seat the caller's token opens in this game, if any.
    async fn my_seat(&self, ctx: &Context<'_>) -> Option<u8> {
        caller(ctx).seat_in(&self.header).map(|s| s.0)
    }

    /// The log, as the caller may see it (Relay connection; the cursor is a ply).
    async fn moves(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
    ) -> Result<Connection<String, Move, EmptyFields, EmptyFields>> {
        let app = app(ctx);
        let first = page(app, first)?;
        let start = match after {
            Some(a) => {
                a.parse::<u32>()
                    .map_err(|_| ApiError::BadInput(format!("bad cursor `{a}`")))?
                    + 1
            }
            None => 0,
        };
        let (id, plies, finished) = (self.header.id, self.header.plies, self.finished());
        let viewer = caller(ctx).viewer(&self.header);
        let end = start.saturating_add(first as u32).min(plies);
        let moves = blocking(app, move |s| {
            if start >= plies {
                return Ok(Vec::new());
            }
            let state = s.state_at(id, start)?;
            let entries = s.entries(id, start, end)?;
            visible_moves(state, &entries, viewer, finished)
        })
        .await?;
        let mut conn = Connection::new(start > 0, end < plies);
        conn.edges
            .extend(moves.into_iter().map(|m| Edge::new(m.ply.to_string(), m)));
        Ok(conn)
    }

    /// The position after `ply` entries (default: the latest).
    async fn position(&self, ctx: &Context<'_>, ply: Option<u32>) -> Result<Position> {
        let ply = ply.unwrap_or(self.header.plies);
        let id = self.header.id;
        let state = blocking(app(ctx), move |s| Ok(s.state_at(id, ply)?)).await?;
        Ok(Position {
            header: self.header.clone(),
            ply,
            state: Arc::new(state),
        })
    }

    /// Frames from `fromPly` to `toPly` (default: the end): each the entry leading to its ply and
    /// the JSON Patch from the previous view to the next, as the caller may see them.
    async fn replay(
        &self,
        ctx: &Context<'_>,
        from_ply: Option<u32>,
        to_ply: Option<u32>,
    ) -> Result<Vec<ReplayFrame>> {
        let app = app(ctx);
        let from = from_ply.unwrap_or(0);
        let to = to_ply.unwrap_or(self.header.plies).min(self.header.plies);
        if to < from {
            return Err(ApiError::BadInput(format!("toPly {to} is before fromPly {from}")).into());
        }
        if (to - from) as usize > app.config.max_replay {
            return Err(ApiError::LimitExceeded(format!(
                "at most {} frames per replay",
                app.config.max_replay
            ))
            .into());
        }
        let (id, finished) = (self.header.id, self.finished());
        let viewer = if finished {
            Viewer::Spectator
        } else {
            caller(ctx).viewer(&self.header)
        };
        let frames = blocking(app, move |s| {
            let mut state = s.state_at(id, from)?;
            let entries = s.entries(id, from, to)?;
            let mut frames = Vec::with_capacity(entries.len());
            let mut before = state.view(viewer);
            for e in &entries {
                let text = if finished {
                    e.notation.clone()
                } else {
                    state.entry_text(e.actor, &e.notation, viewer)
                };
                state
                    .apply(e.actor, &e.notation)
                    .map_err(|err| ApiError::Internal(err.to_string()))?;
                let after = state.view(viewer);
                let patch = json_patch::diff(&before, &after);
                frames.push(ReplayFrame {
                    ply: e.ply + 1,
                    actor: e.actor.to_string(),
                    notation: text,
                    patch: Json(serde_json::to_value(patch).unwrap_or_default()),
                });
                before = after;
            }
            Ok(frames)
        })
        .await?;
        Ok(frames)
    }

    /// Final scores and winners, once the game is over.
    async fn outcome(&self, ctx: &Context<'_>) -> Result<Option<OutcomeInfo>> {
        if !self.finished() {
            return Ok(None);
        }
        let (id, plies) = (self.header.id, self.header.plies);
        let state = blocking(app(ctx), move |s| Ok(s.state_at(id, plies)?)).await?;
        Ok(state.outcome().as_ref().map(OutcomeInfo::from))
    }
}

/// A position of a game.
pub struct Position {
    header: Header,
    ply: u32,
    state: Arc<Box<dyn GameState>>,
}

impl Position {
    fn open_to(&self, ctx: &Context<'_>) -> Viewer {
        if self.header.status == Status::Finished {
            Viewer::Spectator
        } else {
            caller(ctx).viewer(&self.header)
        }
    }
}

#[Object]
impl Position {
    async fn ply(&self) -> u32 {
        self.ply
    }
    async fn round(&self) -> u32 {
        self.state.round()
    }
    async fn phase(&self) -> &str {
        self.state.phase()
    }
    /// Every seat that may move now: the seat to act, or, in a simultaneous step (Mombasa's
    /// planning), every seat still deciding, in any order.
    async fn seats_to_act(&self) -> Vec<u8> {
        self.state.seats_to_act().iter().map(|s| s.0).collect()
    }
    async fn to_act(&self) -> ToActInfo {
        self.state.to_act().into()
    }
    /// The position as JSON, as `seat` sees it (default: as the caller may). Another seat's view
    /// of an unfinished game needs that seat's token.
    async fn view(&self, ctx: &Context<'_>, seat: Option<u8>) -> Result<Json<serde_json::Value>> {
        let allowed = self.open_to(ctx);
        let viewer = match seat {
            None => allowed,
            Some(s)
                if self.header.status == Status::Finished
                    || allowed == Viewer::Seat(rules_core::Seat(s)) =>
            {
                Viewer::Seat(rules_core::Seat(s))
            }
            Some(s) => {
                return Err(ApiError::Unauthorized(format!(
                    "seat {s}'s view needs seat {s}'s token"
                ))
                .into())
            }
        };
        Ok(Json(self.state.view(viewer)))
    }
    /// Legal moves, in notation, of the caller's seat when it may move now (the seat to act,
    /// or any seat still deciding in a simultaneous step). Only that seat sees them while the
    /// game is on: they would tell others what it holds. Spectators and other seats get
    /// UNAUTHORIZED; a finished game has none.
    async fn legal_moves(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        offset: Option<i32>,
    ) -> Result<LegalMoves> {
        let app = app(ctx);
        let first = page(app, first.or(Some(100)))?;
        let viewer = self.open_to(ctx);
        let seats = self.state.seats_to_act();
        let seat = match viewer {
            Viewer::Seat(v) if seats.contains(&v) => Some(v),
            _ => None,
        };
        if self.header.status == Status::Active && !seats.is_empty() && seat.is_none() {
            let list: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
            return Err(ApiError::Unauthorized(format!(
                "only seat {} sees its legal moves",
                list.join(" or ")
            ))
            .into());
        }
        let all = seat.map_or_else(Vec::new, |v| self.state.legal_moves_of(v));
        let offset = offset.unwrap_or(0).max(0) as usize;
        Ok(LegalMoves {
            total: all.len(),
            moves: all.into_iter().skip(offset).take(first).collect(),
        })
    }
    /// Scores as they stand, with their breakdown. While the game is on, a seat sees only its own
    /// (a score includes secret gold).
    async fn scores(&self, ctx: &Context<'_>) -> Vec<Score> {
        let viewer = self.open_to(ctx);
        let finished = self.header.status == Status::Finished;
        self.state
            .scores()
            .iter()
            .filter(|s| finished || viewer == Viewer::Seat(s.seat))
            .map(Score::from)
            .collect()
    }
    /// A keyed hash of the full state. In finished games equal positions have equal hashes
    /// (`positionsByHash` finds them all); the key is the server's, so a client cannot hash
    /// candidate states itself. While a game is on, the game's id is mixed into the key: a
    /// copy of the game played on the same server (same seed, each candidate secret move)
    /// would otherwise reveal a secret choice by matching hashes.
    async fn state_hash(&self, ctx: &Context<'_>) -> String {
        let mut key = app(ctx).config.state_hash_key;
        if self.header.status != Status::Finished {
            for (k, b) in key.iter_mut().zip(self.header.id.to_bytes()) {
                *k ^= b;
            }
        }
        format!("{:016x}", self.state.state_hash(key))
    }
}
