//! `ludolog arena`, `ludolog selfplay`, `ludolog review` and `ludolog calibrate` from outside: the arena's JSON
//! report (its counts add up; MCTS beats random seats), self-play's records imported by a
//! fresh store like any other, calibration's fit and held-out report, and bad bots refused
//! with a clear error and nothing written.

mod common;

use common::{ludolog, ludolog_in};
use serde_json::Value;
use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(ludolog()).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The arena of these tests: MCTS 40 (greedy rollouts) against random, 8 games, seed 5,
/// `threads` games at a time.
fn arena(threads: &str) -> (bool, String, String) {
    run(&[
        "arena",
        "--game",
        "clans-of-caledonia",
        "--players",
        "2",
        "--bots",
        "mcts:40:greedy,random",
        "--games",
        "8",
        "--seed",
        "5",
        "--threads",
        threads,
        "--json",
    ])
}

#[test]
fn the_arena_reports_each_bot_and_mcts_beats_random() {
    let (ok, out, err) = arena("1");
    assert!(ok, "{err}");
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["games"], 8);
    assert!(r["median_winning_score"].as_f64().unwrap() > 0.0, "{r}");
    let bots = r["bots"].as_array().unwrap();
    assert_eq!(bots.len(), 2);
    let wins: f64 = bots.iter().map(|b| b["wins"].as_f64().unwrap()).sum();
    assert!(
        (wins - 8.0).abs() < 1e-9,
        "one win (or its shares) a game: {r}"
    );
    for b in bots {
        assert_eq!(b["games"], 8, "each bot sat in every game: {b}");
        let (lo, rate, hi) = (
            b["low"].as_f64().unwrap(),
            b["win_rate"].as_f64().unwrap(),
            b["high"].as_f64().unwrap(),
        );
        assert!(lo <= rate && rate <= hi, "{b}");
    }
    assert_eq!(bots[0]["bot"], "mcts:40:greedy");
    // The strength table is the ai crate's test and ops/; here, the better bot comes first.
    assert!(bots[0]["wins"].as_f64() > bots[1]["wins"].as_f64(), "{r}");
    assert!(
        bots[0]["mean_score"].as_f64() > bots[1]["mean_score"].as_f64(),
        "{r}"
    );
    // The same seed plays the same games, however many at a time.
    let (_, again, _) = arena("2");
    assert_eq!(again, out);
}

#[test]
fn selfplay_writes_records_a_store_imports() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("self.ndjson");
    let (ok, _, err) = run(&[
        "selfplay",
        "--game",
        "mombasa",
        "--players",
        "2,3",
        "--bots",
        "mcts:10,greedy,random",
        "--games",
        "2",
        "--seed",
        "9",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(r["status"], "finished");
        for p in r["players"].as_array().unwrap() {
            assert!(
                ["mcts:10", "greedy", "random"].contains(&p.as_str().unwrap()),
                "{p}"
            );
        }
    }
    let store = dir.path().join("store");
    let (ok, out, err) = ludolog_in(&["import", file.to_str().unwrap()], &store);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = ludolog_in(&["verify"], &store);
    assert!(ok, "{out}{err}");

    // `ludolog review`: a JSON line per game, kept (a second run has nothing to do); bad
    // arguments refused with what is wrong.
    let (ok, out, err) = ludolog_in(&["review", "--iterations", "10"], &store);
    assert!(ok, "{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    for g in &lines {
        assert!(g["cpu_seconds"].as_f64().unwrap() >= 0.0);
        for seat in g["seats"].as_array().unwrap() {
            let judged: u64 = ["best", "good", "inaccuracy", "mistake", "blunder"]
                .iter()
                .map(|k| seat[*k].as_u64().unwrap())
                .sum();
            assert_eq!(judged, seat["moves"].as_u64().unwrap(), "{seat}");
        }
    }
    let (ok, out, err) = ludolog_in(&["review", "--iterations", "10"], &store);
    assert!(
        ok && out.is_empty() && err.contains("reviewed 0 games"),
        "{out}{err}"
    );
    for (args, says) in [
        (&["review", "--game", "nope"][..], "is not a game id"),
        (
            &["review", "--iterations", "0"][..],
            "0 is not in 1..=200000",
        ),
        (&["review", "--game", "0000000000001"][..], "not found"),
    ] {
        let (ok, _, err) = ludolog_in(args, &store);
        assert!(!ok && err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn bad_bots_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("never.ndjson");
    for (bots, says) in [
        ("alphazero", "unknown bot `alphazero`"),
        ("mcts:0", "is not a number of iterations"),
        ("mcts:99999999", "over the most a bot may spend"),
        ("mcts:10:smart", "unknown bot"),
    ] {
        let (ok, _, err) = run(&[
            "selfplay",
            "--game",
            "five-tribes",
            "--bots",
            bots,
            "--games",
            "1",
            "--out",
            file.to_str().unwrap(),
        ]);
        assert!(!ok && err.contains(says), "{bots}: {err}");
        assert!(!file.exists(), "{bots}: a file was written");
        let (ok, _, err) = run(&["arena", "--game", "mombasa", "--bots", bots]);
        assert!(!ok && err.contains(says), "{bots}: {err}");
    }
}

/// `ludolog calibrate`: a fit written to `--out` with its knots non-decreasing, held-out
/// figures for raw and mapped chances whose bins add up to the positions judged (one forecast
/// a seat), the same file for the same arguments whatever the threads, and bad arguments
/// refused with nothing written.
#[test]
fn calibrate_writes_a_monotone_fit_and_its_held_out_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str, threads: &str| {
        let path = dir.path().join(name);
        let (ok, _, err) = run(&[
            "calibrate",
            "--game",
            "mombasa",
            "--players",
            "2",
            "--bots",
            "mcts:20",
            "--games",
            "6",
            "--iterations",
            "40",
            "--every",
            "10",
            "--threads",
            threads,
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(ok, "{err}");
        std::fs::read_to_string(path).unwrap()
    };
    let one = out("one.json", "1");
    assert_eq!(one, out("two.json", "2"), "threads change nothing");
    let r: Value = serde_json::from_str(&one).unwrap();
    let knots = r["knots"].as_array().unwrap();
    assert!(knots.len() >= 2);
    for w in knots.windows(2) {
        assert!(w[0][0].as_f64() <= w[1][0].as_f64(), "{w:?}");
        assert!(w[0][1].as_f64() <= w[1][1].as_f64(), "{w:?}");
    }
    let held = &r["held_out"];
    let positions = held["positions"].as_u64().unwrap();
    assert!(positions > 0 && r["fitted_positions"].as_u64().unwrap() > 0);
    for which in ["raw", "calibrated"] {
        let bins = held[which]["bins"].as_array().unwrap();
        assert_eq!(bins.len(), 10);
        let n: u64 = bins.iter().map(|b| b["count"].as_u64().unwrap()).sum();
        assert_eq!(n, positions * 2, "{which}");
        let ece = held[which]["ece"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&ece));
    }

    for bad in [
        vec!["calibrate", "--game", "chess"],
        vec!["calibrate", "--game", "mombasa", "--bots", "mcts:x"],
        vec!["calibrate", "--game", "mombasa", "--games", "1"],
        vec!["calibrate", "--game", "mombasa", "--players", "9"],
    ] {
        let path = dir.path().join("bad.json");
        let mut args = bad.clone();
        args.extend(["--out", path.to_str().unwrap()]);
        let (ok, _, err) = run(&args);
        assert!(!ok && !err.is_empty(), "{bad:?} was accepted");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!path.exists(), "{bad:?} wrote a file");
    }
}
