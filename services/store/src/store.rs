//! The store: opening, creating games, appending. Reading and listing are in `reads`,
//! derived data of other crates in `projections`, `rebuild` in `maintenance`.
//!
//! # Trees and keys (all integers big-endian, so key order is numeric order)
//! | tree        | key                              | value (framed: crc32 + postcard)        |
//! |-------------|----------------------------------|-----------------------------------------|
//! | `games`     | game id (8)                      | `StoredHeader`: what never changes      |
//! | `tips`      | game id (8)                      | `StoredTip`, at creation and at the end |
//! | `entries`   | game id (8) + ply (4)            | `Entry`                                 |
//! |             | game id (8) + 2³¹ + chunk (4)    | 32 entries of a sealed game (`sealed`)  |
//! | `snapshots` | game id (8) + ply (4)            | the state after `ply` entries (bytes)   |
//! | `idem`      | game id (8) + actor (1) + key    | (first ply, count, notation, enterer)   |
//! | `by_kind`   | kind (1) + game id (8)           | empty                                   |
//! | `by_player` | name + 0x00 + game id (8)        | empty                                   |
//! | `journal`   | game id (8) + note number (4)    | a `journal::Note`, framed JSON          |
//! | `studies`   | study id (8)                     | a `study::Study`, framed JSON           |
//! | `revisions` | game id (8)                      | a corrected game's revision (`u32`)     |
//!
//! One tree holds every game's entries (not a tree per game: sled's space use grows badly
//! with many trees). `snapshots`, `by_kind` and `by_player` are caches: `rebuild` recomputes
//! them from `games` and `entries`.

use crate::durability::GroupCommit;
use crate::error::{Result, StoreError};
use crate::id::GameId;
use crate::record::{
    decode, encode, frame, unframe, EnteredBy, Entry, Header, Status, StoredHeader, StoredTip,
};
use crate::wal::{record, WalFile, WalWrite};
use chrono::{DateTime, Utc};
use rules_core::{Actor, GameKind, GameRules, GameState, Registry, ToAct};
use serde::{Deserialize, Serialize};
use sled::transaction::{ConflictableTransactionError, TransactionError};
use sled::Transactional;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

mod backup;
mod create;
mod idem;
pub(crate) use create::new_game_writes;
pub(crate) use idem::{idem_key, IdemRecord};
mod journal;
mod maintenance;
mod projections;
mod reads;
mod revision;
mod sealed;

pub use backup::BackupReport;
pub use maintenance::RebuildReport;
pub use revision::Corrected;

/// Longest notation text accepted for one entry.
pub const MAX_NOTATION: usize = 4096;
/// Longest idempotency key.
pub const MAX_KEY: usize = 128;
/// Longest player name.
pub const MAX_NAME: usize = 64;

/// The default of `Config::max_journal_bytes`: 1 MiB, some hundreds of the longest
/// comments and thousands of ordinary notes.
pub const DEFAULT_MAX_JOURNAL_BYTES: u64 = 1 << 20;

/// Store settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// A snapshot every this many plies: reading any ply applies fewer entries than this.
    pub snapshot_every: u32,
    /// sled's page cache, in bytes (sled's own default is 1 GiB).
    pub cache_bytes: u64,
    /// Writes are refused (`StorageFull`) while the filesystem has less free space than this
    /// (0: never). See `space`.
    pub min_free_bytes: u64,
    /// Most bytes one game's journal may hold (its notes' JSON, see `journal::JournalSize`):
    /// a note that would pass it is refused with `JournalFull` (`LIMIT_EXCEEDED`) and nothing
    /// is written. Everything that shows a journal reads it whole. 0: no limit.
    pub max_journal_bytes: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            snapshot_every: 32,
            cache_bytes: 128 << 20,
            min_free_bytes: 64 << 20,
            max_journal_bytes: DEFAULT_MAX_JOURNAL_BYTES,
        }
    }
}

