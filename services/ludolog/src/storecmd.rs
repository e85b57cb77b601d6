//! Commands that open the store: import, export, replay, rebuild, sample.

use anyhow::{bail, Context, Result};
use chrono::{DateTime, Duration, Utc};
use indicatif::{ProgressBar, ProgressStyle};
use rules_core::{Actor, ChanceRng, Dealer, GameKind, Seat, ToAct, Viewer};
use std::io::{BufRead, BufWriter, Write};
use std::path::Path;
use store::portable::{PreparedImport, RecordError};
use store::{Append, Config, GameId, GameLog, NewGame, Store};

pub use crate::hashkey::state_hash_key;

pub fn open(data_dir: &Path) -> Result<Store> {
    open_with(data_dir, Config::default())
}

/// Fails, naming the folder, unless `data_dir` holds a store: the commands that only read one
/// (export, replay, stats, ratings, table, positions, rebuild, backup, verify) never make an
/// empty store where the user mistyped a path.
pub fn existing(data_dir: &Path) -> Result<()> {
    if data_dir.join("db").is_file() {
        return Ok(());
    }
    bail!(
        "there is no store in {}: {} (a store is made by `ludolog import` or `ludolog serve`)",
        data_dir.display(),
        if data_dir.exists() {
            "the folder holds no ludolog store"
        } else {
            "no such folder"
        }
    )
}

/// Opens the store with `config`. A store another process holds (a running `ludolog serve`)
/// is reported as such, with what to do, rather than as sled's lock error.
pub fn open_with(data_dir: &Path, config: Config) -> Result<Store> {
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("creating {}", data_dir.display()))?;
    match Store::open(data_dir, crate::games::registry(), config) {
        Ok(s) => Ok(s),
        Err(store::StoreError::InUse(_)) => {
            bail!(
                "the store in {} is in use by another process (a running `ludolog serve`?). \
                 Stop that process first, or give this command another --data-dir; \
                 a copy of a running store is made with `ludolog backup --to DIR`.",
                data_dir.display()
            )
        }
        Err(e) => Err(e).with_context(|| format!("opening the store in {}", data_dir.display())),
    }
}

/// `serve.json` beside a store while `ludolog serve` runs on it: where the server listens and
/// its control token (readable by its user only), so `ludolog backup` on the same machine can
/// ask the running server. Removed when the server stops.
pub struct RuntimeFile(std::path::PathBuf);

#[derive(serde::Serialize, serde::Deserialize)]
pub struct Runtime {
    pub url: String,
    pub pid: u32,
    pub token: String,
}

impl RuntimeFile {
    pub const NAME: &'static str = "serve.json";

    pub fn write(data_dir: &Path, addr: std::net::SocketAddr, token: &str) -> Result<RuntimeFile> {
        let path = data_dir.join(Self::NAME);
        let _ = std::fs::remove_file(&path);
        let r = Runtime {
            url: format!("http://{addr}"),
            pid: std::process::id(),
            token: token.to_string(),
        };
        write_private(&path, serde_json::to_string(&r)?.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(RuntimeFile(path))
    }

    pub fn read(data_dir: &Path) -> Result<Runtime> {
        let path = data_dir.join(Self::NAME);
        let text = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "the store is in use, but {} is missing: is the server that holds it a \
                 `ludolog serve` of this version?",
                path.display()
            )
        })?;
        Ok(serde_json::from_str(&text)?)
    }
}

