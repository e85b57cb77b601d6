//! Sealing: a finished game becomes one archive record, and its two subjects go.
//!
//! The server keeps state in memory for every distinct subject of a stream (`ops/BENCHMARKS.md`,
//! "JetStream memory per subject"); a game that is played keeps two (`g.<id>`, `e.<id>`), so
//! a store of a million finished games would keep two million subjects alive for logs that
//! can never change again. A finished game is therefore sealed: its header and entries are
//! published as one message on the single subject `<prefix>.archive` (message id
//! `<id>:sealed`, header `Ludolog-Game`), then its own subjects are purged. A game that is
//! finished when it arrives (an import, a creation with its whole game) is born sealed and
//! never has subjects of its own.
//!
//! Who seals: every node's keeper ([`keep`]) seals the games its catalog shows finished for
//! longer than [`crate::NatsConfig::seal_after`]. Several nodes sealing one game publish the
//! same message id, which the stream keeps once; a purge is idempotent. A node that stops
//! between the record and the purges leaves a game with both, which reads take from the
//! record and the next keeper purges.
//!
//! Reads find a sealed game through the node's catalog ([`crate::catalog`]) and fetch its
//! record by sequence from the stream's leader: one message for the whole game.

use crate::{codec, NatsLog};
use async_nats::jetstream::message::PublishMessage;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Weak};
use std::time::Duration;
use store::journal::Note;
use store::{Entry, GameId, Header, Result, Status, StoreError};

/// Message header of an archive record: the game's id.
pub const GAME: &str = "Ludolog-Game";

