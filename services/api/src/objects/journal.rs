//! What a game's journal shows (`store::journal`): annotations, takeback requests and the
//! entries takebacks withdrew — withdrawn entries as the caller may see them, exactly as the
//! line's own entries are shown (`visible_moves`), so a takeback leaks nothing a replay would
//! not.
//!
//! Anything read from a journal can change while the game's positions cannot (an annotation
//! may come years after the game), so every resolver here marks the answer volatile for the
//! answer cache.
//!
//! A journal is read once per execution of a request ([`Reads`], in the execution's data:
//! see `budget`), however many fields and aliases show it, and its lists are pages (`first`,
//! `after` an item's number). Comments are shared, not copied, until a field shows one, and
//! that field charges the response budget first.

use super::entries::visible_moves;
use crate::error::ApiError;
use crate::schema::{app, blocking};
use crate::types::Move;
use async_graphql::{ComplexObject, Context, Enum, SimpleObject};
use chrono::{DateTime, Utc};
use rules_core::Viewer;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use store::journal::{self, Note, NoteBody, TakebackOutcome};
use store::{GameId, GameLog};

/// A comment and/or a glyph on a position.
#[derive(SimpleObject, Clone)]
#[graphql(complex)]
pub struct Annotation {
    /// Its number in the game's journal.
    pub id: u32,
    /// The position it is on (0: the start; n: after entry n).
    pub ply: u32,
    /// `!`, `?`, `!!`, `??`, `!?` or `?!`.
    pub glyph: Option<String>,
    /// Shared by every copy of the annotation an answer holds (see [`Annotation::comment`]).
    #[graphql(skip)]
    pub comment: Arc<str>,
    /// A seat number, `recorder`, `analyst:NAME`, `admin`, or `imported` (a record's comments).
    pub author: String,
    pub at: DateTime<Utc>,
    /// True when a later takeback withdrew the position it is on.
    pub withdrawn: bool,
}

#[ComplexObject]
impl Annotation {
    /// The comment (empty when the annotation is a glyph alone).
    async fn comment(&self, ctx: &Context<'_>) -> async_graphql::Result<&str> {
        crate::budget::charge_str(ctx, &self.comment)?;
        Ok(&self.comment)
    }
}

impl From<journal::Annotation> for Annotation {
    fn from(a: journal::Annotation) -> Self {
        Annotation {
            id: a.seq,
            ply: a.ply,
            glyph: a.glyph.map(|g| g.as_str().to_string()),
            comment: Arc::from(a.comment),
            author: a.by.to_string(),
            at: a.at,
            withdrawn: a.withdrawn,
        }
    }
}

/// A game's journal as one execution read it, with what its fields derive from it.
pub struct Journal {
    pub notes: Vec<Note>,
    /// Every annotation, withdrawn or not, made the first time a field asks.
    annotations: OnceLock<Vec<Annotation>>,
}

impl Journal {
    pub fn new(notes: Vec<Note>) -> Journal {
        Journal {
            notes,
            annotations: OnceLock::new(),
        }
    }

    /// Every annotation in the order written, withdrawn ones included.
    pub fn annotations(&self) -> &[Annotation] {
        self.annotations
            .get_or_init(|| annotations(&self.notes, true))
    }
}

/// The journals one execution has read, by game: each read once, by the first field that
/// asks, and shared by the rest (sixty-four aliases of `annotations` are one read). Reads
/// are made one at a time and each is charged to the execution's budget (its notes' bytes),
/// so what an execution holds of journals stays within its budget however many games it
/// names: a hundred games with full journals are not a hundred megabytes read at once.
#[derive(Default)]
pub struct Reads {
    cells: Mutex<HashMap<GameId, Arc<tokio::sync::OnceCell<Arc<Journal>>>>>,
    one_at_a_time: tokio::sync::Mutex<()>,
}

impl Reads {
    fn cell(&self, game: GameId) -> Arc<tokio::sync::OnceCell<Arc<Journal>>> {
        self.cells
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(game)
            .or_default()
            .clone()
    }
}