/// A new game.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub kind: GameKind,
    pub players: Vec<String>,
    pub options: serde_json::Value,
    /// The store deals from this seed; `None`: the game is dealt at a real table, and its
    /// chance entries are typed in (by its recorder).
    pub seed: Option<u64>,
    pub at: DateTime<Utc>,
    pub seat_token_hashes: Vec<String>,
    pub recorder_token_hash: Option<String>,
}

/// An entry to append.
#[derive(Debug, Clone)]
pub struct Append<'a> {
    pub game: GameId,
    /// The ply the client believes the game is at (the number of entries it has seen).
    pub expected_ply: u32,
    pub actor: Actor,
    pub notation: &'a str,
    pub key: Option<&'a str>,
    pub at: DateTime<Utc>,
    /// Who typed it in: the seat itself, or the game's recorder (`None`: not said, as for the
    /// store's own tools).
    pub entered_by: Option<EnteredBy>,
}

/// What an append wrote: the entry, then any dealer entries that followed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    pub header: Header,
    pub entries: Vec<Entry>,
    /// True when an idempotent retry returned the first result and wrote nothing.
    pub replayed: bool,
}

/// Which games to list.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub kind: Option<GameKind>,
    pub status: Option<Status>,
    pub player: Option<String>,
}

impl Filter {
    pub fn accepts(&self, h: &Header) -> bool {
        self.kind.is_none_or(|k| h.kind == k)
            && self.status.is_none_or(|s| h.status == s)
            && self.player.as_ref().is_none_or(|p| h.players.contains(p))
    }
}

/// One page of games, newest first. `next` is the cursor for the following page.
#[derive(Debug, Clone)]
pub struct Page {
    pub games: Vec<Header>,
    pub next: Option<GameId>,
}

impl Page {
    /// The page of the first `first` of `games`, which a listing fetched one past the page
    /// (so that it knows whether another page follows).
    pub fn of(mut games: Vec<Header>, first: usize) -> Page {
        let next = if games.len() > first {
            games.truncate(first);
            games.last().map(|h| h.id)
        } else {
            None
        };
        Page { games, next }
    }
}

struct Tip {
    header: Header,
    state: Box<dyn GameState>,
}

/// Called when a game ends (by an append or an import) and, for every finished game, during
/// `rebuild`: how projections kept by other crates (analysis) follow the logs. The last
/// argument is the game's whole log when the caller holds it (an import, a rebuild), so that
/// a hook need not read back what was just written; `None` means read it from the store.
///
/// A hook answers `Err` only for a failure that may pass — the store unavailable while it read
/// the game (`StoreError::Unavailable`, a cluster electing a leader) — and then runs again
/// later for the same game where the backend can tell (the JetStream follower leaves the game
/// unacknowledged and offers it again); the embedded store, whose reads cannot be unavailable,
/// logs it. Hooks are idempotent: running one again for a game it has done changes nothing.
pub type FinishHook = Arc<
    dyn Fn(&dyn crate::GameLog, &Header, &dyn GameState, Option<&[Entry]>) -> crate::Result<()>
        + Send
        + Sync,
>;

/// The event store.
pub struct Store {
    db: sled::Db,
    games: sled::Tree,
    entries: sled::Tree,
    snapshots: sled::Tree,
    idem: sled::Tree,
    by_kind: sled::Tree,
    by_player: sled::Tree,
    /// Per game: the part of the header that appends change (`StoredTip`).
    tip_records: sled::Tree,
    journal: sled::Tree,
    studies: sled::Tree,
    /// Per corrected game: its latest revision (`u32` big-endian); absent for revision 0.
    revisions: sled::Tree,
    /// Serialises journal writes (rare: takebacks, annotations, corrections), taken before a
    /// tip's lock.
    notes_lock: Mutex<()>,
    /// The size of each journal lately written (held under `notes_lock`), so that a note is
    /// planned without reading the journal (see `journal`).
    journal_sizes: Mutex<HashMap<GameId, crate::journal::JournalSize>>,
    /// The ten trees above, by tree number, for transactions and log replay.
    all: Vec<sled::Tree>,
    registry: Registry,
    config: Config,
    /// Warm tips: the state at the end of each recently used unfinished game, so an append
    /// costs one apply. A std mutex: held only for map lookups, never across I/O.
    tips: Mutex<HashMap<GameId, Arc<Mutex<Tip>>>>,
    commit: GroupCommit,
    ids: crate::id::IdClock,
    hooks: std::sync::RwLock<Vec<FinishHook>>,
    space: crate::space::SpaceGuard,
    /// The folder the store lives in (other crates keep their own files beside it).
    dir: std::path::PathBuf,
}

