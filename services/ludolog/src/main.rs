//! `ludolog`: the command line of the Ludolog replay and analysis service.
//!
//! Commands: `serve` (the GraphQL service), `schema`; `simulate` and `rules` (no store);
//! `import`, `export`, `replay`, `rebuild`, `sample` and the `bench-*` load generators (open the
//! store under `--data-dir`). `anyhow` is used here and
//! only here: library crates return typed errors, the binary reports them.

mod bench;
mod games;
mod serve;
mod simulate;
mod storecmd;

use anyhow::Result;
use clap::{Parser, Subcommand};
use rules_core::GameKind;
use serde::Serialize;
use std::path::PathBuf;

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

#[derive(clap::Args, Clone)]
struct DataDir {
    /// Where the store lives.
    #[arg(long, env = "LUDOLOG_DATA_DIR", default_value = "./var/ludolog")]
    data_dir: PathBuf,
}

#[derive(Subcommand)]
enum Command {
    /// Run the GraphQL service (GraphiQL at /graphql).
    Serve(serve::ServeArgs),
    /// Print the GraphQL schema (SDL), as schema/schema.graphql holds it.
    Schema,
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
    /// Import game records (NDJSON, one game per line), validating every entry.
    Import {
        file: PathBuf,
        /// Stop at the first bad record instead of going on with the next line.
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        data: DataDir,
    },
    /// Export game records as NDJSON.
    Export {
        #[arg(long)]
        kind: Option<GameKind>,
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        data: DataDir,
    },
    /// Print the view of a game at a ply as JSON.
    Replay {
        game: String,
        /// Ply (number of entries applied); default: the latest.
        #[arg(long)]
        ply: Option<u32>,
        /// See as this seat (default: a spectator).
        #[arg(long)]
        seat: Option<u8>,
        #[command(flatten)]
        data: DataDir,
    },
    /// Statistics of the finished games of a kind (win rates by seat and tag, scores, lengths).
    Stats {
        #[arg(long)]
        kind: GameKind,
        #[arg(long)]
        players: Option<usize>,
        #[arg(long)]
        player: Option<String>,
        #[arg(long)]
        tag: Option<String>,
        /// Games created at or after this time (RFC 3339, e.g. 2026-01-01T00:00:00Z).
        #[arg(long)]
        since: Option<chrono::DateTime<chrono::Utc>>,
        /// Games created before this time (RFC 3339).
        #[arg(long)]
        until: Option<chrono::DateTime<chrono::Utc>>,
        /// `json` (default) or `csv`.
        #[arg(long, default_value = "json")]
        format: String,
        #[command(flatten)]
        data: DataDir,
    },
    /// Player ratings of a game kind (Weng-Lin / OpenSkill), best first.
    Ratings {
        #[arg(long)]
        kind: GameKind,
        #[command(flatten)]
        data: DataDir,
    },
    /// Export a table for analysts (finished games only): `games` (a row per game and seat) or
    /// `moves` (a row per entry), as CSV or NDJSON. Columns: schema/exports.md.
    Table {
        #[arg(long)]
        kind: GameKind,
        /// `games` or `moves`.
        #[arg(long)]
        table: String,
        /// `csv` or `ndjson`.
        #[arg(long, default_value = "csv")]
        format: String,
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        data: DataDir,
    },
    /// Export the indexed positions of finished games that pass a CEL filter, as NDJSON
    /// (`--where 'round == 3 && seats.exists(s, s.viziers >= 5)'`; names: `ludolog rules --json`).
    Positions {
        #[arg(long)]
        kind: GameKind,
        #[arg(long = "where")]
        filter: Option<String>,
        /// Output file (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        data: DataDir,
    },
    /// Recompute snapshots, indexes and projections from the logs.
    Rebuild {
        #[command(flatten)]
        data: DataDir,
    },
    /// Make sample records: random games played through a scratch store, exported.
    Sample {
        #[arg(long)]
        game: GameKind,
        /// Player counts, used in turn (e.g. `2,3,4`).
        #[arg(long, value_delimiter = ',', default_value = "2,3,4")]
        players: Vec<u8>,
        #[arg(long, default_value_t = 200)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
    },
    /// Measure durable appends per second with concurrent writers, one game each.
    BenchAppend {
        #[arg(long, default_value_t = 16)]
        writers: usize,
        #[arg(long, default_value_t = 10.0)]
        seconds: f64,
        #[command(flatten)]
        data: DataDir,
    },
    /// Measure the latency of reading the state at random plies of stored games.
    BenchRead {
        #[arg(long, default_value_t = 10_000)]
        reads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        data: DataDir,
    },
    /// Generate random game records in memory and measure importing them (speed, disk, memory).
    BenchImport {
        #[arg(long, default_value_t = 10_000)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        data: DataDir,
    },
    /// Measure `statistics` latency over the stored games' projections.
    BenchStats {
        #[arg(long, default_value_t = 300)]
        queries: usize,
        #[command(flatten)]
        data: DataDir,
    },
    /// Measure position queries: full scans of the feature index with a CEL filter.
    BenchPositions {
        #[arg(long, default_value = "five-tribes")]
        kind: GameKind,
        #[arg(
            long = "where",
            default_value = "round == 3 && seats.exists(s, s.viziers >= 5)"
        )]
        filter: String,
        #[arg(long, default_value_t = 5)]
        runs: usize,
        #[command(flatten)]
        data: DataDir,
    },
    /// Append forever, printing each acknowledged ply (for the crash test).
    #[command(hide = true)]
    CrashChild {
        #[command(flatten)]
        data: DataDir,
    },
}

