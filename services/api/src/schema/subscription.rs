//! `Subscription`: `gameUpdates`, every entry of a game from a ply on, then each new one as it
//! is played, with the JSON Patch that brings the subscriber's board along.

use super::{app, blocking, caller, parse_id};
use crate::error::ApiError;
use crate::objects::journal::{self, Annotation, Takeback};
use crate::perspective::{self, Perspective};
use crate::App;
use async_graphql::{Context, Json, Result, SimpleObject, Subscription, ID};
use futures_util::Stream;
use rules_core::{GameState, Viewer};
use std::collections::VecDeque;
use std::sync::Arc;
use store::journal::{Note, NoteBody};
use store::{GameId, Status};

/// What an update is about.
#[derive(async_graphql::Enum, Clone, Copy, PartialEq, Eq)]
pub enum UpdateKind {
    /// An entry of the line.
    Entry,
    /// A takeback was asked (`takeback` says by whom and to which ply).
    TakebackAsked,
    /// A takeback request was answered.
    TakebackAnswered,
    /// The line was taken back to `ply` entries: `patch` brings the board back there, and
    /// entries after it no longer count (the next update continues from `ply`).
    Withdrawn,
    /// An annotation was written (`annotation`).
    Annotation,
    /// The finished game's record was corrected by an admin (a new revision: see
    /// `Game.revisions`): `patch` brings the board to the record as it now reads.
    Corrected,
}

/// One entry of a followed game, as the subscriber may see it; or, from the game's journal, a
/// takeback asked, answered or carried out, or an annotation.
#[derive(SimpleObject, Clone)]
pub struct GameUpdate {
    pub kind: UpdateKind,
    /// The ply the entry leads to (entry `n` turns position `n − 1` into position `n`).
    pub ply: u32,
    /// A seat number, or `dealer`.
    pub actor: String,
    /// The entry in notation; `hidden` where the rules keep it from this subscriber.
    #[graphql(name = "move")]
    pub notation: String,
    /// The entry in words, as this subscriber may know it.
    pub description: String,
    pub recorded_at: chrono::DateTime<chrono::Utc>,
    /// The JSON Patch (RFC 6902) from this subscriber's view at `ply − 1` to its view at
    /// `ply`: applied to `position(ply: fromPly) { view }`, it keeps a live board current.
    pub patch: Json<serde_json::Value>,
    /// Whether the game is over after this entry (the stream then ends).
    pub finished: bool,
    /// The request, for takeback updates, as it stands after this one.
    pub takeback: Option<Takeback>,
    /// The annotation, for an annotation update.
    pub annotation: Option<Annotation>,
    /// How many of the game's journal notes the stream has told with this update: a
    /// subscriber that reconnects with `fromPly: ply, fromNote: journal` resumes right after
    /// it, takebacks made meanwhile included.
    pub journal: u32,
}

impl GameUpdate {
    /// An update about note `n`, the line being at `ply`.
    fn note(kind: UpdateKind, n: &Note, ply: u32, description: String) -> GameUpdate {
        GameUpdate {
            kind,
            ply,
            actor: n.by.to_string(),
            notation: String::new(),
            description,
            recorded_at: n.at,
            patch: Json(serde_json::json!([])),
            finished: false,
            takeback: None,
            annotation: None,
            journal: n.seq + 1,
        }
    }
}

/// Where a stream stands: the position it has sent up to, and the view there.
struct Cursor {
    app: Arc<App>,
    id: GameId,
    viewer: Viewer,
    next: u32,
    /// The first journal note not yet looked at.
    next_note: u32,
    state: Option<(Box<dyn GameState>, serde_json::Value)>,
    buf: VecDeque<GameUpdate>,
    done: bool,
}

impl Cursor {
    /// Reads what is new (at most 100 entries), as updates. `Ok(true)` when the game is over
    /// and everything was read.
    async fn read(&mut self) -> Result<bool, ApiError> {
        let (id, viewer, from, first_note) = (self.id, self.viewer, self.next, self.next_note);
        let state = self.state.take();
        let (updates, state, next, next_note, over) = blocking(&self.app, move |s| {
            // Header, journal, entries, then the journal's length again: a takeback between
            // the reads would mix two lines, so the reads are made again until none came.
            loop {
                let h = s.header(id)?;
                let notes = s.journal(id)?;
                let told = notes.len();
                let mut read = Read::new(s, id, viewer, from, state.as_ref(), notes);
                read.notes_from(first_note as usize)?;
                let to = h.plies.min(read.next.saturating_add(100));
                let finished = h.status == Status::Finished;
                read.line(to, finished.then_some(h.plies))?;
                if s.journal(id)?.len() != told {
                    continue;
                }
                let Read {
                    out, state, next, ..
                } = read;
                return Ok((out, state, next, told as u32, finished && to == h.plies));
            }
        })
        .await?;
        self.next = next;
        self.next_note = next_note;
        self.state = state;
        self.buf.extend(updates);
        Ok(over)
    }
}

