//! This node's catalog of every game on the stream: game id → the game's current header and,
//! once the game is sealed ([`crate::archive`]), the stream sequence of its archive record.
//! Listings, counts and the list of ids come from it, and a sealed game's reads find their
//! record through it.
//!
//! It is derived data, kept in the node's sled folder with the stream sequence it has read to,
//! and brought up to the stream's end before each answer that needs it: one request to the
//! cluster when nothing is new, the new messages otherwise. A listing therefore sees every
//! game acknowledged before it was asked, on whichever node, without scanning a subject per
//! game (a million sealed games have no subject of their own to scan).

use crate::{codec, NatsLog};
use async_nats::jetstream::consumer::{pull, DeliverPolicy};
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use store::{GameId, Header, Result, Status, StoreError};

/// What the catalog knows of one game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Known {
    /// The header as of the last entry the catalog has read.
    pub header: Header,
    /// The stream sequence of the game's archive record, once sealed.
    pub sealed: Option<u64>,
}

/// Keys of the catalog's meta tree.
const READ_TO: &[u8] = b"read-to";
const COUNT: &[u8] = b"count";

fn meta_u64(tree: &sled::Tree, key: &[u8]) -> Result<u64> {
    Ok(tree
        .get(key)?
        .and_then(|v| <[u8; 8]>::try_from(v.as_ref()).ok())
        .map_or(0, u64::from_be_bytes))
}

impl NatsLog {
    /// The games (key: the id's 8 bytes; value: [`Known`] as JSON).
    pub(crate) fn catalog_tree(&self) -> Result<sled::Tree> {
        Ok(self.local.open_tree("catalog")?)
    }

    /// How far the catalog has read, and how many games it knows.
    fn catalog_meta(&self) -> Result<sled::Tree> {
        Ok(self.local.open_tree("catalog-meta")?)
    }

    /// What this node's catalog knows of a game now (no request to the cluster).
    pub(crate) fn known(&self, id: GameId) -> Result<Option<Known>> {
        let Some(v) = self.catalog_tree()?.get(id.to_bytes())? else {
            return Ok(None);
        };
        serde_json::from_slice(&v)
            .map(Some)
            .map_err(|e| StoreError::Corrupt {
                game: id,
                ply: None,
                what: format!("catalog: {e}"),
            })
    }

    /// Records what is known of a game: a sealed record always wins, and otherwise the
    /// header with more entries. Callers hold the catalog's lock.
    fn learn(&self, tree: &sled::Tree, k: Known) -> Result<()> {
        self.learn_as(tree, k, false)
    }

    /// As [`Self::learn`]; `cut` when `k` comes from a line a takeback has cut (a marker, or
    /// an entry after one), which may be shorter than what the catalog holds.
    fn learn_as(&self, tree: &sled::Tree, k: Known, cut: bool) -> Result<()> {
        let key = k.header.id.to_bytes();
        let old = match tree.get(key)? {
            None => None,
            Some(v) => serde_json::from_slice::<Known>(&v).ok(),
        };
        let keep = match &old {
            None => false,
            Some(o) if o.sealed.is_some() => true,
            Some(o) => k.sealed.is_none() && o.header.plies >= k.header.plies && !cut,
        };
        if keep {
            return Ok(());
        }
        let v = serde_json::to_vec(&k).map_err(|e| StoreError::BadInput(e.to_string()))?;
        tree.insert(key, v)?;
        if old.is_none() {
            let meta = self.catalog_meta()?;
            let n = meta_u64(&meta, COUNT)? + 1;
            meta.insert(COUNT, n.to_be_bytes().to_vec())?;
        }
        Ok(())
    }

    /// Records a corrected game's latest revision (from its correction's note, on this node or
    /// read from the stream): a sealed game's header changes only here.
    pub(crate) async fn learn_revision(&self, id: GameId, revision: u32) -> Result<()> {
        let _g = self.catalog_lock.lock().await;
        let tree = self.catalog_tree()?;
        self.learn_revision_in(&tree, id, revision)
    }

    fn learn_revision_in(&self, tree: &sled::Tree, id: GameId, revision: u32) -> Result<()> {
        let Some(mut k) = self.known_in(tree, id)? else {
            return Ok(());
        };
        if k.header.revision >= revision {
            return Ok(());
        }
        k.header.revision = revision;
        let v = serde_json::to_vec(&k).map_err(|e| StoreError::BadInput(e.to_string()))?;
        tree.insert(id.to_bytes(), v)?;
        Ok(())
    }

    /// Records a game this node has just sealed (before the catalog reads its record).
    pub(crate) async fn learn_sealed(&self, header: Header, seq: u64) -> Result<()> {
        let _g = self.catalog_lock.lock().await;
        let tree = self.catalog_tree()?;
        self.learn(
            &tree,
            Known {
                header,
                sealed: Some(seq),
            },
        )
    }

    /// How many games the catalog knows.
    pub(crate) fn known_count(&self) -> Result<u64> {
        meta_u64(&self.catalog_meta()?, COUNT)
    }

    /// Every game the catalog knows below `before` (all when `None`), in id order, or
    /// newest first.
    pub(crate) fn known_games(
        &self,
        newest_first: bool,
        before: Option<GameId>,
    ) -> Result<Box<dyn Iterator<Item = Result<Known>>>> {
        let tree = self.catalog_tree()?;
        let upper = before.map(|b| b.to_bytes().to_vec());
        let range: Box<dyn DoubleEndedIterator<Item = sled::Result<(sled::IVec, sled::IVec)>>> =
            match upper {
                Some(u) => Box::new(tree.range(..u)),
                None => Box::new(tree.iter()),
            };
        let items: Box<dyn Iterator<Item = _>> = if newest_first {
            Box::new(range.rev())
        } else {
            Box::new(range)
        };
        Ok(Box::new(items.map(|kv| {
            let (_, v) = kv?;
            serde_json::from_slice::<Known>(&v)
                .map_err(|e| StoreError::Unavailable(format!("catalog entry unreadable: {e}")))
        })))
    }

