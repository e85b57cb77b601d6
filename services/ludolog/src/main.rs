//! `ludolog`: the command line of the Ludolog replay and analysis service.
//!
//! Commands: `serve` (the GraphQL service), `schema`; `simulate` and `rules` (no store);
//! `import`, `export`, `replay`, `rebuild`, `sample` and the `bench-*` load generators (open the
//! store under `--data-dir`); `verify` (every game replayed, on either backend); `migrate`
//! (between a folder and a NATS JetStream store). `anyhow` is used here and
//! only here: library crates return typed errors, the binary reports them.

mod backup;
mod bench;
mod bots;
mod calibrate;
mod cli;
mod datasets;
mod explore;
mod games;
mod hashkey;
mod migrate;
mod review;
mod searchbench;
mod serve;
mod simulate;
mod storecmd;
mod textcmd;
mod verify;

use anyhow::{Context, Result};
use clap::Parser;
use cli::{Bench, Cli, Command};
use rules_core::GameKind;
use serde::Serialize;

/// Statistics as CSV: one row per player count and seat, tag, score category and length.
fn stats_csv(s: &analysis::Statistics) -> String {
    let mut out = String::from(
        "section,players,key,count,wins,win_rate,win_low,win_high,mean,median,p10,p90,min,max\n",
    );
    let rate = |r: &analysis::stats::Rate| format!("{},{},{},{}", r.wins, r.rate, r.low, r.high);
    for p in &s.by_player_count {
        for r in &p.by_seat {
            out.push_str(&format!(
                "seat,{},{},{},{},{},,,,,\n",
                p.players,
                r.seat,
                r.win.trials,
                rate(&r.win),
                r.mean_score
            ));
        }
        for g in &p.tag_groups {
            for t in &g.tags {
                out.push_str(&format!(
                    "tag,{},{},{},{},{},,,,,\n",
                    p.players,
                    t.tag,
                    t.count,
                    rate(&t.win),
                    t.mean_score
                ));
            }
        }
    }
    let mut dist = |section: &str, key: &str, d: &Option<analysis::stats::Distribution>| {
        if let Some(d) = d {
            out.push_str(&format!(
                "{section},,{key},{},,,,,{},{},{},{},{},{}\n",
                d.count, d.mean, d.median, d.p10, d.p90, d.min, d.max
            ));
        }
    };
    dist("score", "total", &s.scores.total);
    for c in &s.scores.by_category {
        dist("score", &c.category, &Some(c.scores));
    }
    dist("length", "plies", &s.lengths.plies);
    dist("length", "rounds", &s.lengths.rounds);
    dist("length", "wall_millis", &s.lengths.wall_millis);
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
    /// Every rules version this build replays (games recorded under each keep it).
    rules_versions: Vec<&'static str>,
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

/// Lets a closed pipe end the process quietly, as it does any Unix tool (`ludolog replay … |
/// head`): Rust ignores SIGPIPE, which turns a closed stdout into a panic on the next print.
/// Not for `serve`, where a client closing its socket must never stop the server.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: resetting a signal to its default disposition, before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve(_)) {
        quiet_on_closed_pipe();
    }
    match cli.command {
        Command::Serve(args) => serve::serve(*args)?,
        Command::Schema { views: None } => print!("{}", api::sdl(&games::registry())),
        Command::Schema { views: Some(dir) } => {
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            for rules in games::registry().iter() {
                let kind = rules.kind().as_str();
                for (name, schema) in [
                    (format!("{kind}.schema.json"), rules.view_schema()),
                    (format!("{kind}.layout.schema.json"), rules.layout_schema()),
                ] {
                    let path = dir.join(name);
                    let text = serde_json::to_string_pretty(&schema)? + "\n";
                    std::fs::write(&path, text)
                        .with_context(|| format!("writing {}", path.display()))?;
                    println!("wrote {}", path.display());
                }
            }
        }
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
        Command::Selfplay {
            game,
            players,
            bots,
            games,
            seed,
            threads,
            out,
        } => {
            let n = bots::selfplay_to(game, &players, &bots, games, seed, threads, &out)?;
            eprintln!("wrote {n} games to {}", out.display());
        }
        Command::Calibrate {
            game,
            players,
            bots,
            games,
            seed,
            iterations,
            every,
            threads,
            out,
        } => {
            let report = calibrate::run(&calibrate::Run {
                kind: game,
                players,
                bots,
                games,
                seed,
                iterations,
                every,
                threads,
            })?;
            match out {
                Some(path) => {
                    let text = serde_json::to_string_pretty(&report)?;
                    std::fs::write(&path, text + "\n")
                        .with_context(|| format!("writing {}", path.display()))?;
                    eprintln!("wrote {}", path.display());
                }
                None => print_json(&report)?,
            }
        }
        Command::Arena {
            game,
            players,
            bots,
            games,
            seed,
            threads,
            json,
        } => {
            let r = bots::arena(game, players, &bots, games, seed, threads)?;
            if json {
                print_json(&r)?;
            } else {
                println!(
                    "{} games of {game} with {players} players, seats rotated:",
                    r.games
                );
                for b in &r.bots {
                    println!(
                        "  {:<18} {:>5} seats  {:>7.1} wins  {:>5.1} % [{:.1}–{:.1}]  mean score {:.1}",
                        b.bot,
                        b.games,
                        b.wins,
                        100.0 * b.win_rate,
                        100.0 * b.low,
                        100.0 * b.high,
                        b.mean_score
                    );
                }
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
                        rules_versions: g.rules_versions(),
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
        Command::Import {
            file,
            text,
            strict,
            allow_rejects,
            data,
        } => {
            // Attached, so every finished game imported updates the summaries and the
            // position index as it is stored (as `serve`'s `importGame` does).
            let (store, _analysis) = storecmd::open_analysed(&data.data_dir)?;
            let s = if text {
                textcmd::import_text(&store, &file, strict)?
            } else {
                storecmd::import(&store, &file, strict)?
            };
            println!(
                "imported {} games ({} entries, {:.0} entries/s), rejected {}",
                s.imported,
                s.entries,
                s.entries as f64 / s.seconds.max(1e-9),
                s.rejected
            );
            if s.rejected > 0 && !allow_rejects {
                anyhow::bail!(
                    "{} records were rejected (see above); --allow-rejects accepts a partial import",
                    s.rejected
                );
            }
        }
        Command::Verify {
            kind,
            store,
            stream,
            json,
            data,
        } => {
            let source = match store {
                Some(urls) => verify::Source::Nats { urls, stream },
                None => verify::Source::Folder(data.data_dir),
            };
            let report = verify::verify(&source, kind)?;
            if json {
                print_json(&report)?;
            } else {
                print!("{}", report.text());
            }
            let broken: std::collections::BTreeSet<&str> =
                report.problems.iter().map(|p| p.game.as_str()).collect();
            if !broken.is_empty() {
                anyhow::bail!("{} games no longer replay as recorded", broken.len());
            }
        }
        Command::Migrate {
            from,
            to,
            replicas,
            stream,
        } => {
            print_json(&migrate::migrate(
                &from,
                &to,
                &migrate::Nats { stream, replicas },
            )?)?;
        }
        Command::Export {
            text,
            kind,
            out,
            include_active,
            data,
        } => {
            storecmd::existing(&data.data_dir)?;
            let store = storecmd::open(&data.data_dir)?;
            if include_active {
                eprintln!(
                    "warning: active games are exported with their seeds and hidden draws; \
                     keep this file private"
                );
            }
            let n = if text {
                textcmd::export_text(&store, kind, include_active, &out)?
            } else {
                storecmd::export(&store, kind, include_active, &out)?
            };
            eprintln!("exported {n} games to {}", out.display());
        }
        Command::Backup { to, data } => {
            print_json(&backup::backup(&data.data_dir, &to)?)?;
        }
        Command::Replay {
            game,
            ply,
            seat,
            data,
        } => {
            storecmd::existing(&data.data_dir)?;
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
            storecmd::existing(&data.data_dir)?;
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
            storecmd::existing(&data.data_dir)?;
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
            storecmd::existing(&data.data_dir)?;
            let (store, analysis) = storecmd::open_analysed(&data.data_dir)?;
            let format = match format.as_str() {
                "csv" => analysis::exports::Format::Csv,
                "ndjson" => analysis::exports::Format::Ndjson,
                other => anyhow::bail!("unknown format `{other}`: csv or ndjson"),
            };
            let mut w = storecmd::output(&out)?;
            let rows = match table.as_str() {
                "games" => analysis::exports::games(&analysis, kind, format, &mut w)?,
                "moves" => analysis::exports::moves(&store, &analysis, kind, format, &mut w)?,
                "evaluations" => ::review::export::evaluations(
                    &store,
                    kind,
                    match format {
                        analysis::exports::Format::Csv => ::review::export::Format::Csv,
                        analysis::exports::Format::Ndjson => ::review::export::Format::Ndjson,
                    },
                    &mut w,
                )?,
                other => anyhow::bail!("unknown table `{other}`: games, moves or evaluations"),
            };
            std::io::Write::flush(&mut w)?;
            eprintln!("wrote {rows} rows to {}", out.display());
        }
        Command::Dataset {
            out,
            kind,
            verify,
            data,
        } => print_json(&datasets::run(&data.data_dir, &out, kind, verify)?)?,
        Command::Review {
            games,
            iterations,
            threads,
            again,
            data,
        } => {
            storecmd::existing(&data.data_dir)?;
            let store = storecmd::open(&data.data_dir)?;
            let games = games
                .iter()
                .map(|g| g.parse::<store::GameId>())
                .collect::<Result<Vec<_>, _>>()?;
            let n = review::run(
                &store,
                &review::Run {
                    games,
                    iterations,
                    threads,
                    again,
                },
            )?;
            store.flush()?;
            eprintln!("reviewed {n} games");
        }
        Command::Explorer(a) => explore::run(*a)?,
        Command::Rebuild { data } => {
            storecmd::existing(&data.data_dir)?;
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
            let n = storecmd::export(&store, Some(game), true, &out)?;
            drop(store);
            let _ = std::fs::remove_dir_all(&dir);
            eprintln!("wrote {n} games to {}", out.display());
        }
        Command::Bench(Bench::Search {
            game,
            players,
            positions,
            iterations,
            seed,
        }) => {
            let r = match game {
                GameKind::FiveTribes => searchbench::bench::<five_tribes::FiveTribes>(
                    players, positions, iterations, seed,
                )?,
                GameKind::ClansOfCaledonia => searchbench::bench::<caledonia::Caledonia>(
                    players, positions, iterations, seed,
                )?,
                GameKind::Mombasa => {
                    searchbench::bench::<mombasa::Mombasa>(players, positions, iterations, seed)?
                }
            };
            print_json(&r)?;
        }
        Command::Bench(Bench::Append {
            writers,
            seconds,
            store: None,
            data,
            ..
        }) => {
            let store = storecmd::open(&data.data_dir)?;
            print_json(&bench::bench_append(
                &store,
                Some(&store),
                writers,
                seconds,
            )?)?;
        }
        Command::Bench(Bench::Append {
            writers,
            seconds,
            store: Some(urls),
            replicas,
            data,
        }) => {
            // A stream of its own for each run, so runs do not add up.
            let stream = format!("BENCH{}", chrono::Utc::now().timestamp_millis());
            let config = store_nats::NatsConfig {
                replicas,
                ..store_nats::NatsConfig::from_urls(&urls).with_stream(&stream)
            };
            let log = store_nats::NatsLog::open(config, games::registry(), &data.data_dir)?;
            print_json(&bench::bench_append(&log, None, writers, seconds)?)?;
        }
        Command::Bench(Bench::Explorer {
            queries,
            seed,
            dump,
            data,
        }) => print_json(&explore::bench(
            &data.data_dir,
            queries as usize,
            seed,
            dump.as_deref(),
        )?)?,
        Command::Bench(Bench::Dataset { kind, data }) => {
            print_json(&datasets::bench(&data.data_dir, kind)?)?
        }
        Command::Bench(Bench::Read { reads, seed, data }) => {
            let store = storecmd::open(&data.data_dir)?;
            print_json(&bench::bench_read(&store, reads, seed)?)?;
        }
        Command::Bench(Bench::Import { games, seed, data }) => {
            let store = storecmd::open(&data.data_dir)?;
            let key = storecmd::state_hash_key(&data.data_dir)?;
            print_json(&bench::bench_import(&store, key, games, seed)?)?;
        }
        Command::Bench(Bench::Stats { queries, data }) => {
            let (_store, analysis) = storecmd::open_analysed(&data.data_dir)?;
            print_json(&bench::bench_stats(&analysis, queries))?;
        }
        Command::Positions {
            kind,
            filter,
            out,
            count,
            threads,
            data,
        } => {
            storecmd::existing(&data.data_dir)?;
            let index = storecmd::open_index(&data.data_dir)?;
            let schema = analysis::positions::schema(index.registry(), kind)?;
            let filter = filter
                .map(|f| analysis::positions::Filter::compile(&f, schema))
                .transpose()?;
            let mut w: Box<dyn std::io::Write> = match &out {
                Some(path) => Box::new(std::io::BufWriter::new(std::fs::File::create(path)?)),
                None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
            };
            if count {
                let (scanned, matched) = analysis::positions::count(
                    &index,
                    kind,
                    filter.as_ref(),
                    bench::threads(threads),
                )?;
                let line = serde_json::json!({ "scanned": scanned, "matched": matched });
                writeln!(w, "{line}")?;
            } else {
                let (scanned, written) = analysis::positions::export_ndjson(
                    &index,
                    kind,
                    filter.as_ref(),
                    bench::threads(threads),
                    &mut w,
                    &|| false,
                )?;
                eprintln!("scanned {scanned} positions, wrote {written}");
            }
            w.flush()?;
        }
        Command::Bench(Bench::Positions {
            kind,
            filter,
            runs,
            threads,
            data,
        }) => {
            let (store, analysis) = storecmd::open_analysed(&data.data_dir)?;
            print_json(&bench::bench_positions(
                &store,
                analysis.positions(),
                analysis.hash_key(),
                kind,
                &filter,
                runs,
                bench::threads(threads),
            )?)?;
        }
        Command::CrashChild {
            writers,
            corrector,
            data,
        } => {
            let store = storecmd::open(&data.data_dir)?;
            bench::crash_child(&store, writers, corrector)?;
        }
    }
    Ok(())
}
