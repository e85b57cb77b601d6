//! Corrections in sled: a finished game's changed entries (or the sealed records holding
//! them) and its snapshots from the first change on are rewritten, its correction note added
//! to its journal and its revision kept in `revisions` — one sled transaction, one record of
//! the write-ahead log. What a correction writes is decided by
//! [`crate::revision::plan_correction`].

use super::*;
use crate::journal::{encode_note, Note};
use crate::revision::{plan_correction, Correction};

/// What a correction wrote.
#[derive(Debug, Clone)]
pub struct Corrected {
    /// The game's header at its new revision.
    pub header: Header,
    /// The journal note of the correction.
    pub note: Note,
}

impl Store {
    /// Corrects a finished game as a new revision; see [`crate::GameLog::correct`].
    pub fn correct(&self, c: Correction) -> Result<Corrected> {
        let id = c.game;
        // Corrections and notes are serialised: a finished game gains nothing else.
        let _notes = self.notes_lock.lock().unwrap_or_else(|e| e.into_inner());
        let header = self.header(id)?;
        if header.status != Status::Finished {
            return Err(StoreError::NotFinished(id));
        }
        let notes = self.stored_notes(id)?;
        let entries = self.entries(id, 0, header.plies)?;
        let planned = plan_correction(
            &self.registry,
            self.config.snapshot_every,
            &header,
            &notes,
            &entries,
            &c,
        )?;
        let first = planned.changed.first().copied().unwrap_or(0);
        let mut writes = vec![write(
            JOURNAL,
            &key(id, planned.note.seq),
            frame(&encode_note(&planned.note)),
        )];
        let sealed = !self.entries.contains_key(key(id, 0))?;
        if sealed {
            let touched: std::collections::BTreeSet<u32> = planned
                .changed
                .iter()
                .map(|p| sealed::SEALED_BASE + p / sealed::CHUNK)
                .collect();
            for (k, bytes) in sealed::seal(&planned.entries) {
                if touched.contains(&k) {
                    writes.push(write(ENTRIES, &key(id, k), bytes));
                }
            }
        } else {
            for p in &planned.changed {
                let e = &planned.entries[*p as usize];
                writes.push(write(ENTRIES, &key(id, e.ply), encode(e)));
            }
        }
        // Snapshots past the first change describe the old record: each is replaced, or
        // removed where this build would not have written one.
        let fresh: std::collections::BTreeSet<u32> =
            planned.snaps.iter().map(|(p, _)| *p).collect();
        for kv in self
            .snapshots
            .range(key(id, first + 1)..=key(id, header.plies))
        {
            let (k, _) = kv?;
            let ply = u32::from_be_bytes([k[8], k[9], k[10], k[11]]);
            if !fresh.contains(&ply) {
                writes.push(remove(SNAPSHOTS, &k));
            }
        }
        writes.extend(
            planned
                .snaps
                .iter()
                .map(|(p, b)| write(SNAPSHOTS, &key(id, *p), frame(b))),
        );
        writes.push(write(
            REVISIONS,
            &id.to_bytes(),
            planned.header.revision.to_be_bytes().to_vec(),
        ));
        // Logged before sled has it as well as after (see `Store::log_ahead`).
        self.log_ahead(&writes)?;
        // The journal gains the correction's note: its size is counted again when next needed.
        self.keep_journal_size(id, None);
        self.commit_writes_as(&writes, &[], true)?;
        self.commit.wait_durable(record(&writes))?;
        // A finished game has no warm tip, but a reader may have loaded one meanwhile.
        self.tips_lock().remove(&id);
        // Statistics, ratings and the position index follow the latest revision.
        self.finished(
            &planned.header,
            planned.state.as_ref(),
            Some(&planned.entries),
        );
        Ok(Corrected {
            header: planned.header,
            note: planned.note,
        })
    }

    /// Every corrected game and its latest revision, in id order.
    pub fn revised_games(&self) -> Result<Vec<(GameId, u32)>> {
        let mut out = Vec::new();
        for kv in self.revisions.iter() {
            let (k, v) = kv?;
            let (Ok(k), Ok(v)) = (
                <[u8; 8]>::try_from(k.as_ref()),
                <[u8; 4]>::try_from(v.as_ref()),
            ) else {
                continue;
            };
            out.push((GameId(u64::from_be_bytes(k)), u32::from_be_bytes(v)));
        }
        Ok(out)
    }
}
