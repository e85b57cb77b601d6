//! The background projection: finished games queued for review, threads of its own that
//! review them one at a time, and what a caller may ask of it (a game's status and progress,
//! the queue's length, totals for `/metrics`).
//!
//! A game is queued when it finishes or is corrected (a finish hook; a correction drops the
//! old review at once), and at start every finished game without a current review is queued,
//! so a restart in the middle of the queue resumes it (a game half reviewed when the process
//! stopped is reviewed again from its start). [`Projection::prioritize`] moves a game to the
//! front: the viewer calls it for the game it opens. The threads are never the request
//! threads or the blocking pool; with none configured nothing is reviewed, and reviews kept
//! are still read.
use crate::record::{self, Kept};
use crate::run::review_game;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use store::{GameId, GameLog, Header, Status};

/// The projection's settings.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Threads reviewing (0: none; reviews kept are still served).
    pub threads: usize,
    /// The search's iterations at each position.
    pub iterations: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            // A whole game within 30 s of one core (ops/BENCHMARKS.md, "Judgements").
            iterations: 500,
        }
    }
}

/// Where a game's review is.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// Reviewed: the review is current.
    Done,
    /// Waiting; `ahead` games are before it.
    Queued { ahead: usize },
    /// Being reviewed: `done` of `total` positions evaluated.
    Running { done: u32, total: u32 },
    /// Not finished: a game in play is evaluated position by position on request.
    Active,
    /// Not reviewed and not queued (no threads, or the review failed).
    Absent,
}

/// Totals since start, for `/metrics`.
#[derive(Debug, Default)]
pub struct Totals {
    pub games: AtomicU64,
    pub positions: AtomicU64,
    pub failed: AtomicU64,
}

#[derive(Default)]
struct Waiting {
    games: VecDeque<GameId>,
    queued: HashSet<GameId>,
    running: HashMap<GameId, (u32, u32, Arc<AtomicBool>)>,
    closed: bool,
}

struct Inner {
    store: Arc<dyn GameLog>,
    players: ai::Players,
    config: Config,
    waiting: Mutex<Waiting>,
    ready: Condvar,
    totals: Totals,
}

/// The projection. Dropping it stops its threads after the game each is reviewing.
pub struct Projection {
    inner: Arc<Inner>,
}

impl Projection {
    /// Starts the projection over `store`: registers its finish hook, queues what is not
    /// reviewed yet (on its first thread) and starts `config.threads` threads.
    pub fn start(store: Arc<dyn GameLog>, players: ai::Players, config: Config) -> Projection {
        let inner = Arc::new(Inner {
            store,
            players,
            config,
            waiting: Mutex::default(),
            ready: Condvar::new(),
            totals: Totals::default(),
        });
        let hook = Arc::downgrade(&inner);
        inner.store.on_finish(Arc::new(move |_, header, _, _| {
            if let Some(inner) = hook.upgrade() {
                inner.finished(header);
            }
            Ok(())
        }));
        for i in 0..config.threads {
            let weak = Arc::downgrade(&inner);
            let spawned = std::thread::Builder::new()
                .name(format!("review-{i}"))
                .spawn(move || {
                    if i == 0 {
                        resume(&weak);
                    }
                    work(&weak);
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "a review thread did not start");
            }
        }
        Projection { inner }
    }

    pub fn config(&self) -> Config {
        self.inner.config
    }

    /// Where `h`'s review is.
    pub fn progress(&self, h: &Header) -> Progress {
        if h.status != Status::Finished {
            return Progress::Active;
        }
        let w = self.inner.lock();
        if let Some(&(done, total, _)) = w.running.get(&h.id) {
            return Progress::Running { done, total };
        }
        if w.queued.contains(&h.id) {
            let ahead = w.games.iter().position(|g| *g == h.id).unwrap_or(0);
            return Progress::Queued { ahead };
        }
        drop(w);
        match record::read(&*self.inner.store, h) {
            Ok(Kept::Current(_)) => Progress::Done,
            _ => Progress::Absent,
        }
    }

    /// `h`'s current review, if there is one.
    pub fn review(&self, h: &Header) -> Result<Option<record::Review>, crate::ReviewError> {
        Ok(match record::read(&*self.inner.store, h)? {
            Kept::Current(r) => Some(r),
            _ => None,
        })
    }

    /// Moves `id` to the front of the queue (a viewer opened it); queues it if it is finished,
    /// unreviewed and not queued. Nothing when no thread reviews.
    pub fn prioritize(&self, h: &Header) {
        if self.inner.config.threads == 0 || h.status != Status::Finished {
            return;
        }
        let mut w = self.inner.lock();
        if w.running.contains_key(&h.id) {
            return;
        }
        if w.queued.contains(&h.id) {
            w.games.retain(|g| *g != h.id);
            w.games.push_front(h.id);
            return;
        }
        drop(w);
        if matches!(record::read(&*self.inner.store, h), Ok(Kept::Current(_))) {
            return;
        }
        let mut w = self.inner.lock();
        if w.queued.insert(h.id) {
            w.games.push_front(h.id);
            self.inner.ready.notify_one();
        }
    }

    /// Games waiting.
    pub fn queued(&self) -> usize {
        self.inner.lock().games.len()
    }