/// One read of a cursor: the updates it makes, the position it reaches.
struct Read<'a> {
    s: &'a dyn store::GameLog,
    id: GameId,
    viewer: Viewer,
    next: u32,
    state: Option<(Box<dyn GameState>, serde_json::Value)>,
    out: Vec<GameUpdate>,
    /// The journal, and the note whose time the positions are read as of (`None`: now).
    notes: Vec<Note>,
    as_of: Option<u32>,
    /// Journal notes told so far.
    told: u32,
}

impl<'a> Read<'a> {
    fn new(
        s: &'a dyn store::GameLog,
        id: GameId,
        viewer: Viewer,
        next: u32,
        state: Option<&(Box<dyn GameState>, serde_json::Value)>,
        notes: Vec<Note>,
    ) -> Self {
        Read {
            s,
            id,
            viewer,
            next,
            state: state.map(|(st, v)| (st.clone_box(), v.clone())),
            out: Vec::new(),
            notes,
            as_of: None,
            told: 0,
        }
    }

    fn at(&mut self) -> Result<(Box<dyn GameState>, serde_json::Value), ApiError> {
        match self.state.take() {
            Some(sv) => Ok(sv),
            None => {
                let st = match self.as_of {
                    Some(seq) => {
                        journal::state_as_of(self.s, self.id, &self.notes, seq, self.next)?
                    }
                    None => self.s.state_at(self.id, self.next)?,
                };
                let v = st.view(self.viewer);
                Ok((st, v))
            }
        }
    }

    /// Sends `entries` (which start at `self.next`).
    fn send(&mut self, entries: &[store::Entry], end: Option<u32>) -> Result<(), ApiError> {
        let (mut state, mut view) = self.at()?;
        for e in entries {
            let notation = state.entry_text(e.actor, &e.notation, self.viewer);
            let description = state.describe(e.actor, &e.notation, self.viewer);
            state
                .apply(e.actor, &e.notation)
                .map_err(|err| ApiError::Internal(err.to_string()))?;
            let after = state.view(self.viewer);
            let patch = serde_json::to_value(json_patch::diff(&view, &after)).unwrap_or_default();
            view = after;
            self.out.push(GameUpdate {
                kind: UpdateKind::Entry,
                ply: e.ply + 1,
                actor: e.actor.to_string(),
                notation,
                description,
                recorded_at: e.recorded_at,
                patch: Json(patch),
                finished: end == Some(e.ply + 1),
                takeback: None,
                annotation: None,
                journal: self.told,
            });
            self.next = e.ply + 1;
        }
        self.state = Some((state, view));
        Ok(())
    }

    /// The current line up to `to` entries (`end`: the game's length, when it is over).
    fn line(&mut self, to: u32, end: Option<u32>) -> Result<(), ApiError> {
        if self.next < to {
            let entries = self.s.entries(self.id, self.next, to)?;
            self.send(&entries, end)?;
        }
        Ok(())
    }

    /// The updates of the journal's notes from `first` on, each read as of its own time.
    fn notes_from(&mut self, first: usize) -> Result<(), ApiError> {
        self.told = first as u32;
        for i in first..self.notes.len() {
            let n = self.notes[i].clone();
            self.as_of = Some(n.seq);
            self.told = n.seq;
            self.note(&n)?;
        }
        self.as_of = None;
        self.told = self.notes.len() as u32;
        Ok(())
    }

