//! Crash safety: a child process appends from 16 concurrent writers and prints each
//! acknowledged ply; it is killed with SIGKILL at random moments, 24 times (`LUDOLOG_CRASH_CYCLES`
//! sets another count: `ops/crash.sh N` runs it long). After each kill the store reopens, every
//! acknowledged entry is there with its checksum good, and the next child carries on from the
//! right ply (every game's length is checked after every kill; its entries and replay after a
//! kill that interrupted it, and for all games every 100th cycle and at the end). The store keeps a write-ahead log and replays it on open; the test proves it and
//! prints how many appends were acknowledged and lost (the answer must be zero). A second test
//! does the same to corrections of finished games (`crash-child --corrector`).

mod common;
use common::ludolog;
use rules_core::{Erased, Registry};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;
use store::{Config, GameId, Store};

/// A `crash-child` on the store in `dir` with `args`, and a thread collecting what it
/// acknowledged: the (game, number) of each line that starts with `tag`.
type Acks = std::thread::JoinHandle<Vec<(GameId, u32)>>;
fn child(dir: &std::path::Path, args: &[&str], tag: &'static str) -> (std::process::Child, Acks) {
    let mut child = Command::new(ludolog())
        .arg("crash-child")
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut acks = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let mut w = line.split_whitespace();
            if let (Some(t), Some(g), Some(n)) = (w.next(), w.next(), w.next()) {
                if t == tag {
                    acks.push((g.parse::<GameId>().unwrap(), n.parse::<u32>().unwrap()));
                }
            }
        }
        acks
    });
    (child, reader)
}

#[test]
fn acknowledged_appends_survive_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::new().with(Erased::<five_tribes::FiveTribes>::new());
    let mut acked: BTreeMap<GameId, u32> = BTreeMap::new();
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut total_acks = 0;
    let mut lost = 0u64;
    let cycles: u32 = std::env::var("LUDOLOG_CRASH_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    let start = std::time::Instant::now();
    for round in 0..cycles {
        let (mut child, reader) = child(dir.path(), &["--writers", "16"], "ack");
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let wait = 150 + rng % 450;
        std::thread::sleep(Duration::from_millis(wait));
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        let acks = reader.join().unwrap();
        // A child continues a game from where the last acknowledged append left it.
        let mut first_seen = std::collections::BTreeSet::new();
        for (g, p) in &acks {
            if first_seen.insert(*g) {
                if let Some(prev) = acked.get(g) {
                    assert!(
                        p > prev,
                        "round {round}: ply {p} of {g} acknowledged again after {prev}"
                    );
                }
            }
        }
        for (g, p) in &acks {
            let e = acked.entry(*g).or_insert(0);
            *e = (*e).max(*p);
        }
        total_acks += acks.len();
        let store = Store::open(dir.path(), registry.clone(), Config::default())
            .unwrap_or_else(|e| panic!("round {round}: the store does not reopen: {e}"));
        // Every game's length is checked after every kill; the full read and replay covers
        // the games this child wrote to, and every game each 100th cycle and at the end, so
        // that a long run stays linear in its length.
        let touched: std::collections::BTreeSet<GameId> = acks.iter().map(|(g, _)| *g).collect();
        let full = round % 100 == 99 || round + 1 == cycles;
        for (g, p) in &acked {
            let h = store
                .header(*g)
                .unwrap_or_else(|e| panic!("round {round}: game {g} lost: {e}"));
            if h.plies < *p {
                lost += u64::from(*p - h.plies);
            }
            assert!(
                h.plies >= *p,
                "round {round}: game {g} has {} entries, {p} were acknowledged",
                h.plies
            );
            if !full && !touched.contains(g) {
                continue;
            }
            let entries = store
                .entries(*g, 0, h.plies)
                .unwrap_or_else(|e| panic!("round {round}: {e}"));
            assert_eq!(entries.len() as u32, h.plies);
            store
                .state_at(*g, h.plies)
                .unwrap_or_else(|e| panic!("round {round}: {e}"));
        }
    }
    println!(
        "crash: {cycles} kill -9 cycles, 16 writers, {total_acks} appends acknowledged, {lost} lost, {} games, {:.0} s",
        acked.len(),
        start.elapsed().as_secs_f64()
    );
    assert_eq!(lost, 0);
    assert!(
        total_acks > 100 * cycles as usize / 24,
        "only {total_acks} appends acknowledged in {cycles} runs"
    );
}

/// Corrections under SIGKILL: a child appends from four writers and corrects the games they
/// finish, printing each acknowledged revision, and is killed at random moments. After each
/// kill, every acknowledged revision is there; the game's journal, line and snapshots agree
/// (its latest state read from the store is the replay of its line), and its first revision,
/// rebuilt from the journal, still replays to the end.
#[test]
fn acknowledged_corrections_survive_sigkill() {
    use store::revision::{latest, log_at, replay};
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::new().with(Erased::<five_tribes::FiveTribes>::new());
    let mut acked: BTreeMap<GameId, u32> = BTreeMap::new();
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D;
    for round in 0..12 {
        let (mut child, reader) =
            child(dir.path(), &["--writers", "4", "--corrector"], "corrected");
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        std::thread::sleep(Duration::from_millis(400 + rng % 800));
        child.kill().unwrap();
        child.wait().unwrap();
        for (g, r) in reader.join().unwrap() {
            let e = acked.entry(g).or_insert(0);
            *e = (*e).max(r);
        }
        let store = Store::open(dir.path(), registry.clone(), Config::default())
            .unwrap_or_else(|e| panic!("round {round}: the store does not reopen: {e}"));
        for (g, r) in &acked {
            let h = store.header(*g).unwrap();
            assert!(
                h.revision >= *r,
                "round {round}: game {g} is at revision {}, {r} was acknowledged",
                h.revision
            );
            let notes = store.journal(*g).unwrap();
            assert_eq!(latest(&notes), h.revision, "round {round}: {g}");
            let line = store.entries(*g, 0, h.plies).unwrap();
            let end = replay(store.registry(), &h, &line).unwrap();
            assert_eq!(end.to_act(), rules_core::ToAct::Over, "round {round}: {g}");
            assert_eq!(
                store.state_at(*g, h.plies).unwrap().encode(),
                end.encode(),
                "round {round}: {g}: the snapshots follow the line"
            );
            let first = log_at(&line, &notes, 0).unwrap();
            let start = replay(store.registry(), &h, &first).unwrap();
            assert_eq!(
                start.to_act(),
                rules_core::ToAct::Over,
                "round {round}: {g}"
            );
        }
    }
    let corrections: u32 = acked.values().sum();
    println!(
        "crash: 12 kill -9 cycles, {corrections} corrections acknowledged over {} games",
        acked.len()
    );
    assert!(corrections > 0, "no correction was acknowledged");
}