/// Forgets what this execution read of `game`'s journal: a mutation wrote to it, and what
/// is read after must show it.
pub fn forget(ctx: &Context<'_>, game: GameId) {
    if let Some(reads) = ctx.data_opt::<Reads>() {
        reads
            .cells
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&game);
    }
}

/// The page size of a journal's list: `first`, by default as many as a page may hold (at
/// most 100, what each list's complexity counts when `first` is not given).
pub fn page_size(ctx: &Context<'_>, first: Option<i32>) -> Result<usize, ApiError> {
    let app = app(ctx);
    crate::schema::page(app, first.or(Some(app.config.max_page.min(100) as i32)))
}

/// The page of `items` (numbered by `number`, in increasing order) after number `after`:
/// `first` of them.
pub fn page<'a, T: Clone + 'a>(
    items: impl IntoIterator<Item = &'a T>,
    number: impl Fn(&T) -> u32,
    first: usize,
    after: Option<u32>,
) -> Vec<T> {
    items
        .into_iter()
        .filter(|i| after.is_none_or(|a| number(i) > a))
        .take(first)
        .cloned()
        .collect()
}

#[derive(Enum, Clone, Copy, PartialEq, Eq)]
pub enum TakebackStatus {
    /// Waiting on an answer.
    Open,
    Refused,
    /// Accepted and carried out: the line was taken back.
    Withdrawn,
}

/// A request to take the line back.
#[derive(SimpleObject, Clone)]
pub struct Takeback {
    /// The request's number (what `answerTakeback` names).
    pub request: u32,
    /// A seat number, or `recorder`.
    pub asked_by: String,
    /// The line is to have this many entries (position `toPly` becomes the latest).
    pub to_ply: u32,
    /// Seats that have accepted so far.
    pub accepted_by: Vec<u8>,
    pub status: TakebackStatus,
}

/// Entries a takeback withdrew, as the caller may see them.
#[derive(SimpleObject, Clone)]
pub struct Withdrawal {
    pub request: u32,
    /// The line was taken back to this many entries.
    pub to_ply: u32,
    /// Who carried it out: the recorder, or the seat whose acceptance completed it.
    pub by: String,
    pub at: DateTime<Utc>,
    /// The withdrawn entries, numbered as they were.
    pub moves: Vec<Move>,
}

/// Marks the request's answer as not to be kept by the answer cache.
pub fn volatile(ctx: &Context<'_>) {
    if let Some(reads) = ctx.data_opt::<Arc<crate::http::cache::ReadSet>>() {
        reads.volatile();
    }
}

pub fn annotations(notes: &[Note], include_withdrawn: bool) -> Vec<Annotation> {
    journal::annotations(notes)
        .into_iter()
        .filter(|a| include_withdrawn || !a.withdrawn)
        .map(Annotation::from)
        .collect()
}

pub fn takebacks(notes: &[Note]) -> Vec<Takeback> {
    journal::takebacks(notes)
        .into_iter()
        .map(|t| Takeback {
            request: t.request,
            asked_by: t.asked_by.to_string(),
            to_ply: t.to_ply,
            accepted_by: t.accepted.iter().map(|s| s.0).collect(),
            status: match t.outcome {
                TakebackOutcome::Open => TakebackStatus::Open,
                TakebackOutcome::Refused => TakebackStatus::Refused,
                TakebackOutcome::Withdrawn => TakebackStatus::Withdrawn,
            },
        })
        .collect()
}

/// A page of a journal's withdrawals (`first` of them, after request number `after`), their
/// entries as `viewer` may see them (each replayed from the position it was withdrawn to,
/// which the line still has: a takeback only shortens it). Each is charged to `budget` as it
/// is made, so a page past the response limit stops there.
pub fn withdrawals(
    s: &dyn GameLog,
    game: store::GameId,
    notes: &[Note],
    viewer: Viewer,
    (first, after): (usize, Option<u32>),
    budget: Option<&crate::budget::Budget>,
) -> Result<Vec<Withdrawal>, ApiError> {
    let mut out = Vec::new();
    for n in notes {
        if out.len() >= first {
            break;
        }
        if let NoteBody::Withdrawn {
            request,
            to_ply,
            entries,
        } = &n.body
        {
            if after.is_some_and(|a| *request <= a) {
                continue;
            }
            let state = state_as_of(s, game, notes, n.seq, *to_ply)?;
            let moves = visible_moves(state, entries, viewer)?;
            if let Some(b) = budget {
                b.charge(moves.iter().map(move_json_len).sum())?;
            }
            out.push(Withdrawal {
                request: *request,
                to_ply: *to_ply,
                by: n.by.to_string(),
                at: n.at,
                moves,
            });
        }
    }
    Ok(out)
}

