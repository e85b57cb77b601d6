//! Journals and studies in sled: notes under (game, number), studies under their id. What a
//! note request writes is decided by [`crate::journal::plan_note`]; here it is read, locked and
//! written — through the write-ahead log like an append, so a takeback's note and the
//! withdrawal of the line's entries are durable together or not at all.

use super::*;
use crate::journal::{
    check_room, decode_note, encode_note, needs_notes, plan_note, tail_needed, withdrawal_note,
    Game, JournalSize, NewNote, Note, Noted, Planned,
};
use crate::study::{Study, StudyId};

fn note_key(id: GameId, seq: u32) -> [u8; 12] {
    key(id, seq)
}

impl Store {
    /// A game's journal, in order.
    pub fn journal(&self, id: GameId) -> Result<Vec<Note>> {
        if !self.games.contains_key(id.to_bytes())? {
            return Err(StoreError::NotFound(id));
        }
        self.stored_notes(id)
    }

    pub(super) fn stored_notes(&self, id: GameId) -> Result<Vec<Note>> {
        let mut out = Vec::new();
        for kv in self.journal.scan_prefix(id.to_bytes()) {
            let (_, v) = kv?;
            let payload = unframe(&v).ok_or_else(|| StoreError::Corrupt {
                game: id,
                ply: None,
                what: "journal note checksum mismatch".into(),
            })?;
            out.push(decode_note(payload, id)?);
        }
        Ok(out)
    }

    /// The size of a game's journal: kept from the last write, or counted from the stored
    /// notes' lengths (not decoded). Called under `notes_lock`, as every journal write is.
    fn journal_size(&self, id: GameId) -> Result<JournalSize> {
        if let Some(size) = self.journal_sizes_lock().get(&id) {
            return Ok(*size);
        }
        let mut size = JournalSize::default();
        for kv in self.journal.scan_prefix(id.to_bytes()) {
            let (_, v) = kv?;
            // The note's JSON, without its checksum.
            size.add_stored(v.len().saturating_sub(4));
        }
        Ok(size)
    }

    /// Keeps a journal's size after a write (or forgets it, `None`: counted again when next
    /// needed). Only journals written lately are kept: it is a cache, bounded crudely.
    pub(super) fn keep_journal_size(&self, id: GameId, size: Option<JournalSize>) {
        let mut sizes = self.journal_sizes_lock();
        match size {
            Some(s) => {
                if sizes.len() >= 65_536 {
                    sizes.clear();
                }
                sizes.insert(id, s);
            }
            None => {
                sizes.remove(&id);
            }
        }
    }

