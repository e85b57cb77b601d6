//! The summaries of finished games, kept in the store as the projection `summaries` and in
//! memory for queries: a statistics query reads memory, it never rescans logs.
//!
//! The store calls [`Analysis::on_finish`] (registered as a finish hook) whenever a game ends,
//! by an append or an import, and during `rebuild`, so the projection follows the logs.

use crate::positions::PositionIndex;
use crate::rollups::Summaries;
use crate::stats::{compute, Statistics, StatsFilter};
use crate::summary::GameSummary;
use rules_core::{GameKind, GameState};
use std::sync::{Arc, RwLock};
use store::{Entry, GameId, GameLog, Header, StoreError};

/// Name of the projection in the store.
pub const PROJECTION: &str = "summaries";

/// Projection holding, per corrected game, the revision its summary and positions were made
/// from (`u32` big-endian): a correction replaces them, and an open finds any that a crash
/// left behind the store's latest revision.
const REVISIONS: &str = "analysis-revisions";

/// Projection holding one marker: which version of the projections the folder holds.
const META: &str = "analysis-meta";
/// Bumped whenever a projection gains content that older versions did not write (the
/// position index was added in version 2), so an older folder is brought up to date on open.
/// (Version 4 moved the position blocks out of the store into their own files.)
const PROJECTIONS_VERSION: &[u8] = b"4";

