//! How a node's projections follow the logs that every node writes: a durable consumer of
//! this node's own (`ludolog-node-<id>`, the id kept in the node's folder) reads each entry
//! that ends a game, each archive record and each correction's journal note, whichever node
//! wrote it, and runs the finish
//! hooks for the game, once per game on this node: a game that finished in play is seen
//! twice (its last entry, then its record when sealed) unless its entries were purged before
//! this node read them, and a game born sealed only by its record. The server
//! keeps the consumer's place (its acknowledgements), so a restarted node resumes where it
//! stopped and a new node starts from the first game. [`NatsLog::caught_up_to`] says how far
//! this node has read.
//!
//! It is the one path by which hooks run on this backend (a node's own appends and imports
//! included), so every node's projections are fed the same way. It runs on a thread of its
//! own, started when the first hook is registered: a hook reads the store, which blocks on the
//! backend's runtime.

use crate::{codec, Inner, NatsLog};
use async_nats::jetstream::consumer::{pull, AckPolicy, Consumer, DeliverPolicy};
use async_nats::jetstream::AckKind;
use futures::StreamExt;
use std::hash::Hasher;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Duration;
use store::{GameId, GameLog, StoreError};

/// The node's id: made once, kept in its folder.
fn node_id(dir: &std::path::Path) -> store::Result<String> {
    let path = dir.join("node-id");
    if let Ok(id) = std::fs::read_to_string(&path) {
        let id = id.trim().to_string();
        if !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Ok(id);
        }
    }
    let mut h = siphasher::sip::SipHasher13::new_with_keys(
        u64::from(std::process::id()),
        chrono::Utc::now()
            .timestamp_nanos_opt()
            .map_or(0, |n| n.unsigned_abs()),
    );
    h.write(dir.display().to_string().as_bytes());
    let id = format!("{:016x}", h.finish());
    std::fs::write(&path, &id)
        .map_err(|e| StoreError::BadInput(format!("{}: {e}", path.display())))?;
    Ok(id)
}

impl NatsLog {
    /// Starts the follower thread (once).
    pub(crate) fn start_following(&self) {
        if self.following.swap(true, Ordering::SeqCst) {
            return;
        }
        let me: Weak<Inner> = Arc::downgrade(&self.0);
        let spawned = std::thread::Builder::new()
            .name("ludolog-follow".into())
            .spawn(move || follow(me));
        if spawned.is_err() {
            // No thread to be had: hooks will not run, and `caught_up_to` says so.
            self.following.store(false, Ordering::SeqCst);
        }
    }

    /// How far this node's projections have read the logs, and where the logs end (stream
    /// sequences): caught up when the first has reached the second.
    pub fn caught_up_to(&self) -> store::Result<(u64, u64)> {
        Ok((self.followed.load(Ordering::SeqCst), self.last_sequence()?))
    }

    /// Runs the finish hooks for a game the log says has ended (or has been corrected: its
    /// revision `revision`), unless this node has for that revision.
    fn finished_in_log(&self, id: GameId, revision: u32) -> store::Result<()> {
        // A warm tip of a game that ended is of no more use (it may be another node's end).
        self.tips().remove(&id);
        let done = self.local.open_tree("follow:finished")?;
        // The revision the hooks last ran for (an empty value: 0, as written before
        // corrections were kept here).
        let ran = |v: &[u8]| <[u8; 4]>::try_from(v).map_or(0, u32::from_be_bytes);
        if let Some(v) = done.get(id.to_bytes())? {
            if ran(&v) >= revision {
                return Ok(());
            }
        }
        let mut header = self.header(id)?;
        if header.revision < revision {
            // This node's catalog has not read the correction yet: the journal has it.
            self.rt.block_on(self.learn_revision(id, revision))?;
            header = self.header(id)?;
        }
        let state = self.state_at(id, header.plies)?;
        let hooks = self.hooks.read().unwrap_or_else(|e| e.into_inner()).clone();
        // Every hook runs; if one could not read the store (a leader election), the game is
        // not marked done and is offered again (`follow_batch`): hooks are idempotent.
        let mut failed = Ok(());
        for h in hooks {
            if let Err(e) = h(self, &header, state.as_ref(), None) {
                failed = Err(e);
            }
        }
        failed?;
        done.insert(id.to_bytes(), header.revision.to_be_bytes().to_vec())?;
        Ok(())
    }