/// Statistics as CSV: one row per seat, tag and score category.
fn stats_csv(s: &analysis::Statistics) -> String {
    let mut out =
        String::from("section,key,count,win_rate,win_low,win_high,mean,median,p10,p90,min,max\n");
    for r in &s.by_seat {
        out.push_str(&format!(
            "seat,{},{},{:.6},{:.6},{:.6},{:.4},,,,,\n",
            r.seat, r.win.trials, r.win.rate, r.win.low, r.win.high, r.mean_score
        ));
    }
    for r in &s.by_tag {
        out.push_str(&format!(
            "tag,{},{},{:.6},{:.6},{:.6},{:.4},,,,,\n",
            r.tag, r.count, r.win.rate, r.win.low, r.win.high, r.mean_score
        ));
    }
    let mut dist = |section: &str, key: &str, d: &Option<analysis::stats::Distribution>| {
        if let Some(d) = d {
            out.push_str(&format!(
                "{section},{key},{},,,,{:.4},{:.4},{:.4},{:.4},{},{}\n",
                d.count, d.mean, d.median, d.p10, d.p90, d.min, d.max
            ));
        }
    };
    dist("score", "total", &s.scores);
    for c in &s.by_category {
        dist("score", &c.category, &Some(c.scores));
    }
    dist("length", "plies", &s.plies);
    dist("length", "rounds", &s.rounds);
    dist("length", "wall_millis", &s.wall_millis);
    out
}

fn print_json(v: &impl Serialize) -> Result<()> {
    println!("{}", serde_json::to_string(v)?);
    Ok(())
}

#[derive(Serialize)]
struct RulesEntry {
    kind: GameKind,
    player_counts: Vec<u8>,
    rules_version: &'static str,
    data_hash: String,
    /// Every data version this build replays, the current one first.
    data_versions: Vec<String>,
    /// Component data items verified against public sources, and reconstructed.
    data: rules_core::DataCoverage,
    verified_share: f64,
    /// Position features: phases, global and per-seat names.
    features: FeaturesEntry,
}

