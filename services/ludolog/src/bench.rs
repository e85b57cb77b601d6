//! Store load generators: `bench-append` (durable appends from concurrent writers) and the
//! `crash-child` used by the crash test (appends forever, printing each acknowledged ply).

use anyhow::Result;
use chrono::Utc;
use rules_core::{Actor, ChanceRng, Dealer, GameKind, ToAct};
use serde::Serialize;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use store::{Append, GameId, NewGame, Store};

fn new_game(store: &Store, seed: u64) -> Result<GameId> {
    let (h, _) = store.create(NewGame {
        kind: GameKind::FiveTribes,
        players: vec!["a".into(), "b".into(), "c".into(), "d".into()],
        options: serde_json::json!({ "players": 4 }),
        seed,
        at: Utc::now(),
        seat_token_hashes: vec![],
    })?;
    Ok(h.id)
}

/// One writer: appends random legal moves to its own game, starting a new one at each end.
/// Returns the number of acknowledged appends. `on_ack` sees each acknowledged ply.
fn writer(
    store: &Store,
    seed: u64,
    stop: &AtomicBool,
    on_ack: &mut dyn FnMut(GameId, u32),
) -> Result<u64> {
    let mut policy = Dealer::new(seed, 1 << 40);
    let mut game = match store
        .list(
            &store::Filter {
                status: Some(store::Status::Active),
                ..Default::default()
            },
            1,
            None,
        )?
        .games
        .first()
    {
        Some(h) if seed == 0 => h.id,
        _ => new_game(store, seed)?,
    };
    let mut header = store.header(game)?;
    let mut state = store.state_at(game, header.plies)?;
    let mut acks = 0;
    while !stop.load(Ordering::Relaxed) {
        let ToAct::Seat(seat) = state.to_act() else {
            game = new_game(store, seed.wrapping_add(acks))?;
            header = store.header(game)?;
            state = store.state_at(game, header.plies)?;
            continue;
        };
        let moves = state.legal_moves();
        let m = &moves[policy.below(moves.len() as u32) as usize];
        let r = store.append(Append {
            game,
            expected_ply: header.plies,
            actor: Actor::Seat(seat),
            notation: m,
            key: None,
            at: Utc::now(),
        })?;
        for e in &r.entries {
            state.apply(e.actor, &e.notation)?;
        }
        header = r.header;
        acks += 1;
        on_ack(game, header.plies);
    }
    Ok(acks)
}

#[derive(Serialize)]
pub struct AppendBench {
    pub writers: usize,
    pub seconds: f64,
    pub appends: u64,
    pub appends_per_second: f64,
    pub flushes: u64,
}

pub fn bench_append(store: &Store, writers: usize, seconds: f64) -> Result<AppendBench> {
    let stop = AtomicBool::new(false);
    let total = AtomicU64::new(0);
    let flushes_before = store.flushes();
    let start = Instant::now();
    std::thread::scope(|s| -> Result<()> {
        let handles: Vec<_> = (0..writers)
            .map(|w| {
                let (stop, total) = (&stop, &total);
                s.spawn(move || -> Result<()> {
                    let n = writer(store, 1000 + w as u64, stop, &mut |_, _| {})?;
                    total.fetch_add(n, Ordering::Relaxed);
                    Ok(())
                })
            })
            .collect();
        std::thread::sleep(Duration::from_secs_f64(seconds));
        stop.store(true, Ordering::Relaxed);
        for h in handles {
            h.join()
                .map_err(|_| anyhow::anyhow!("a writer panicked"))??;
        }
        Ok(())
    })?;
    let elapsed = start.elapsed().as_secs_f64();
    let appends = total.load(Ordering::Relaxed);
    Ok(AppendBench {
        writers,
        seconds: elapsed,
        appends,
        appends_per_second: appends as f64 / elapsed,
        flushes: store.flushes() - flushes_before,
    })
}

/// Appends until killed, printing `ack GAME PLY` after each acknowledged append.
pub fn crash_child(store: &Store) -> Result<()> {
    let stop = AtomicBool::new(false);
    let out = std::io::stdout();
    writer(store, 0, &stop, &mut |game, ply| {
        let mut o = out.lock();
        let _ = writeln!(o, "ack {game} {ply}");
        let _ = o.flush();
    })?;
    Ok(())
}
