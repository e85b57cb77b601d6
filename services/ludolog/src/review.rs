//! `ludolog review`: the finished games of a store reviewed now, in the foreground (what
//! `serve`'s background projection does, for a batch or a benchmark): every game without a
//! current review (or each one named), on `--threads` threads, kept in the store like the
//! projection keeps them, one JSON line per game printed as it is done.
use anyhow::{anyhow, Result};
use review::record::{self, Kept};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use store::{GameId, GameLog, Header, Status};

/// What to review.
pub struct Run {
    pub games: Vec<GameId>,
    pub iterations: u32,
    pub threads: u16,
    pub again: bool,
}

/// One seat of a reviewed game.
#[derive(Serialize)]
struct SeatLine {
    seat: u8,
    player: String,
    accuracy: Option<f64>,
    moves: u32,
    best: u32,
    good: u32,
    inaccuracy: u32,
    mistake: u32,
    blunder: u32,
    /// Mean loss of win chance over its moves with a choice.
    mean_loss: f64,
}

/// One reviewed game.
#[derive(Serialize)]
struct GameLine {
    game: String,
    kind: String,
    plies: u32,
    /// Positions searched (the others were forced or the end).
    searched: usize,
    /// Wall time, and the CPU time of the thread that reviewed it (what "one core" means on a
    /// shared machine).
    seconds: f64,
    cpu_seconds: f64,
    seats: Vec<SeatLine>,
}

pub fn run(store: &dyn GameLog, r: &Run) -> Result<usize> {
    let players = crate::games::bot_players()?;
    let headers: Vec<Header> = if r.games.is_empty() {
        record::finished_games(store, None)?
    } else {
        r.games
            .iter()
            .map(|&id| {
                let h = store.header(id)?;
                if h.status != Status::Finished {
                    return Err(anyhow!(
                        "game {id} is not finished: a review is of a finished game"
                    ));
                }
                Ok(h)
            })
            .collect::<Result<_>>()?
    };
    let todo: Vec<Header> = headers
        .into_iter()
        .filter(|h| r.again || !matches!(record::read(store, h), Ok(Kept::Current(_))))
        .collect();
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..r.threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(h) = todo.get(i) else {
                    return;
                };
                if let Err(e) = one(store, &players, h, r.iterations, &stop) {
                    stop.store(true, Ordering::Relaxed);
                    let mut f = failed.lock().unwrap_or_else(|e| e.into_inner());
                    f.get_or_insert(e.context(format!("game {}", h.id)));
                    return;
                }
            });
        }
    });
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(todo.len()),
    }
}

fn one(
    store: &dyn GameLog,
    players: &ai::Players,
    h: &Header,
    iterations: u32,
    stop: &AtomicBool,
) -> Result<()> {
    let started = Instant::now();
    let cpu = thread_cpu();
    let r = review::review_game(store, players, h, iterations, &|_, _| {}, stop)?;
    let seconds = started.elapsed().as_secs_f64();
    let cpu_seconds = thread_cpu() - cpu;
    record::write(store, h.id, &r)?;
    let entries = store.entries(h.id, 0, h.plies)?;
    let judged = review::judgements(&r, &entries);
    let seats = review::seat_reports(&judged, h.players.len())
        .into_iter()
        .map(|s| {
            let losses: Vec<f64> = judged
                .iter()
                .filter(|j| j.seat == s.seat && !j.forced)
                .map(|j| j.loss())
                .collect();
            SeatLine {
                seat: s.seat,
                player: h
                    .players
                    .get(usize::from(s.seat))
                    .cloned()
                    .unwrap_or_default(),
                accuracy: s.accuracy,
                moves: s.moves,
                best: s.classes[0],
                good: s.classes[1],
                inaccuracy: s.classes[2],
                mistake: s.classes[3],
                blunder: s.classes[4],
                mean_loss: losses.iter().sum::<f64>() / losses.len().max(1) as f64,
            }
        })
        .collect();
    let line = GameLine {
        game: h.id.to_string(),
        kind: h.kind.to_string(),
        plies: h.plies,
        searched: r.plies.iter().filter(|p| !p.forced && !p.exact).count(),
        seconds,
        cpu_seconds,
        seats,
    };
    println!("{}", serde_json::to_string(&line)?);
    Ok(())
}

/// This thread's CPU time so far, in seconds.
fn thread_cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the call only writes it.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if ok {
        t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
    } else {
        0.0
    }
}