    fn journal_sizes_lock(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, JournalSize>> {
        self.journal_sizes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many notes a game's journal holds, without reading them.
    pub fn journal_len(&self, id: GameId) -> Result<u32> {
        if !self.games.contains_key(id.to_bytes())? {
            return Err(StoreError::NotFound(id));
        }
        match self.journal.scan_prefix(id.to_bytes()).next_back() {
            Some(kv) => {
                let (k, _) = kv?;
                Ok(u32::from_be_bytes([k[8], k[9], k[10], k[11]]) + 1)
            }
            None => Ok(0),
        }
    }

    /// Writes what a note request decides, under the game's locks; see
    /// [`crate::GameLog::write_note`]. An annotation reads nothing of the journal but its size.
    pub fn write_note(&self, req: NewNote) -> Result<Noted> {
        let id = req.game;
        let _notes = self.notes_lock.lock().unwrap_or_else(|e| e.into_inner());
        let header = self.header(id)?;
        let size = self.journal_size(id)?;
        let read_notes = || -> Result<Vec<Note>> {
            if needs_notes(&req.request) {
                self.stored_notes(id)
            } else {
                Ok(Vec::new())
            }
        };
        if header.status == Status::Finished {
            // No append can race: a finished game only gains notes.
            let notes = read_notes()?;
            let planned = plan_note(
                &Game {
                    header: &header,
                    notes: &notes,
                    size,
                    max_bytes: self.config.max_journal_bytes,
                    tail: &[],
                },
                &req,
            )?;
            let (noted, queued) = self.write_planned(&header, planned, None, &req, size)?;
            self.commit.wait(queued?)?;
            return Ok(noted);
        }
        let tip = self.tip(id)?;
        let mut tip = tip.lock().unwrap_or_else(|e| e.into_inner());
        let notes = read_notes()?;
        let header = tip.header.clone();
        let tail = match tail_needed(&req.request, &notes) {
            Some(from) if from < header.plies => self.entries(id, from, header.plies)?,
            _ => Vec::new(),
        };
        let planned = plan_note(
            &Game {
                header: &header,
                notes: &notes,
                size,
                max_bytes: self.config.max_journal_bytes,
                tail: &tail,
            },
            &req,
        )?;
        let (noted, queued) = self.write_planned(&header, planned, Some(&tail), &req, size)?;
        if let Some(to) = noted.withdrawn_to {
            // sled has the shorter line now: the warm tip follows it, or is dropped so that
            // the next reader loads it from sled.
            match self.stored_state_at(&noted.header, to) {
                Ok(state) => {
                    tip.header = noted.header.clone();
                    tip.state = state;
                }
                Err(e) => {
                    drop(tip);
                    self.tips_lock().remove(&id);
                    return Err(e);
                }
            }
        }
        drop(tip);
        self.commit.wait(queued?)?;
        Ok(noted)
    }

    /// Writes planned notes and, for a takeback, removes the withdrawn entries (`tail` holds
    /// them) and the snapshots past the new end: in sled as one transaction, and queued for
    /// the write-ahead log under the caller's lock (the caller waits for it to be durable).
    fn write_planned(
        &self,
        header: &Header,
        planned: Vec<Planned>,
        tail: Option<&[Entry]>,
        req: &NewNote,
        size: JournalSize,
    ) -> Result<(Noted, std::result::Result<u64, sled::Error>)> {
        let id = header.id;
        let first_seq = size.notes;
        let mut writes = Vec::new();
        let mut notes = Vec::new();
        let mut new_header = header.clone();
        let mut withdrawn_to = None;
        for p in planned {
            let note = match p {
                Planned::Note(n) => n,
                Planned::Withdraw { request, to_ply } => {
                    let entries: Vec<Entry> = tail
                        .unwrap_or(&[])
                        .iter()
                        .filter(|e| e.ply >= to_ply)
                        .cloned()
                        .collect();
                    if entries.len() as u32 != header.plies - to_ply {
                        return Err(StoreError::Corrupt {
                            game: id,
                            ply: Some(to_ply),
                            what: "the line's entries to withdraw were not all read".into(),
                        });
                    }
                    for e in &entries {
                        writes.push(remove(ENTRIES, &key(id, e.ply)));
                    }
                    for kv in self
                        .snapshots
                        .range(key(id, to_ply + 1)..=key(id, u32::MAX))
                    {
                        let (k, _) = kv?;
                        writes.push(remove(SNAPSHOTS, &k));
                    }
                    new_header.plies = to_ply;
                    if let Some(last) = self.entries(id, to_ply.saturating_sub(1), to_ply)?.pop() {
                        new_header.updated_at = last.recorded_at;
                    }
                    withdrawn_to = Some(to_ply);
                    withdrawal_note(&notes, first_seq, header, req, (request, to_ply), entries)
                }
            };
            // Notes first: a withdrawal's note holds its entries before they leave the line.
            writes.insert(
                notes.len(),
                write(JOURNAL, &note_key(id, note.seq), frame(&encode_note(&note))),
            );
            notes.push(note);
        }
        // Whole now (a withdrawal's note holds its entries): within the journal's limits?
        check_room(id, size, self.config.max_journal_bytes, &notes)?;
        if withdrawn_to.is_some() {
            // A withdrawal removes entries earlier records wrote (see `Store::log_ahead`).
            self.log_ahead(&writes)?;
        }
        if let Err(e) = self.commit_writes_as(&writes, &[], withdrawn_to.is_some()) {
            // Some of the notes may be in sled: count them again when next needed.
            self.keep_journal_size(id, None);
            return Err(e);
        }
        let mut after = size;
        for n in &notes {
            after.add(n);
        }
        self.keep_journal_size(id, Some(after));
        let queued = self.commit.submit(record(&writes));
        Ok((
            Noted {
                header: new_header,
                notes,
                withdrawn_to,
            },
            queued,
        ))
    }

    /// Stores a new study.
    pub fn put_study(&self, study: &Study) -> Result<()> {
        let k = study.id.0.to_bytes();
        let _notes = self.notes_lock.lock().unwrap_or_else(|e| e.into_inner());
        if self.studies.contains_key(k)? {
            return Err(StoreError::Exists(study.id.0));
        }
        let writes = vec![write(STUDIES, &k, frame(&crate::study::encode(study)))];
        self.commit_writes(&writes, None)?;
        self.commit.wait_durable(record(&writes))?;
        Ok(())
    }

    pub fn study(&self, id: StudyId) -> Result<Study> {
        let v = self
            .studies
            .get(id.0.to_bytes())?
            .ok_or_else(|| StoreError::NoSuchStudy(id.to_string()))?;
        let payload = unframe(&v).ok_or_else(|| StoreError::Corrupt {
            game: id.0,
            ply: None,
            what: "study checksum mismatch".into(),
        })?;
        crate::study::decode(payload, id)
    }
}
