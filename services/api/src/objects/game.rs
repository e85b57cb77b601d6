//! `Game`: a game's header, its log, any position, replays and its outcome, each as the caller
//! may see it (`perspective`).

use super::entries::visible_moves;
use super::position::Position;
use super::review::{GameEvaluation, TurningPoint};
use super::revision::{self, Pinned, Revision};
use crate::error::ApiError;
use crate::perspective::{self, Perspective};
use crate::schema::{app, blocking, caller, page};
use crate::types::*;
use async_graphql::connection::{Connection, Edge, EmptyFields};
use async_graphql::{Context, Json, Object, Result, ID};
use chrono::{DateTime, Utc};
use std::sync::Arc;
use store::{Header, Status};

/// A game: as the store has it now, or as of one of its revisions (`pinned`).
#[derive(Clone)]
pub struct Game {
    pub(crate) header: Header,
    pub(crate) pinned: Option<Arc<Pinned>>,
}

impl Game {
    pub fn new(header: Header) -> Game {
        Game {
            header,
            pinned: None,
        }
    }

    pub fn with_pinned(header: Header, pinned: Arc<Pinned>) -> Game {
        Game {
            header,
            pinned: Some(pinned),
        }
    }

    fn finished(&self) -> bool {
        self.header.status == Status::Finished
    }
}

#[Object]
impl Game {
    /// The game's id (13 characters; sortable by creation time). Also a `Node` id.
    pub async fn id(&self) -> ID {
        ID(self.header.id.to_string())
    }
    async fn kind(&self) -> GameKind {
        self.header.kind.into()
    }
    /// Player names by seat.
    async fn players(&self) -> &[String] {
        &self.header.players
    }
    /// The game's options as its rules read them (keys sorted), e.g. `{"players": 3}`;
    /// `rules { options }` describes each game's keys.
    async fn options(&self) -> Json<serde_json::Value> {
        Json(self.header.options_json())
    }
    /// The dealer's seed, once the game is over (before that it would reveal future draws);
    /// null for a game dealt at a real table.
    async fn seed(&self) -> Option<String> {
        self.finished()
            .then(|| self.header.seed.map(|s| s.to_string()))
            .flatten()
    }
    async fn status(&self) -> GameStatus {
        self.header.status.into()
    }
    /// Entries so far: the latest position is `position(ply: plies)`.
    async fn plies(&self) -> u32 {
        self.header.plies
    }
    async fn rules_version(&self) -> &str {
        &self.header.rules_version
    }
    async fn data_hash(&self) -> &str {
        &self.header.data_hash
    }
    async fn created_at(&self) -> DateTime<Utc> {
        self.header.created_at
    }
    async fn updated_at(&self) -> DateTime<Utc> {
        self.header.updated_at
    }
    /// The seat the caller's token opens in this game, if any.
    async fn my_seat(&self, ctx: &Context<'_>) -> Option<u8> {
        caller(ctx).seat_in(&self.header).map(|s| s.0)
    }

