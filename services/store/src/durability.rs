//! Group commit: many writers, one log write and one `fdatasync` per batch.
//!
//! A writer commits its sled transaction, then hands the same writes, encoded as a log record,
//! to [`GroupCommit::wait_durable`] and sleeps. A dedicated flusher thread takes every record
//! pending, writes them to the write-ahead log as one batch (one `pwrite`, one `fdatasync`) and
//! wakes the writers it covered. While it syncs, writers it released earlier prepare the next
//! batch, so syncing and preparing overlap and one sync serves a crowd, on any games.
//!
//! When the log fills, the flusher checkpoints: it flushes sled (everything logged so far was
//! committed to sled before it was logged, so it is now durable there) and starts the log over.
//! Dropping the store checkpoints too, so a clean restart has nothing to replay.
//!
//! A std `Mutex` + `Condvar`, not an async lock: the store is synchronous (sled is), callers in
//! async code reach it through `spawn_blocking`, and the critical sections are a few moves.

use crate::wal::WalFile;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

#[derive(Default)]
struct Counters {
    /// Writes handed over (not necessarily durable).
    written: u64,
    /// Writes known durable.
    durable: u64,
    /// Records waiting for the next batch.
    pending: Vec<u8>,
    /// The last batch failed: waiters get an error.
    failed: Option<String>,
    batches: u64,
    sync_nanos: u64,
    checkpoints: u64,
    shutdown: bool,
}

struct Shared {
    state: Mutex<Counters>,
    /// Writers wait here for `durable` to pass their write.
    durable: Condvar,
    /// The flusher waits here for records.
    work: Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Counters> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub struct GroupCommit {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Group commit activity so far.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CommitStats {
    /// Log batches written (each one `fdatasync`).
    pub batches: u64,
    /// Writes made durable.
    pub writes: u64,
    pub seconds_syncing: f64,
    pub checkpoints: u64,
}

impl GroupCommit {
    /// Starts the flusher thread, logging to `wal` and checkpointing `db`.
    pub fn start(db: sled::Db, wal: WalFile) -> GroupCommit {
        let shared = Arc::new(Shared {
            state: Mutex::new(Counters::default()),
            durable: Condvar::new(),
            work: Condvar::new(),
        });
        let s = shared.clone();
        let thread = std::thread::Builder::new()
            .name("ludolog-flusher".into())
            .spawn(move || flusher(&s, &db, wal))
            .ok();
        GroupCommit { shared, thread }
    }

    /// Hands over a committed write's log `record` and returns once it is durable. An empty
    /// record waits for everything handed over before it.
    pub fn wait_durable(&self, record: Vec<u8>) -> Result<(), sled::Error> {
        let mine = self.submit(record)?;
        self.wait(mine)
    }

    /// Queues `record` for the log and returns its place, without waiting: a writer that
    /// holds a game's lock submits under it, so records of one game reach the log in the
    /// order their writes reached sled (a takeback's removals after the append they remove).
    pub fn submit(&self, record: Vec<u8>) -> Result<u64, sled::Error> {
        let s = &self.shared;
        let mut g = s.lock();
        if self.thread.is_none() {
            return Err(sled::Error::Io(std::io::Error::other(
                "the log flusher could not be started",
            )));
        }
        g.pending.extend_from_slice(&record);
        g.written += 1;
        s.work.notify_one();
        Ok(g.written)
    }

    /// Waits until the record [`GroupCommit::submit`] placed at `mine` is durable.
    pub fn wait(&self, mine: u64) -> Result<(), sled::Error> {
        let s = &self.shared;
        let mut g = s.lock();
        while g.durable < mine {
            if let Some(e) = &g.failed {
                return Err(sled::Error::Io(std::io::Error::other(e.clone())));
            }
            g = s.durable.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        Ok(())
    }

    pub fn stats(&self) -> CommitStats {
        let g = self.shared.lock();
        CommitStats {
            batches: g.batches,
            writes: g.durable,
            seconds_syncing: g.sync_nanos as f64 / 1e9,
            checkpoints: g.checkpoints,
        }
    }
}

fn flusher(s: &Shared, db: &sled::Db, mut wal: WalFile) {
    let mut g = s.lock();
    loop {
        while g.written == g.durable && !g.shutdown {
            g = s.work.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        if g.written == g.durable {
            // Shutting down with nothing pending: checkpoint, so a restart replays nothing.
            drop(g);
            if db.flush().is_ok() {
                let _ = wal.reset();
            }
            return;
        }
        let batch = std::mem::take(&mut g.pending);
        let target = g.written;
        drop(g);
        let start = Instant::now();
        let mut checkpointed = false;
        let r = (|| -> Result<(), String> {
            if !wal.has_room(batch.len()) {
                db.flush().map_err(|e| e.to_string())?;
                wal.reset().map_err(|e| e.to_string())?;
                checkpointed = true;
            }
            if wal.has_room(batch.len()) {
                wal.write_batch(&batch).map_err(|e| e.to_string())
            } else {
                // Larger than the whole log: sled itself makes it durable.
                db.flush().map(|_| ()).map_err(|e| e.to_string())
            }
        })();
        let took = start.elapsed().as_nanos() as u64;
        g = s.lock();
        g.batches += 1;
        g.sync_nanos += took;
        g.checkpoints += u64::from(checkpointed);
        match r {
            Ok(()) => {
                g.durable = target;
                g.failed = None;
            }
            Err(e) => g.failed = Some(e),
        }
        s.durable.notify_all();
    }
}

impl Drop for GroupCommit {
    fn drop(&mut self) {
        self.shared.lock().shutdown = true;
        self.shared.work.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