#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error("projection `{PROJECTION}` holds an unreadable summary: {0}")]
    BadSummary(String),
    #[error("the position index: {0}")]
    Positions(#[from] crate::positions::PositionsError),
    #[error("the explorer: {0}")]
    Explorer(#[from] explorer::ExplorerError),
}

/// Summaries of finished games, by id, the statistics last computed from them, and the
/// position index.
pub struct Analysis {
    summaries: RwLock<Summaries>,
    /// Results by (kind, filter), valid while no game has finished since: a repeated query is
    /// a lookup. Emptied on every change, bounded in size.
    cache: std::sync::Mutex<std::collections::HashMap<(GameKind, String), Arc<Statistics>>>,
    /// The key of the state hashes in the position index: the server's `stateHash` key, so
    /// `positionsByHash` finds what `Position.stateHash` shows.
    hash_key: [u8; 16],
    positions: PositionIndex,
    /// Every seat move of the finished games, by node (filed from the same finish hook).
    explorer: explorer::Explorer,
    /// Held while a game is recorded or everything is forgotten: a game may be reported
    /// finished more than once, and by more than one thread (a shared store's follower beside
    /// the node's own appends), and is recorded once.
    recording: std::sync::Mutex<()>,
    /// The revision each corrected game's summary and positions follow (absent: 0).
    revisions: std::sync::Mutex<std::collections::HashMap<GameId, u32>>,
}

/// Most cached results kept.
const CACHE_ENTRIES: usize = 256;

impl Analysis {
    /// Loads the projection from `store` and registers for finished games; `hash_key` keys
    /// the state hashes of the position index.
    pub fn attach(store: &dyn GameLog, hash_key: [u8; 16]) -> Result<Arc<Analysis>, AnalysisError> {
        let a = Arc::new(Analysis {
            summaries: RwLock::default(),
            cache: std::sync::Mutex::default(),
            hash_key,
            positions: PositionIndex::open_write(store.dir(), store.registry().clone())?,
            explorer: explorer::Explorer::open(store, hash_key, explorer::Config::default())?,
            recording: std::sync::Mutex::default(),
            revisions: std::sync::Mutex::default(),
        });
        {
            let mut map = a.write();
            for kv in store.projection_iter(PROJECTION)? {
                let (_, v) = kv?;
                let s = GameSummary::decode(&v)?;
                map.insert(s);
            }
        }
        {
            let mut revs = a.revs();
            for kv in store.projection_iter(REVISIONS)? {
                let (k, v) = kv?;
                if let (Ok(k), Ok(v)) = (<[u8; 8]>::try_from(&k[..]), <[u8; 4]>::try_from(&v[..])) {
                    revs.insert(GameId(u64::from_be_bytes(k)), u32::from_be_bytes(v));
                }
            }
        }
        // A finished game's summary, block and state hashes are derived data written after
        // the game itself, without a sync: after a crash (a kill -9 just after a game
        // finished), or in a copy made by `backup` (which copies the store, not the index
        // files), any of them may be missing. Each finished game is checked and what it lacks
        // made again. (An out-of-date store is re-indexed whole by its opener instead: see
        // `projections_current`.)
        if projections_current(store)? {
            for header in store::finished_games(store, None)? {
                let summarized = a.read().contains_key(&header.id);
                if !summarized {
                    match store.state_at(header.id, header.plies) {
                        Ok(state) => {
                            let _ = a.on_finish(store, &header, state.as_ref(), None);
                        }
                        Err(e) => {
                            tracing::warn!(game = %header.id, error = %e, "finished game not recorded")
                        }
                    }
                }
                if !a.positions.is_whole(store, &header)? {
                    if let Err(e) = a.positions.index_game(store, &header, None, hash_key) {
                        tracing::warn!(game = %header.id, error = %e, "position index not written");
                    }
                }
            }
        }
        // A correction replaces a game's summary and positions after the store has the new
        // revision: a crash between the two leaves them behind, found here.
        for (id, revision) in store.revised_games()? {
            if a.revs().get(&id).copied().unwrap_or(0) != revision {
                // Derived data: a game that cannot be read now is logged and left to
                // `rebuild`, not a reason to refuse to start.
                match store
                    .header(id)
                    .and_then(|h| Ok((store.state_at(id, h.plies)?, h)))
                {
                    Ok((state, header)) => {
                        let _ = a.on_finish(store, &header, state.as_ref(), None);
                    }
                    Err(e) => {
                        tracing::warn!(game = %id, error = %e, "corrected game not re-recorded")
                    }
                }
            }
        }
        let hook = Arc::downgrade(&a);
        store.on_finish(Arc::new(
            move |store: &dyn GameLog,
                  header: &Header,
                  state: &dyn GameState,
                  entries: Option<&[Entry]>| {
                match hook.upgrade() {
                    Some(a) => a.on_finish(store, header, state, entries),
                    None => Ok(()),
                }
            },
        ));
        Ok(a)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Summaries> {
        self.summaries.write().unwrap_or_else(|e| e.into_inner())
    }

    fn revs(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<GameId, u32>> {
        self.revisions.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Summaries> {
        self.summaries.read().unwrap_or_else(|e| e.into_inner())
    }

    /// A game finished, or was corrected: its summary and its positions are added, or replaced
    /// by those of its new revision (idempotent). `entries` is its whole log when the caller
    /// has it (else it is read from the store). `Err` (only `StoreError::Unavailable`): the
    /// store could not be read just now, and what was left undone is done when the game is
    /// offered again (a finish hook's contract, [`store::FinishHook`]); other failures are
    /// logged and mended by `rebuild`.
    pub fn on_finish(
        &self,
        store: &dyn GameLog,
        header: &Header,
        state: &dyn GameState,
        entries: Option<&[Entry]>,
    ) -> Result<(), StoreError> {
        let Some(s) = GameSummary::of(header, state) else {
            return Ok(());
        };
        let _one = self.recording.lock().unwrap_or_else(|e| e.into_inner());
        // Like the summary, the index is derived data: a failure here leaves the game stored
        // and is mended by `rebuild`; it is logged, not returned to the appender. A game
        // indexed already is not indexed twice, unless corrected since (a later block of a
        // game replaces its earlier one).
        let indexed = self.revs().get(&header.id).copied().unwrap_or(0);
        if header.revision < indexed {
            // A report of an older revision (a finish hook that ran late): the newer stays.
            return Ok(());
        }
        let mut index_ok = true;
        let mut unavailable = None;
        if !self.positions.contains(header.kind, header.id) || indexed != header.revision {
            match self
                .positions
                .index_game(store, header, entries, self.hash_key)
            {
                Ok(_) => {}
                Err(crate::positions::PositionsError::Store(e @ StoreError::Unavailable(_))) => {
                    index_ok = false;
                    unavailable = Some(e);
                }
                Err(e) => {
                    index_ok = false;
                    tracing::warn!(game = %header.id, error = %e, "position index not written");
                }
            }
        }
        match self.explorer.file(store, header, state, entries) {
            Ok(_) => {}
            Err(explorer::ExplorerError::Store(e @ StoreError::Unavailable(_))) => {
                unavailable = Some(e);
            }
            Err(e) => tracing::warn!(game = %header.id, error = %e, "explorer: game not filed"),
        }
        if let Ok(bytes) = postcard::to_allocvec(&s) {
            // The projection is a cache: if this write fails, `rebuild` restores it.
            let _ = store.projection_put(PROJECTION, &s.id.to_bytes(), &bytes);
        }
        self.write().insert(s);
        if header.revision != indexed && index_ok {
            // Last, and only once indexed: an open that finds it missing replaces the summary
            // and positions again.
            let _ = store.projection_put(
                REVISIONS,
                &header.id.to_bytes(),
                &header.revision.to_be_bytes(),
            );
            self.revs().insert(header.id, header.revision);
        }
        self.invalidate();
        unavailable.map_or(Ok(()), Err)
    }

    fn invalidate(&self) {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// Forgets everything, for a rebuild (the store then replays every finished game).
    pub fn clear(&self, store: &dyn GameLog) -> Result<(), AnalysisError> {
        let _one = self.recording.lock().unwrap_or_else(|e| e.into_inner());
        // The position index first: emptying its files may fail (a reader holds one open), and
        // must then leave the summaries as they were, not half of the analysis forgotten.
        self.positions.clear(store)?;
        self.explorer.clear(store)?;
        store.projection_clear(PROJECTION)?;
        store.projection_clear(REVISIONS)?;
        self.revs().clear();
        self.write().clear();
        self.invalidate();
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.read().len()
    }

    pub fn is_empty(&self) -> bool {
        self.read().is_empty()
    }

    /// Statistics of the finished games of `kind` that `filter` accepts (cached until the next
    /// game finishes).
    pub fn statistics(&self, kind: GameKind, filter: &StatsFilter) -> Arc<Statistics> {
        let key = (kind, format!("{filter:?}"));
        if let Some(hit) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return hit.clone();
        }
        let stats = Arc::new(self.compute(kind, filter));
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(key, stats.clone());
        stats
    }

    /// Statistics computed afresh (what a cache miss costs): merged from the aggregates kept
    /// per player count and month when the filter allows (`rollups`), else folded from the
    /// summaries.
    pub fn compute(&self, kind: GameKind, filter: &StatsFilter) -> Statistics {
        let map = self.read();
        map.served_by_parts(kind, filter).unwrap_or_else(|| {
            compute(map.values().filter(|g| g.kind == kind && filter.accepts(g)))
        })
    }

    /// Statistics folded from every summary, whatever the filter: what [`Self::compute`]
    /// answers by other means (for tests and benchmarks).
    pub fn scan(&self, kind: GameKind, filter: &StatsFilter) -> Statistics {
        let map = self.read();
        compute(map.values().filter(|g| g.kind == kind && filter.accepts(g)))
    }

    /// Weng-Lin ratings of the players of `kind`, best first (over every finished game, in
    /// creation order).
    pub fn ratings(&self, kind: GameKind) -> Vec<crate::ratings::PlayerRating> {
        let map = self.read();
        crate::ratings::ratings(map.values().filter(|g| g.kind == kind))
    }

    /// `player`'s rating after each of their last `last` rated games of `kind`, oldest first,
    /// and the rating they have now: the walk `ratings` makes, computed on request (nothing is
    /// kept between requests, so memory does not grow with players or games).
    pub fn rating_history(
        &self,
        kind: GameKind,
        player: &str,
        last: usize,
    ) -> (
        Vec<crate::ratings::RatingPoint>,
        Option<crate::ratings::PlayerRating>,
    ) {
        let map = self.read();
        crate::ratings::history(map.values().filter(|g| g.kind == kind), player, last)
    }

    /// `player`'s results in each kind they have finished a game of, with their rating there.
    pub fn player_results(&self, player: &str) -> Vec<crate::players::KindResult> {
        let map = self.read();
        crate::players::results(map.values(), player, |kind| {
            crate::ratings::history(map.values().filter(|g| g.kind == kind), player, 0).1
        })
    }

    /// Whether the store's projections were made by this version for every finished game
    /// (see [`Analysis::mark_projections_current`]).
    pub fn projections_current(&self, store: &dyn GameLog) -> Result<bool, AnalysisError> {
        projections_current(store)
    }

    /// Records that every finished game has its projections, as this version makes them.
    pub fn mark_projections_current(&self, store: &dyn GameLog) -> Result<(), AnalysisError> {
        Ok(store.projection_put(META, b"version", PROJECTIONS_VERSION)?)
    }

    /// The position index.
    pub fn positions(&self) -> &PositionIndex {
        &self.positions
    }

    /// The explorer of decisions over the same finished games.
    pub fn explorer(&self) -> &explorer::Explorer {
        &self.explorer
    }

    /// The key of the index's state hashes.
    pub fn hash_key(&self) -> [u8; 16] {
        self.hash_key
    }

    /// Every summary, in id order (for exports and tests).
    pub fn summaries(&self) -> Vec<GameSummary> {
        self.read().values().cloned().collect()
    }
}

/// Whether `store`'s projections are those this version makes (see
/// [`Analysis::mark_projections_current`]); a reader that needs only the position index asks
/// this rather than loading every summary.
pub fn projections_current(store: &dyn GameLog) -> Result<bool, AnalysisError> {
    for kv in store.projection_iter(META)? {
        let (k, v) = kv?;
        if k == b"version" {
            return Ok(v == PROJECTIONS_VERSION);
        }
    }
    Ok(false)
}
