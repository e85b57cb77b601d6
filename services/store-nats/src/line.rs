//! A game's line of play on its entries subject `<prefix>.e.<id>`: entries, and the
//! withdrawal markers of takebacks carried out.
//!
//! A takeback shortens the line, and a stream only grows: so a takeback carried out is one
//! more message on the entries subject, a **withdrawal marker** (message header
//! `Ludolog-Withdrawn: <plies after>`, a JSON [`Marker`]) that holds the notes of the request
//! that carried it out, the `Withdrawn` note last with the entries it withdraws. Reading the
//! subject in order, an entry extends the line (its ply must be the line's length) and a
//! marker cuts it back. Because the marker is on the entries subject, it and an append
//! expect the same last message: an append made on a line that a takeback has since cut is a
//! conflict, and a takeback planned on a line that has since grown is too (`crate::journal`).
//!
//! Entries written after a marker carry the line's generation (how many markers precede
//! them) in their message ids (`codec::msg_id`), so a move played again where it was
//! withdrawn is not taken for a duplicate of the withdrawn one.
//!
//! When the game is sealed (`crate::archive`) its line's entries go into the record and the
//! markers' notes with them, since the subject is purged.

use crate::codec;
use crate::NatsLog;
use async_nats::jetstream::consumer::{pull, DeliverPolicy};
use async_nats::HeaderMap;
use bytes::Bytes;
use chrono::{DateTime, Utc};
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use store::journal::{Note, NoteBody};
use store::{Entry, GameId, Result, StoreError};

/// The payload of a withdrawal marker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Marker {
    /// The line's length after it.
    pub plies: u32,
    /// When the line's last entry after it was recorded (the game's `updated_at`).
    pub updated_at: DateTime<Utc>,
    /// The notes of the request that carried the takeback out, its `Withdrawn` note last.
    pub notes: Vec<Note>,
}

impl Marker {
    pub fn decode(game: GameId, payload: &[u8]) -> Result<Marker> {
        let m: Marker = serde_json::from_slice(payload).map_err(|e| StoreError::Corrupt {
            game,
            ply: None,
            what: format!("withdrawal marker: {e}"),
        })?;
        match m.notes.last().map(|n| &n.body) {
            Some(NoteBody::Withdrawn { to_ply, .. }) if *to_ply == m.plies => Ok(m),
            _ => Err(StoreError::Corrupt {
                game,
                ply: Some(m.plies),
                what: "a withdrawal marker whose last note is not its withdrawal".into(),
            }),
        }
    }

    pub fn encode(&self) -> Result<Bytes> {
        serde_json::to_vec(self)
            .map(Bytes::from)
            .map_err(|e| StoreError::BadInput(e.to_string()))
    }
}

/// A message as read from a subject.
pub(crate) struct Raw {
    pub payload: Bytes,
    pub headers: Option<HeaderMap>,
    pub seq: u64,
}

/// A game's line as its entries subject holds it.
#[derive(Default)]
pub(crate) struct Line {
    /// The line's entries in ply order, each with its stream sequence.
    pub entries: Vec<(Entry, u64)>,
    /// The notes the markers hold, in order.
    pub notes: Vec<Note>,
    /// The stream sequence of the subject's last message, entry or marker (0: none): what
    /// the next append expects.
    pub last: u64,
    /// How many markers the subject holds.
    pub generation: u32,
}

impl Line {
    /// The line from a subject's messages in order.
    pub fn read(game: GameId, messages: Vec<Raw>) -> Result<Line> {
        let mut line = Line::default();
        for m in messages {
            line.last = m.seq;
            if codec::withdrawn_to(m.headers.as_ref()).is_some() {
                let marker = Marker::decode(game, &m.payload)?;
                if marker.plies as usize > line.entries.len() {
                    return Err(StoreError::Corrupt {
                        game,
                        ply: Some(marker.plies),
                        what: format!(
                            "a withdrawal to {} entries on a line of {}",
                            marker.plies,
                            line.entries.len()
                        ),
                    });
                }
                line.entries.truncate(marker.plies as usize);
                line.generation += 1;
                line.notes.extend(marker.notes);
                continue;
            }
            let e = codec::decode_entry(game, &m.payload)?;
            if e.ply as usize != line.entries.len() {
                return Err(StoreError::Corrupt {
                    game,
                    ply: Some(e.ply),
                    what: format!(
                        "entry in the wrong place (expected ply {})",
                        line.entries.len()
                    ),
                });
            }
            line.entries.push((e, m.seq));
        }
        Ok(line)
    }

    /// Every entry the markers withdrew, in the order they were withdrawn.
    pub fn withdrawn(&self) -> impl Iterator<Item = &Entry> {
        self.notes.iter().flat_map(|n| match &n.body {
            NoteBody::Withdrawn { entries, .. } => entries.as_slice(),
            _ => &[],
        })
    }
}

impl NatsLog {
    /// A live game's line (entries and markers on its own subject).
    pub(crate) async fn read_line(&self, id: GameId) -> Result<Line> {
        let messages = self.read_messages(&self.subject_entries(id)).await?;
        Line::read(id, messages)
    }

    /// Every message on `subject` in order: through an ordered consumer, dropped after.
    pub(crate) async fn read_messages(&self, subject: &str) -> Result<Vec<Raw>> {
        let consumer = self
            .asking(|| {
                self.stream.create_consumer(pull::OrderedConfig {
                    filter_subject: subject.to_string(),
                    deliver_policy: DeliverPolicy::All,
                    ..Default::default()
                })
            })
            .await?;
        let name = consumer.cached_info().name.clone();
        let read = async {
            let mut out = Vec::new();
            // With nothing to read, `messages()` would wait for the next message forever.
            if consumer.cached_info().num_pending == 0 {
                return Ok(out);
            }
            let mut messages = consumer.messages().await.map_err(codec::unavailable)?;
            while let Some(m) = messages.next().await {
                let m = m.map_err(codec::unavailable)?;
                let info = m.info().map_err(codec::unavailable)?;
                let (seq, pending) = (info.stream_sequence, info.pending);
                let m = m.message;
                out.push(Raw {
                    payload: m.payload,
                    headers: m.headers,
                    seq,
                });
                if pending == 0 {
                    break;
                }
            }
            Ok(out)
        }
        .await;
        // Ephemeral consumers would otherwise stay on the server until their inactivity
        // threshold, and a busy node reaches the server's limit of consumers (error 10026).
        let _ = self.stream.delete_consumer(&name).await;
        read
    }

    /// The stream sequence of the last message on any of a game's subjects (header,
    /// entries, journal; 0: none): what a journal write expects, so that it is planned on
    /// the game as it is (`crate::journal`).
    pub(crate) async fn game_last(&self, id: GameId) -> Result<u64> {
        let any = format!("{}.*.{id}", self.config.prefix);
        Ok(self.last_on(&any).await?.map_or(0, |m| m.sequence))
    }
}