impl Drop for RuntimeFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Writes a file only its owner may read (mode 0600 from its creation, so it is never readable
/// by others even for a moment).
pub(crate) fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let mut f = o.open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Opens the store with the analysis projections attached (and filled, the first time, from
/// the games already stored: a data folder made before a projection existed gets it here).
/// Opens the position index for reading, without the store when its files are up to date
/// (so it is quick, and works while `serve` has the store open); otherwise the store is
/// opened with the analysis attached once, which brings the index up to date.
pub fn open_index(data_dir: &Path) -> Result<analysis::positions::PositionIndex> {
    use analysis::positions::PositionIndex;
    // The key is not needed to read the index, but a damaged one is reported here as by
    // every command that attaches the analysis, not left for a later writer to meet.
    if data_dir.exists() {
        state_hash_key(data_dir)?;
    }
    if let Some(index) = PositionIndex::open_read(data_dir, crate::games::registry())? {
        return Ok(index);
    }
    drop(open_analysed(data_dir)?);
    PositionIndex::open_read(data_dir, crate::games::registry())?.ok_or_else(|| {
        anyhow::anyhow!(
            "the position index in {} could not be read after it was brought up to date",
            data_dir.display()
        )
    })
}

pub fn open_analysed(data_dir: &Path) -> Result<(Store, std::sync::Arc<analysis::Analysis>)> {
    open_analysed_with(data_dir, Config::default())
}

pub fn open_analysed_with(
    data_dir: &Path,
    config: Config,
) -> Result<(Store, std::sync::Arc<analysis::Analysis>)> {
    let store = open_with(data_dir, config)?;
    let a = attach_analysis(&store, data_dir)?;
    Ok((store, a))
}

/// Attaches the analysis to a store of either backend, its key and marker in `data_dir`.
/// Every command that writes games opens the store this way, so the projections follow each
/// finished game. A folder whose projections were made by an older version (or never: a new
/// node of a cluster) lacks the current marker: it is brought up to date from the logs once,
/// then marked.
pub fn attach_analysis(
    store: &dyn GameLog,
    data_dir: &Path,
) -> Result<std::sync::Arc<analysis::Analysis>> {
    Ok(attach_analysis_keyed(store, data_dir, None)?.0)
}

/// [`attach_analysis`] with the state-hash key agreed with the deployment first
/// ([`crate::hashkey::agree`]; `given`: the key this node was configured with): a folder whose
/// key the deployment's replaced has its projections keyed again from the logs here.
pub fn attach_analysis_keyed(
    store: &dyn GameLog,
    data_dir: &Path,
    given: Option<[u8; 16]>,
) -> Result<(std::sync::Arc<analysis::Analysis>, crate::hashkey::HashKey)> {
    let key = crate::hashkey::agree(store, data_dir, given)?;
    let a = analysis::Analysis::attach(store, key.key)?;
    if key.rekeyed || !a.projections_current(store)? {
        a.clear(store)?;
        for id in store.game_ids() {
            let id = id?;
            let h = store.header(id)?;
            if h.status == store::Status::Finished {
                let s = store.state_at(id, h.plies)?;
                a.on_finish(store, &h, s.as_ref(), None)?;
            }
        }
        a.mark_projections_current(store)?;
    }
    if key.rekeyed {
        // Last: a crash before it leaves the old key, and the next start keys them again.
        crate::hashkey::replace(data_dir, key.key)?;
    }
    Ok((a, key))
}

/// A progress bar that shows itself only on a terminal and only once work takes a moment.
fn bar(len: u64, what: &str) -> ProgressBar {
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template(&format!("{what} {{bar:40}} {{pos}}/{{len}} ({{eta}})"))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb
}

pub struct ImportSummary {
    pub imported: u64,
    pub rejected: u64,
    pub entries: u64,
    pub seconds: f64,
}

pub fn import(store: &dyn GameLog, file: &Path, strict: bool) -> Result<ImportSummary> {
    let f = std::fs::File::open(file).with_context(|| format!("opening {}", file.display()))?;
    let size = f.metadata().map(|m| m.len()).unwrap_or(0);
    import_from(
        store,
        &file.display().to_string(),
        std::io::BufReader::new(f),
        size,
        strict,
    )
}

/// Imports the records read from `reader` (`name` says where from, `size` its bytes, for
/// the progress bar). Two stages: a thread reads and checks each record (JSON, schema, every
/// entry replayed) while this one writes the record before it, in the file's order — on two
/// cores the checking of the next game overlaps the writing of this one.
pub fn import_from(
    store: &dyn GameLog,
    name: &str,
    reader: impl BufRead + Send,
    size: u64,
    strict: bool,
) -> Result<ImportSummary> {
    let pb = bar(size, "import");
    let start = std::time::Instant::now();
    let mut summary = ImportSummary {
        imported: 0,
        rejected: 0,
        entries: 0,
        seconds: 0.0,
    };
    // A few records ahead at most: a record is at most 8 MiB, so memory stays bounded.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Checked>(8);
    let outcome = std::thread::scope(|scope| -> Result<()> {
        let checker = scope.spawn(move || check_records(store, name, reader, &tx));
        // The receiver is moved in here, so that leaving early (`--strict`) drops it and the
        // checker, blocked on a full channel, stops instead of the scope waiting for it forever.
        let rx = rx;
        let mut answer = |line: u64, result: Result<store::Header, RecordError>| -> Result<()> {
            match result {
                Ok(h) => {
                    summary.imported += 1;
                    summary.entries += u64::from(h.plies);
                }
                Err(e) => {
                    summary.rejected += 1;
                    pb.suspend(|| eprintln!("rejected: {e}"));
                    if strict {
                        store.flush()?;
                        bail!("import stopped at line {line} (--strict)");
                    }
                }
            }
            Ok(())
        };
        // The records the checker has ready are written together (`commit_imports`: one
        // transaction for several games), each answered in the file's order.
        let mut accepted: Vec<PreparedImport> = Vec::with_capacity(WRITE_BATCH);
        while let Ok(first) = rx.recv() {
            let ready = std::iter::once(first).chain(std::iter::from_fn(|| rx.try_recv().ok()));
            for checked in ready.take(WRITE_BATCH) {
                pb.inc(checked.bytes);
                match checked.record {
                    Ok(p) => accepted.push(p),
                    Err(e) => {
                        commit_ready(store, &mut accepted, strict, &mut answer)?;
                        answer(checked.line, Err(e))?;
                    }
                }
            }
            commit_ready(store, &mut accepted, strict, &mut answer)?;
        }
        // The channel ended: the checker is done (or failed to read the input).
        checker
            .join()
            .map_err(|_| anyhow::anyhow!("the record checker stopped unexpectedly"))?
    });
    // Whatever stopped the import, what was written is made durable before the answer.
    store.flush()?;
    outcome?;
    pb.finish_and_clear();
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// Most records an import writes in one transaction (the checker is at most eight ahead).
const WRITE_BATCH: usize = 16;

/// Writes the records accepted so far (emptying `accepted`), answering for each in order.
fn commit_ready(
    store: &dyn GameLog,
    accepted: &mut Vec<PreparedImport>,
    strict: bool,
    answer: &mut impl FnMut(u64, Result<store::Header, RecordError>) -> Result<()>,
) -> Result<()> {
    let lines: Vec<u64> = accepted.iter().map(PreparedImport::line).collect();
    let answers = store.commit_imports(std::mem::take(accepted), strict);
    for (line, result) in lines.into_iter().zip(answers) {
        answer(line, result)?;
    }
    Ok(())
}

/// One line of an import, checked: its number, its size in bytes and the record or why not.
struct Checked {
    line: u64,
    bytes: u64,
    record: Result<PreparedImport, RecordError>,
}

/// The checking stage of [`import_from`]: reads every line and sends it checked, in order.
/// Stops early when the writer stops listening (a `--strict` import refused a record).
fn check_records(
    store: &dyn GameLog,
    name: &str,
    mut reader: impl BufRead,
    tx: &std::sync::mpsc::SyncSender<Checked>,
) -> Result<()> {
    let mut line = String::new();
    let mut line_no = 0u64;
    // Bytes of blank lines, counted with the next record (for the progress bar).
    let mut skipped = 0u64;
    loop {
        line.clear();
        let n = reader
            .read_line(&mut line)
            .with_context(|| format!("reading {name}"))?;
        if n == 0 {
            return Ok(());
        }
        line_no += 1;
        let text = line.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() {
            skipped += n as u64;
            continue;
        }
        let checked = Checked {
            line: line_no,
            bytes: std::mem::take(&mut skipped) + n as u64,
            record: store.prepare_import(line_no, text),
        };
        if tx.send(checked).is_err() {
            return Ok(());
        }
    }
}

/// Where a command writes: a file, or standard output for `-`.
pub fn output(out: &Path) -> Result<Box<dyn Write>> {
    if out == Path::new("-") {
        return Ok(Box::new(BufWriter::new(std::io::stdout().lock())));
    }
    let f = std::fs::File::create(out).with_context(|| format!("creating {}", out.display()))?;
    Ok(Box::new(BufWriter::new(f)))
}

pub fn export(
    store: &Store,
    kind: Option<GameKind>,
    include_active: bool,
    out: &Path,
) -> Result<u64> {
    let mut w = output(out)?;
    let pb = bar(store.game_count() as u64, "export");
    let n = store.export(kind, include_active, &mut w, &mut |done, _| {
        pb.set_position(done)
    })?;
    w.flush()?;
    pb.finish_and_clear();
    Ok(n)
}

pub fn replay(
    store: &Store,
    game: &str,
    ply: Option<u32>,
    seat: Option<u8>,
) -> Result<serde_json::Value> {
    let id: GameId = game.parse()?;
    let header = store.header(id)?;
    let ply = ply.unwrap_or(header.plies);
    let state = store.state_at(id, ply)?;
    let viewer = match seat {
        Some(s) if s < state.player_count() => Viewer::Seat(Seat(s)),
        Some(s) => bail!(
            "seat {s} is not in this {}-player game",
            state.player_count()
        ),
        None => Viewer::Spectator,
    };
    Ok(serde_json::json!({
        "game": id.to_string(),
        "kind": header.kind,
        "ply": ply,
        "plies": header.plies,
        "to_act": match state.to_act() { ToAct::Seat(s) => s.to_string(), ToAct::Chance => "chance".into(), ToAct::Over => "over".into() },
        "view": state.view(viewer),
    }))
}

pub fn rebuild(store: &Store, analysis: &analysis::Analysis) -> Result<store::RebuildReport> {
    analysis.clear(store)?;
    let pb = bar(store.game_count() as u64, "rebuild");
    let r = store.rebuild(&mut |done, _| pb.set_position(done))?;
    pb.finish_and_clear();
    Ok(r)
}

/// When game `g` of a made-up run of `kind` starts (`sample`, `selfplay`): hourly from
/// 2026-01-01, each kind on its own minute, so that ids (made from the creation time) never
/// collide between the sample files of different games.
pub fn game_start(kind: GameKind, g: u64) -> DateTime<Utc> {
    let base: DateTime<Utc> = DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default();
    let kind_offset = GameKind::ALL.iter().position(|k| *k == kind).unwrap_or(0) as i64;
    base + Duration::hours(g as i64) + Duration::minutes(17 * kind_offset)
}

/// Plays `games` random games through `store`, deterministically: seeds, choices and
/// timestamps all follow from `seed`.
pub fn play_random_games(
    store: &Store,
    kind: GameKind,
    counts: &[u8],
    games: u64,
    seed: u64,
) -> Result<Vec<GameId>> {
    if counts.is_empty() {
        bail!("give at least one player count");
    }
    let mut ids = Vec::new();
    let pb = bar(games, "games");
    for g in 0..games {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        let players = counts[g as usize % counts.len()];
        let start = game_start(kind, g);
        let names = (0..players)
            .map(|i| format!("bot-{}", (g as usize + i as usize) % 7))
            .collect();
        let (h, _) = store.create(NewGame {
            kind,
            players: names,
            options: serde_json::json!({ "players": players }),
            seed: Some(game_seed),
            at: start,
            seat_token_hashes: vec![],
            recorder_token_hash: None,
        })?;
        let mut policy = Dealer::new(game_seed, rules_core::playout::POLICY_STREAM);
        let mut plies = h.plies;
        let mut state = store.state_at(h.id, plies)?;
        while let ToAct::Seat(seat) = state.to_act() {
            let moves = state.legal_moves();
            let m = &moves[policy.below(moves.len() as u32) as usize];
            let r = store.append(Append {
                game: h.id,
                expected_ply: plies,
                actor: Actor::Seat(seat),
                notation: m,
                key: None,
                at: start + Duration::seconds(i64::from(plies) * 20),
                entered_by: None,
            })?;
            for e in &r.entries {
                state.apply(e.actor, &e.notation)?;
            }
            plies = r.header.plies;
        }
        ids.push(h.id);
        pb.inc(1);
    }
    pb.finish_and_clear();
    Ok(ids)
}
