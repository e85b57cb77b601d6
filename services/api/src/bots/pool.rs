//! The threads that play bot seats. They are the pool's own, apart from the request threads
//! and the blocking pool, so a search of any length delays no request; a game is queued once
//! however often it is woken, and a thread plays its bots' moves until a person (or the dealer
//! of a game at the table) is to act.
//!
//! A bot reads the game as the store rebuilds it and decides through [`ai::Players`], whose
//! search samples hidden information from the bot's own seat's view only; its move is
//! appended like any other (checked by the rules, at the ply it read: a move made meanwhile
//! by someone else is a version conflict, and the bot reads the game again), marked
//! `enteredBy: bot`.

use super::{bot_seats, has_bots, BotConfig};
use crate::error::ApiError;
use crate::App;
use chrono::Utc;
use rules_core::Actor;
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Condvar, Mutex, Weak};
use store::{Append, EnteredBy, GameId, Header, Status, StoreError};

/// The most moves one wake plays before the game goes back in the queue behind the others.
const MOVES_PER_TURN: usize = 64;

/// A game this long is not played by bots any more. No game of these rules comes near it
/// (the longest sample is under 500 entries); it stops a rules defect that lets a game cycle
/// (Mombasa's `expand`/`cancel`, found by self-play) from running a bot forever.
pub const MAX_PLIES: u32 = 5_000;

#[derive(Default)]
struct Queue {
    state: Mutex<Waiting>,
    ready: Condvar,
}

#[derive(Default)]
struct Waiting {
    games: VecDeque<GameId>,
    queued: HashSet<GameId>,
    closed: bool,
}

/// The pool: a queue of games with a bot to act, and the threads that empty it.
#[derive(Default)]
pub struct BotPool {
    queue: Arc<Queue>,
}

impl BotPool {
    /// Starts `config.threads` threads playing for `app` (none when bots are disabled); the
    /// first looks for active games with bots left from before a restart.
    pub fn start(app: &Arc<App>, config: &BotConfig) {
        let Some(players) = config.players.clone() else {
            return;
        };
        for i in 0..config.threads {
            let (weak, queue, players) =
                (Arc::downgrade(app), app.bots.queue.clone(), players.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("bot-{i}"))
                .spawn(move || {
                    if i == 0 {
                        resume(&weak);
                    }
                    work(&weak, &queue, &players);
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "a bot thread did not start");
            }
        }
    }

    /// Queues `h`'s game if it is active and has a bot seat (a bot may be to act now).
    pub fn wake(&self, h: &Header) {
        if h.status == Status::Active && has_bots(h) {
            self.push(h.id);
        }
    }

    /// Games waiting for a bot thread.
    pub fn waiting(&self) -> usize {
        self.queue.state.lock().map_or(0, |w| w.games.len())
    }

    fn push(&self, id: GameId) {
        if let Ok(mut w) = self.queue.state.lock() {
            if w.queued.insert(id) {
                w.games.push_back(id);
                self.queue.ready.notify_one();
            }
        }
    }
}

impl Drop for BotPool {
    fn drop(&mut self) {
        if let Ok(mut w) = self.queue.state.lock() {
            w.closed = true;
        }
        self.queue.ready.notify_all();
    }
}

/// A bot thread: takes a game, plays its bots' moves, until the pool closes.
fn work(app: &Weak<App>, queue: &Queue, players: &ai::Players) {
    loop {
        let id = {
            let Ok(mut w) = queue.state.lock() else {
                return;
            };
            loop {
                if w.closed {
                    return;
                }
                if let Some(id) = w.games.pop_front() {
                    w.queued.remove(&id);
                    break id;
                }
                w = match queue.ready.wait(w) {
                    Ok(w) => w,
                    Err(_) => return,
                };
            }
        };
        let Some(app) = app.upgrade() else {
            return;
        };
        match play(&app, players, id) {
            Ok(true) => app.bots.push(id),
            Ok(false) => {}
            Err(e) => {
                app.metrics.bot_errors.fetch_add(1, Relaxed);
                tracing::warn!(game = %id, code = e.code(), error = %e.message(), "a bot could not move");
            }
        }
    }
}

/// Plays `id`'s bots while one is to act, at most [`MOVES_PER_TURN`] moves; whether a bot is
/// still to act.
fn play(app: &App, players: &ai::Players, id: GameId) -> Result<bool, ApiError> {
    for _ in 0..MOVES_PER_TURN {
        let h = app.store.header(id)?;
        let bots = bot_seats(&h);
        if h.status != Status::Active || bots.is_empty() {
            return Ok(false);
        }
        if h.plies >= MAX_PLIES {
            return Err(ApiError::LimitExceeded(format!(
                "the game has {} entries; bots stop at {MAX_PLIES}",
                h.plies
            )));
        }
        let state = app.store.state_at(id, h.plies)?;
        let acting = state.seats_to_act();
        let Some(&(seat, bot)) = bots.iter().find(|(s, _)| acting.contains(s)) else {
            return Ok(false);
        };
        // A game dealt at a table has no seed; its id stands in, so a bot's choice is still a
        // function of the game and the ply.
        let game_seed = h.seed.unwrap_or_else(|| u64::from_le_bytes(id.to_bytes()));
        let seed = ai::arena::decision_seed(game_seed, h.plies, seat);
        let notation = players
            .choose(&*state, seat, bot, seed)
            .map_err(|e| ApiError::Internal(format!("seat {seat}: {e}")))?;
        let appended = app.store.append(Append {
            game: id,
            expected_ply: h.plies,
            actor: Actor::Seat(seat),
            notation: &notation,
            key: None,
            at: Utc::now(),
            entered_by: Some(EnteredBy::Bot),
        });
        match appended {
            Ok(a) => {
                app.metrics.bot_moves.fetch_add(1, Relaxed);
                app.hub.publish(id, a.header.plies);
            }
            // Someone moved while the bot thought: read the game again.
            Err(StoreError::VersionConflict { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(true)
}

/// Queues every active game with a bot seat (after a restart, their bots play on).
fn resume(app: &Weak<App>) {
    let Some(app) = app.upgrade() else {
        return;
    };
    let filter = store::Filter {
        status: Some(Status::Active),
        ..Default::default()
    };
    let mut after = None;
    loop {
        let page = match app.store.list(&filter, 500, after) {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(error = %e, "bots: active games not listed; their bots wait for a move");
                return;
            }
        };
        for h in &page.games {
            app.bots.wake(h);
        }
        match page.next {
            Some(next) => after = Some(next),
            None => return,
        }
    }
}
