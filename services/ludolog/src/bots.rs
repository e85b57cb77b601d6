//! `ludolog selfplay` and `ludolog arena`: games played by bots (the `ai` crate). Self-play
//! plays them through a scratch store, as `sample` does, so what it writes are ordinary
//! records (the store deals, checks every move and exports); the arena tallies games in
//! memory, seats rotated, and prints per bot its wins with a Wilson interval.
use crate::storecmd;
use ai::{ArenaReport, BotSpec};
use anyhow::{anyhow, bail, Result};
use chrono::Duration;
use five_tribes::FiveTribes;
use rules_core::{Actor, Game, GameKind, Notation, ToAct};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use store::{Append, NewGame, Store};

/// Plays the arena for `kind`.
pub fn arena(
    kind: GameKind,
    players: u8,
    bots: &[BotSpec],
    games: u64,
    seed: u64,
    threads: u16,
) -> Result<ArenaReport> {
    let run = match kind {
        GameKind::FiveTribes => run_arena::<FiveTribes>,
        GameKind::ClansOfCaledonia => run_arena::<caledonia::Caledonia>,
        GameKind::Mombasa => run_arena::<mombasa::Mombasa>,
    };
    run(players, bots, games, seed, usize::from(threads))
}

fn run_arena<G: Game>(
    players: u8,
    bots: &[BotSpec],
    games: u64,
    seed: u64,
    threads: usize,
) -> Result<ArenaReport>
where
    G::Options: Sync,
{
    Ok(ai::arena::<G>(
        &crate::games::options::<G>(players)?,
        players,
        bots,
        games,
        seed,
        threads,
    )?)
}

/// Plays `games` games of `kind` among `bots` (in turn through the seats, rotated a seat each
/// game) through `store`, each seat named by its bot, `threads` games at a time. Game `g` is
/// dealt from a seed and dated by `g` alone, so what is written does not depend on `threads`.
pub fn selfplay(
    store: &Store,
    kind: GameKind,
    players: &[u8],
    bots: &[BotSpec],
    games: u64,
    seed: u64,
    threads: u16,
) -> Result<u64> {
    if players.is_empty() || bots.is_empty() {
        bail!("give at least one player count and one bot");
    }
    type PlayOne = fn(&Store, &[u8], &[BotSpec], u64, u64) -> Result<u32>;
    let play: PlayOne = match kind {
        GameKind::FiveTribes => selfplay_one::<FiveTribes>,
        GameKind::ClansOfCaledonia => selfplay_one::<caledonia::Caledonia>,
        GameKind::Mombasa => selfplay_one::<mombasa::Mombasa>,
    };
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    loop {
                        let g = next.fetch_add(1, Ordering::Relaxed);
                        if g >= games {
                            return Ok(());
                        }
                        let plies = play(store, players, bots, seed, g)?;
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        eprintln!("game {n} of {games} (#{g}): {plies} plies");
                    }
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| {
            w.join()
                .map_err(|_| anyhow!("a self-play thread panicked"))?
        })
    })?;
    Ok(games)
}

/// Plays game `g` of a self-play run; its number of entries.
fn selfplay_one<G: Game + Notation>(
    store: &Store,
    counts: &[u8],
    bots: &[BotSpec],
    seed: u64,
    g: u64,
) -> Result<u32> {
    let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
    let players = counts[g as usize % counts.len()];
    let n = usize::from(players);
    let seats: Vec<BotSpec> = (0..n)
        .map(|i| bots[(i + g as usize) % bots.len()])
        .collect();
    let start = storecmd::game_start(G::KIND, g);
    let (h, dealt) = store.create(NewGame {
        kind: G::KIND,
        players: seats.iter().map(|b| b.to_string()).collect(),
        options: serde_json::json!({ "players": players }),
        seed: Some(game_seed),
        at: start,
        seat_token_hashes: vec![],
        recorder_token_hash: None,
    })?;
    // The typed position the bots read, kept in step with the store's entries.
    let mut s = G::new_game(&crate::games::options::<G>(players)?).map_err(|e| anyhow!("{e}"))?;
    let follow = |s: &mut G::State, entries: &[store::Entry]| -> Result<()> {
        for e in entries {
            let action = match e.actor {
                Actor::Seat(seat) => rules_core::Action::Move(seat, G::parse_move(&e.notation)?),
                _ => rules_core::Action::Chance(G::parse_chance(&e.notation)?),
            };
            G::apply(s, &action).map_err(|err| anyhow!("entry {}: {err}", e.ply))?;
        }
        Ok(())
    };
    follow(&mut s, &dealt)?;
    let mut plies = h.plies;
    while let ToAct::Seat(seat) = G::to_act(&s) {
        if plies >= api::bots::pool::MAX_PLIES {
            bail!("game {g}: no end after {plies} entries (a cycle the rules allow?)");
        }
        let bot = seats[usize::from(seat.0)];
        let m = bot
            .choose::<G>(&s, seat, ai::arena::decision_seed(game_seed, plies, seat))
            .ok_or_else(|| anyhow!("game {g}: seat {seat} has no move at ply {plies}"))?;
        let r = store.append(Append {
            game: h.id,
            expected_ply: plies,
            actor: Actor::Seat(seat),
            notation: &G::format_move(&m),
            key: None,
            at: start + Duration::seconds(i64::from(plies) * 20),
            entered_by: Some(store::EnteredBy::Bot),
        })?;
        follow(&mut s, &r.entries)?;
        plies = r.header.plies;
    }
    Ok(plies)
}

/// `selfplay` as the command runs it: a scratch store, exported to `out`.
pub fn selfplay_to(
    kind: GameKind,
    players: &[u8],
    bots: &[BotSpec],
    games: u64,
    seed: u64,
    threads: u16,
    out: &Path,
) -> Result<u64> {
    let dir = std::env::temp_dir().join(format!("ludolog-selfplay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = storecmd::open(&dir)?;
    selfplay(&store, kind, players, bots, games, seed, threads)?;
    let n = storecmd::export(&store, Some(kind), true, out)?;
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(n)
}
