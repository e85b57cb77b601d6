//! What a game's journal shows (`store::journal`): annotations, takeback requests and the
//! entries takebacks withdrew — withdrawn entries as the caller may see them, exactly as the
//! line's own entries are shown (`visible_moves`), so a takeback leaks nothing a replay would
//! not.
//!
//! Anything read from a journal can change while the game's positions cannot (an annotation
//! may come years after the game), so every resolver here marks the answer volatile for the
//! answer cache.

use super::entries::visible_moves;
use crate::error::ApiError;
use crate::schema::app;
use crate::types::Move;
use async_graphql::{Context, Enum, SimpleObject};
use chrono::{DateTime, Utc};
use rules_core::Viewer;
use std::sync::Arc;
use store::journal::{self, Note, NoteBody, TakebackOutcome};
use store::GameLog;

/// A comment and/or a glyph on a position.
#[derive(SimpleObject, Clone)]
pub struct Annotation {
    /// Its number in the game's journal.
    pub id: u32,
    /// The position it is on (0: the start; n: after entry n).
    pub ply: u32,
    /// `!`, `?`, `!!`, `??`, `!?` or `?!`.
    pub glyph: Option<String>,
    pub comment: String,
    /// A seat number, `recorder`, `analyst:NAME`, `admin`, or `imported` (a record's comments).
    pub author: String,
    pub at: DateTime<Utc>,
    /// True when a later takeback withdrew the position it is on.
    pub withdrawn: bool,
}

impl From<journal::Annotation> for Annotation {
    fn from(a: journal::Annotation) -> Self {
        Annotation {
            id: a.seq,
            ply: a.ply,
            glyph: a.glyph.map(|g| g.as_str().to_string()),
            comment: a.comment,
            author: a.by.to_string(),
            at: a.at,
            withdrawn: a.withdrawn,
        }
    }
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

/// Every withdrawal of a journal, its entries as `viewer` may see them (each replayed from the
/// position it was withdrawn to, which the line still has: a takeback only shortens it).
pub fn withdrawals(
    s: &dyn GameLog,
    game: store::GameId,
    notes: &[Note],
    viewer: Viewer,
) -> Result<Vec<Withdrawal>, ApiError> {
    let mut out = Vec::new();
    for n in notes {
        if let NoteBody::Withdrawn {
            request,
            to_ply,
            entries,
        } = &n.body
        {
            let state = state_as_of(s, game, notes, n.seq, *to_ply)?;
            out.push(Withdrawal {
                request: *request,
                to_ply: *to_ply,
                by: n.by.to_string(),
                at: n.at,
                moves: visible_moves(state, entries, viewer)?,
            });
        }
    }
    Ok(out)
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

/// Reads a game's journal on the blocking pool.
pub async fn read(ctx: &Context<'_>, game: store::GameId) -> Result<Vec<Note>, ApiError> {
    volatile(ctx);
    crate::schema::blocking(app(ctx), move |s| Ok(s.journal(game)?)).await
}