#[derive(serde::Serialize)]
struct FeaturesEntry {
    phases: &'static [&'static str],
    global: &'static [&'static str],
    seat: &'static [&'static str],
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => serve::serve(args)?,
        Command::Schema => print!("{}", api::sdl()),
        Command::Simulate {
            game,
            players,
            games,
            seed,
            json,
            log,
        } => {
            let r = simulate::simulate(game, players, games, seed, log)?;
            if json {
                print_json(&r)?;
            } else {
                println!(
                    "{} games of {} ({} players, seed {}): {} plies in {:.3}s — {:.0} plies/s, {:.1} games/s",
                    r.games, r.game, players, seed, r.plies, r.seconds, r.plies_per_second, r.games_per_second
                );
                println!("mean score per seat: {:?}", r.mean_score_per_seat);
                println!("wins per seat: {:?}", r.wins_per_seat);
            }
        }
        Command::Rules { json } => {
            let list: Vec<RulesEntry> = games::registry()
                .iter()
                .map(|g| {
                    let f = g.feature_schema();
                    RulesEntry {
                        kind: g.kind(),
                        player_counts: g.player_counts().to_vec(),
                        rules_version: g.rules_version(),
                        data_hash: g.data_hash(),
                        data_versions: g.data_versions(),
                        data: g.data_coverage(),
                        verified_share: g.data_coverage().verified_share(),
                        features: FeaturesEntry {
                            phases: f.phases,
                            global: f.global,
                            seat: f.seat,
                        },
                    }
                })
                .collect();
            if json {
                print_json(&list)?;
            } else {
                for e in list {
                    println!(
                        "{}: {:?} players, rules {}, data {:.0}% verified ({} of {} items)",
                        e.kind,
                        e.player_counts,
                        e.rules_version,
                        100.0 * e.verified_share,
                        e.data.verified,
                        e.data.verified + e.data.reconstructed
                    );
                }
            }
        }
        Command::Import { file, strict, data } => {
            // Attached, so every finished game imported updates the summaries and the
            // position index as it is stored (as `serve`'s `importGame` does).
            let (store, _analysis) = storecmd::open_analysed(&data.data_dir)?;
            let s = storecmd::import(&store, &file, strict)?;
            println!(
                "imported {} games ({} entries, {:.0} entries/s), rejected {}",
                s.imported,
                s.entries,
                s.entries as f64 / s.seconds.max(1e-9),
                s.rejected
            );
        }
        Command::Export { kind, out, data } => {
            let store = storecmd::open(&data.data_dir)?;
            let n = storecmd::export(&store, kind, &out)?;
            eprintln!("exported {n} games to {}", out.display());
        }
        Command::Replay {
            game,
            ply,
            seat,
            data,
        } => {
            let store = storecmd::open(&data.data_dir)?;
            print_json(&storecmd::replay(&store, &game, ply, seat)?)?;
        }
        Command::Stats {
            kind,
            players,
            player,
            tag,
            since,
            until,
            format,
            data,
        } => {
            let (_store, analysis) = storecmd::open_analysed(&data.data_dir)?;
            let filter = analysis::StatsFilter {
                player_count: players,
                player,
                tag,
                since,
                until,
            };
            let stats = analysis.statistics(kind, &filter);
            match format.as_str() {
                "json" => print_json(&*stats)?,
                "csv" => print!("{}", stats_csv(&stats)),
                other => anyhow::bail!("unknown format `{other}`: json or csv"),
            }
        }
        Command::Ratings { kind, data } => {
            let (_store, analysis) = storecmd::open_analysed(&data.data_dir)?;
            print_json(&analysis.ratings(kind))?;
        }
        Command::Table {
            kind,
            table,
            format,
            out,
            data,
        } => {
            let (store, analysis) = storecmd::open_analysed(&data.data_dir)?;
            let format = match format.as_str() {
                "csv" => analysis::exports::Format::Csv,
                "ndjson" => analysis::exports::Format::Ndjson,
                other => anyhow::bail!("unknown format `{other}`: csv or ndjson"),
            };
            let f = std::fs::File::create(&out)?;
            let mut w = std::io::BufWriter::new(f);
            let rows = match table.as_str() {
                "games" => analysis::exports::games(&analysis, kind, format, &mut w)?,
                "moves" => analysis::exports::moves(&store, &analysis, kind, format, &mut w)?,
                other => anyhow::bail!("unknown table `{other}`: games or moves"),
            };
            std::io::Write::flush(&mut w)?;
            eprintln!("wrote {rows} rows to {}", out.display());
        }
        Command::Rebuild { data } => {
            let (store, analysis) = storecmd::open_analysed(&data.data_dir)?;
            let r = storecmd::rebuild(&store, &analysis)?;
            println!("rebuilt {} games ({} entries)", r.games, r.entries);
        }
        Command::Sample {
            game,
            players,
            games,
            seed,
            out,
        } => {
            let dir = std::env::temp_dir().join(format!("ludolog-sample-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            let store = storecmd::open(&dir)?;
            storecmd::play_random_games(&store, game, &players, games, seed)?;
            let n = storecmd::export(&store, Some(game), &out)?;
            drop(store);
            let _ = std::fs::remove_dir_all(&dir);
            eprintln!("wrote {n} games to {}", out.display());
        }
        Command::BenchAppend {
            writers,
            seconds,
            data,
        } => {
            let store = storecmd::open(&data.data_dir)?;
            print_json(&bench::bench_append(&store, writers, seconds)?)?;
        }
        Command::BenchRead { reads, seed, data } => {
            let store = storecmd::open(&data.data_dir)?;
            print_json(&bench::bench_read(&store, reads, seed)?)?;
        }
        Command::BenchImport { games, seed, data } => {
            let store = storecmd::open(&data.data_dir)?;
            let key = storecmd::state_hash_key(&data.data_dir)?;
            print_json(&bench::bench_import(&store, key, games, seed)?)?;
        }
        Command::BenchStats { queries, data } => {
            let (_store, analysis) = storecmd::open_analysed(&data.data_dir)?;
            print_json(&bench::bench_stats(&analysis, queries))?;
        }
        Command::Positions {
            kind,
            filter,
            out,
            data,
        } => {
            let (store, _analysis) = storecmd::open_analysed(&data.data_dir)?;
            let schema = analysis::positions::schema(store.registry(), kind)?;
            let filter = filter
                .map(|f| analysis::positions::Filter::compile(&f, schema))
                .transpose()?;
            let mut w: Box<dyn std::io::Write> = match &out {
                Some(path) => Box::new(std::io::BufWriter::new(std::fs::File::create(path)?)),
                None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
            };
            let (scanned, written) =
                analysis::positions::export_ndjson(&store, kind, filter.as_ref(), &mut w, &|| {
                    false
                })?;
            w.flush()?;
            eprintln!("scanned {scanned} positions, wrote {written}");
        }
        Command::BenchPositions {
            kind,
            filter,
            runs,
            data,
        } => {
            let (store, analysis) = storecmd::open_analysed(&data.data_dir)?;
            print_json(&bench::bench_positions(
                &store,
                analysis.hash_key(),
                kind,
                &filter,
                runs,
            )?)?;
        }
        Command::CrashChild { data } => {
            let store = storecmd::open(&data.data_dir)?;
            bench::crash_child(&store)?;
        }
    }
    Ok(())
}
