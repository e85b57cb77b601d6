//! Position queries: every ply of every finished game, indexed by the features its game
//! declares, filtered by CEL, paged by cursor, and looked up by state hash.
//!
//! The index is written when a game finishes (the store's finish hook, also run by imports
//! and `rebuild`), by replaying its log once; a query then only reads and decodes blocks, it
//! never replays a game. Finished games only: an active game's features would show what the
//! rules still hide (Five Tribes gold, say).
//!
//! Layout (derived data: `rebuild` recomputes it):
//! - the blocks: a file per kind, `<data dir>/positions/<kind>.blocks` (`file`), each game's
//!   [`GameBlock`] stored column by column (`columns`), read without opening the store;
//! - the store projection `position-hashes`: key `kind (1) ‖ game id (8)`, value every ply's
//!   keyed state hash, 8 bytes big-endian each, in ply order.
//!
//! Why the hashes are not keyed by hash (a true inverted index): one sled key per ply, at
//! random places in the tree, cost about 450 bytes of disk per ply (page rewrites) and halved
//! import speed when measured; a lookup instead reads every game's hash array in order, a
//! sequential scan of 8 bytes per position (timed in ops/BENCHMARKS.md).
//!
//! Rows are ordered by (game id, ply) within a kind and the cursor names the last row a page
//! gave, so pages read while other games finish lose and repeat nothing that existed when the
//! first page was read.

pub mod block;
mod check;
pub mod columns;
mod compiled;
mod file;
pub mod filter;
mod guard;
mod output;
mod scan;
pub mod syntax;
mod typing;
mod values;

pub use block::{GameBlock, PositionRef};
pub use columns::BlockView;
pub use file::BlockFile;
pub use filter::{Filter, FilterError, Scratch};
pub use output::{write_ndjson_row, PositionRow, SeatFeatures};

use rules_core::{FeatureSchema, GameKind, Registry};
use scan::Step;
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use store::{Entry, GameId, GameLog, Header, StoreError};

/// The store projection that held the blocks before they moved to their own files (projections
/// version 4); emptied when a store is brought up to date.
const LEGACY_BLOCKS: &str = "positions";
/// Projection holding the state-hash index.
pub const HASHES: &str = "position-hashes";

/// Most positions a page scans before it returns, matched or not (see [`PositionPage`]), for
/// a filter of at most [`BASE_WORK`] node evaluations per position.
pub const DEFAULT_BUDGET: u64 = 2_000_000;

/// The work per position the budget is counted for; costlier filters scan fewer positions.
pub const BASE_WORK: u64 = 64;

/// Why a position query failed.
#[derive(Debug, thiserror::Error)]
pub enum PositionsError {
    #[error(transparent)]
    Filter(#[from] FilterError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("unknown game kind `{0}`")]
    UnknownKind(GameKind),
    #[error("bad cursor `{0}`: expected `<game id>:<ply>` as given by a previous page")]
    BadCursor(String),
    #[error("the index holds an unreadable block for game {0}; `ludolog rebuild` rewrites it")]
    BadBlock(GameId),
    #[error("writing the export: {0}")]
    Io(#[from] std::io::Error),
    #[error("the export was cancelled (its reader has gone)")]
    Cancelled,
}

/// A position's place: game and ply. Its text form `<game id>:<ply>` is the page cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cursor {
    pub game: GameId,
    pub ply: u32,
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.game, self.ply)
    }
}

impl FromStr for Cursor {
    type Err = PositionsError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || PositionsError::BadCursor(s.chars().take(64).collect());
        let (game, ply) = s.split_once(':').ok_or_else(bad)?;
        Ok(Cursor {
            game: game.parse().map_err(|_| bad())?,
            ply: ply.parse().map_err(|_| bad())?,
        })
    }
}

/// One page of matching positions.
#[derive(Debug, Clone)]
pub struct PositionPage {
    pub rows: Vec<PositionRow>,
    /// Positions examined for this page.
    pub scanned: u64,
    /// Where to resume (pass as `after`); `None` when the scan reached the end of the index.
    pub next: Option<Cursor>,
    /// True when the page stopped at its scan budget rather than at `first` rows: fewer rows
    /// than asked does not mean there are no more.
    pub budget_exhausted: bool,
}

fn kind_byte(kind: GameKind) -> u8 {
    GameKind::ALL.iter().position(|k| *k == kind).unwrap_or(0) as u8
}

fn block_key(kind: GameKind, id: GameId) -> Vec<u8> {
    let mut k = Vec::with_capacity(9);
    k.push(kind_byte(kind));
    k.extend_from_slice(&id.to_bytes());
    k
}

