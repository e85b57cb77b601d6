//! `ludolog simulate`: seeded random legal games, for speed and determinism checks.

use anyhow::{Context, Result};
use five_tribes::FiveTribes;
use rules_core::{playout, Action, Game, GameKind, Notation};
use serde::Serialize;
use std::time::Instant;

#[derive(Serialize)]
pub struct SimReport {
    pub game: GameKind,
    pub players: u8,
    pub seed: u64,
    pub games: u64,
    pub plies: u64,
    pub rounds: u64,
    pub seconds: f64,
    pub plies_per_second: f64,
    pub games_per_second: f64,
    pub mean_score_per_seat: Vec<f64>,
    pub wins_per_seat: Vec<f64>,
    /// A hash of every game's length and scores: equal across runs with the same seed.
    pub fingerprint: String,
}

pub fn simulate(
    game: GameKind,
    players: u8,
    games: u64,
    seed: u64,
    log: bool,
) -> Result<SimReport> {
    match game {
        GameKind::FiveTribes => simulate_game::<FiveTribes>(players, games, seed, log),
        GameKind::ClansOfCaledonia => {
            simulate_game::<caledonia::Caledonia>(players, games, seed, log)
        }
        GameKind::Mombasa => simulate_game::<mombasa::Mombasa>(players, games, seed, log),
    }
}

/// Plays `games` random games of `G` with `players` seats (options otherwise default).
fn simulate_game<G: Game + Notation>(
    players: u8,
    games: u64,
    seed: u64,
    log: bool,
) -> Result<SimReport> {
    let options = crate::games::options::<G>(players)?;
    let n = usize::from(players);
    let mut plies = 0u64;
    let mut rounds = 0u64;
    let mut score_sum = vec![0i64; n];
    let mut wins = vec![0f64; n];
    let mut fp: u64 = 0xcbf2_9ce4_8422_2325;
    let start = Instant::now();
    for g in 0..games {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        let p = playout::<G>(&options, game_seed, 100_000, log)
            .with_context(|| format!("game {g} (seed {game_seed})"))?;
        if log {
            eprintln!("# game {g} seed {game_seed}");
            for a in &p.log {
                match a {
                    Action::Move(s, m) => eprintln!("{s} {}", G::format_move(m)),
                    Action::Chance(c) => eprintln!("dealer {}", G::format_chance(c)),
                }
            }
        }
        plies += u64::from(p.plies);
        rounds += u64::from(G::round(&p.state));
        for s in &p.outcome.scores {
            score_sum[s.seat.index()] += i64::from(s.total);
            fp = (fp ^ s.total as u64).wrapping_mul(0x0100_0000_01b3);
        }
        for w in &p.outcome.winners {
            wins[w.index()] += 1.0 / p.outcome.winners.len() as f64;
        }
        fp = (fp ^ u64::from(p.plies)).wrapping_mul(0x0100_0000_01b3);
    }
    let seconds = start.elapsed().as_secs_f64();
    let gf = games.max(1) as f64;
    Ok(SimReport {
        game: G::KIND,
        players,
        seed,
        games,
        plies,
        rounds,
        seconds,
        plies_per_second: plies as f64 / seconds.max(1e-9),
        games_per_second: games as f64 / seconds.max(1e-9),
        mean_score_per_seat: score_sum.iter().map(|&s| s as f64 / gf).collect(),
        wins_per_seat: wins,
        fingerprint: format!("{fp:016x}"),
    })
}
