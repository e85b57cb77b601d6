//! `rebuild`: recomputing every cache (snapshots, indexes, tips) and re-running the finish
//! hooks from the logs, which are the truth.

use super::*;

impl Store {
    /// Recomputes every cache — snapshots, indexes, warm tips — from the logs, checking that
    /// every stored entry still applies. `progress(done, total)` is called as games finish.
    pub fn rebuild(&self, progress: &mut dyn FnMut(u64, u64)) -> Result<RebuildReport> {
        self.tips_lock().clear();
        self.snapshots.clear()?;
        self.by_kind.clear()?;
        self.by_player.clear()?;
        let total = self.games.len() as u64;
        let mut report = RebuildReport::default();
        let ids: Vec<GameId> = self.game_ids().collect::<Result<_>>()?;
        for id in ids {
            let header = self.header(id)?;
            let mut state = crate::plan::recorded_start(&self.registry, &header)?;
            let mut batch = sled::Batch::default();
            let entries = self.entries(id, 0, header.plies)?;
            if entries.len() != header.plies as usize {
                // A log shorter than its header says (a sealed record that lost entries).
                return Err(StoreError::Corrupt {
                    game: id,
                    ply: Some(entries.len() as u32),
                    what: format!("{} entries for {} plies", entries.len(), header.plies),
                });
            }
            for e in &entries {
                crate::plan::apply_stored(state.as_mut(), id, e)?;
                if (e.ply + 1) % self.config.snapshot_every == 0 {
                    batch.insert(&key(id, e.ply + 1), frame(&state.encode()));
                }
                report.entries += 1;
            }
            self.snapshots.apply_batch(batch)?;
            self.by_kind.insert(kind_key(&header), &[] as &[u8])?;
            for p in &header.players {
                self.by_player.insert(player_key(p, id), &[] as &[u8])?;
            }
            if header.status == Status::Finished {
                self.finished(&header, state.as_ref(), Some(&entries));
            }
            report.games += 1;
            progress(report.games, total);
        }
        self.db.flush()?;
        Ok(report)
    }
}

/// What `rebuild` did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RebuildReport {
    pub games: u64,
    pub entries: u64,
}
