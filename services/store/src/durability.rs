//! Group commit: many writers, few flushes.
//!
//! A dedicated flusher thread flushes sled whenever writes have been committed since the last
//! flush began. A writer that has committed its transaction calls [`GroupCommit::wait_durable`]
//! and sleeps until a flush that began after its commit has finished. While one flush runs, the
//! writers acknowledged by the previous one prepare their next writes, and the next flush takes
//! them all: flushing and preparing overlap, and one `fsync` serves a crowd of writers, on any
//! games.
//!
//! A std `Mutex` + `Condvar`, not an async lock: the store is synchronous (sled is), callers in
//! async code reach it through `spawn_blocking`, and the critical sections are counters.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

#[derive(Default)]
struct Counters {
    /// Writes committed (not necessarily durable).
    written: u64,
    /// Writes known durable.
    durable: u64,
    /// The last flush failed: waiters get an error, the next flush retries.
    failed: Option<String>,
    flushes: u64,
    flush_nanos: u64,
    shutdown: bool,
}

struct Shared {
    state: Mutex<Counters>,
    /// Writers wait here for `durable` to pass their write.
    durable: Condvar,
    /// The flusher waits here for new writes.
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

impl GroupCommit {
    /// Starts the flusher thread for `db`.
    pub fn start(db: sled::Db) -> GroupCommit {
        let shared = Arc::new(Shared {
            state: Mutex::new(Counters::default()),
            durable: Condvar::new(),
            work: Condvar::new(),
        });
        let s = shared.clone();
        let thread = std::thread::Builder::new()
            .name("ludolog-flusher".into())
            .spawn(move || flusher(&s, &db))
            .ok();
        GroupCommit { shared, thread }
    }

    /// Records a committed write and returns once it is durable.
    pub fn wait_durable(&self) -> Result<(), sled::Error> {
        let s = &self.shared;
        let mut g = s.lock();
        g.written += 1;
        let mine = g.written;
        s.work.notify_one();
        while g.durable < mine {
            if let Some(e) = &g.failed {
                return Err(sled::Error::Io(std::io::Error::other(e.clone())));
            }
            if g.shutdown {
                return Err(sled::Error::Io(std::io::Error::other(
                    "the store is closing",
                )));
            }
            g = s.durable.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        Ok(())
    }

    /// Flushes done so far.
    pub fn flushes(&self) -> u64 {
        self.shared.lock().flushes
    }

    /// (flushes, seconds spent flushing) so far.
    pub fn stats(&self) -> (u64, f64) {
        let g = self.shared.lock();
        (g.flushes, g.flush_nanos as f64 / 1e9)
    }
}

fn flusher(s: &Shared, db: &sled::Db) {
    let mut g = s.lock();
    loop {
        while g.written == g.durable && !g.shutdown {
            g = s.work.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        if g.shutdown && g.written == g.durable {
            return;
        }
        let target = g.written;
        drop(g);
        let start = Instant::now();
        let r = db.flush();
        let took = start.elapsed().as_nanos() as u64;
        g = s.lock();
        g.flushes += 1;
        g.flush_nanos += took;
        match r {
            Ok(_) => {
                g.durable = target;
                g.failed = None;
            }
            Err(e) => g.failed = Some(e.to_string()),
        }
        s.durable.notify_all();
    }
}

impl Drop for GroupCommit {
    fn drop(&mut self) {
        self.shared.lock().shutdown = true;
        self.shared.work.notify_all();
        self.shared.durable.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