    /// The log as the caller may see it (Relay connection). The cursor is the entry's ply:
    /// `after: "10"` continues with entry 11.
    #[graphql(complexity = "first.unwrap_or(20).max(0) as usize * child_complexity + 2")]
    async fn moves(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<Connection<String, Move, EmptyFields, EmptyFields>> {
        let app = app(ctx);
        let first = page(app, first)?;
        let start = match after {
            Some(a) => a.parse::<u32>().map_err(|_| {
                ApiError::BadInput(format!("bad cursor `{a}`: a cursor is an entry's ply"))
            })?,
            None => 0,
        };
        let plies = self.header.plies;
        let viewer = perspective::viewer(&self.header, &caller(ctx), seat, perspective)?;
        let (header, pinned) = (self.header.clone(), self.pinned.clone());
        let end = start.saturating_add(first as u32).min(plies);
        let moves = blocking(app, move |s| {
            if start >= plies {
                return Ok(Vec::new());
            }
            let p = pinned.as_deref();
            visible_moves(
                revision::state_at(s, &header, p, start)?,
                &revision::entries(s, &header, p, start, end)?,
                viewer,
            )
        })
        .await?;
        let mut conn = Connection::new(start > 0, end < plies);
        conn.edges
            .extend(moves.into_iter().map(|m| Edge::new(m.ply.to_string(), m)));
        Ok(conn)
    }

    /// The position after `ply` entries (default: the latest).
    // Costed as rebuilding a state (up to a snapshot interval of entries replayed), about
    // thirty replay frames: fifty positions fit the default limit, sixty do not.
    #[graphql(complexity = "150 + child_complexity")]
    async fn position(&self, ctx: &Context<'_>, ply: Option<u32>) -> Result<Position> {
        let ply = ply.unwrap_or(self.header.plies);
        if ply > self.header.plies {
            return Err(ApiError::BadInput(format!(
                "ply {ply} is past the end of the game: positions are 0 to {}",
                self.header.plies
            ))
            .into());
        }
        let (header, pinned) = (self.header.clone(), self.pinned.clone());
        let state = blocking(app(ctx), move |s| {
            revision::state_at(s, &header, pinned.as_deref(), ply)
        })
        .await?;
        Ok(Position::new(self.header.clone(), ply, Arc::new(state)))
    }

    /// Frames for entries `fromPly + 1` to `toPly` (defaults: the whole game): each the entry
    /// and the JSON Patch (RFC 6902) from the view at the position before it to the view after
    /// it, as the chosen perspective sees them. Apply them in order to `position(ply: fromPly)
    /// { view }` (same perspective) to step forward without refetching.
    #[graphql(complexity = "crate::replay_cost(from_ply, to_ply, child_complexity)")]
    async fn replay(
        &self,
        ctx: &Context<'_>,
        from_ply: Option<u32>,
        to_ply: Option<u32>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
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
        let viewer = perspective::viewer(&self.header, &caller(ctx), seat, perspective)?;
        let id = self.header.id;
        let annotations: Vec<super::journal::Annotation> =
            if ctx.look_ahead().field("annotations").exists() {
                let journal = super::journal::read(ctx, id).await?;
                let shown = journal.annotations().iter().filter(|a| !a.withdrawn);
                shown.cloned().collect()
            } else {
                Vec::new()
            };
        let (header, pinned) = (self.header.clone(), self.pinned.clone());
        let frames = blocking(app, move |s| {
            let p = pinned.as_deref();
            let mut state = revision::state_at(s, &header, p, from)?;
            let entries = revision::entries(s, &header, p, from, to)?;
            let mut frames = Vec::with_capacity(entries.len());
            let mut before = state.view(viewer);
            for e in &entries {
                let text = state.entry_text(e.actor, &e.notation, viewer);
                let description = state.describe(e.actor, &e.notation, viewer);
                state
                    .apply(e.actor, &e.notation)
                    .map_err(|err| ApiError::Internal(err.to_string()))?;
                let after = state.view(viewer);
                let patch = json_patch::diff(&before, &after);
                frames.push(ReplayFrame {
                    ply: e.ply + 1,
                    actor: e.actor.to_string(),
                    notation: text,
                    description,
                    patch: serde_json::to_value(patch).unwrap_or_default(),
                    annotations: annotations
                        .iter()
                        .filter(|a| a.ply == e.ply + 1)
                        .cloned()
                        .collect(),
                });
                before = after;
            }
            Ok(frames)
        })
        .await?;
        Ok(frames)
    }

    /// Each seat's score at every position of the game (`totals[n]` after `n` entries), as the
    /// perspective allows (a score can hold secret gold): for a score graph in one request.
    #[graphql(complexity = 300)]
    async fn score_series(
        &self,
        ctx: &Context<'_>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<Vec<ScoreSeries>> {
        let viewer = perspective::viewer(&self.header, &caller(ctx), seat, perspective)?;
        let plies = self.header.plies;
        let (header, pinned) = (self.header.clone(), self.pinned.clone());
        let series = blocking(app(ctx), move |s| {
            let p = pinned.as_deref();
            let mut state = revision::state_at(s, &header, p, 0)?;
            let entries = revision::entries(s, &header, p, 0, plies)?;
            let mut totals: Vec<Vec<Option<i32>>> = Vec::new();
            let push = |state: &dyn rules_core::GameState, totals: &mut Vec<Vec<Option<i32>>>| {
                let scores = state.scores();
                if totals.len() < scores.len() {
                    totals.resize(scores.len(), Vec::new());
                }
                for (i, t) in totals.iter_mut().enumerate() {
                    let score = scores
                        .iter()
                        .find(|x| usize::from(x.seat.0) == i)
                        .filter(|x| viewer.sees(x.seat))
                        .map(|x| x.total);
                    t.push(score);
                }
            };
            push(state.as_ref(), &mut totals);
            for e in &entries {
                state
                    .apply(e.actor, &e.notation)
                    .map_err(|err| ApiError::Internal(err.to_string()))?;
                push(state.as_ref(), &mut totals);
            }
            Ok(totals)
        })
        .await?;
        Ok(series
            .into_iter()
            .enumerate()
            .map(|(seat, mut totals)| {
                // Seats appear with the deal: before it a seat has no score.
                let missing = (plies as usize + 1).saturating_sub(totals.len());
                let mut padded = vec![None; missing];
                padded.append(&mut totals);
                ScoreSeries {
                    seat: seat as u8,
                    totals: padded,
                }
            })
            .collect())
    }

    /// Which revision of the record this is: 0 as recorded, n after an admin's n-th
    /// correction (`revisions`). A game read with `game(id:, revision:)` is that revision.
    async fn revision(&self) -> u32 {
        self.header.revision
    }

    /// Every revision of the record, from 0 (as recorded) to the latest: what each correction
    /// changed, by whom, when and why, and each as a whole game (`game`) that replays.
    // Costed as one revision: a game keeps at most `store::revision::MAX_REVISIONS` + 1, which
    // bounds what the list can cost beyond it.
    #[graphql(complexity = "5 + child_complexity")]
    async fn revisions(&self, ctx: &Context<'_>) -> Result<Vec<Revision>> {
        let id = self.header.id;
        let journal = super::journal::read(ctx, id).await?;
        Ok(store::revision::revisions(&journal.notes)
            .into_iter()
            .map(|inner| Revision { game: id, inner })
            .collect())
    }

    /// Comments and glyphs on the game's positions, in the order written; with
    /// `includeWithdrawn`, also those on positions a takeback withdrew. A page: `first` of
    /// them (default 100), after the one whose `id` is `after`.
    #[graphql(complexity = "first.unwrap_or(100).max(0) as usize * child_complexity + 2")]
    async fn annotations(
        &self,
        ctx: &Context<'_>,
        #[graphql(default)] include_withdrawn: bool,
        first: Option<i32>,
        after: Option<u32>,
    ) -> Result<Vec<super::journal::Annotation>> {
        let first = super::journal::page_size(ctx, first)?;
        let journal = super::journal::read(ctx, self.header.id).await?;
        let shown = journal
            .annotations()
            .iter()
            .filter(|a| include_withdrawn || !a.withdrawn);
        Ok(super::journal::page(shown, |a| a.id, first, after))
    }

    /// How many notes the game's journal holds (takebacks asked, answered and carried out,
    /// annotations, corrections). A live viewer reads it before the game's line and passes it
    /// to `gameUpdates(fromNote:)` with the line's length as `fromPly`, so a takeback made
    /// between its reads and its subscription is told, not missed.
    async fn journal_notes(&self, ctx: &Context<'_>) -> Result<u32> {
        let journal = super::journal::read(ctx, self.header.id).await?;
        Ok(journal.notes.len() as u32)
    }

    /// Every takeback asked, with where it stands. A page: `first` of them (default 100),
    /// after the one whose `request` is `after`.
    #[graphql(complexity = "first.unwrap_or(100).max(0) as usize * child_complexity + 2")]
    async fn takebacks(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<u32>,
    ) -> Result<Vec<super::journal::Takeback>> {
        let first = super::journal::page_size(ctx, first)?;
        let journal = super::journal::read(ctx, self.header.id).await?;
        let all = super::journal::takebacks(&journal.notes);
        Ok(super::journal::page(&all, |t| t.request, first, after))
    }

    /// The entries takebacks withdrew, as the chosen perspective may see them: they stay in
    /// the game's history, out of its line. A page: `first` withdrawals (default 100), after
    /// the one whose `request` is `after`.
    #[graphql(complexity = "first.unwrap_or(100).max(0) as usize * child_complexity + 100")]
    async fn withdrawals(
        &self,
        ctx: &Context<'_>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
        first: Option<i32>,
        after: Option<u32>,
    ) -> Result<Vec<super::journal::Withdrawal>> {
        let viewer = perspective::viewer(&self.header, &caller(ctx), seat, perspective)?;
        let page = (super::journal::page_size(ctx, first)?, after);
        let id = self.header.id;
        if !self.finished() {
            // A finished game takes no takeback (and a correction moves the answer cache's
            // keys on): its withdrawals are as fixed as its line.
            super::journal::volatile(ctx);
        }
        let mut journal = super::journal::read_shared(ctx, id).await?;
        let budget = crate::budget::budget(ctx);
        // The journal and the states it is replayed on, read together: again if a takeback
        // came between them (the journal grew since it was read).
        Ok(blocking(app(ctx), move |s| loop {
            let shown =
                super::journal::withdrawals(s, id, &journal.notes, viewer, page, budget.as_deref());
            // Nothing shown, nothing read from the line: the journal as read is the answer.
            let replayed = !matches!(&shown, Ok(w) if w.is_empty());
            if !replayed || s.journal_len(id)? as usize == journal.notes.len() {
                return shown;
            }
            journal = Arc::new(super::journal::Journal::new(s.journal(id)?));
        })
        .await?)
    }

    /// The game's review: where it is (a finished game is reviewed in the background; asking
    /// moves it to the front of the queue), every position's win chances, every seat move
    /// judged with the better move, each seat's accuracy, the turning points. A game in play
    /// is `PENDING`: evaluate its positions with `position { evaluation }`.
    #[graphql(complexity = "100 + child_complexity")]
    async fn evaluation(&self, ctx: &Context<'_>) -> Result<GameEvaluation> {
        Ok(GameEvaluation::of(ctx, &self.header).await?)
    }
    /// The `first` (default 5) largest swings of win chance, with the entry that caused each:
    /// `evaluation { turningPoints }` (empty until the game is reviewed).
    #[graphql(complexity = "100 + child_complexity")]
    async fn turning_points(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
    ) -> Result<Vec<TurningPoint>> {
        Ok(GameEvaluation::of(ctx, &self.header).await?.swings(first)?)
    }

    /// Final scores and winners, once the game is over.
    #[graphql(complexity = "10 + child_complexity")]
    async fn outcome(&self, ctx: &Context<'_>) -> Result<Option<OutcomeInfo>> {
        if !self.finished() {
            return Ok(None);
        }
        let plies = self.header.plies;
        let (header, pinned) = (self.header.clone(), self.pinned.clone());
        let state = blocking(app(ctx), move |s| {
            revision::state_at(s, &header, pinned.as_deref(), plies)
        })
        .await?;
        Ok(state.outcome().as_ref().map(OutcomeInfo::from))
    }

    /// The game's portable record (`schema/game-record.schema.json`), one JSON line as
    /// `ludolog export` writes it — of the revision shown, with its annotations — once the game
    /// is over; null while it is played (the record holds the seed and every draw dealt).
    #[graphql(complexity = 20)]
    async fn record(&self, ctx: &Context<'_>) -> Result<Option<String>> {
        if !self.finished() {
            return Ok(None);
        }
        let record = self.portable(ctx).await?;
        let line = serde_json::to_string(&record).map_err(|e| ApiError::Internal(e.to_string()))?;
        crate::budget::charge_str(ctx, &line)?;
        Ok(Some(line))
    }

    /// The game as game text (`schema/notation/game-text.md`: what `ludolog export --text`
    /// writes, annotations as comments) — of the revision shown — once the game is over; null
    /// while it is played.
    #[graphql(complexity = 20)]
    async fn text(&self, ctx: &Context<'_>) -> Result<Option<String>> {
        if !self.finished() {
            return Ok(None);
        }
        let text = store::portable::text::write_record(&self.portable(ctx).await?);
        crate::budget::charge_str(ctx, &text)?;
        Ok(Some(text))
    }

    /// The game's static geometry, typed: one member of `GameLayout` per game — what a viewer
    /// needs to draw it that is in no view (`schema/views/<kind>.md` explains each game's).
    #[graphql(complexity = 5)]
    async fn layout(&self, ctx: &Context<'_>) -> Result<crate::typed::Layout> {
        let json = self.layout_value(ctx)?;
        Ok(crate::typed::Layout::new(self.header.kind, json))
    }

    /// The game's static geometry as JSON (`schema/views/<kind>.layout.schema.json`): what a
    /// viewer needs to draw it that is in no view.
    #[graphql(complexity = 5)]
    async fn layout_json(&self, ctx: &Context<'_>) -> Result<Json<serde_json::Value>> {
        let layout = self.layout_value(ctx)?;
        crate::budget::charge_json(ctx, &layout)?;
        Ok(Json(layout))
    }
}

impl Game {
    /// The portable record of the revision shown (with the annotations the store keeps).
    async fn portable(&self, ctx: &Context<'_>) -> Result<store::portable::GameRecord, ApiError> {
        let (id, pinned) = (self.header.id, self.pinned.clone());
        blocking(app(ctx), move |s| {
            let mut record = s.record(id)?;
            if let Some(p) = pinned {
                for (r, e) in record.entries.iter_mut().zip(&p.entries) {
                    r.notation = e.notation.clone();
                }
            }
            Ok(record)
        })
        .await
    }

    fn layout_value(&self, ctx: &Context<'_>) -> Result<serde_json::Value, ApiError> {
        let rules = app(ctx)
            .store
            .registry()
            .get(self.header.kind)
            .ok_or_else(|| ApiError::Internal("kind not registered".into()))?;
        rules
            .layout(&self.header.options_json())
            .map_err(|e| ApiError::Internal(e.to_string()))
    }
}
