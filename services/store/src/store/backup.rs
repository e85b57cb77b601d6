//! Online backup: a consistent copy of a store that is serving, into a new folder that
//! `Store::open` (and `ludolog serve --data-dir`) opens as a store of its own.
//!
//! Writers are never stopped. Each game is copied as of one moment of its own: its header is
//! read first (from its warm tip when it is being played, which changes only once an append's
//! writes are all in), then exactly the entries, snapshots and idempotency records up to that
//! header's length. Entries are append-only, so what the header covers can no longer change
//! (a correction, which rewrites a finished game's entries, is held off while that game is
//! copied: both take the store's journal lock), and a game's journal and revision are copied
//! with it.
//! Every game's moment is after the backup began, so every move acknowledged before it is in
//! the copy, and no game in it holds half an append. Projections (statistics, the position
//! index) are not copied: they are caches, rebuilt from the logs when the copy is first opened
//! with the analysis attached.

use super::*;

/// What a backup copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct BackupReport {
    pub games: u64,
    pub entries: u64,
}

impl Store {
    /// Copies every game into `dir`, which must not exist or be empty.
    pub fn backup_to(&self, dir: &Path) -> Result<BackupReport> {
        if dir
            .read_dir()
            .map(|mut d| d.next().is_some())
            .unwrap_or(false)
        {
            return Err(StoreError::BadInput(format!(
                "{} is not empty: a backup goes into a new folder",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Sled(sled::Error::Io(e)))?;
        let db = sled::Config::new()
            .path(dir)
            .mode(sled::Mode::HighThroughput)
            .flush_every_ms(None)
            .open()?;
        let to = TREE_NAMES
            .iter()
            .map(|n| db.open_tree(n))
            .collect::<sled::Result<Vec<_>>>()?;
        let mut report = BackupReport::default();
        let ids: Vec<GameId> = self.game_ids().collect::<Result<_>>()?;
        for id in ids {
            // A correction rewrites a finished game's entries: none runs while it is copied.
            let _notes = self.notes_lock.lock().unwrap_or_else(|e| e.into_inner());
            let header = self.header(id)?;
            let (fixed, tip) = header.split();
            to[usize::from(GAMES)].insert(id.to_bytes(), encode(&fixed))?;
            to[usize::from(TIPS)].insert(id.to_bytes(), encode(&tip))?;
            for kv in self.entries.range(key(id, 0)..key(id, header.plies)) {
                let (k, v) = kv?;
                to[usize::from(ENTRIES)].insert(k, v)?;
                report.entries += 1;
            }
            // A finished game written whole keeps its log in a few records (see `sealed`).
            if header.status == Status::Finished {
                let chunks = key(id, super::sealed::SEALED_BASE)..=key(id, u32::MAX);
                let mut any = false;
                for kv in self.entries.range(chunks) {
                    let (k, v) = kv?;
                    to[usize::from(ENTRIES)].insert(k, v)?;
                    any = true;
                }
                if any {
                    report.entries += u64::from(header.plies);
                }
            }
            for kv in self.snapshots.range(key(id, 0)..=key(id, header.plies)) {
                let (k, v) = kv?;
                to[usize::from(SNAPSHOTS)].insert(k, v)?;
            }
            for kv in self.idem.scan_prefix(id.to_bytes()) {
                let (k, v) = kv?;
                let rec = IdemRecord::decode(&v, id)?;
                if rec.first_ply + rec.count <= header.plies {
                    to[usize::from(IDEM)].insert(k, v)?;
                }
            }
            to[usize::from(BY_KIND)].insert(kind_key(&header), Vec::new())?;
            for p in &header.players {
                to[usize::from(BY_PLAYER)].insert(player_key(p, id), Vec::new())?;
            }
            for kv in self.journal.scan_prefix(id.to_bytes()) {
                let (k, v) = kv?;
                to[usize::from(JOURNAL)].insert(k, v)?;
            }
            if let Some(v) = self.revisions.get(id.to_bytes())? {
                to[usize::from(REVISIONS)].insert(id.to_bytes(), v)?;
            }
            report.games += 1;
        }
        for kv in self.studies.iter() {
            let (k, v) = kv?;
            to[usize::from(STUDIES)].insert(k, v)?;
        }
        db.flush()?;
        Ok(report)
    }
}