/// Tree numbers, as written in the write-ahead log.
pub(crate) const GAMES: u8 = 0;
pub(crate) const ENTRIES: u8 = 1;
pub(crate) const SNAPSHOTS: u8 = 2;
pub(crate) const IDEM: u8 = 3;
pub(crate) const BY_KIND: u8 = 4;
pub(crate) const BY_PLAYER: u8 = 5;
pub(crate) const TIPS: u8 = 6;
pub(crate) const JOURNAL: u8 = 7;
pub(crate) const STUDIES: u8 = 8;
pub(crate) const REVISIONS: u8 = 9;
const TREE_NAMES: [&str; 10] = [
    "games",
    "entries",
    "snapshots",
    "idem",
    "by_kind",
    "by_player",
    "tips",
    "journal",
    "studies",
    "revisions",
];
/// Set on a write's tree number: the write removes its key (a takeback's withdrawn entries
/// leave the line; they are kept in the journal note written with the removal).
pub(crate) const REMOVE: u8 = 0x80;

fn write(tree: u8, key: &[u8], value: Vec<u8>) -> WalWrite {
    WalWrite {
        tree,
        key: key.to_vec(),
        value,
    }
}

fn remove(tree: u8, key: &[u8]) -> WalWrite {
    WalWrite {
        tree: tree | REMOVE,
        key: key.to_vec(),
        value: Vec::new(),
    }
}

/// Applies one logged write to its tree.
fn apply_write(all: &[sled::Tree], w: &WalWrite) -> sled::Result<()> {
    if let Some(t) = all.get(usize::from(w.tree & !REMOVE)) {
        if w.tree & REMOVE != 0 {
            t.remove(w.key.as_slice())?;
        } else {
            t.insert(w.key.as_slice(), w.value.as_slice())?;
        }
    }
    Ok(())
}

/// The layout of the trees, kept under [`FORMAT_KEY`] in sled's default tree. 2: a finished
/// game that arrived whole may be sealed (`entries` in chunks of 32 from 2³¹, see `sealed`).
/// 3: journals and studies, and log writes that remove a key (a takeback), which a build
/// before 3 would skip on recovery. 4: revisions (a finished game corrected: its entries
/// rewritten and its revision kept in `revisions`, a tree a build before 4 does not know). A
/// build
/// refuses a store of a layout newer than its own, which it would misread (builds before 2
/// did not check: they read a sealed game as one without entries).
pub(crate) const STORE_FORMAT: u32 = 4;
pub(crate) const FORMAT_KEY: &[u8] = b"ludolog:store-format";

/// Refuses a store of a newer layout; marks a store of an older one (or a new one) as this
/// layout, which reads both.
fn check_format(db: &sled::Db, path: &Path) -> Result<()> {
    let found = db
        .get(FORMAT_KEY)?
        .and_then(|v| <[u8; 4]>::try_from(v.as_ref()).ok())
        .map(u32::from_le_bytes);
    match found {
        Some(f) if f > STORE_FORMAT => Err(StoreError::Format {
            dir: path.display().to_string(),
            found: f,
            supported: STORE_FORMAT,
        }),
        Some(f) if f == STORE_FORMAT => Ok(()),
        _ => {
            db.insert(FORMAT_KEY, &STORE_FORMAT.to_le_bytes())?;
            Ok(())
        }
    }
}

fn key(id: GameId, ply: u32) -> [u8; 12] {
    let mut k = [0u8; 12];
    k[..8].copy_from_slice(&id.to_bytes());
    k[8..].copy_from_slice(&ply.to_be_bytes());
    k
}

fn kind_byte(k: GameKind) -> u8 {
    GameKind::ALL.iter().position(|x| *x == k).unwrap_or(0) as u8
}

