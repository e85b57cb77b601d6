//! The storage trait: what the store's callers (the API, the analysis, the command line) may
//! ask of a backend, so that the game logs can live in sled on one machine (the embedded
//! default, [`Store`]) or on a replicated engine beside it (issue 15), behind one interface.
//!
//! Two halves, both required of every backend:
//! - **the logs**: create (dealing entry 0), append (validated, with the expected ply and an
//!   idempotency key), read a header, entries, the state at any ply, list, import;
//! - **node-local projections**: named key-value spaces for derived data that each node
//!   keeps for itself and rebuilds from the logs (summaries, statistics), plus
//!   [`GameLog::dir`] for files kept beside them (the position index). A backend whose logs
//!   are remote still keeps these on the node's own disk;
//! - **operations**: disk gauges and a consistent backup while serving.
//!
//! The trait is synchronous, as the store always was: async callers go through
//! `spawn_blocking`, and a networked backend blocks on its own runtime there. It is
//! object-safe (`&dyn GameLog`), so a caller is compiled once for every backend.
//!
//! Portable records ([`GameLog::record`], [`GameLog::export`]) are provided: they are reads,
//! the same for every backend, which is what makes an export byte-identical across them.

use crate::journal::{NewNote, Note, Noted};
use crate::portable::{GameRecord, PreparedImport, RecordEntry, RecordError};
use crate::record::{Entry, Header, Status};
use crate::revision::Correction;
use crate::store::{Append, Appended, BackupReport, Corrected, Filter, FinishHook, NewGame, Page};
use crate::study::{Study, StudyId};
use crate::{GameId, Result, StoreError};
use rules_core::{GameKind, GameState, Registry};
use std::io::Write;
use std::path::Path;

/// One (key, value) of a projection, checksum verified.
pub type ProjectionItem = Result<(Vec<u8>, Vec<u8>)>;

/// Told that a game has grown to `plies` entries (see [`GameLog::on_grow`]).
pub type GrowHook = std::sync::Arc<dyn Fn(GameId, u32) + Send + Sync>;

/// How far a node's projections have read logs that other nodes also write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Followed {
    /// The position of the last entry read (the backend's own sequence numbers).
    pub read: u64,
    /// The position of the last entry of the logs.
    pub end: u64,
}

/// A store of game logs, with node-local projections. See the module documentation.
pub trait GameLog: Send + Sync {
    /// The games this store can hold.
    fn registry(&self) -> &Registry;

    /// Creates a game and deals entry 0 from its seed; returns its header and the entries
    /// written (the deal).
    fn create(&self, g: NewGame) -> Result<(Header, Vec<Entry>)>;