fn id_of(key: &[u8]) -> Option<GameId> {
    let b: [u8; 8] = key.get(1..9)?.try_into().ok()?;
    Some(GameId(u64::from_be_bytes(b)))
}

/// A store's position index: the block file of every kind the registry serves.
pub struct PositionIndex {
    registry: Registry,
    files: Vec<(GameKind, BlockFile)>,
}

impl PositionIndex {
    /// Opens the index of the store in `data_dir` for writing (making its files if needed).
    pub fn open_write(data_dir: &Path, registry: Registry) -> Result<Self, PositionsError> {
        let files = GameKind::ALL
            .iter()
            .filter(|k| registry.get(**k).is_some())
            .map(|k| Ok((*k, BlockFile::open_write(data_dir, *k)?)))
            .collect::<Result<_, PositionsError>>()?;
        Ok(PositionIndex { registry, files })
    }

    /// Opens the index of the store in `data_dir` for reading, without the store (even while
    /// another process writes it); `Ok(None)` if some kind has no file of the current format,
    /// which a writer makes (opening the store with the analysis attached).
    pub fn open_read(data_dir: &Path, registry: Registry) -> Result<Option<Self>, PositionsError> {
        let mut files = Vec::new();
        for k in GameKind::ALL.iter().filter(|k| registry.get(**k).is_some()) {
            match BlockFile::open_read(data_dir, *k)? {
                Some(f) => files.push((*k, f)),
                None => return Ok(None),
            }
        }
        Ok(Some(PositionIndex { registry, files }))
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    fn file(&self, kind: GameKind) -> Result<&BlockFile, PositionsError> {
        self.files
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, f)| f)
            .ok_or(PositionsError::UnknownKind(kind))
    }

    /// Whether game `id` of `kind` is indexed.
    pub fn contains(&self, kind: GameKind, id: GameId) -> bool {
        self.file(kind).is_ok_and(|f| f.contains(id))
    }

    /// Every block of `kind`, in game order, as stored (for tests and tools).
    pub fn read_blocks(&self, kind: GameKind) -> Result<Vec<(GameId, Vec<u8>)>, PositionsError> {
        let file = self.file(kind)?;
        let extents = file.extents(None);
        let (bytes, ranges) = file.read_many(&extents)?;
        Ok(ranges
            .into_iter()
            .map(|(id, r)| (id, bytes[r].to_vec()))
            .collect())
    }

    /// The stored blocks of those of `ids` (games of `kind`) that are indexed, in game order
    /// (the datasets' positions table reads a month's games a few hundred at a time).
    pub fn blocks_of(
        &self,
        kind: GameKind,
        ids: &[GameId],
    ) -> Result<Vec<(GameId, Vec<u8>)>, PositionsError> {
        let file = self.file(kind)?;
        let (Some(&first), Some(&last)) = (ids.iter().min(), ids.iter().max()) else {
            return Ok(Vec::new());
        };
        let wanted: std::collections::HashSet<GameId> = ids.iter().copied().collect();
        let extents: Vec<_> = file
            .extents(Some(first))
            .into_iter()
            .take_while(|(id, _)| *id <= last)
            .filter(|(id, _)| wanted.contains(id))
            .collect();
        let (bytes, ranges) = file.read_many(&extents)?;
        Ok(ranges
            .into_iter()
            .map(|(id, r)| (id, bytes[r].to_vec()))
            .collect())
    }

    /// Indexes a finished game: its block in the kind's file, its state hashes in the store.
    /// A store that cannot be read is `PositionsError::Store` (so a caller can try again when
    /// it is back); a log the block cannot be built from is `BadBlock`.
    pub fn index_game(
        &self,
        store: &dyn GameLog,
        header: &Header,
        entries: Option<&[Entry]>,
        hash_key: [u8; 16],
    ) -> Result<(), PositionsError> {
        let rules = store
            .registry()
            .get(header.kind)
            .ok_or(PositionsError::UnknownKind(header.kind))?;
        let read;
        let entries = match entries {
            Some(e) => e,
            None => {
                read = store.entries(header.id, 0, header.plies)?;
                &read
            }
        };
        let (block, hashes) = GameBlock::build(
            rules,
            &header.options_json(),
            &header.rules_version,
            &header.data_hash,
            entries,
            hash_key,
        )
        .map_err(|_| PositionsError::BadBlock(header.id))?;
        let packed: Vec<u8> = hashes.iter().flat_map(|h| h.to_be_bytes()).collect();
        store.projection_put(HASHES, &block_key(header.kind, header.id), &packed)?;
        self.file(header.kind)?.append(header.id, &block.encode())
    }

    /// Whether `header`'s game has its block and all its state hashes (one per position). Both
    /// are written after the game itself and without a sync: a crash can lose either.
    pub fn is_whole(&self, store: &dyn GameLog, header: &Header) -> Result<bool, PositionsError> {
        if !self.contains(header.kind, header.id) {
            return Ok(false);
        }
        let key = block_key(header.kind, header.id);
        let found = store
            .projection_range(HASHES, &key)?
            .next()
            .transpose()?
            .filter(|(k, _)| *k == key);
        Ok(found.is_some_and(|(_, v)| v.len() as u64 == 8 * (u64::from(header.plies) + 1)))
    }

    /// Empties the index (before a rebuild indexes every finished game again), and the blocks
    /// an older version kept in the store.
    pub fn clear(&self, store: &dyn GameLog) -> Result<(), PositionsError> {
        // The files first: emptying one waits for its readers and may fail; the hashes are
        // kept until every file is empty (a file not emptied is completed again at attach).
        for (_, f) in &self.files {
            f.clear()?;
        }
        store.projection_clear(LEGACY_BLOCKS)?;
        store.projection_clear(HASHES)?;
        Ok(())
    }
}