/// A sealed game: its final header, every entry of its line, and the notes its withdrawal
/// markers held (`crate::line`: takebacks carried out while it was played), which leave the
/// stream with its entries subject.
#[derive(Serialize, Deserialize)]
pub(crate) struct Sealed {
    pub header: Header,
    pub entries: Vec<Entry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Only the header of an archive record (the catalog's need; the entries are skipped).
pub(crate) fn decode_header(payload: &[u8]) -> Result<Header> {
    #[derive(Deserialize)]
    struct Head {
        header: Header,
    }
    serde_json::from_slice::<Head>(payload)
        .map(|h| h.header)
        .map_err(|e| StoreError::Unavailable(format!("unreadable archive record: {e}")))
}

impl NatsLog {
    pub(crate) fn subject_archive(&self) -> String {
        format!("{}.archive", self.config.prefix)
    }

    /// Publishes a finished game's record; its stream sequence. `Exists` if a record with
    /// this id is already on the stream (within the duplicate window; beyond it the catalog
    /// is asked first by the callers that must know).
    pub(crate) async fn publish_sealed(
        &self,
        header: &Header,
        entries: &[Entry],
        notes: &[Note],
    ) -> Result<u64> {
        let payload = serde_json::to_vec(&Sealed {
            header: header.clone(),
            entries: entries.to_vec(),
            notes: notes.to_vec(),
        })
        .map_err(|e| StoreError::BadInput(e.to_string()))?;
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(GAME, header.id.to_string().as_str());
        let msg = PublishMessage::build()
            .payload(payload.into())
            .headers(headers);
        let msg_id = format!("{}:sealed", header.id);
        let published = self
            .publish(self.subject_archive(), msg, Some(msg_id))
            .await;
        match published.ack {
            Ok(a) if a.duplicate && !published.retried => Err(StoreError::Exists(header.id)),
            Ok(a) => Ok(a.sequence),
            Err(e) => Err(match codec::refused(&e) {
                codec::Refused::Conflict => StoreError::Exists(header.id),
                codec::Refused::Unavailable(m) | codec::Refused::Other(m) => {
                    StoreError::Unavailable(m)
                }
            }),
        }
    }

    /// A sealed game's record, by its stream sequence (read through the leader: a record the
    /// catalog has seen is there). Records never change, so the last few hundred read are
    /// kept decoded: a viewer stepping through a finished game reads it once.
    pub(crate) async fn read_sealed(&self, id: GameId, seq: u64) -> Result<Arc<Sealed>> {
        if let Some(s) = self.sealed_cache.get(&seq) {
            if s.header.id == id {
                return Ok(s);
            }
        }
        let s = Arc::new(self.fetch_sealed(id, seq).await?);
        self.sealed_cache.insert(seq, s.clone());
        Ok(s)
    }

    async fn fetch_sealed(&self, id: GameId, seq: u64) -> Result<Sealed> {
        let m = self.asking(|| self.stream.get_raw_message(seq)).await?;
        let s: Sealed = serde_json::from_slice(&m.payload).map_err(|e| StoreError::Corrupt {
            game: id,
            ply: None,
            what: format!("archive record at {seq}: {e}"),
        })?;
        if s.header.id != id {
            return Err(StoreError::Corrupt {
                game: id,
                ply: None,
                what: format!("archive record at {seq} is game {}", s.header.id),
            });
        }
        Ok(s)
    }

    /// Seals a finished game now: its record (unless the catalog has one), then its
    /// subjects purged, header first so that new readers go to the record. `false` when there
    /// was nothing to do (not finished, unknown, or already sealed and purged).
    pub fn seal(&self, id: GameId) -> Result<bool> {
        self.rt.block_on(self.seal_game(id))
    }

    async fn seal_game(&self, id: GameId) -> Result<bool> {
        let sealed = self.known(id)?.and_then(|k| k.sealed);
        if sealed.is_none() {
            let Some(header) = self.read_live_header(id).await? else {
                return Ok(false);
            };
            if header.status != Status::Finished {
                return Ok(false);
            }
            let line = self.read_line(id).await?;
            let entries: Vec<Entry> = line.entries.into_iter().map(|(e, _)| e).collect();
            if entries.len() as u32 != header.plies {
                return Err(StoreError::Corrupt {
                    game: id,
                    ply: None,
                    what: format!("{} entries for {} plies", entries.len(), header.plies),
                });
            }
            match self.publish_sealed(&header, &entries, &line.notes).await {
                Ok(seq) => self.learn_sealed(header, seq).await?,
                // Another node sealed it a moment ago: its record is on the stream.
                Err(StoreError::Exists(_)) => self.sync_catalog().await?,
                Err(e) => return Err(e),
            }
        }
        if self.known(id)?.and_then(|k| k.sealed).is_none() {
            return Err(StoreError::Unavailable(format!(
                "game {id}: its record is not in the catalog yet"
            )));
        }
        let mut purged = false;
        for subject in [self.subject_header(id), self.subject_entries(id)] {
            let p = self
                .stream
                .purge()
                .filter(subject)
                .await
                .map_err(codec::unavailable)?;
            purged |= p.purged > 0;
        }
        Ok(purged || sealed.is_none())
    }

    /// Seals every game the catalog shows finished for at least `after`; how many.
    pub fn seal_finished(&self, after: Duration) -> Result<usize> {
        self.rt.block_on(async {
            self.sync_catalog().await?;
            let now = chrono::Utc::now();
            let due: Vec<GameId> = self
                .known_games(false, None)?
                .filter_map(|k| k.ok())
                .filter(|k| {
                    k.sealed.is_none()
                        && k.header.status == Status::Finished
                        && (now - k.header.updated_at).to_std().unwrap_or_default() >= after
                })
                .map(|k| k.header.id)
                .collect();
            let mut n = 0;
            for id in due {
                if self.seal_game(id).await? {
                    n += 1;
                }
            }
            Ok(n)
        })
    }

    /// Starts the keeper (once): see [`keep`].
    pub(crate) fn start_keeping(&self) {
        let Some(after) = self.config.seal_after else {
            return;
        };
        let me = Arc::downgrade(&self.0);
        let _ = std::thread::Builder::new()
            .name("ludolog-seal".into())
            .spawn(move || keep(me, after));
    }
}

/// The keeper's loop, once a second while the store is open: the catalog brought up to the
/// stream's end (so listings stay cheap), and the games finished for `after` sealed. A
/// failure (the cluster away) is tried again at the next round.
fn keep(me: Weak<crate::Inner>, after: Duration) {
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let Some(inner) = me.upgrade() else { return };
        let _ = NatsLog(inner).seal_finished(after);
    }
}