    /// Validates and appends one entry at `expected_ply`; a retry with the same key returns
    /// the first result and writes nothing. A key is the actor's, and within it belongs to
    /// whoever entered the move (`Append::entered_by`, unsaid taken as the seat itself): a
    /// retry by anyone else is `KeyTaken`, whatever move it sends. Durable before it returns.
    fn append(&self, req: Append<'_>) -> Result<Appended>;

    fn header(&self, id: GameId) -> Result<Header>;

    /// Entries `from..to` of a game, in ply order.
    fn entries(&self, id: GameId, from: u32, to: u32) -> Result<Vec<Entry>>;

    /// The state after `ply` entries.
    fn state_at(&self, id: GameId, ply: u32) -> Result<Box<dyn GameState>>;

    /// Games matching `filter`, newest first, `first` at most, after the cursor `after`.
    fn list(&self, filter: &Filter, first: usize, after: Option<GameId>) -> Result<Page>;

    /// Every game id, oldest first.
    fn game_ids(&self) -> Box<dyn Iterator<Item = Result<GameId>> + '_>;

    fn game_count(&self) -> usize;

    /// Registers a hook called when a game ends (by an append or an import).
    fn on_finish(&self, hook: FinishHook);

    /// Checks one portable record whole, writing nothing (see [`Store::prepare_import`]).
    ///
    /// [`Store::prepare_import`]: crate::Store::prepare_import
    fn prepare_import(&self, line_no: u64, line: &str) -> Result<PreparedImport, RecordError>;

    /// Writes a record [`GameLog::prepare_import`] accepted; refused when the game exists.
    fn commit_import(&self, p: PreparedImport) -> Result<Header, RecordError>;

    /// Writes records [`GameLog::prepare_import`] accepted, in order: the answer for each, as
    /// [`GameLog::commit_import`] gives it (a backend may write them together); with
    /// `stop_at_refusal`, the answers up to the first refusal, nothing after it written.
    fn commit_imports(
        &self,
        batch: Vec<PreparedImport>,
        stop_at_refusal: bool,
    ) -> Vec<Result<Header, RecordError>> {
        crate::portable::one_by_one(batch, stop_at_refusal, |p| self.commit_import(p))
    }

    /// Imports one portable record: checked whole, then written.
    fn import_line(&self, line_no: u64, line: &str) -> Result<Header, RecordError> {
        let prepared = self.prepare_import(line_no, line)?;
        self.commit_import(prepared)
    }

    /// Makes every write so far durable (an import batch ends with it).
    fn flush(&self) -> Result<()>;

    /// The node-local folder that derived files live in.
    fn dir(&self) -> &Path;

    fn projection_put(&self, name: &str, key: &[u8], value: &[u8]) -> Result<()>;

    /// The (key, value) pairs of a projection from `from` on, in key order.
    fn projection_range(
        &self,
        name: &str,
        from: &[u8],
    ) -> Result<Box<dyn Iterator<Item = ProjectionItem> + '_>>;

    /// Every (key, value) of a projection, in key order.
    fn projection_iter(&self, name: &str) -> Result<Box<dyn Iterator<Item = ProjectionItem> + '_>> {
        self.projection_range(name, &[])
    }

    fn projection_clear(&self, name: &str) -> Result<()>;

    /// Free bytes where this node writes (`None` when unknown), and whether writes are being
    /// refused for want of space.
    fn free_space(&self) -> (Option<u64>, bool);

    /// Bytes this node's store takes on its disk.
    fn size_on_disk(&self) -> Result<u64>;

    /// Copies the store, consistent and while serving, into the empty folder `dir`.
    fn backup_to(&self, dir: &Path) -> Result<BackupReport>;

    /// The backend's name, for operators: `sled`, `nats-jetstream`.
    fn backend(&self) -> &'static str;

    /// Whether the store can take writes now: a networked backend's cluster answers and has
    /// a quorum. (Disk space is [`GameLog::free_space`].)
    fn check_ready(&self) -> Result<()> {
        Ok(())
    }

    /// Registers a hook told whenever a game grows by an append of another node (live
    /// updates across nodes; possibly also of this node's own). A store only this node writes
    /// never calls it: the appender itself knows.
    fn on_grow(&self, hook: GrowHook) {
        let _ = hook;
    }

    /// How far this node's projections have read the logs, where other nodes write them too;
    /// `None` for a store only this node writes (always caught up).
    fn followed(&self) -> Result<Option<Followed>> {
        Ok(None)
    }

    /// The deployment's state-hash key (what `stateHash`, the position index and the
    /// explorer's node keys are keyed with), kept with the logs so that every node serving
    /// them hashes alike. Where none is kept yet, `proposed` becomes it (of nodes racing, the
    /// first to write wins); the key kept is answered. The embedded store's deployment is its
    /// folder, which keeps its key beside the store: `proposed` is answered.
    fn deployment_key(&self, proposed: [u8; 16]) -> Result<[u8; 16]> {
        Ok(proposed)
    }

    /// A game's journal (takebacks, annotations: see [`crate::journal`]), in order. A backend
    /// that keeps no journals has none to show.
    fn journal(&self, id: GameId) -> Result<Vec<Note>> {
        self.header(id)?;
        Ok(Vec::new())
    }

    /// How many notes a game's journal holds (a backend may answer without reading them).
    fn journal_len(&self, id: GameId) -> Result<u32> {
        Ok(self.journal(id)?.len() as u32)
    }