/// The feature schema of `kind`.
pub fn schema(registry: &Registry, kind: GameKind) -> Result<FeatureSchema, PositionsError> {
    registry
        .get(kind)
        .map(|r| r.feature_schema())
        .ok_or(PositionsError::UnknownKind(kind))
}

/// A position query: the kind, an optional compiled filter, and paging.
pub struct Query<'f> {
    pub kind: GameKind,
    pub filter: Option<&'f Filter>,
    pub after: Option<Cursor>,
    pub first: usize,
    pub budget: u64,
}

/// Reads one page of matching positions.
pub fn page(index: &PositionIndex, q: &Query<'_>) -> Result<PositionPage, PositionsError> {
    let schema = schema(index.registry(), q.kind)?;
    // At least one row per page, so that every page moves forward (the API refuses 0).
    let first = q.first.max(1);
    // The budget counts positions for a cheap filter; a filter that costs more per position
    // (nested macros: see `check`) scans proportionally fewer, so a page's work stays bounded.
    let budget = match q.filter {
        Some(f) if f.work() > BASE_WORK => q.budget.saturating_mul(BASE_WORK) / f.work(),
        _ => q.budget,
    };
    let mut out = PositionPage {
        rows: Vec::new(),
        scanned: 0,
        // Where to resume if the page stops before scanning anything.
        next: q.after,
        budget_exhausted: false,
    };
    let mut scratch = Scratch::default();
    let finished = scan::blocks(index.file(q.kind)?, q.after, |id, view, first_ply| {
        if !view.fits(&schema) {
            return Err(PositionsError::BadBlock(id));
        }
        scratch.begin();
        // Every row is counted against the budget, so every row is visited; those outside
        // what `prepare` returns fail the guards before anything else is read.
        if let Some(f) = q.filter {
            f.prepare(&view, &mut scratch);
        }
        for ply in first_ply..view.rows as u32 {
            if out.rows.len() >= first {
                return Ok(Step::Stop);
            }
            if out.scanned >= budget {
                out.budget_exhausted = true;
                return Ok(Step::Stop);
            }
            out.scanned += 1;
            out.next = Some(Cursor { game: id, ply });
            let keep = match q.filter {
                Some(f) => f.matches_at(&view, ply, &mut scratch, &|| id.to_string())?,
                None => true,
            };
            if keep {
                let pos = scratch
                    .position(&view, &schema, ply)
                    .ok_or(PositionsError::BadBlock(id))?;
                out.rows.push(PositionRow::of(id, &pos, &schema));
            }
        }
        Ok(Step::Go)
    })?;
    if finished {
        out.next = None;
    }
    Ok(out)
}

/// The plies of one block that pass `filter` (all without one), each given to `hit` with the
/// scratch that reads its position ([`Scratch::position`]) if the caller needs it (a count
/// does not). Returns the number of positions scanned.
fn matching(
    id: GameId,
    view: &BlockView<'_>,
    schema: &FeatureSchema,
    filter: Option<&Filter>,
    scratch: &mut Scratch,
    mut hit: impl FnMut(u32, &mut Scratch) -> Result<(), PositionsError>,
) -> Result<u64, PositionsError> {
    if !view.fits(schema) {
        return Err(PositionsError::BadBlock(id));
    }
    scratch.begin();
    let rows = match filter {
        Some(f) => f.prepare(view, scratch),
        None => 0..view.rows as u32,
    };
    for ply in rows {
        let keep = match filter {
            Some(f) => f.matches_at(view, ply, scratch, &|| id.to_string())?,
            None => true,
        };
        if keep {
            hit(ply, scratch)?;
        }
    }
    Ok(view.rows as u64)
}

