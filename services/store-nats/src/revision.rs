//! Corrections of finished games on the stream: a new revision is one journal note.
//!
//! A finished game is sealed ([`crate::archive`]): its record keeps the game as recorded
//! (revision 0) and never changes. A correction is its journal note (`NoteBody::Corrected`,
//! holding for each changed entry its text before and after), published on the game's
//! journal subject expecting the journal's last message, with the message header
//! `Ludolog-Revision: <n>` — one publish, so a correction is kept whole or not at all, and two
//! corrections (or a correction and an annotation) racing on one game cannot both take a
//! place: the loser plans again on the journal as it is. What a correction must satisfy is
//! `store::revision::plan_correction`'s, as on sled.
//!
//! Reading a corrected game applies its corrections to the record
//! (`store::revision::log_latest`); every node's catalog learns a game's latest revision
//! from the note's header, and its follower runs the finish hooks again for it, so statistics,
//! the position index and the explorer follow the latest revision on every node.

use crate::codec;
use crate::NatsLog;
use async_nats::jetstream::message::PublishMessage;
use std::hash::{Hash, Hasher};
use store::journal::{encode_note, Note};
use store::revision::{plan_correction, Correction};
use store::{Corrected, Entry, GameId, Result, Status, StoreError};

/// How many times a correction is planned again after another note took its place.
const TRIES: u32 = 8;

impl NatsLog {
    /// Corrects a finished game as a new revision; see [`store::GameLog::correct`].
    pub(crate) fn correct_game(&self, c: Correction) -> Result<Corrected> {
        let id = c.game;
        let header = self.rt.block_on(self.read_header(id))?;
        if header.status != Status::Finished {
            return Err(StoreError::NotFinished(id));
        }
        // The record is what a correction revises: a game still on its own subjects is
        // sealed first (as every node's keeper would a few seconds later).
        self.seal(id)?;
        for _ in 0..TRIES {
            let (header, entries, notes, last) = self.rt.block_on(async {
                let last = self.game_last(id).await?;
                let mut header = self.read_header(id).await?;
                let notes = self.read_notes(id).await?;
                // The journal is the truth; this node's catalog may not have read the latest
                // correction yet.
                header.revision = header.revision.max(store::revision::latest(&notes));
                let entries: Vec<Entry> = self
                    .read_entries_with(id, &notes)
                    .await?
                    .into_iter()
                    .map(|(e, _)| e)
                    .collect();
                Ok::<_, StoreError>((header, entries, notes, last))
            })?;
            let planned = plan_correction(
                &self.registry,
                self.config.store.snapshot_every,
                &header,
                &notes,
                &entries,
                &c,
            )?;
            // An admin's correction is counted in the journal's size, never refused by it (as
            // on sled: `--max-journal-bytes`).
            let published = self
                .rt
                .block_on(self.publish_correction(id, last, &planned.note))?;
            if !published {
                // Another note took the place first: plan again on the journal as it is.
                continue;
            }
            self.rt
                .block_on(self.learn_revision(id, planned.header.revision))?;
            // Its hooks run when this node's follower reads the note, as on every node.
            return Ok(Corrected {
                header: planned.header,
                note: planned.note,
            });
        }
        Err(StoreError::Unavailable(format!(
            "game {id}: its journal kept changing while the correction was written; retry"
        )))
    }

    /// Publishes a correction's note after the journal message at `after`; `false` when
    /// another note took its place first.
    async fn publish_correction(&self, id: GameId, after: u64, note: &Note) -> Result<bool> {
        let store::journal::NoteBody::Corrected { revision, .. } = &note.body else {
            return Err(StoreError::BadInput("not a correction".into()));
        };
        let payload = encode_note(note);
        let mut h = std::hash::DefaultHasher::new();
        payload.hash(&mut h);
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(codec::REVISION, revision.to_string().as_str());
        let msg = PublishMessage::build().headers(headers);
        let msg = self.expecting_game(id, msg, after).payload(payload.into());
        let msg_id = format!("{id}:note:{}:{:016x}", note.seq, h.finish());
        self.publish_on_game(self.subject_journal(id), msg, msg_id)
            .await
    }

    /// Every corrected game this node's catalog knows, with its latest revision.
    pub(crate) fn revised(&self) -> Result<Vec<(GameId, u32)>> {
        self.rt.block_on(self.sync_catalog())?;
        let mut out = Vec::new();
        for k in self.known_games(false, None)? {
            let h = k?.header;
            if h.revision > 0 {
                out.push((h.id, h.revision));
            }
        }
        Ok(out)
    }
}