    /// Writes what a note request decides ([`crate::journal::plan_note`]) under the game's
    /// write lock: notes, and for an accepted takeback the withdrawal of the line's later
    /// entries. Durable before it returns; refused whole, writing nothing — `JournalFull`
    /// when the notes would take the journal past `Config::max_journal_bytes` or
    /// [`crate::journal::MAX_NOTES`] ([`crate::journal::check_room`]).
    fn write_note(&self, note: NewNote) -> Result<Noted>;

    /// Stores a new study (checked with [`crate::study::check`] first); refused if its id is
    /// taken.
    fn put_study(&self, study: &Study) -> Result<()>;

    fn study(&self, id: StudyId) -> Result<Study>;

    /// Corrects a finished game's record as a new revision ([`crate::revision`]): checked by
    /// [`crate::revision::plan_correction`], written whole and durably, and the finish hooks
    /// told again, so that projections follow the latest revision. Refused whole, writing
    /// nothing.
    fn correct(&self, c: Correction) -> Result<Corrected>;

    /// Every corrected game with its latest revision (so a node's projections can tell, on
    /// opening, whether they follow it).
    fn revised_games(&self) -> Result<Vec<(GameId, u32)>> {
        Ok(Vec::new())
    }

    /// The portable record of a stored game.
    fn record(&self, id: GameId) -> Result<GameRecord> {
        let h = self.header(id)?;
        let entries = self.entries(id, 0, h.plies)?;
        Ok(GameRecord {
            id: h.id,
            kind: h.kind.to_string(),
            players: h.players.clone(),
            options: h.options_json(),
            seed: h.seed,
            rules_version: h.rules_version.clone(),
            data_hash: h.data_hash.clone(),
            created_at: h.created_at,
            updated_at: h.updated_at,
            status: h.status,
            entries: entries
                .into_iter()
                .map(|e| RecordEntry {
                    ply: e.ply,
                    actor: e.actor.to_string(),
                    notation: e.notation,
                    at: e.recorded_at,
                    key: e.key,
                    entered_by: e.entered_by.map(|b| b.to_string()),
                })
                .collect(),
            // What the line still has: an annotation a takeback withdrew stays in the journal.
            annotations: crate::journal::annotations(&self.journal(id)?)
                .into_iter()
                .filter(|a| !a.withdrawn && a.ply <= h.plies)
                .map(|a| crate::portable::RecordAnnotation {
                    ply: a.ply,
                    glyph: a.glyph.map(|g| g.as_str().to_string()),
                    comment: a.comment,
                    by: a.by.to_string(),
                    at: a.at,
                })
                .collect(),
        })
    }