    /// Reads the stream from where the catalog stopped to its end.
    pub(crate) async fn sync_catalog(&self) -> Result<()> {
        let _g = self.catalog_lock.lock().await;
        let tree = self.catalog_tree()?;
        let meta = self.catalog_meta()?;
        let read_to = meta_u64(&meta, READ_TO)?;
        let end = self
            .asking(|| {
                let mut stream = self.stream.clone();
                async move { stream.info().await.map(|i| i.state.last_sequence) }
            })
            .await?;
        if read_to >= end {
            return Ok(());
        }
        let p = &self.config.prefix;
        let consumer = self
            .asking(|| {
                self.stream.create_consumer(pull::OrderedConfig {
                    filter_subjects: vec![
                        format!("{p}.g.*"),
                        format!("{p}.e.*"),
                        format!("{p}.j.*"),
                        self.subject_archive(),
                    ],
                    deliver_policy: DeliverPolicy::ByStartSequence {
                        start_sequence: read_to + 1,
                    },
                    ..Default::default()
                })
            })
            .await?;
        let name = consumer.cached_info().name.clone();
        let read = self.read_into_catalog(&tree, consumer).await;
        let _ = self.stream.delete_consumer(&name).await;
        // Whatever lay between the last message read and `end` has been purged.
        let last = read?.max(end);
        meta.insert(READ_TO, last.to_be_bytes().to_vec())?;
        Ok(())
    }

    /// Applies each message the consumer has to the catalog; returns the last sequence read.
    async fn read_into_catalog(
        &self,
        tree: &sled::Tree,
        consumer: async_nats::jetstream::consumer::Consumer<pull::OrderedConfig>,
    ) -> Result<u64> {
        let mut last = 0;
        if consumer.cached_info().num_pending == 0 {
            return Ok(last);
        }
        let (g, e, j) = (
            format!("{}.g.", self.config.prefix),
            format!("{}.e.", self.config.prefix),
            format!("{}.j.", self.config.prefix),
        );
        let archive = self.subject_archive();
        let mut messages = consumer.messages().await.map_err(codec::unavailable)?;
        while let Some(m) = messages.next().await {
            let m = m.map_err(codec::unavailable)?;
            let info = m.info().map_err(codec::unavailable)?;
            let (seq, pending) = (info.stream_sequence, info.pending);
            let subject = m.subject.as_str();
            if let Some(id) = subject
                .strip_prefix(&g)
                .and_then(|s| s.parse::<GameId>().ok())
            {
                let header = codec::decode_header(id, &m.payload)?;
                self.learn(
                    tree,
                    Known {
                        header,
                        sealed: None,
                    },
                )?;
            } else if let Some(id) = subject
                .strip_prefix(&e)
                .and_then(|s| s.parse::<GameId>().ok())
            {
                self.learn_entry(tree, id, &m)?;
            } else if let Some(id) = subject
                .strip_prefix(&j)
                .and_then(|s| s.parse::<GameId>().ok())
            {
                // A journal note: only a correction's changes the header (its revision).
                if let Some(r) = codec::revision_of(m.headers.as_ref()) {
                    self.learn_revision_in(tree, id, r)?;
                }
            } else if subject == archive {
                let header = crate::archive::decode_header(&m.payload)?;
                self.learn(
                    tree,
                    Known {
                        header,
                        sealed: Some(seq),
                    },
                )?;
            }
            last = seq;
            if pending == 0 {
                break;
            }
        }
        Ok(last)
    }

    /// An entry, or a withdrawal marker, brings its game's header up to date.
    fn learn_entry(
        &self,
        tree: &sled::Tree,
        id: GameId,
        m: &async_nats::jetstream::Message,
    ) -> Result<()> {
        let Some(mut k) = self.known_in(tree, id)? else {
            // Its header message was purged before this node read it: the game is sealed,
            // and its archive record comes later in the stream.
            return Ok(());
        };
        if k.sealed.is_some() {
            return Ok(());
        }
        if codec::withdrawn_to(m.headers.as_ref()).is_some() {
            // A takeback: the line is shorter now.
            let marker = crate::line::Marker::decode(id, &m.payload)?;
            k.header.plies = marker.plies;
            k.header.updated_at = marker.updated_at;
            k.header.status = Status::Active;
            return self.learn_as(tree, k, true);
        }
        let entry = codec::decode_entry(id, &m.payload)?;
        let after_takeback = codec::generation_of(m.headers.as_ref()) > 0;
        if entry.ply < k.header.plies && !after_takeback {
            return Ok(());
        }
        k.header.plies = entry.ply + 1;
        k.header.updated_at = entry.recorded_at;
        k.header.status = if codec::is_finished(m.headers.as_ref()) {
            Status::Finished
        } else {
            Status::Active
        };
        self.learn_as(tree, k, after_takeback)
    }

    fn known_in(&self, tree: &sled::Tree, id: GameId) -> Result<Option<Known>> {
        Ok(tree
            .get(id.to_bytes())?
            .and_then(|v| serde_json::from_slice(&v).ok()))
    }
}