/// Streams every matching position of `kind` as NDJSON to `w`, in index order, on `threads`
/// workers (the output is the same for any number). Returns (positions scanned, rows
/// written). `cancelled` is asked after every batch of blocks (the HTTP export stops when its
/// client has gone, even while nothing matches and nothing is written).
pub fn export_ndjson(
    index: &PositionIndex,
    kind: GameKind,
    filter: Option<&Filter>,
    threads: usize,
    w: &mut dyn std::io::Write,
    cancelled: &dyn Fn() -> bool,
) -> Result<(u64, u64), PositionsError> {
    let schema = schema(index.registry(), kind)?;
    let (mut scanned, mut written) = (0u64, 0u64);
    let mut blocks = 0u64;
    scan::par_blocks(
        index.file(kind)?,
        threads,
        |id, view, scratch| {
            let (mut lines, mut rows) = (Vec::new(), 0u64);
            let n = matching(id, &view, &schema, filter, scratch, |ply, scratch| {
                let pos = scratch
                    .position(&view, &schema, ply)
                    .ok_or(PositionsError::BadBlock(id))?;
                write_ndjson_row(&mut lines, id, &pos, &schema);
                rows += 1;
                Ok(())
            })?;
            Ok((n, rows, lines))
        },
        |(n, rows, lines)| {
            blocks += 1;
            if blocks.is_multiple_of(16) && cancelled() {
                return Err(PositionsError::Cancelled);
            }
            scanned += n;
            written += rows;
            w.write_all(&lines)?;
            Ok(())
        },
    )?;
    Ok((scanned, written))
}

/// Counts the positions of `kind` that pass `filter`, scanning the whole index on `threads`
/// workers (for benchmarks and the CLI). Returns (scanned, matched).
pub fn count(
    index: &PositionIndex,
    kind: GameKind,
    filter: Option<&Filter>,
    threads: usize,
) -> Result<(u64, u64), PositionsError> {
    let schema = schema(index.registry(), kind)?;
    let (mut scanned, mut matched) = (0u64, 0u64);
    scan::par_blocks(
        index.file(kind)?,
        threads,
        |id, view, scratch| {
            if filter.is_none() && view.fits(&schema) {
                return Ok((view.rows as u64, view.rows as u64));
            }
            let mut hits = 0u64;
            let n = matching(id, &view, &schema, filter, scratch, |_, _| {
                hits += 1;
                Ok(())
            })?;
            Ok((n, hits))
        },
        |(n, hits)| {
            scanned += n;
            matched += hits;
            Ok(())
        },
    )?;
    Ok((scanned, matched))
}

/// A position reached in some game, found by its state hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashHit {
    pub kind: GameKind,
    pub game: GameId,
    pub ply: u32,
}

/// Every (game, ply) of the finished games whose state hashed to `hash`, at most `limit`, in
/// (kind, game, ply) order.
pub fn by_hash(
    store: &dyn GameLog,
    hash: u64,
    limit: usize,
) -> Result<Vec<HashHit>, PositionsError> {
    let mut out = Vec::new();
    let needle = hash.to_be_bytes();
    for kv in store.projection_iter(HASHES)? {
        let (key, value) = kv?;
        let (Some(kind), Some(id)) = (
            key.first().and_then(|b| GameKind::ALL.get(usize::from(*b))),
            id_of(&key),
        ) else {
            continue;
        };
        for (ply, h) in value.chunks_exact(8).enumerate() {
            if h == needle {
                if out.len() >= limit {
                    return Ok(out);
                }
                out.push(HashHit {
                    kind: *kind,
                    game: id,
                    ply: ply as u32,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_round_trips_and_refuses_garbage() {
        let c = Cursor {
            game: GameId(0x0123_4567_89ab),
            ply: 17,
        };
        assert_eq!(c.to_string().parse::<Cursor>().unwrap(), c);
        for bad in [
            "",
            "17",
            "x:1",
            &format!("{}:", c.game),
            &format!("{}:-1", c.game),
        ] {
            assert!(
                matches!(bad.parse::<Cursor>(), Err(PositionsError::BadCursor(_))),
                "{bad}"
            );
        }
    }
}