    /// Writes every finished game (of `kind`, if given) as NDJSON, in id order; with
    /// `include_active`, active games too — with their seeds and every draw dealt so far, which
    /// tell anyone holding the file what the players may not know (an operator's backup, not a
    /// publication). Returns the count.
    fn export(
        &self,
        kind: Option<GameKind>,
        include_active: bool,
        out: &mut dyn Write,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<u64> {
        let total = self.game_count() as u64;
        let mut done = 0;
        let mut written = 0;
        for id in self.game_ids() {
            let id = id?;
            done += 1;
            let h = self.header(id)?;
            if kind.is_some_and(|k| h.kind != k)
                || (!include_active && h.status != Status::Finished)
            {
                continue;
            }
            let rec = self.record(id)?;
            serde_json::to_writer(&mut *out, &rec)
                .map_err(|e| StoreError::BadInput(e.to_string()))?;
            out.write_all(b"\n")
                .map_err(|e| StoreError::BadInput(e.to_string()))?;
            written += 1;
            progress(done, total);
        }
        Ok(written)
    }
}

/// The embedded default: sled on the local disk.
impl GameLog for crate::Store {
    fn registry(&self) -> &Registry {
        crate::Store::registry(self)
    }
    fn create(&self, g: NewGame) -> Result<(Header, Vec<Entry>)> {
        crate::Store::create(self, g)
    }
    fn append(&self, req: Append<'_>) -> Result<Appended> {
        crate::Store::append(self, req)
    }
    fn header(&self, id: GameId) -> Result<Header> {
        crate::Store::header(self, id)
    }
    fn entries(&self, id: GameId, from: u32, to: u32) -> Result<Vec<Entry>> {
        crate::Store::entries(self, id, from, to)
    }
    fn state_at(&self, id: GameId, ply: u32) -> Result<Box<dyn GameState>> {
        crate::Store::state_at(self, id, ply)
    }
    fn list(&self, filter: &Filter, first: usize, after: Option<GameId>) -> Result<Page> {
        crate::Store::list(self, filter, first, after)
    }
    fn game_ids(&self) -> Box<dyn Iterator<Item = Result<GameId>> + '_> {
        Box::new(crate::Store::game_ids(self))
    }
    fn game_count(&self) -> usize {
        crate::Store::game_count(self)
    }
    fn on_finish(&self, hook: FinishHook) {
        crate::Store::on_finish(self, hook)
    }
    fn prepare_import(&self, line_no: u64, line: &str) -> Result<PreparedImport, RecordError> {
        crate::Store::prepare_import(self, line_no, line)
    }
    fn commit_import(&self, p: PreparedImport) -> Result<Header, RecordError> {
        crate::Store::commit_import(self, p)
    }
    fn commit_imports(
        &self,
        batch: Vec<PreparedImport>,
        stop_at_refusal: bool,
    ) -> Vec<Result<Header, RecordError>> {
        crate::Store::commit_imports(self, batch, stop_at_refusal)
    }
    fn flush(&self) -> Result<()> {
        crate::Store::flush(self)
    }
    fn dir(&self) -> &Path {
        crate::Store::dir(self)
    }
    fn projection_put(&self, name: &str, key: &[u8], value: &[u8]) -> Result<()> {
        crate::Store::projection_put(self, name, key, value)
    }
    fn projection_range(
        &self,
        name: &str,
        from: &[u8],
    ) -> Result<Box<dyn Iterator<Item = ProjectionItem> + '_>> {
        Ok(Box::new(crate::Store::projection_range(self, name, from)?))
    }
    fn projection_clear(&self, name: &str) -> Result<()> {
        crate::Store::projection_clear(self, name)
    }
    fn free_space(&self) -> (Option<u64>, bool) {
        crate::Store::free_space(self)
    }
    fn size_on_disk(&self) -> Result<u64> {
        crate::Store::size_on_disk(self)
    }
    fn backup_to(&self, dir: &Path) -> Result<BackupReport> {
        crate::Store::backup_to(self, dir)
    }
    fn journal(&self, id: GameId) -> Result<Vec<Note>> {
        crate::Store::journal(self, id)
    }
    fn journal_len(&self, id: GameId) -> Result<u32> {
        crate::Store::journal_len(self, id)
    }
    fn write_note(&self, note: NewNote) -> Result<Noted> {
        crate::Store::write_note(self, note)
    }
    fn put_study(&self, study: &Study) -> Result<()> {
        crate::Store::put_study(self, study)
    }
    fn study(&self, id: StudyId) -> Result<Study> {
        crate::Store::study(self, id)
    }
    fn correct(&self, c: Correction) -> Result<Corrected> {
        crate::Store::correct(self, c)
    }
    fn revised_games(&self) -> Result<Vec<(GameId, u32)>> {
        crate::Store::revised_games(self)
    }
    fn backend(&self) -> &'static str {
        "sled"
    }
}

/// Every finished game (of `kind`, when given), oldest first.
pub fn finished_games(store: &dyn GameLog, kind: Option<GameKind>) -> Result<Vec<Header>> {
    let filter = Filter {
        kind,
        status: Some(Status::Finished),
        player: None,
    };
    let mut all = Vec::new();
    let mut after = None;
    loop {
        let page = store.list(&filter, 500, after)?;
        all.extend(page.games);
        match page.next {
            Some(n) => after = Some(n),
            None => break,
        }
    }
    all.sort_by_key(|h| h.id);
    Ok(all)
}