    /// One batch of entries: the hooks of each game that ends among them, then each acked.
    fn follow_batch(&self, consumer: &Consumer<pull::Config>) -> store::Result<()> {
        let batch = self.rt.block_on(async {
            let mut out = Vec::new();
            let mut messages = consumer
                .fetch()
                .max_messages(64)
                .expires(Duration::from_millis(500))
                .messages()
                .await
                .map_err(codec::unavailable)?;
            while let Some(m) = messages.next().await {
                out.push(m.map_err(codec::unavailable)?);
            }
            Ok::<_, StoreError>(out)
        })?;
        let prefix = format!("{}.e.", self.config.prefix);
        let journal = format!("{}.j.", self.config.prefix);
        let archive = self.subject_archive();
        for m in batch {
            let seq = m.info().map(|i| i.stream_sequence).unwrap_or(0);
            let subject = m.subject.as_str();
            let id_after = |p: &str| {
                subject
                    .strip_prefix(p)
                    .and_then(|s| s.parse::<GameId>().ok())
            };
            let ended = if subject == archive {
                m.headers
                    .as_ref()
                    .and_then(|h| h.get(crate::archive::GAME))
                    .and_then(|v| v.as_str().parse::<GameId>().ok())
                    .map(|id| (id, 0))
            } else if codec::is_finished(m.headers.as_ref()) {
                id_after(&prefix).map(|id| (id, 0))
            } else if let Some(r) = codec::revision_of(m.headers.as_ref()) {
                // A correction: the hooks run again for its revision.
                id_after(&journal).map(|id| (id, r))
            } else {
                None
            };
            if let Some((id, revision)) = ended {
                // Refused on failure, to be offered again a second later (the follower stops
                // here until then: the later games wait their turn).
                if let Err(e) = self.finished_in_log(id, revision) {
                    let again = AckKind::Nak(Some(Duration::from_secs(1)));
                    let _ = self.rt.block_on(m.ack_with(again));
                    return Err(e);
                }
            }
            self.rt.block_on(m.ack()).map_err(codec::unavailable)?;
            self.followed.fetch_max(seq, Ordering::SeqCst);
        }
        Ok(())
    }
}

/// The follower's loop: while the store is open, read, run hooks, acknowledge; after an
/// error (the cluster away), wait a second and start again from the server's place.
fn follow(me: Weak<Inner>) {
    let mut consumer = None;
    loop {
        let Some(inner) = me.upgrade() else { return };
        let log = NatsLog(inner);
        let step = match &consumer {
            None => log.rt.block_on(durable(&log)).map(|c| consumer = Some(c)),
            Some(c) => log.follow_batch(c),
        };
        drop(log);
        if step.is_err() {
            consumer = None;
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}

/// This node's durable consumer of every game's entries.
async fn durable(log: &NatsLog) -> store::Result<Consumer<pull::Config>> {
    let name = format!("ludolog-node-{}", node_id(&log.dir)?);
    // Created, or updated to this configuration (a node made before corrections were
    // followed reads the journals from now on: none was corrected on the stream before).
    log.stream
        .create_consumer(pull::Config {
            durable_name: Some(name.clone()),
            deliver_policy: DeliverPolicy::All,
            ack_policy: AckPolicy::Explicit,
            filter_subjects: vec![
                format!("{}.e.>", log.config.prefix),
                format!("{}.j.>", log.config.prefix),
                log.subject_archive(),
            ],
            ack_wait: Duration::from_secs(10),
            ..Default::default()
        })
        .await
        .map_err(codec::unavailable)
}
