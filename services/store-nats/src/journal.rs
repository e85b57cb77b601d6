//! Journals and studies on the stream: a game's annotations on its own subject
//! `<prefix>.j.<game id>` (one JSON `store::journal::Note` per message, in order) and each
//! study on `<prefix>.s.<study id>` (one JSON message).
//!
//! What a note request writes is `store::journal::plan_note`'s, as on sled, within the same
//! limits (`store::Config::max_journal_bytes`, counted on the journal just read). A note is
//! published expecting the journal's last message (`Nats-Expected-Last-Subject-Sequence`), so
//! two nodes writing notes to one game at once cannot both take the same number: the loser
//! reads the journal again and plans again. Its message id names the game, the note's number
//! and a hash of its content, so a retried publish is recognised and a different note at a
//! taken number is a conflict, never a duplicate.
//!
//! Takebacks are not kept here yet: carrying one out removes entries from a game's line,
//! which on the stream means deleting their messages and moving every node's warm tip and
//! catalog with it. They answer `UNSUPPORTED`, writing nothing. Corrections are journal notes
//! too, written by `crate::revision`.
//!
//! A game with notes keeps its journal subject after it is sealed (see `archive`): the
//! server keeps memory per subject, so this costs one subject per annotated game, not per
//! game.

use crate::codec::{self, Refused};
use crate::NatsLog;
use async_nats::jetstream::message::PublishMessage;
use std::hash::{Hash, Hasher};
use store::journal::{
    decode_note, encode_note, plan_note, Game, JournalSize, NewNote, Note, NoteRequest, Noted,
    Planned,
};
use store::study::{Study, StudyId};
use store::{GameId, Result, StoreError};

/// How many times a note is planned again after another node wrote one first.
const NOTE_TRIES: u32 = 16;

impl NatsLog {
    pub(crate) fn subject_journal(&self, id: GameId) -> String {
        format!("{}.j.{id}", self.config.prefix)
    }

    fn subject_study(&self, id: StudyId) -> String {
        format!("{}.s.{id}", self.config.prefix)
    }

    /// A game's notes in order, and the stream sequence of the last (0: none).
    pub(crate) async fn read_notes(&self, id: GameId) -> Result<(Vec<Note>, u64)> {
        let subject = self.subject_journal(id);
        let read = self.read_subject(&subject, |payload, place| {
            let note = decode_note(payload, id)?;
            if note.seq != place as u32 {
                return Err(StoreError::Corrupt {
                    game: id,
                    ply: None,
                    what: format!("journal note {} in place {place} of the journal", note.seq),
                });
            }
            Ok(note)
        });
        let read = tokio::time::timeout(self.config.timeout, read)
            .await
            .unwrap_or_else(|_| {
                Err(StoreError::Unavailable(format!(
                    "game {id}: its journal could not be read in time"
                )))
            })?;
        let last = read.last().map_or(0, |(_, seq)| *seq);
        Ok((read.into_iter().map(|(n, _)| n).collect(), last))
    }

    /// A game's journal (the game must exist).
    pub(crate) fn journal_of(&self, id: GameId) -> Result<Vec<Note>> {
        self.rt.block_on(async {
            self.read_header(id).await?;
            Ok(self.read_notes(id).await?.0)
        })
    }

    /// Writes what a note request decides; see [`store::GameLog::write_note`].
    pub(crate) fn write_journal_note(&self, req: NewNote) -> Result<Noted> {
        if matches!(
            req.request,
            NoteRequest::AskTakeback { .. } | NoteRequest::AnswerTakeback { .. }
        ) {
            return Err(StoreError::Unsupported(format!(
                "the {} backend keeps annotations but no takebacks yet; the embedded store does",
                store::GameLog::backend(self)
            )));
        }
        let id = req.game;
        self.rt.block_on(async {
            for _ in 0..NOTE_TRIES {
                let header = self.read_header(id).await?;
                let (notes, mut seq) = self.read_notes(id).await?;
                // No request kept here reads the line (takebacks are refused above).
                let planned = plan_note(
                    &Game {
                        header: &header,
                        notes: &notes,
                        size: JournalSize::of(&notes),
                        max_bytes: self.config.store.max_journal_bytes,
                        tail: &[],
                    },
                    &req,
                )?;
                let mut written = Vec::new();
                let mut conflict = false;
                for p in planned {
                    let Planned::Note(note) = p else {
                        return Err(StoreError::Unsupported(
                            "a takeback is not carried out on this backend".into(),
                        ));
                    };
                    match self.publish_note(id, seq, &note).await? {
                        Some(s) => seq = s,
                        None => {
                            conflict = true;
                            break;
                        }
                    }
                    written.push(note);
                }
                if conflict && written.is_empty() {
                    // Another node wrote a note first: plan again on the journal as it is.
                    continue;
                }
                return Ok(Noted {
                    header,
                    notes: written,
                    withdrawn_to: None,
                });
            }
            Err(StoreError::Unavailable(format!(
                "game {id}: its journal kept changing while a note was written; retry"
            )))
        })
    }

    /// Publishes `note` after the journal message at sequence `after`; `None` when another
    /// note took its place first.
    async fn publish_note(&self, id: GameId, after: u64, note: &Note) -> Result<Option<u64>> {
        let payload = encode_note(note);
        let mut h = std::hash::DefaultHasher::new();
        payload.hash(&mut h);
        let msg = PublishMessage::build()
            .payload(payload.into())
            .expected_last_subject_sequence(after);
        let msg_id = format!("{id}:note:{}:{:016x}", note.seq, h.finish());
        match self
            .publish(self.subject_journal(id), msg, Some(msg_id))
            .await
            .ack
        {
            // The same note, published before (an earlier attempt whose answer was lost).
            Ok(a) => Ok(Some(a.sequence)),
            Err(e) => match codec::refused(&e) {
                Refused::Conflict => Ok(None),
                Refused::Unavailable(m) | Refused::Other(m) => Err(StoreError::Unavailable(m)),
            },
        }
    }

    /// Stores a new study, refused if its id is taken.
    pub(crate) fn put_study_on_stream(&self, study: &Study) -> Result<()> {
        self.rt.block_on(async {
            let payload = store::study::encode(study);
            let mut h = std::hash::DefaultHasher::new();
            payload.hash(&mut h);
            // The id names the content, as a header's does (see `log::publish_header`).
            let msg_id = format!("study:{}:{:016x}", study.id, h.finish());
            let msg = PublishMessage::build()
                .payload(payload.into())
                .expected_last_subject_sequence(0);
            let published = self
                .publish(self.subject_study(study.id), msg, Some(msg_id))
                .await;
            match published.ack {
                Ok(a) if a.duplicate && !published.retried => Err(StoreError::Exists(study.id.0)),
                Ok(_) => Ok(()),
                Err(e) => Err(match codec::refused(&e) {
                    Refused::Conflict => StoreError::Exists(study.id.0),
                    Refused::Unavailable(m) | Refused::Other(m) => StoreError::Unavailable(m),
                }),
            }
        })
    }

    pub(crate) fn study_on_stream(&self, id: StudyId) -> Result<Study> {
        self.rt.block_on(async {
            match self.last_on(&self.subject_study(id)).await? {
                Some(m) => store::study::decode(&m.payload, id),
                None => Err(StoreError::NoSuchStudy(id.to_string())),
            }
        })
    }
}
