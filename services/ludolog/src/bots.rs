//! `ludolog selfplay` and `ludolog arena`: games played by bots (the `ai` crate). Self-play
//! plays them through a scratch store, as `sample` does, so what it writes are ordinary
//! records (the store deals, checks every move and exports); the arena tallies games in
//! memory, seats rotated, and prints per bot its wins with a Wilson interval.
use crate::storecmd;
use ai::{ArenaReport, BotSpec};
use anyhow::{anyhow, bail, Result};
use chrono::{DateTime, Duration, Utc};
use five_tribes::FiveTribes;
use rules_core::{Actor, Game, GameKind, Notation, ToAct};
use std::path::Path;
use store::{Append, NewGame, Store};

/// Plays the arena for `kind`.
pub fn arena(
    kind: GameKind,
    players: u8,
    bots: &[BotSpec],
    games: u64,
    seed: u64,
) -> Result<ArenaReport> {
    fn run<G: Game>(players: u8, bots: &[BotSpec], games: u64, seed: u64) -> Result<ArenaReport> {
        Ok(ai::arena::<G>(
            &crate::games::options::<G>(players)?,
            players,
            bots,
            games,
            seed,
        )?)
    }
    match kind {
        GameKind::FiveTribes => run::<FiveTribes>(players, bots, games, seed),
        GameKind::ClansOfCaledonia => run::<caledonia::Caledonia>(players, bots, games, seed),
        GameKind::Mombasa => run::<mombasa::Mombasa>(players, bots, games, seed),
    }
}

/// Plays `games` games of `kind` among `bots` (in turn through the seats, rotated a seat each
/// game) through `store`, each seat named by its bot.
pub fn selfplay(
    store: &Store,
    kind: GameKind,
    players: &[u8],
    bots: &[BotSpec],
    games: u64,
    seed: u64,
) -> Result<u64> {
    match kind {
        GameKind::FiveTribes => selfplay_game::<FiveTribes>(store, players, bots, games, seed),
        GameKind::ClansOfCaledonia => {
            selfplay_game::<caledonia::Caledonia>(store, players, bots, games, seed)
        }
        GameKind::Mombasa => selfplay_game::<mombasa::Mombasa>(store, players, bots, games, seed),
    }
}

fn selfplay_game<G: Game + Notation>(
    store: &Store,
    counts: &[u8],
    bots: &[BotSpec],
    games: u64,
    seed: u64,
) -> Result<u64> {
    if counts.is_empty() || bots.is_empty() {
        bail!("give at least one player count and one bot");
    }
    let base: DateTime<Utc> = DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default(); // 2026-01-01
    for g in 0..games {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        let players = counts[g as usize % counts.len()];
        let n = usize::from(players);
        let seats: Vec<BotSpec> = (0..n)
            .map(|i| bots[(i + g as usize) % bots.len()])
            .collect();
        let start = base + Duration::hours(g as i64);
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
        let mut s =
            G::new_game(&crate::games::options::<G>(players)?).map_err(|e| anyhow!("{e}"))?;
        let follow = |s: &mut G::State, entries: &[store::Entry]| -> Result<()> {
            for e in entries {
                let action = match e.actor {
                    Actor::Seat(seat) => {
                        rules_core::Action::Move(seat, G::parse_move(&e.notation)?)
                    }
                    _ => rules_core::Action::Chance(G::parse_chance(&e.notation)?),
                };
                G::apply(s, &action).map_err(|err| anyhow!("entry {}: {err}", e.ply))?;
            }
            Ok(())
        };
        follow(&mut s, &dealt)?;
        let mut plies = h.plies;
        while let ToAct::Seat(seat) = G::to_act(&s) {
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
                entered_by: None,
            })?;
            follow(&mut s, &r.entries)?;
            plies = r.header.plies;
        }
        eprintln!("game {} of {games}: {} plies", g + 1, plies);
    }
    Ok(games)
}

/// `selfplay` as the command runs it: a scratch store, exported to `out`.
pub fn selfplay_to(
    kind: GameKind,
    players: &[u8],
    bots: &[BotSpec],
    games: u64,
    seed: u64,
    out: &Path,
) -> Result<u64> {
    let dir = std::env::temp_dir().join(format!("ludolog-selfplay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = storecmd::open(&dir)?;
    selfplay(&store, kind, players, bots, games, seed)?;
    let n = storecmd::export(&store, Some(kind), true, out)?;
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(n)
}