fn kind_key(h: &Header) -> Vec<u8> {
    let mut k = vec![kind_byte(h.kind)];
    k.extend_from_slice(&h.id.to_bytes());
    k
}

fn player_key(name: &str, id: GameId) -> Vec<u8> {
    let mut k = name.as_bytes().to_vec();
    k.push(0);
    k.extend_from_slice(&id.to_bytes());
    k
}

fn unframe_projection(kv: sled::Result<(sled::IVec, sled::IVec)>) -> Result<(Vec<u8>, Vec<u8>)> {
    let (k, v) = kv?;
    let payload = unframe(&v).ok_or_else(|| StoreError::Corrupt {
        game: id_from_suffix(&k).unwrap_or(GameId(0)),
        ply: None,
        what: "projection record checksum mismatch".into(),
    })?;
    Ok((k.to_vec(), payload.to_vec()))
}

fn id_from_suffix(k: &[u8]) -> Option<GameId> {
    let s = k.get(k.len().checked_sub(8)?..)?;
    Some(GameId(u64::from_be_bytes(s.try_into().ok()?)))
}

/// Replays the write-ahead log's records into sled after a crash. Each record is a whole
/// transaction's writes, replayed in log order, so sled ends as it was when the last
/// acknowledged write was acknowledged — plus, possibly, writes sled had kept on its own that
/// were never acknowledged; those are complete transactions too (sled's are atomic). A
/// transaction that rewrites or removes what earlier records wrote (a correction, a
/// withdrawal) is logged before sled has it ([`Store::log_ahead`]), so a replay of those
/// earlier records is always followed by its own and cannot leave them undone.
fn recover(all: &[sled::Tree], records: &[Vec<WalWrite>]) -> Result<()> {
    for writes in records {
        for w in writes {
            apply_write(all, w)?;
        }
    }
    Ok(())
}

/// Applies an entry read back from the store: one that no longer applies means the stored log
/// (or the rules under it) changed, which is corruption, not a client's mistake.
fn tx_error(e: TransactionError<StoreError>) -> StoreError {
    match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => StoreError::Sled(e),
    }
}

/// Checks a player's name: 1 to 64 characters, no control or format characters (a bidi
/// override would make a name read as another), no space at either end.
pub fn check_name(name: &str) -> Result<()> {
    if name.chars().count() > MAX_NAME || !crate::portable::check::name_ok(name) {
        return Err(StoreError::BadInput(format!(
            "a player name is 1 to {MAX_NAME} characters, without control or format characters and without spaces at its ends: {:?}",
            name.chars().take(80).collect::<String>()
        )));
    }
    Ok(())
}

impl Store {
    /// Opens (or creates) a store in `path`, first replaying the write-ahead log into sled if
    /// the last run ended without a checkpoint (a crash).
    pub fn open(path: impl AsRef<Path>, registry: Registry, config: Config) -> Result<Store> {
        let path = path.as_ref();
        // sled's background flusher is off: durability is the write-ahead log's job.
        let db = sled::Config::new()
            .path(path)
            .mode(sled::Mode::HighThroughput)
            .cache_capacity(config.cache_bytes)
            .flush_every_ms(None)
            .open()
            .map_err(|e| match e {
                sled::Error::Io(io) if io.to_string().contains("could not acquire lock") => {
                    StoreError::InUse(path.display().to_string())
                }
                e => StoreError::Sled(e),
            })?;
        check_format(&db, path)?;
        let all = TREE_NAMES
            .iter()
            .map(|n| db.open_tree(n))
            .collect::<sled::Result<Vec<_>>>()?;
        let io = |e: std::io::Error| StoreError::Sled(sled::Error::Io(e));
        let (mut wal, recovered) =
            WalFile::open(&path.join("ludolog.wal"), crate::wal::CAPACITY).map_err(io)?;
        if !recovered.is_empty() {
            recover(&all, &recovered)?;
            db.flush()?;
        }
        wal.reset().map_err(io)?;
        let store = Store {
            commit: GroupCommit::start(db.clone(), wal),
            games: all[usize::from(GAMES)].clone(),
            entries: all[usize::from(ENTRIES)].clone(),
            snapshots: all[usize::from(SNAPSHOTS)].clone(),
            idem: all[usize::from(IDEM)].clone(),
            by_kind: all[usize::from(BY_KIND)].clone(),
            by_player: all[usize::from(BY_PLAYER)].clone(),
            tip_records: all[usize::from(TIPS)].clone(),
            journal: all[usize::from(JOURNAL)].clone(),
            studies: all[usize::from(STUDIES)].clone(),
            revisions: all[usize::from(REVISIONS)].clone(),
            notes_lock: Mutex::new(()),
            journal_sizes: Mutex::new(HashMap::new()),
            all,
            registry,
            config: config.clone(),
            tips: Mutex::new(HashMap::new()),
            db,
            ids: crate::id::IdClock::default(),
            hooks: Default::default(),
            space: crate::space::SpaceGuard::new(path, config.min_free_bytes),
            dir: path.to_path_buf(),
        };
        if !recovered.is_empty() {
            store.heal()?;
            store.db.flush()?;
        }
        Ok(store)
    }