    /// Games being reviewed now, and their positions done and in all.
    pub fn running(&self) -> (usize, u32, u32) {
        let w = self.inner.lock();
        let (done, total) = w
            .running
            .values()
            .fold((0, 0), |(d, t), &(a, b, _)| (d + a, t + b));
        (w.running.len(), done, total)
    }

    pub fn totals(&self) -> &Totals {
        &self.inner.totals
    }

    /// Games reviewed since start (what an export of reviews depends on, with the games).
    pub fn done(&self) -> usize {
        self.inner.totals.games.load(Relaxed) as usize
    }
}

impl Drop for Projection {
    fn drop(&mut self) {
        let mut w = self.inner.lock();
        w.closed = true;
        for (_, _, stop) in w.running.values() {
            stop.store(true, Relaxed);
        }
        drop(w);
        self.inner.ready.notify_all();
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A game finished or was corrected: a review of an earlier revision is dropped now (a
    /// review being made of it stops), and the game is queued.
    fn finished(&self, h: &Header) {
        if h.revision > 0 {
            if let Ok(Kept::Stale(_)) = record::read(&*self.store, h) {
                if let Err(e) = record::drop_review(&*self.store, h.id) {
                    tracing::warn!(game = %h.id, error = %e, "a corrected game's review not dropped");
                }
            }
            if let Some((_, _, stop)) = self.lock().running.get(&h.id) {
                stop.store(true, Relaxed);
            }
        }
        if self.config.threads > 0 {
            self.push(h.id);
        }
    }

    fn push(&self, id: GameId) {
        let mut w = self.lock();
        if w.queued.insert(id) {
            w.games.push_back(id);
            self.ready.notify_one();
        }
    }

    /// The next game, or `None` once closed.
    fn next(&self) -> Option<(GameId, Arc<AtomicBool>)> {
        let mut w = self.lock();
        loop {
            if w.closed {
                return None;
            }
            if let Some(id) = w.games.pop_front() {
                w.queued.remove(&id);
                if w.running.contains_key(&id) {
                    // Being reviewed by another thread (queued again by a correction, which
                    // stopped that review): its turn comes back once that thread ends.
                    w.games.push_back(id);
                    w.queued.insert(id);
                    w = self.ready.wait(w).unwrap_or_else(|e| e.into_inner());
                    continue;
                }
                let stop = Arc::new(AtomicBool::new(false));
                w.running.insert(id, (0, 0, stop.clone()));
                return Some((id, stop));
            }
            w = self.ready.wait(w).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn review(&self, id: GameId, stop: &AtomicBool) -> Result<(), crate::ReviewError> {
        let h = self.store.header(id)?;
        if h.status != Status::Finished {
            return Ok(());
        }
        if let Kept::Current(_) = record::read(&*self.store, &h)? {
            return Ok(());
        }
        let progress = |done: u32, total: u32| {
            if let Some(r) = self.lock().running.get_mut(&id) {
                (r.0, r.1) = (done, total);
            }
            self.totals.positions.fetch_add(1, Relaxed);
        };
        let r = review_game(
            &*self.store,
            &self.players,
            &h,
            self.config.iterations,
            &progress,
            stop,
        )?;
        // A correction made meanwhile has a new revision: this review is of the old one.
        if self.store.header(id)?.revision != h.revision {
            return Err(crate::ReviewError::Stopped);
        }
        record::write(&*self.store, id, &r)?;
        self.totals.games.fetch_add(1, Relaxed);
        Ok(())
    }
}

/// A review thread: takes a game, reviews it, until the projection closes.
fn work(inner: &Weak<Inner>) {
    loop {
        let Some(me) = inner.upgrade() else {
            return;
        };
        let Some((id, stop)) = me.next() else {
            return;
        };
        let done = me.review(id, &stop);
        me.lock().running.remove(&id);
        me.ready.notify_all();
        match done {
            Ok(()) => {}
            Err(crate::ReviewError::Stopped) => {
                // Closed, or corrected: a corrected game was queued again by its hook.
            }
            Err(e) => {
                me.totals.failed.fetch_add(1, Relaxed);
                tracing::warn!(game = %id, error = %e, "a game could not be reviewed");
            }
        }
    }
}

/// Queues every finished game without a current review (newest first, as listings run).
fn resume(inner: &Weak<Inner>) {
    let Some(me) = inner.upgrade() else {
        return;
    };
    let kept: HashMap<GameId, record::Head> = match record::heads(&*me.store) {
        Ok(h) => h.into_iter().collect(),
        Err(e) => {
            tracing::warn!(error = %e, "reviews kept not read; every finished game is queued");
            HashMap::new()
        }
    };
    let filter = store::Filter {
        status: Some(Status::Finished),
        ..Default::default()
    };
    let mut after = None;
    loop {
        let page = match me.store.list(&filter, 500, after) {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(error = %e, "finished games not listed for review");
                return;
            }
        };
        for h in &page.games {
            if !kept.get(&h.id).is_some_and(|k| k.is_current(h)) {
                me.push(h.id);
            }
        }
        match page.next {
            Some(n) => after = Some(n),
            None => return,
        }
    }
}
