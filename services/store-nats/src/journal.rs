//! Journals and studies on the stream: a game's notes on its own subject `<prefix>.j.<game
//! id>` (one JSON `store::journal::Note` per message, or a request's several as a JSON list)
//! and each study on `<prefix>.s.<study id>` (one JSON message).
//!
//! What a note request writes is `store::journal::plan_note`'s, as on sled, within the same
//! limits (`store::Config::max_journal_bytes`, counted on the journal just read). A request's
//! notes are one message, so they are kept together or not at all, published expecting the
//! last message of **all** the game's subjects (`Nats-Expected-Last-Subject-Sequence` with
//! `Nats-Expected-Last-Subject-Sequence-Subject: <prefix>.*.<id>`, read before the game is):
//! two nodes writing notes to one game at once cannot both take the same number, and a
//! takeback planned on a line that has since grown is refused; the loser reads the game again
//! and plans again. Its message id names the game, the first note's number and a hash of the
//! content, so a retried publish is recognised and a different note at a taken number is a
//! conflict, never a duplicate.
//!
//! A takeback carried out is written on the game's line, not here: the request's notes, the
//! `Withdrawn` note last, go in one withdrawal marker on the entries subject (`crate::line`),
//! which cuts the line in the same publish. A journal read merges the journal subject's notes
//! with the markers' (or, once sealed, the record's) by number. Corrections are journal notes
//! too, written by `crate::revision`.
//!
//! A game with notes keeps its journal subject after it is sealed (see `archive`): the
//! server keeps memory per subject, so this costs one subject per annotated game, not per
//! game.

use crate::codec::{self, Refused};
use crate::line::Marker;
use crate::NatsLog;
use async_nats::jetstream::message::PublishMessage;
use std::hash::{Hash, Hasher};
use store::journal::{
    check_room, decode_note, encode_note, plan_note, tail_needed, withdrawal_note, Game,
    JournalSize, NewNote, Note, Noted, Planned,
};
use store::study::{Study, StudyId};
use store::{Entry, GameId, Header, Result, Status, StoreError};

/// How many times a note is planned again after another node wrote one first.
const NOTE_TRIES: u32 = 16;

impl NatsLog {
    pub(crate) fn subject_journal(&self, id: GameId) -> String {
        format!("{}.j.{id}", self.config.prefix)
    }

    fn subject_study(&self, id: StudyId) -> String {
        format!("{}.s.{id}", self.config.prefix)
    }

    /// A game's notes in order: its journal subject's, and those its withdrawal markers
    /// hold (on its line while it is played, in its record once sealed).
    pub(crate) async fn read_notes(&self, id: GameId) -> Result<Vec<Note>> {
        let read = async {
            // A game sealed between the two reads loses its markers from the line: read again,
            // from its record.
            for attempt in 0..2 {
                let mut notes = Vec::new();
                for m in self.read_messages(&self.subject_journal(id)).await? {
                    notes.extend(decode_notes(id, &m.payload)?);
                }
                // Markers' notes: a line holds markers only if its last message is one or
                // comes after one (entries after a cut carry their generation), so a line
                // never cut is not read. Without a line, the record's (no corrections asked
                // for: its own notes are what is needed here).
                let last = self.last_on(&self.subject_entries(id)).await?;
                let cut = last.as_ref().is_some_and(|m| {
                    codec::withdrawn_to(Some(&m.headers)).is_some()
                        || codec::generation_of(Some(&m.headers)) > 0
                });
                if cut || last.is_none() {
                    notes.extend(self.read_line_of(id, Some(&[])).await?.notes);
                }
                notes.sort_by_key(|n| n.seq);
                match notes.iter().enumerate().find(|(i, n)| n.seq != *i as u32) {
                    None => return Ok(notes),
                    Some(_) if attempt == 0 => continue,
                    Some((i, n)) => {
                        return Err(StoreError::Corrupt {
                            game: id,
                            ply: None,
                            what: format!("journal note {} in place {i} of the journal", n.seq),
                        })
                    }
                }
            }
            unreachable!("the loop returns")
        };
        tokio::time::timeout(self.config.timeout, read)
            .await
            .unwrap_or_else(|_| {
                Err(StoreError::Unavailable(format!(
                    "game {id}: its journal could not be read in time"
                )))
            })
    }

    /// A game's journal (the game must exist).
    pub(crate) fn journal_of(&self, id: GameId) -> Result<Vec<Note>> {
        self.rt.block_on(async {
            self.read_header(id).await?;
            self.read_notes(id).await
        })
    }

    /// Writes what a note request decides; see [`store::GameLog::write_note`].
    pub(crate) fn write_journal_note(&self, req: NewNote) -> Result<Noted> {
        let id = req.game;
        self.rt.block_on(async {
            for _ in 0..NOTE_TRIES {
                // Read first: whatever lands on the game after this is a conflict.
                let expect = self.game_last(id).await?;
                let header = self.read_header(id).await?;
                let notes = self.read_notes(id).await?;
                let line: Vec<Entry> = match tail_needed(&req.request, &notes) {
                    Some(from) if from < header.plies && header.status == Status::Active => self
                        .read_entries(id)
                        .await?
                        .into_iter()
                        .map(|(e, _)| e)
                        .collect(),
                    _ => Vec::new(),
                };
                if !line.is_empty() && line.len() as u32 != header.plies {
                    // The line moved between the two reads.
                    continue;
                }
                let from = tail_needed(&req.request, &notes).unwrap_or(0) as usize;
                let tail = line.get(from..).unwrap_or(&[]);
                let size = JournalSize::of(&notes);
                let planned = plan_note(
                    &Game {
                        header: &header,
                        notes: &notes,
                        size,
                        max_bytes: self.config.store.max_journal_bytes,
                        tail,
                    },
                    &req,
                )?;
                let (written, withdrawal) = whole(&header, &line, planned, &req, size)?;
                check_room(id, size, self.config.store.max_journal_bytes, &written)?;
                let done = match &withdrawal {
                    Some(marker) => self.publish_withdrawal(id, expect, marker).await?,
                    None => self.publish_notes(id, expect, &written).await?,
                };
                if !done {
                    // Another write reached the game first: plan again on it as it is.
                    continue;
                }
                let mut header = header;
                if let Some(m) = &withdrawal {
                    header.plies = m.plies;
                    header.updated_at = m.updated_at;
                    // This node's warm tip is past the line's end now: the next use reloads.
                    self.tips().remove(&id);
                }
                return Ok(Noted {
                    header,
                    notes: written,
                    withdrawn_to: withdrawal.map(|m| m.plies),
                });
            }
            Err(StoreError::Unavailable(format!(
                "game {id}: it kept changing while a note was written; retry"
            )))
        })
    }