/// About what a move takes in an answer: its texts, and room for its other fields.
fn move_json_len(m: &Move) -> usize {
    use crate::budget::str_json_len;
    str_json_len(&m.notation) + str_json_len(&m.description) + str_json_len(&m.actor) + 120
}

/// The position after `ply` entries as the line stood when note `seq` was written (before
/// it took effect): the current line's, unless a later takeback has since withdrawn part of the way there, in
/// which case it is rebuilt from the current line and the withdrawn entries.
pub fn state_as_of(
    s: &dyn GameLog,
    game: store::GameId,
    notes: &[Note],
    seq: u32,
    ply: u32,
) -> Result<Box<dyn rules_core::GameState>, ApiError> {
    // The shortest the line has been since note `seq`: up to there, it is today's line.
    let floor = notes
        .iter()
        .filter(|n| n.seq >= seq)
        .filter_map(|n| match &n.body {
            NoteBody::Withdrawn { to_ply, .. } => Some(*to_ply),
            _ => None,
        })
        .min()
        .unwrap_or(u32::MAX)
        .min(ply);
    let mut state = s.state_at(game, floor)?;
    for at in floor..ply {
        let e = entry_as_of(s, game, notes, seq, at)?;
        state
            .apply(e.actor, &e.notation)
            .map_err(|err| ApiError::Internal(err.to_string()))?;
    }
    Ok(state)
}

/// Entry `ply` as the line had it when note `seq` was written (before it took effect): held
/// by the first takeback from then on that withdrew it, or else still in the line.
pub fn entry_as_of(
    s: &dyn GameLog,
    game: store::GameId,
    notes: &[Note],
    seq: u32,
    ply: u32,
) -> Result<store::Entry, ApiError> {
    let held = notes
        .iter()
        .filter(|n| n.seq >= seq)
        .find_map(|n| match &n.body {
            NoteBody::Withdrawn { entries, .. } => entries.iter().find(|e| e.ply == ply).cloned(),
            _ => None,
        });
    match held {
        Some(e) => Ok(e),
        None => s
            .entries(game, ply, ply + 1)?
            .pop()
            .ok_or_else(|| ApiError::Internal(format!("entry {ply} is missing"))),
    }
}

/// A game's journal, read on the blocking pool once per execution ([`Reads`]); the answer
/// is marked volatile (see the module's documentation).
pub async fn read(ctx: &Context<'_>, game: GameId) -> Result<Arc<Journal>, ApiError> {
    volatile(ctx);
    read_shared(ctx, game).await
}

/// As [`read`], leaving the answer cacheable: for readers whose answer cannot change (a
/// finished game's withdrawals, a pinned revision).
pub async fn read_shared(ctx: &Context<'_>, game: GameId) -> Result<Arc<Journal>, ApiError> {
    let app = app(ctx);
    let Some(reads) = ctx.data_opt::<Reads>() else {
        let notes = blocking(app, move |s| Ok(s.journal(game)?)).await?;
        return Ok(Arc::new(Journal::new(notes)));
    };
    let budget = crate::budget::budget(ctx);
    let fetch = || async {
        let _one = reads.one_at_a_time.lock().await;
        if let Some(b) = &budget {
            // Spent already: nothing more is read.
            b.charge(0)?;
        }
        let (notes, bytes) = blocking(app, move |s| {
            let notes = s.journal(game)?;
            let bytes = journal::JournalSize::of(&notes).bytes;
            Ok((notes, bytes))
        })
        .await?;
        if let Some(b) = &budget {
            b.charge(usize::try_from(bytes).unwrap_or(usize::MAX))?;
        }
        Ok::<_, ApiError>(Arc::new(Journal::new(notes)))
    };
    reads.cell(game).get_or_try_init(fetch).await.cloned()
}
