//! Store load generators: `bench-append` (durable appends from concurrent writers) and the
//! `crash-child` used by the crash test (appends forever, printing each acknowledged ply).

use anyhow::Result;
use chrono::Utc;
use rules_core::{Actor, ChanceRng, Dealer, GameKind, ToAct};
use serde::Serialize;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use store::{Append, GameId, GameLog, NewGame, Store};

fn new_game(store: &Store, seed: u64) -> Result<GameId> {
    let (h, _) = store.create(NewGame {
        kind: GameKind::FiveTribes,
        players: vec!["a".into(), "b".into(), "c".into(), "d".into()],
        options: serde_json::json!({ "players": 4 }),
        seed: Some(seed),
        at: Utc::now(),
        seat_token_hashes: vec![],
        recorder_token_hash: None,
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
            entered_by: None,
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
    /// Log batches written (one `fdatasync` each).
    pub batches: u64,
    pub seconds_syncing: f64,
}

/// Pre-played games for the append benchmark: (seed, the seats' entries in order). The store
/// deals the chance entries itself from the same seed, so only the seats' moves are sent.
/// A pre-played game: its seed and the seats' moves in order.
type Script = (u64, Vec<(rules_core::Seat, String)>);

fn scripted_games(n: u64) -> Result<Vec<Script>> {
    use five_tribes::FiveTribes;
    use rules_core::{playout, Action, Notation};
    (0..n)
        .map(|g| {
            let seed = 5000 + g;
            let p =
                playout::<FiveTribes>(&five_tribes::Options { players: 4 }, seed, 100_000, true)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
            let moves = p
                .log
                .iter()
                .filter_map(|a| match a {
                    Action::Move(s, m) => Some((*s, FiveTribes::format_move(m))),
                    Action::Chance(_) => None,
                })
                .collect();
            Ok((seed, moves))
        })
        .collect()
}

/// Durable appends per second: `writers` threads, each appending the moves of pre-played games
/// to games of its own (the work a client does is not measured, only the store's).
/// `sled`: the embedded store's group-commit figures (batches, time syncing), when that is the
/// store measured.
pub fn bench_append(
    store: &dyn GameLog,
    sled: Option<&Store>,
    writers: usize,
    seconds: f64,
) -> Result<AppendBench> {
    let scripts = scripted_games(32)?;
    let stop = AtomicBool::new(false);
    let total = AtomicU64::new(0);
    let before = sled.map(Store::commit_stats).unwrap_or_default();
    let start = Instant::now();
    std::thread::scope(|s| -> Result<()> {
        let handles: Vec<_> = (0..writers)
            .map(|w| {
                let (stop, total, scripts) = (&stop, &total, &scripts);
                s.spawn(move || -> Result<()> {
                    let mut n = 0u64;
                    'games: for round in 0.. {
                        let (seed, moves) = &scripts[(w + round * writers) % scripts.len()];
                        let (h, _) = store.create(NewGame {
                            kind: GameKind::FiveTribes,
                            players: vec!["a".into(), "b".into(), "c".into(), "d".into()],
                            options: serde_json::json!({ "players": 4 }),
                            seed: Some(*seed),
                            at: Utc::now(),
                            seat_token_hashes: vec![],
                            recorder_token_hash: None,
                        })?;
                        let mut ply = h.plies;
                        for (seat, m) in moves {
                            if stop.load(Ordering::Relaxed) {
                                break 'games;
                            }
                            let r = store.append(Append {
                                game: h.id,
                                expected_ply: ply,
                                actor: Actor::Seat(*seat),
                                notation: m,
                                key: None,
                                at: Utc::now(),
                                entered_by: None,
                            })?;
                            ply = r.header.plies;
                            n += 1;
                        }
                    }
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
    let after = sled.map(Store::commit_stats).unwrap_or_default();
    Ok(AppendBench {
        writers,
        seconds: elapsed,
        appends,
        appends_per_second: appends as f64 / elapsed,
        batches: after.batches - before.batches,
        seconds_syncing: after.seconds_syncing - before.seconds_syncing,
    })
}

/// Appends until killed, from `writers` threads (writer 0 resumes the first active game, the
/// others start games of their own), printing `ack GAME PLY` after each acknowledged append;
/// with `corrector`, one more thread corrects the games they finish, printing `corrected GAME
/// REVISION` after each acknowledged correction.
pub fn crash_child(store: &Store, writers: usize, corrector: bool) -> Result<()> {
    let stop = AtomicBool::new(false);
    let out = std::sync::Mutex::new(std::io::stdout());
    std::thread::scope(|s| -> Result<()> {
        if corrector {
            let (stop, out) = (&stop, &out);
            s.spawn(move || {
                let r = correct_forever(store, stop, &mut |game, revision| {
                    let out = out.lock().unwrap_or_else(|e| e.into_inner());
                    let mut o = out.lock();
                    let _ = writeln!(o, "corrected {game} {revision}");
                    let _ = o.flush();
                });
                if let Err(e) = r {
                    eprintln!("corrector stopped: {e}");
                }
            });
        }
        let handles: Vec<_> = (0..writers.max(1) as u64)
            .map(|w| {
                let (stop, out) = (&stop, &out);
                s.spawn(move || {
                    writer(store, w * 1_000_003, stop, &mut |game, ply| {
                        let out = out.lock().unwrap_or_else(|e| e.into_inner());
                        let mut o = out.lock();
                        let _ = writeln!(o, "ack {game} {ply}");
                        let _ = o.flush();
                    })
                })
            })
            .collect();
        for h in handles {
            h.join()
                .map_err(|_| anyhow::anyhow!("a writer panicked"))??;
        }
        Ok(())
    })
}

/// Corrects finished games, newest first, each until it has its most revisions: the entry
/// nearest the end that another legal move can replace (and the record still replays) gets
/// it, which next time is often the first text again.
fn correct_forever(
    store: &Store,
    stop: &AtomicBool,
    on_ack: &mut dyn FnMut(GameId, u32),
) -> Result<()> {
    use store::revision::{plan_correction, Correction, MAX_REVISIONS};
    let finished = store::Filter {
        status: Some(store::Status::Finished),
        ..Default::default()
    };
    let mut done = std::collections::HashSet::new();
    while !stop.load(Ordering::Relaxed) {
        let Some(h) = store
            .list(&finished, 100, None)?
            .games
            .into_iter()
            .find(|h| h.revision < MAX_REVISIONS && !done.contains(&h.id))
        else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let notes = store.journal(h.id)?;
        let entries = store.entries(h.id, 0, h.plies)?;
        let mut found = None;
        'search: for e in entries.iter().rev().filter(|e| e.actor != Actor::Dealer) {
            for m in store.state_at(h.id, e.ply)?.legal_moves() {
                let c = Correction {
                    game: h.id,
                    by: store::journal::Author::Admin,
                    at: Utc::now(),
                    changes: vec![(e.ply, m.clone())],
                    reason: "crash test".into(),
                };
                if m != e.notation
                    && plan_correction(store.registry(), 32, &h, &notes, &entries, &c).is_ok()
                {
                    found = Some(c);
                    break 'search;
                }
            }
        }
        match found {
            Some(c) => {
                let made = store.correct(c)?;
                on_ack(h.id, made.header.revision);
            }
            None => {
                done.insert(h.id);
            }
        }
    }
    Ok(())
}

#[derive(Serialize)]
pub struct ReadBench {
    pub reads: usize,
    pub games: usize,
    pub p50_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
    pub mean_us: f64,
}

/// Latency of `state at a random ply of a random stored game`.
pub fn bench_read(store: &Store, reads: usize, seed: u64) -> Result<ReadBench> {
    let games: Vec<(GameId, u32)> = store
        .game_ids()
        .map(|id| -> Result<(GameId, u32)> {
            let id = id?;
            Ok((id, store.header(id)?.plies))
        })
        .collect::<Result<_>>()?;
    if games.is_empty() {
        anyhow::bail!("the store is empty: import some games first");
    }
    let mut rng = Dealer::new(seed, 7);
    let mut lat = Vec::with_capacity(reads);
    for _ in 0..reads {
        let (id, plies) = games[rng.below(games.len() as u32) as usize];
        let ply = rng.below(plies + 1);
        let t = Instant::now();
        let s = store.state_at(id, ply)?;
        std::hint::black_box(s.to_act());
        lat.push(t.elapsed().as_secs_f64() * 1e6);
    }
    lat.sort_by(f64::total_cmp);
    let at = |q: f64| lat[((lat.len() as f64 - 1.0) * q).round() as usize];
    Ok(ReadBench {
        reads,
        games: games.len(),
        p50_us: at(0.5),
        p99_us: at(0.99),
        max_us: at(1.0),
        mean_us: lat.iter().sum::<f64>() / lat.len() as f64,
    })
}

#[derive(Serialize)]
pub struct ImportBench {
    pub games: u64,
    pub entries: u64,
    pub seconds: f64,
    pub entries_per_second: f64,
    pub bytes_on_disk: u64,
    pub bytes_per_entry: f64,
    pub resident_mib_after: f64,
}

fn resident_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

/// Generates `games` random Five Tribes records in memory, then imports them into `store`.
pub fn bench_import(
    store: &Store,
    hash_key: [u8; 16],
    games: u64,
    seed: u64,
) -> Result<ImportBench> {
    // Attached as `serve` attaches it, so the import pays for the projections and the
    // position index, as a real import does.
    let analysis = analysis::Analysis::attach(store, hash_key)?;
    analysis.mark_projections_current(store)?;
    use five_tribes::FiveTribes;
    use rules_core::{playout, Action, Game, Notation};
    let base = chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default();
    // Records go to a scratch file first, so that the import below streams them as
    // `ludolog import` does and the memory measured is the store's, not the generator's.
    let file = std::env::temp_dir().join(format!(
        "ludolog-bench-import-{}.ndjson",
        std::process::id()
    ));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&file)?);
    for g in 0..games {
        let players = 2 + (g % 3) as u8;
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        let p = playout::<FiveTribes>(&five_tribes::Options { players }, game_seed, 100_000, true)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let at = base + chrono::Duration::minutes(g as i64);
        let rec = store::portable::GameRecord {
            id: GameId::from_parts(at.timestamp_millis() as u64, 0),
            kind: "five-tribes".into(),
            players: (0..players)
                .map(|i| format!("p{}", (g + u64::from(i)) % 50))
                .collect(),
            options: serde_json::json!({ "players": players }),
            seed: Some(game_seed),
            rules_version: FiveTribes::RULES_VERSION.into(),
            data_hash: FiveTribes::data_hash(),
            created_at: at,
            updated_at: at,
            status: store::Status::Finished,
            entries: p
                .log
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let (actor, notation) = match a {
                        Action::Move(s, m) => (s.to_string(), FiveTribes::format_move(m)),
                        Action::Chance(c) => ("dealer".to_string(), FiveTribes::format_chance(c)),
                    };
                    store::portable::RecordEntry {
                        ply: i as u32,
                        actor,
                        notation,
                        at,
                        key: None,
                        entered_by: None,
                    }
                })
                .collect(),
            annotations: Vec::new(),
        };
        serde_json::to_writer(&mut out, &rec)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    drop(out);
    let summary = crate::storecmd::import(store, &file, true)?;
    let _ = std::fs::remove_file(&file);
    let (entries, seconds) = (summary.entries, summary.seconds);
    let bytes = store.size_on_disk()?;
    Ok(ImportBench {
        games,
        entries,
        seconds,
        entries_per_second: entries as f64 / seconds,
        bytes_on_disk: bytes,
        bytes_per_entry: bytes as f64 / entries.max(1) as f64,
        resident_mib_after: resident_mib(),
    })
}

#[derive(Serialize)]
pub struct StatsBench {
    pub games: usize,
    pub queries: usize,
    /// Computed afresh every time (the first query after a game finishes).
    pub cold_p50_us: f64,
    pub cold_p99_us: f64,
    pub cold_max_us: f64,
    /// Through the cache (repeated queries while no game finishes).
    pub warm_p99_us: f64,
    /// The same queries folded from every summary (the scan the aggregates replace), beside.
    pub scan_p50_us: f64,
    pub scan_p99_us: f64,
    /// `scan_p99_us / cold_p99_us`.
    pub scan_over_cold_p99: f64,
}

/// Latency of `statistics` over every finished game, with and without a filter: computed
/// afresh (from the aggregates where the filter allows: none, a player count; a tag is
/// scanned), through the cache, and folded from every summary beside it.
pub fn bench_stats(analysis: &analysis::Analysis, queries: usize) -> StatsBench {
    let mut lat = Vec::with_capacity(queries);
    let mut warm = Vec::with_capacity(queries);
    let mut scan = Vec::with_capacity(queries);
    for i in 0..queries {
        let filter = match i % 3 {
            0 => analysis::StatsFilter::default(),
            1 => analysis::StatsFilter {
                player_count: Some(2 + i % 3),
                ..Default::default()
            },
            _ => analysis::StatsFilter {
                tag: Some("djinn:baal".into()),
                ..Default::default()
            },
        };
        let t = Instant::now();
        std::hint::black_box(analysis.compute(GameKind::FiveTribes, &filter));
        lat.push(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        std::hint::black_box(analysis.statistics(GameKind::FiveTribes, &filter));
        warm.push(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        std::hint::black_box(analysis.scan(GameKind::FiveTribes, &filter));
        scan.push(t.elapsed().as_secs_f64() * 1e6);
    }
    lat.sort_by(f64::total_cmp);
    warm.sort_by(f64::total_cmp);
    scan.sort_by(f64::total_cmp);
    let at = |v: &[f64], q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
    StatsBench {
        games: analysis.len(),
        queries,
        cold_p50_us: at(&lat, 0.5),
        cold_p99_us: at(&lat, 0.99),
        cold_max_us: at(&lat, 1.0),
        warm_p99_us: at(&warm, 0.99),
        scan_p50_us: at(&scan, 0.5),
        scan_p99_us: at(&scan, 0.99),
        scan_over_cold_p99: at(&scan, 0.99) / at(&lat, 0.99),
    }
}

/// What `bench-positions` measured.
#[derive(Debug, Serialize)]
pub struct PositionsBench {
    pub kind: String,
    pub filter: String,
    pub games: usize,
    /// Positions in the index (every ply of every finished game of the kind).
    pub positions: u64,
    pub matched: u64,
    pub runs: usize,
    /// Whether the filter compiled over columns (else the interpreter ran on every position
    /// past the guards).
    pub compiled: bool,
    /// Best and median wall time of a full scan with the filter, one worker.
    pub best_s: f64,
    pub median_s: f64,
    /// Positions examined per second, from the median run.
    pub positions_per_s: f64,
    /// Workers of the parallel scan, and its median wall time and rate.
    pub threads: usize,
    pub parallel_median_s: f64,
    pub parallel_positions_per_s: f64,
    /// The same scan with no filter (decoding only), per second.
    pub unfiltered_positions_per_s: f64,
    /// `positionsByHash` of a mid-game position (median of 5 games), milliseconds.
    pub by_hash_median_ms: f64,
}

/// Workers for a parallel scan: as asked, or one per core.
pub fn threads(asked: Option<u16>) -> usize {
    asked.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    })
}

/// Full scans of the position index of `kind` with `filter`, `runs` times on one worker and
/// `runs` times on `threads`.
pub fn bench_positions(
    store: &Store,
    index: &analysis::positions::PositionIndex,
    hash_key: [u8; 16],
    kind: rules_core::GameKind,
    filter: &str,
    runs: usize,
    threads: usize,
) -> Result<PositionsBench> {
    use analysis::positions;
    let schema = positions::schema(store.registry(), kind)?;
    let f = positions::Filter::compile(filter, schema)?;
    let runs = runs.max(1);
    let median_of = |threads: usize| -> Result<(Vec<f64>, u64, u64)> {
        let mut times = Vec::with_capacity(runs);
        let (mut scanned, mut matched) = (0, 0);
        for _ in 0..runs {
            let t = Instant::now();
            (scanned, matched) = positions::count(index, kind, Some(&f), threads)?;
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        Ok((times, scanned, matched))
    };
    let (times, scanned, matched) = median_of(1)?;
    let (par_times, _, par_matched) = median_of(threads)?;
    anyhow::ensure!(
        par_matched == matched,
        "the parallel scan counted otherwise"
    );
    let parallel_median = par_times[par_times.len() / 2];
    let t = Instant::now();
    let (all, _) = positions::count(index, kind, None, 1)?;
    let unfiltered = t.elapsed().as_secs_f64();
    let median = times[times.len() / 2];
    let mut lookups = Vec::new();
    for id in store.game_ids().take(5) {
        let id = id?;
        let h = store
            .state_at(id, 50.min(store.header(id)?.plies))?
            .state_hash(hash_key);
        let t = Instant::now();
        let hits = positions::by_hash(store, h, 100)?;
        lookups.push(t.elapsed().as_secs_f64() * 1e3);
        anyhow::ensure!(hits.iter().any(|x| x.game == id), "hash lookup missed {id}");
    }
    lookups.sort_by(f64::total_cmp);
    Ok(PositionsBench {
        kind: kind.to_string(),
        filter: filter.to_string(),
        games: store.game_count(),
        positions: scanned,
        matched,
        runs,
        best_s: times[0],
        median_s: median,
        positions_per_s: scanned as f64 / median,
        compiled: f.is_compiled(),
        threads,
        parallel_median_s: parallel_median,
        parallel_positions_per_s: scanned as f64 / parallel_median,
        unfiltered_positions_per_s: all as f64 / unfiltered,
        by_hash_median_ms: lookups.get(lookups.len() / 2).copied().unwrap_or(0.0),
    })
}
