//! Group commit: many writers, few flushes.
//!
//! A writer that has committed a transaction calls [`GroupCommit::wait_durable`]. If no flush
//! is running, it becomes the leader: it flushes sled (which makes everything written so far
//! durable) and wakes everyone whose write came before that flush began. Writers arriving
//! during a flush wait for it and, if it began too early to cover them, the next leader's.
//! Under load one `fsync` serves a whole crowd of writers, on any games.
//!
//! A std `Mutex` + `Condvar`, not an async lock: the store is synchronous (sled is), callers
//! in async code reach it through `spawn_blocking`, and the critical sections are counters.

use std::sync::{Condvar, Mutex};

#[derive(Default)]
struct Counters {
    /// Writes committed (not necessarily durable).
    written: u64,
    /// Writes known durable.
    durable: u64,
    flushing: bool,
    /// Flushes done, for tests and metrics.
    flushes: u64,
}

#[derive(Default)]
pub struct GroupCommit {
    state: Mutex<Counters>,
    changed: Condvar,
}

impl GroupCommit {
    /// Records a committed write and returns once it is durable.
    pub fn wait_durable(&self, db: &sled::Db) -> sled::Result<()> {
        let mut g = self.state.lock().unwrap_or_else(|e| e.into_inner());
        g.written += 1;
        let mine = g.written;
        loop {
            if g.durable >= mine {
                return Ok(());
            }
            if !g.flushing {
                g.flushing = true;
                let target = g.written;
                drop(g);
                let r = db.flush();
                g = self.state.lock().unwrap_or_else(|e| e.into_inner());
                g.flushing = false;
                g.flushes += 1;
                if r.is_ok() {
                    g.durable = g.durable.max(target);
                }
                self.changed.notify_all();
                r?;
                continue;
            }
            g = self.changed.wait(g).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Number of flushes so far.
    pub fn flushes(&self) -> u64 {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).flushes
    }

    /// Number of writes made durable so far.
    pub fn writes(&self) -> u64 {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).written
    }
}