    /// Publishes a request's notes (no withdrawal among them) as one journal message, expecting
    /// `after` as the game's last message; `false` when something else reached the game first.
    async fn publish_notes(&self, id: GameId, after: u64, notes: &[Note]) -> Result<bool> {
        let Some(first) = notes.first() else {
            return Ok(true);
        };
        let payload = match notes {
            [one] => encode_note(one),
            many => serde_json::to_vec(many).map_err(|e| StoreError::BadInput(e.to_string()))?,
        };
        let msg_id = format!("{id}:note:{}:{:016x}", first.seq, content_hash(&payload));
        let msg = self.expecting_game(id, PublishMessage::build(), after);
        let msg = msg.payload(payload.into());
        self.publish_on_game(self.subject_journal(id), msg, msg_id)
            .await
    }

    /// Publishes a takeback carried out: its withdrawal marker on the line (`crate::line`),
    /// holding every note of the request, expecting `after` as the game's last message.
    async fn publish_withdrawal(&self, id: GameId, after: u64, marker: &Marker) -> Result<bool> {
        let payload = marker.encode()?;
        let first = marker.notes.first().map_or(0, |n| n.seq);
        let msg_id = format!("{id}:withdraw:{first}:{:016x}", content_hash(&payload));
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(codec::WITHDRAWN, marker.plies.to_string().as_str());
        let msg = self.expecting_game(id, PublishMessage::build().headers(headers), after);
        let msg = msg.payload(payload);
        self.publish_on_game(self.subject_entries(id), msg, msg_id)
            .await
    }

    /// `msg` made to expect `after` as the last message on any of the game's subjects: a
    /// journal write is refused if anything reached the game since it was planned — a note
    /// (two writers cannot take one number), an entry (a takeback's line has moved on), a
    /// marker. An append expects its entries subject's last message only, so a note does not
    /// hold moves up, while a marker (on that subject) does.
    pub(crate) fn expecting_game(
        &self,
        id: GameId,
        msg: PublishMessage,
        after: u64,
    ) -> PublishMessage {
        msg.expected_last_subject_sequence(after).header(
            codec::EXPECTED_SUBJECT,
            format!("{}.*.{id}", self.config.prefix).as_str(),
        )
    }

    /// Publishes a journal write: `true` when kept (or kept before: a retried publish),
    /// `false` on a conflict.
    pub(crate) async fn publish_on_game(
        &self,
        subject: String,
        msg: PublishMessage,
        msg_id: String,
    ) -> Result<bool> {
        match self.publish(subject, msg, Some(msg_id)).await.ack {
            // The same write, published before (an earlier attempt whose answer was lost).
            Ok(_) => Ok(true),
            Err(e) => match codec::refused(&e) {
                Refused::Conflict => Ok(false),
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

/// A journal message's notes: one note, or a request's several as a list.
fn decode_notes(id: GameId, payload: &[u8]) -> Result<Vec<Note>> {
    if payload.trim_ascii_start().first() == Some(&b'[') {
        serde_json::from_slice(payload).map_err(|e| StoreError::Corrupt {
            game: id,
            ply: None,
            what: format!("journal notes: {e}"),
        })
    } else {
        Ok(vec![decode_note(payload, id)?])
    }
}

fn content_hash(payload: &[u8]) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    payload.hash(&mut h);
    h.finish()
}

/// A request's notes made whole: a withdrawal becomes its `Withdrawn` note, holding the
/// entries it takes off `line`, and the marker that carries every note of the request.
fn whole(
    header: &Header,
    line: &[Entry],
    planned: Vec<Planned>,
    req: &NewNote,
    size: JournalSize,
) -> Result<(Vec<Note>, Option<Marker>)> {
    let id = header.id;
    let mut notes: Vec<Note> = Vec::new();
    let mut marker = None;
    for p in planned {
        let note = match p {
            Planned::Note(n) => n,
            Planned::Withdraw { request, to_ply } => {
                let entries: Vec<Entry> = line.get(to_ply as usize..).unwrap_or(&[]).to_vec();
                if entries.len() as u32 != header.plies - to_ply {
                    return Err(StoreError::Corrupt {
                        game: id,
                        ply: Some(to_ply),
                        what: "the line's entries to withdraw were not all read".into(),
                    });
                }
                let updated_at = match to_ply.checked_sub(1) {
                    Some(last) => line[last as usize].recorded_at,
                    None => header.updated_at,
                };
                marker = Some((to_ply, updated_at));
                withdrawal_note(&notes, size.notes, header, req, (request, to_ply), entries)
            }
        };
        notes.push(note);
    }
    let marker = marker.map(|(plies, updated_at)| Marker {
        plies,
        updated_at,
        notes: notes.clone(),
    });
    Ok((notes, marker))
}