    /// The updates note `n` makes: first the entries the line had when it was written, then
    /// the note itself.
    fn note(&mut self, n: &Note) -> Result<(), ApiError> {
        if self.next < n.plies {
            let entries = (self.next..n.plies)
                .map(|p| journal::entry_as_of(self.s, self.id, &self.notes, n.seq, p))
                .collect::<Result<Vec<_>, _>>()?;
            self.send(&entries, None)?;
        }
        // A request as it stood after note `n`.
        let takeback = |notes: &[Note], request: u32| {
            journal::takebacks(&notes[..=n.seq as usize])
                .into_iter()
                .find(|t| t.request == request)
        };
        let mut u = match &n.body {
            NoteBody::TakebackAsked { to_ply } => {
                let mut u = GameUpdate::note(
                    UpdateKind::TakebackAsked,
                    n,
                    self.next,
                    format!("{} asks to take back to ply {to_ply}", n.by),
                );
                u.takeback = takeback(&self.notes, n.seq);
                u
            }
            NoteBody::TakebackAnswered { request, accept } => {
                let mut u = GameUpdate::note(
                    UpdateKind::TakebackAnswered,
                    n,
                    self.next,
                    format!(
                        "{} {} takeback request {request}",
                        n.by,
                        if *accept { "accepts" } else { "refuses" }
                    ),
                );
                u.takeback = takeback(&self.notes, *request);
                u
            }
            NoteBody::Withdrawn {
                request, to_ply, ..
            } => {
                let (_, view) = self.at()?;
                let st = journal::state_as_of(self.s, self.id, &self.notes, n.seq, *to_ply)?;
                let after = st.view(self.viewer);
                let patch =
                    serde_json::to_value(json_patch::diff(&view, &after)).unwrap_or_default();
                self.state = Some((st, after));
                self.next = *to_ply;
                let mut u = GameUpdate::note(
                    UpdateKind::Withdrawn,
                    n,
                    *to_ply,
                    format!("the line is taken back to ply {to_ply}"),
                );
                u.patch = Json(patch);
                u.takeback = takeback(&self.notes, *request);
                u
            }
            NoteBody::Corrected { revision, .. } => {
                let (_, view) = self.at()?;
                let st = self.s.state_at(self.id, self.next)?;
                let after = st.view(self.viewer);
                let patch =
                    serde_json::to_value(json_patch::diff(&view, &after)).unwrap_or_default();
                self.state = Some((st, after));
                let mut u = GameUpdate::note(
                    UpdateKind::Corrected,
                    n,
                    self.next,
                    format!("the record is corrected: revision {revision}"),
                );
                u.patch = Json(patch);
                u
            }
            NoteBody::Annotation { ply, .. } => {
                let mut u = GameUpdate::note(
                    UpdateKind::Annotation,
                    n,
                    self.next,
                    format!("{} annotates ply {ply}", n.by),
                );
                u.annotation = journal::annotations(&self.notes[..=n.seq as usize], true).pop();
                u
            }
        };
        u.ply = self.next;
        self.out.push(u);
        Ok(())
    }
}

pub struct Subscription;

#[Subscription]
impl Subscription {
    /// Every entry from position `fromPly` on (default 0: the whole game), then each new one as
    /// it is played: in order, without gap or repeat, as the chosen perspective sees them (see
    /// `Position.view`). Takebacks asked, answered and carried out, and annotations, come as
    /// they are written. A subscriber that falls behind catches up from the store; one that
    /// reconnects passes the last update's `ply` as `fromPly` and its `journal` as `fromNote`,
    /// and is told what happened meanwhile, takebacks included.
    async fn game_updates(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        from_ply: Option<u32>,
        from_note: Option<u32>,
        seat: Option<u8>,
        perspective: Option<Perspective>,
    ) -> Result<impl Stream<Item = GameUpdate>> {
        let app = app(ctx).clone();
        let id = parse_id(&game_id)?;
        let caller = caller(ctx);
        // The journal first: a takeback after it is sent as an update, not skipped. Without
        // `fromNote` the journal so far is history, and the stream tells what comes next.
        let (first_note, line_then, header) = blocking(&app, move |s| {
            let notes = s.journal(id)?;
            let h = s.header(id)?;
            let first = from_note.unwrap_or(notes.len() as u32);
            let Some(line_then) = notes
                .get(first as usize)
                .map(|n| n.plies)
                .or((first as usize == notes.len()).then_some(h.plies))
            else {
                return Err(ApiError::BadInput(format!(
                    "fromNote {first} is past the game's journal ({} notes)",
                    notes.len()
                )));
            };
            Ok((first, line_then, h))
        })
        .await?;
        let viewer = perspective::viewer(&header, &caller, seat, perspective)?;
        let start = from_ply.unwrap_or(0);
        if start > line_then {
            return Err(ApiError::BadInput(format!(
                "fromPly {start} is past the end of the game ({line_then} plies)"
            ))
            .into());
        }
        let rx = app.hub.subscribe(id);
        app.metrics
            .subscriptions
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let cursor = Cursor {
            app,
            id,
            viewer,
            next: start,
            next_note: first_note,
            state: None,
            buf: VecDeque::new(),
            done: false,
        };
        // The broadcast only wakes the stream: entries always come from the store, from the next
        // ply not yet sent, so a lagging subscriber catches up and nothing is sent twice.
        Ok(futures_util::stream::unfold(
            (cursor, rx),
            |(mut c, mut rx)| async move {
                loop {
                    if let Some(u) = c.buf.pop_front() {
                        return Some((u, (c, rx)));
                    }
                    if c.done {
                        return None;
                    }
                    match c.read().await {
                        Ok(over) => {
                            c.done = over;
                            if !c.buf.is_empty() || over {
                                continue;
                            }
                        }
                        Err(e) => {
                            // The stream ends; the client resubscribes from the last ply it saw.
                            tracing::warn!(game = %c.id, "gameUpdates ended: {}", e.message());
                            return None;
                        }
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