    /// After a crash, finishes what an unacknowledged append began: a game the store deals
    /// that was left waiting on chance is dealt, and a game whose log ends the game gets its
    /// final tip record. Only active games are looked at, and only after a crash.
    fn heal(&self) -> Result<()> {
        let ids: Vec<GameId> = self.game_ids().collect::<Result<_>>()?;
        for id in ids {
            let header = self.header(id)?;
            if header.status != Status::Active {
                continue;
            }
            let mut state = self.state_at(id, header.plies)?;
            let mut entries = vec![];
            let mut snaps = vec![];
            if let Some(last) = self
                .entries(id, header.plies.saturating_sub(1), header.plies)?
                .pop()
            {
                entries.push(last);
            }
            let at = header.updated_at;
            crate::plan::deal_chance(
                &self.config,
                id,
                &mut state,
                header.seed,
                header.plies,
                &mut entries,
                &mut snaps,
                at,
            )?;
            let dealt: Vec<&Entry> = entries.iter().skip(1).collect();
            for e in &dealt {
                self.entries.insert(key(id, e.ply), encode(*e))?;
            }
            for (p, b) in &snaps {
                self.snapshots.insert(key(id, *p), frame(b))?;
            }
            if state.to_act() == ToAct::Over {
                let mut h = header.clone();
                h.plies += dealt.len() as u32;
                h.status = Status::Finished;
                self.tip_records.insert(id.to_bytes(), encode(&h.tip()))?;
                self.finished(&h, state.as_ref(), None);
            }
        }
        Ok(())
    }

    /// Writes `writes`. A new game (creation, import) is one sled transaction that refuses an id
    /// already taken. An append's writes are plain inserts, in order: sled's batches and
    /// transactions each write out and sync its I/O buffer twice (`pin_log` rolls it before and
    /// after), which cost two thirds of an append's time. Atomicity comes instead from the
    /// write-ahead log — an acknowledged append is replayed whole after a crash — and from
    /// [`Store::heal`] for a prefix of an unacknowledged one that sled kept.
    /// Makes `writes` durable in the write-ahead log before they are committed to sled, for
    /// a transaction that rewrites or removes keys earlier records wrote (a correction, a
    /// withdrawal). Logged only after, as an append is, such a transaction could be kept by
    /// sled (a transaction writes out sled's I/O buffer) and then, after a crash before its
    /// record, be undone by the replay of the older records still in the log: a corrected
    /// game's journal naming revision 3 over a line and header back at revision 2 (found by
    /// `tests/crash.rs`). It is logged again once committed, so a checkpoint between the two
    /// (which flushes sled and starts the log over) cannot leave it out of both.
    pub(crate) fn log_ahead(&self, writes: &[WalWrite]) -> Result<()> {
        self.space
            .check()
            .map_err(|(free, reserve)| StoreError::StorageFull { free, reserve })?;
        Ok(self.commit.wait_durable(record(writes))?)
    }

