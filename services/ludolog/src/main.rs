//! `ludolog`: the command line of the Ludolog replay and analysis service.
//!
//! Commands: `simulate` (seeded random games, for testing and speed), `rules` (the games
//! known and their rules versions). The store and server commands come with their crates.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use five_tribes::FiveTribes;
use rules_core::{playout, Game, GameKind, Notation};
use serde::Serialize;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "ludolog",
    version,
    about = "Record, replay and analyse euro board games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play seeded random legal games and report their speed and scores.
    Simulate {
        /// Game kind, e.g. five-tribes.
        #[arg(long)]
        game: GameKind,
        #[arg(long, default_value_t = 4)]
        players: u8,
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Print each game's log (notation, one entry per line) to stderr.
        #[arg(long)]
        log: bool,
    },
    /// List the game kinds, their player counts and rules versions.
    Rules {
        #[arg(long)]
        json: bool,
    },
}

#[derive(Serialize)]
struct SimReport {
    game: GameKind,
    players: u8,
    seed: u64,
    games: u64,
    plies: u64,
    rounds: u64,
    seconds: f64,
    plies_per_second: f64,
    games_per_second: f64,
    mean_score_per_seat: Vec<f64>,
    wins_per_seat: Vec<f64>,
    /// A hash of every game's final state and scores: equal across runs with the same seed.
    fingerprint: String,
}

fn simulate_five_tribes(players: u8, games: u64, seed: u64, log: bool) -> Result<SimReport> {
    let options = five_tribes::Options { players };
    FiveTribes::new_game(&options).map_err(|e| anyhow::anyhow!("{e}"))?;
    let n = usize::from(players);
    let mut plies = 0u64;
    let mut rounds = 0u64;
    let mut score_sum = vec![0i64; n];
    let mut wins = vec![0f64; n];
    let mut fp: u64 = 0xcbf2_9ce4_8422_2325;
    let start = Instant::now();
    for g in 0..games {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        let p = playout::<FiveTribes>(&options, game_seed, 100_000, log)
            .with_context(|| format!("game {g} (seed {game_seed})"))?;
        if log {
            eprintln!("# game {g} seed {game_seed}");
            for a in &p.log {
                match a {
                    rules_core::Action::Move(s, m) => {
                        eprintln!("{s} {}", FiveTribes::format_move(m))
                    }
                    rules_core::Action::Chance(c) => {
                        eprintln!("dealer {}", FiveTribes::format_chance(c))
                    }
                }
            }
        }
        plies += u64::from(p.plies);
        rounds += u64::from(p.state.round);
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
        game: GameKind::FiveTribes,
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

#[derive(Serialize)]
struct RulesEntry {
    kind: GameKind,
    player_counts: Vec<u8>,
    rules_version: &'static str,
    data_hash: String,
}

fn rules() -> Vec<RulesEntry> {
    vec![RulesEntry {
        kind: FiveTribes::KIND,
        player_counts: FiveTribes::player_counts().to_vec(),
        rules_version: FiveTribes::RULES_VERSION,
        data_hash: format!("{:016x}", five_tribes::data::data_hash()),
    }]
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Simulate {
            game,
            players,
            games,
            seed,
            json,
            log,
        } => {
            let report = match game {
                GameKind::FiveTribes => simulate_five_tribes(players, games, seed, log)?,
                other => bail!("{other} is not implemented yet"),
            };
            if json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                println!(
                    "{} games of {} ({} players, seed {}): {} plies in {:.3}s — {:.0} plies/s, {:.1} games/s",
                    report.games, report.game, players, seed, report.plies, report.seconds,
                    report.plies_per_second, report.games_per_second
                );
                println!("mean score per seat: {:?}", report.mean_score_per_seat);
                println!("wins per seat: {:?}", report.wins_per_seat);
            }
        }
        Command::Rules { json } => {
            let r = rules();
            if json {
                println!("{}", serde_json::to_string(&r)?);
            } else {
                for e in r {
                    println!(
                        "{}: {:?} players, rules {}",
                        e.kind, e.player_counts, e.rules_version
                    );
                }
            }
        }
    }
    Ok(())
}
