//! A finished game's revisions (`store::revision`): what each correction changed, who made it,
//! when and why, and any revision read back as a whole `Game` — `game(id:, revision:)` or
//! `Game.revisions { game }` — whose positions, moves, replays and outcome are that revision's.
//!
//! A revision's log is materialised (the current log with later corrections undone) and
//! replayed from the start for each read: a revision other than the latest is read rarely,
//! and a pinned answer never changes, so HTTP caches are told to keep it for good.

use super::game::Game;
use crate::error::ApiError;
use crate::schema::{app, blocking};
use async_graphql::{Context, Object, Result, SimpleObject};
use chrono::{DateTime, Utc};
use rules_core::GameState;
use std::sync::Arc;
use store::{Entry, GameLog, Header};

/// One revision's whole log, read consistently with the journal it was derived from.
pub struct Pinned {
    pub entries: Vec<Entry>,
}

impl Pinned {
    /// Revision `revision` of game `id`, or `NOT_FOUND` when it has none such, from its
    /// journal as `known` (read earlier in the request, if it was). The journal's length is
    /// read again after the log: a correction in between is read again whole.
    pub fn read(
        s: &dyn GameLog,
        id: store::GameId,
        revision: u32,
        mut known: Option<Arc<super::journal::Journal>>,
    ) -> Result<(Header, Pinned), ApiError> {
        loop {
            let journal = match known.take() {
                Some(j) => j,
                None => Arc::new(super::journal::Journal::new(s.journal(id)?)),
            };
            let notes = &journal.notes;
            let header = s.header(id)?;
            let current = s.entries(id, 0, header.plies)?;
            if s.journal_len(id)? as usize != notes.len() {
                continue;
            }
            let latest = store::revision::latest(notes);
            let entries = store::revision::log_at(&current, notes, revision).ok_or_else(|| {
                ApiError::NotFound(format!(
                    "game {id} has revisions 0 to {latest}, not {revision}"
                ))
            })?;
            let mut header = header;
            header.revision = revision;
            return Ok((header, Pinned { entries }));
        }
    }

    /// The state after `ply` entries of this revision.
    pub fn state_at(
        &self,
        s: &dyn GameLog,
        header: &Header,
        ply: u32,
    ) -> Result<Box<dyn GameState>, ApiError> {
        let upto = (ply as usize).min(self.entries.len());
        Ok(store::revision::replay(
            s.registry(),
            header,
            &self.entries[..upto],
        )?)
    }

    /// Entries `from..to` of this revision.
    pub fn entries(&self, from: u32, to: u32) -> Vec<Entry> {
        let to = (to as usize).min(self.entries.len());
        let from = (from as usize).min(to);
        self.entries[from..to].to_vec()
    }
}

/// Reads the state after `ply` entries: of the pinned revision, or of the store's line.
pub fn state_at(
    s: &dyn GameLog,
    header: &Header,
    pinned: Option<&Pinned>,
    ply: u32,
) -> Result<Box<dyn GameState>, ApiError> {
    match pinned {
        Some(p) => p.state_at(s, header, ply),
        None => Ok(s.state_at(header.id, ply)?),
    }
}

/// Reads entries `from..to`: of the pinned revision, or of the store's line.
pub fn entries(
    s: &dyn GameLog,
    header: &Header,
    pinned: Option<&Pinned>,
    from: u32,
    to: u32,
) -> Result<Vec<Entry>, ApiError> {
    match pinned {
        Some(p) => Ok(p.entries(from, to)),
        None => Ok(s.entries(header.id, from, to)?),
    }
}

/// One entry a correction changed.
#[derive(SimpleObject, Clone)]
pub struct CorrectedEntry {
    /// The entry, numbered as everywhere (entry n leads to position n).
    pub ply: u32,
    /// A seat number, or `dealer`.
    pub actor: String,
    /// Its text before the correction.
    pub was: String,
    /// Its text after it.
    pub now: String,
}

/// A revision of a finished game: 0 is the game as recorded, each later one a correction.
pub struct Revision {
    pub(crate) game: store::GameId,
    pub(crate) inner: store::revision::Revision,
}

#[Object]
impl Revision {
    /// 0: as recorded; n: after the n-th correction.
    async fn number(&self) -> u32 {
        self.inner.number
    }
    /// Who corrected it (`admin`); null for revision 0.
    async fn author(&self) -> Option<String> {
        self.inner.by.as_ref().map(|a| a.to_string())
    }
    async fn at(&self) -> Option<DateTime<Utc>> {
        self.inner.at
    }
    /// Why (empty for revision 0).
    async fn reason(&self) -> &str {
        &self.inner.reason
    }
    /// The entries this correction changed.
    async fn changes(&self) -> Vec<CorrectedEntry> {
        self.inner
            .changes
            .iter()
            .map(|c| CorrectedEntry {
                ply: c.ply + 1,
                actor: c.actor.to_string(),
                was: c.was.clone(),
                now: c.now.clone(),
            })
            .collect()
    }
    /// The game as of this revision: its moves, positions, replay and outcome.
    #[graphql(complexity = "20 + child_complexity")]
    async fn game(&self, ctx: &Context<'_>) -> Result<Game> {
        Ok(Game::pinned(ctx, self.game, self.inner.number).await?)
    }
}

impl Game {
    /// Game `id` as of `revision`.
    pub async fn pinned(
        ctx: &Context<'_>,
        id: store::GameId,
        revision: u32,
    ) -> Result<Game, ApiError> {
        // An answer pinned to a revision never changes: the read leaves it cacheable.
        let journal = super::journal::read_shared(ctx, id).await?;
        let (header, pinned) = blocking(app(ctx), move |s| {
            Pinned::read(s, id, revision, Some(journal))
        })
        .await?;
        Ok(Game::with_pinned(header, Arc::new(pinned)))
    }
}