    pub(crate) fn commit_writes(
        &self,
        writes: &[WalWrite],
        new_game: Option<GameId>,
    ) -> Result<()> {
        self.commit_writes_as(writes, new_game.as_slice(), false)
    }

    /// As [`Store::commit_writes`]; with `atomic`, as one sled transaction even for an
    /// existing game (a takeback: its note and the removals it makes are kept whole or not at
    /// all, whatever sled wrote before a crash, and no reader sees half of them).
    pub(crate) fn commit_writes_as(
        &self,
        writes: &[WalWrite],
        new_games: &[GameId],
        atomic: bool,
    ) -> Result<()> {
        self.space
            .check()
            .map_err(|(free, reserve)| StoreError::StorageFull { free, reserve })?;
        if new_games.is_empty() && !atomic {
            for w in writes {
                apply_write(&self.all, w)?;
            }
            return Ok(());
        }
        self.all[..]
            .transaction(|t| {
                for &id in new_games {
                    if t[usize::from(GAMES)].get(id.to_bytes())?.is_some() {
                        return Err(ConflictableTransactionError::Abort(StoreError::Exists(id)));
                    }
                }
                for w in writes {
                    let tree = &t[usize::from(w.tree & !REMOVE)];
                    if w.tree & REMOVE != 0 {
                        tree.remove(w.key.as_slice())?;
                    } else {
                        tree.insert(w.key.as_slice(), w.value.as_slice())?;
                    }
                }
                Ok(())
            })
            .map_err(tx_error)
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The folder the store was opened in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Group commit activity so far.
    pub fn commit_stats(&self) -> crate::durability::CommitStats {
        self.commit.stats()
    }

    /// Bytes free on the store's filesystem, and whether that is below the write reserve.
    pub fn free_space(&self) -> (Option<u64>, bool) {
        (self.space.free_bytes(), self.space.check().is_err())
    }

    /// Bytes on disk, as sled reports them.
    pub fn size_on_disk(&self) -> Result<u64> {
        Ok(self.db.size_on_disk()?)
    }

    /// Makes everything written so far durable.
    pub fn flush(&self) -> Result<()> {
        self.db.flush()?;
        Ok(())
    }

    pub(crate) fn rules(&self, kind: GameKind) -> Result<&dyn GameRules> {
        crate::plan::rules(&self.registry, kind)
    }

    /// A fresh, sortable id for a game created at `at`.
    pub(crate) fn new_id(&self, at: DateTime<Utc>) -> GameId {
        self.ids.next(at, |id| {
            self.games.contains_key(id.to_bytes()).unwrap_or(false)
        })
    }

    /// A game's header. A game with an append in flight has a warm tip, whose header changes
    /// only once the append's writes are all in: readers see whole appends, never a prefix.
    pub fn header(&self, id: GameId) -> Result<Header> {
        let warm = self.tips_lock().get(&id).cloned();
        if let Some(t) = warm {
            return Ok(t.lock().unwrap_or_else(|e| e.into_inner()).header.clone());
        }
        self.stored_header(id)
    }

    /// The header as sled has it.
    fn stored_header(&self, id: GameId) -> Result<Header> {
        let bytes = self
            .games
            .get(id.to_bytes())?
            .ok_or(StoreError::NotFound(id))?;
        let fixed: StoredHeader = decode(&bytes, id, None)?;
        let bytes = self
            .tip_records
            .get(id.to_bytes())?
            .ok_or_else(|| StoreError::Corrupt {
                game: id,
                ply: None,
                what: "header without its tip record".into(),
            })?;
        let mut tip: StoredTip = decode(&bytes, id, None)?;
        if tip.status == Status::Active {
            // An active game's length and last change are its last entry's: appends write only
            // entries (a tip record is written at creation and at the end), which keeps them
            // cheap and free of a hot key.
            if let Some(kv) = self
                .entries
                .range(key(id, 0)..key(id, sealed::SEALED_BASE))
                .next_back()
            {
                let (k, v) = kv?;
                let ply = u32::from_be_bytes([k[8], k[9], k[10], k[11]]);
                let last = crate::record::decode_entry(&v, id, Some(ply))?;
                tip.plies = ply + 1;
                tip.updated_at = last.recorded_at;
            }
            return Ok(Header::join(fixed, tip));
        }
        let mut header = Header::join(fixed, tip);
        // Only a finished game is corrected (and has a revision).
        if let Some(v) = self.revisions.get(id.to_bytes())? {
            header.revision = <[u8; 4]>::try_from(v.as_ref())
                .map(u32::from_be_bytes)
                .map_err(|_| StoreError::Corrupt {
                    game: id,
                    ply: None,
                    what: "revision record is not 4 bytes".into(),
                })?;
        }
        Ok(header)
    }

    fn tips_lock(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Arc<Mutex<Tip>>>> {
        self.tips.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The warm tip of a game, loading it if needed.
    fn tip(&self, id: GameId) -> Result<Arc<Mutex<Tip>>> {
        if let Some(t) = self.tips_lock().get(&id) {
            return Ok(t.clone());
        }
        let header = self.stored_header(id)?;
        let state = self.state_at(id, header.plies)?;
        let finished = header.status == Status::Finished;
        let tip = Arc::new(Mutex::new(Tip { header, state }));
        if finished {
            // Nothing is appended to a finished game (the append asking is refused), and a
            // correction would leave a kept tip behind its new revision: none is kept.
            return Ok(tip);
        }
        // Another thread may have loaded it meanwhile: keep the first, so one mutex guards it.
        Ok(self.tips_lock().entry(id).or_insert(tip).clone())
    }

    /// Appends an entry (and the dealer's entries that follow it), durably.
    pub fn append(&self, req: Append<'_>) -> Result<Appended> {
        let id = req.game;
        crate::plan::check_request(&req)?;
        let tip = self.tip(id)?;
        let mut tip = tip.lock().unwrap_or_else(|e| e.into_inner());
        // A key belongs to the actor that used it: looking up another seat's key finds nothing
        // (it would otherwise confirm or deny a guess of that seat's secret move); and within
        // the actor's keys, to whoever entered the move (see `idem`).
        if let Some(rec) = self.idem_record(&req)? {
            return self.replay_idem(tip, rec, &req);
        }
        // The log stores the canonical text (parsed, then formatted): a move has one spelling.
        let notation = crate::plan::canonical(&tip.header, tip.state.as_ref(), &req)?;
        let idem_key = req.key.map(|k| idem_key(id, req.actor, k));
        let ply = tip.header.plies;
        let crate::plan::Planned {
            header,
            entries,
            snaps,
            state,
        } = crate::plan::append(
            &self.config,
            &tip.header,
            tip.state.as_ref(),
            &req,
            notation.clone(),
        )?;
        let mut writes: Vec<WalWrite> = entries
            .iter()
            .map(|e| write(ENTRIES, &key(id, e.ply), encode(e)))
            .collect();
        if header.status == Status::Finished {
            writes.push(write(TIPS, &id.to_bytes(), encode(&header.tip())));
        }
        writes.extend(
            snaps
                .iter()
                .map(|(p, b)| write(SNAPSHOTS, &key(id, *p), frame(b))),
        );
        if let Some(k) = &idem_key {
            let rec = IdemRecord {
                first_ply: ply,
                count: entries.len() as u32,
                notation,
                entered_by: Some(EnteredBy::of(req.actor, req.entered_by)),
            };
            writes.push(write(IDEM, k, encode(&rec)));
        }
        self.commit_writes(&writes, None)?;
        let final_state = (header.status == Status::Finished).then(|| state.clone());
        tip.header = header.clone();
        tip.state = state;
        let finished = header.status == Status::Finished;
        // Queued under the game's lock: the log holds this game's writes in sled's order.
        let queued = self.commit.submit(record(&writes));
        drop(tip);
        if finished {
            self.tips_lock().remove(&id);
        }
        self.commit.wait(queued?)?;
        if let Some(st) = final_state {
            self.finished(&header, st.as_ref(), None);
        }
        Ok(Appended {
            header,
            entries,
            replayed: false,
        })
    }
}
