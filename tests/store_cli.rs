//! The store's commands, driven from outside: import (the sample data), export, replay,
//! rebuild, and import's refusals with line numbers.

mod common;
use common::{ludolog, ludolog_in, sample_records};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// The random seats' Five Tribes games (test data: 200 games, their figures pinned below).
const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/random-samples/five-tribes.ndjson"
);

fn run(args: &[&str], data: &Path) -> (bool, String, String) {
    ludolog_in(args, data)
}

#[test]
fn the_sample_imports_exports_identically_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    let (ok, out, err) = run(&["import", SAMPLE], &data);
    assert!(ok, "{err}");
    assert!(out.contains("imported 200 games"), "{out}");
    assert!(out.contains("rejected 0"), "{out}");
    let exported = dir.path().join("out.ndjson");
    let (ok, _, err) = run(
        &[
            "export",
            "--kind",
            "five-tribes",
            "--out",
            exported.to_str().unwrap(),
        ],
        &data,
    );
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(&exported).unwrap(),
        std::fs::read(SAMPLE).unwrap(),
        "import then export is byte-identical"
    );

    let first: Value = serde_json::from_str(
        std::fs::read_to_string(SAMPLE)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let id = first["id"].as_str().unwrap();
    let (ok, at40, err) = run(&["replay", id, "--ply", "40", "--seat", "1"], &data);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&at40).unwrap();
    assert_eq!(v["ply"], 40);
    let seats = v["view"]["seats"].as_array().unwrap();
    assert!(seats[1]["gold"].is_number(), "seat 1 sees its gold");
    assert!(
        seats[0]["gold"].is_null(),
        "seat 1 does not see seat 0's gold"
    );
    let (ok, out, _) = run(&["replay", id], &data);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["to_act"], "over");
    assert!(
        v["view"]["seats"][0]["gold"].is_number(),
        "gold is public at the end"
    );

    let (ok, out, err) = run(&["rebuild"], &data);
    assert!(ok, "{err}");
    assert!(out.contains("rebuilt 200 games"), "{out}");
    let (ok, again, _) = run(&["replay", id, "--ply", "40", "--seat", "1"], &data);
    assert!(ok);
    assert_eq!(again, at40, "the same view after rebuilding the snapshots");

    // Bad input to replay: a typed, readable error.
    let (ok, _, err) = run(&["replay", "not-an-id"], &data);
    assert!(!ok && err.contains("not a game id"), "{err}");
    let (ok, _, err) = run(&["replay", id, "--ply", "99999"], &data);
    assert!(!ok && err.contains("past the end"), "{err}");
}

#[test]
fn import_reports_bad_lines_and_goes_on_unless_strict() {
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read_to_string(SAMPLE).unwrap();
    let mut lines: Vec<String> = sample.lines().take(3).map(str::to_string).collect();
    let mut bad: Value = serde_json::from_str(&lines[1]).unwrap();
    bad["entries"][30]["notation"] = "end".into();
    lines[1] = bad.to_string();
    lines.insert(0, "{oops".into());
    let file = dir.path().join("in.ndjson");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();

    // The good records go in, the bad ones are named, and the exit status says some were
    // rejected (a script must not take a partial import for a whole one) ...
    let data = dir.path().join("a");
    let (ok, out, err) = run(&["import", file.to_str().unwrap()], &data);
    assert!(!ok, "{out}");
    assert!(
        out.contains("imported 2 games") && out.contains("rejected 2"),
        "{out}"
    );
    assert!(err.contains("line 1: bad JSON"), "{err}");
    // entries[30] is ply 31, as `moves` numbers it.
    assert!(err.contains("line 3, ply 31"), "{err}");
    assert!(err.contains("--allow-rejects"), "{err}");
    // ... unless the caller says a partial import is fine.
    let data = dir.path().join("a2");
    let (ok, out, err) = run(
        &["import", "--allow-rejects", file.to_str().unwrap()],
        &data,
    );
    assert!(ok, "{err}");
    assert!(out.contains("imported 2 games"), "{out}");

    let data = dir.path().join("b");
    let (ok, _, err) = run(&["import", "--strict", file.to_str().unwrap()], &data);
    assert!(!ok);
    assert!(err.contains("line 1"), "{err}");
    let (ok, _, err) = run(
        &[
            "export",
            "--out",
            dir.path().join("b.ndjson").to_str().unwrap(),
        ],
        &data,
    );
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b.ndjson")).unwrap(),
        "",
        "--strict stopped before any game"
    );
}

/// Import checks the next records on a second thread while it writes: a `--strict` import
/// that stops at a bad record with many good ones behind it (more than the checker may hold
/// ahead) stops promptly, writes none of the games after it, and keeps those before it.
#[test]
fn a_strict_import_stops_at_the_bad_record_with_many_checked_ahead() {
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read_to_string(SAMPLE).unwrap();
    let mut lines: Vec<&str> = sample.lines().take(60).collect();
    lines.insert(5, "{oops");
    let file = dir.path().join("in.ndjson");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let data = dir.path().join("store");
    let mut child = Command::new(ludolog())
        .args(["import", "--strict", file.to_str().unwrap()])
        .env("LUDOLOG_DATA_DIR", &data)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("a strict import that met a bad record did not stop");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!status.success());
    assert!(err.contains("line 6"), "{err}");
    let out = dir.path().join("out.ndjson");
    let (ok, _, err) = run(&["export", "--out", out.to_str().unwrap()], &data);
    assert!(ok, "{err}");
    let exported = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        exported.lines().count(),
        5,
        "the five games before the bad record, and none after it"
    );
}

#[test]
fn statistics_by_time_range_and_positions_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    let (ok, _, err) = run(&["import", SAMPLE], &data);
    assert!(ok, "{err}");
    // The samples start hourly from 2026-01-01T00:00Z: one day holds 24 of them.
    let (ok, out, err) = run(
        &[
            "stats",
            "--kind",
            "five-tribes",
            "--since",
            "2026-01-05T00:00:00Z",
            "--until",
            "2026-01-06T00:00:00Z",
        ],
        &data,
    );
    assert!(ok, "{err}");
    let stats: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(stats["games"], 24);
    let (ok, _, err) = run(
        &["stats", "--kind", "five-tribes", "--since", "yesterday"],
        &data,
    );
    assert!(!ok);
    assert!(err.contains("--since"), "{err}");

    // Positions: one per game at ply 10, written as NDJSON; a bad filter names its column.
    let out_file = dir.path().join("p.ndjson");
    let (ok, _, err) = run(
        &[
            "positions",
            "--kind",
            "five-tribes",
            "--where",
            "ply == 10",
            "--out",
            out_file.to_str().unwrap(),
        ],
        &data,
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(text.lines().count(), 200);
    assert!(err.contains("wrote 200"), "{err}");
    // `--count`: the same scan, counted; every position of every game without a filter.
    for (filter, matched) in [(Some("ply == 10"), json!(200)), (None, json!(null))] {
        let mut args = vec!["positions", "--kind", "five-tribes", "--count"];
        args.extend(filter.iter().flat_map(|f| ["--where", *f]));
        let (ok, out, err) = run(&args, &data);
        assert!(ok, "{err}");
        let counted: Value = serde_json::from_str(&out).unwrap();
        let scanned = counted["scanned"].as_u64().unwrap();
        assert!(scanned > 200 * 10, "{counted}");
        if matched.is_null() {
            assert_eq!(counted["matched"].as_u64(), Some(scanned));
        } else {
            assert_eq!(counted["matched"], matched);
        }
    }
    let (ok, _, err) = run(
        &["positions", "--kind", "five-tribes", "--where", "ply =="],
        &data,
    );
    assert!(!ok);
    assert!(err.contains("column 7"), "{err}");
}

#[test]
fn a_damaged_state_hash_key_is_an_error_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    let (ok, _, err) = run(&["import", SAMPLE], &data);
    assert!(ok, "{err}");
    // The first command that attaches the analysis makes the key (and indexes the games).
    let (ok, _, err) = run(&["stats", "--kind", "five-tribes"], &data);
    assert!(ok, "{err}");
    let key_file = data.join("state-hash.key");
    let key = std::fs::read_to_string(&key_file).unwrap();
    assert_eq!(key.trim().len(), 32, "a key was made with the store");
    std::fs::write(&key_file, "half a k").unwrap();
    let (ok, _, err) = run(
        &["positions", "--kind", "five-tribes", "--where", "ply == 1"],
        &data,
    );
    assert!(!ok);
    assert!(err.contains("is not a state-hash key"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&key_file).unwrap(),
        "half a k",
        "left as it was"
    );
}

#[test]
fn games_imported_later_reach_the_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    let (ok, _, err) = run(&["import", SAMPLE], &data);
    assert!(ok, "{err}");
    let games = |kind: &str| {
        let (ok, out, err) = run(&["stats", "--kind", kind], &data);
        assert!(ok, "{err}");
        serde_json::from_str::<Value>(&out).unwrap()["games"].clone()
    };
    assert_eq!(games("five-tribes"), 200);
    // A second import into a folder whose projections already exist updates them too.
    let mombasa = SAMPLE.replace("five-tribes.ndjson", "mombasa.ndjson");
    let (ok, out, err) = run(&["import", &mombasa], &data);
    assert!(ok, "{err}");
    assert!(out.contains("imported 200 games"), "{out}");
    assert_eq!(games("mombasa"), 200);
    let (ok, _, err) = run(
        &["positions", "--kind", "mombasa", "--where", "ply == 5"],
        &data,
    );
    assert!(ok && err.contains("wrote 200"), "{err}");
}

#[test]
fn positions_are_read_from_the_command_line_while_serve_writes_the_store() {
    // The index files are read without the store, which `serve` holds locked: the CLI
    // answers what the server's own export answers, byte for byte.
    let server = common::Server::start(&[]);
    let data = server.dir.path().join("store");
    let (ok, out, err) = run(
        &["positions", "--kind", "five-tribes", "--where", "ply == 10"],
        &data,
    );
    assert!(ok, "{err}");
    let rows = out.lines().count();
    assert!(rows > 0 && err.contains(&format!("wrote {rows}")), "{err}");
    let http = ureq::get(&format!(
        "{}/exports/five-tribes/positions.ndjson?where=ply%20%3D%3D%2010",
        server.url
    ))
    .call()
    .unwrap()
    .into_string()
    .unwrap();
    assert_eq!(http, out);
    // Commands that need the store itself still say that it is in use.
    let (ok, _, err) = run(&["stats", "--kind", "five-tribes"], &data);
    assert!(!ok && err.contains("in use"), "{err}");
}

/// Every sample game of every kind written as game text (`export --text`), read into a new
/// store (`import --text`) and written again gives the same text, and the same games: each
/// entry, each player, each status.
#[test]
fn every_sample_game_round_trips_through_game_text() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for kind in ["five-tribes", "caledonia", "mombasa"] {
        let file = format!(
            "{}/../../data/samples/{kind}.ndjson",
            env!("CARGO_MANIFEST_DIR")
        );
        let (ok, _, err) = run(&["import", &file, "--allow-rejects"], &a);
        assert!(ok, "{err}");
    }
    let texts = |data: &Path, name: &str| {
        let out = dir.path().join(name);
        let (ok, _, err) = run(
            &[
                "export",
                "--text",
                "--include-active",
                "--out",
                out.to_str().unwrap(),
            ],
            data,
        );
        assert!(ok, "{err}");
        std::fs::read_to_string(out).unwrap()
    };
    let first = texts(&a, "a.txt");
    let games = first.matches("\nGame: ").count();
    let shipped: usize = ["five-tribes", "caledonia", "mombasa"]
        .iter()
        .map(|k| sample_records(k).len())
        .sum();
    assert!(shipped >= 200, "{shipped} sample games");
    assert_eq!(games, shipped, "every sample game written");
    let (ok, out, err) = run(
        &[
            "import",
            "--text",
            dir.path().join("a.txt").to_str().unwrap(),
        ],
        &b,
    );
    assert!(ok, "{err}");
    assert!(out.contains(&format!("imported {games} games")), "{out}");
    assert!(out.contains("rejected 0"), "{out}");
    assert_eq!(
        texts(&b, "b.txt"),
        first,
        "text → store → text is the identity"
    );
    // The same games: compare the records, but for the times a text does not keep.
    let records = |data: &Path, name: &str| -> Vec<Value> {
        let out = dir.path().join(name);
        let (ok, _, err) = run(
            &["export", "--include-active", "--out", out.to_str().unwrap()],
            data,
        );
        assert!(ok, "{err}");
        std::fs::read_to_string(out)
            .unwrap()
            .lines()
            .map(|l| {
                let r: Value = serde_json::from_str(l).unwrap();
                let entries: Vec<Value> = r["entries"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| json!([e["ply"], e["actor"], e["notation"]]))
                    .collect();
                json!([
                    r["id"],
                    r["kind"],
                    r["players"],
                    r["options"],
                    r["seed"],
                    r["status"],
                    entries
                ])
            })
            .collect()
    };
    assert_eq!(records(&b, "b.ndjson"), records(&a, "a.ndjson"));
}

/// The examples of `schema/notation/game-text.md` are games this build reads, and a typed
/// mistake is refused with its line, storing nothing.
#[test]
fn the_documented_game_texts_import_and_a_mistake_is_refused_at_its_line() {
    let doc = include_str!("../schema/notation/game-text.md");
    let examples = doc.split("## Examples").nth(1).unwrap();
    let blocks: Vec<&str> = examples.split("```").skip(1).step_by(2).collect();
    assert_eq!(blocks.len(), 3, "one example of each game");
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    for (i, block) in blocks.iter().enumerate() {
        let file = dir.path().join(format!("{i}.txt"));
        std::fs::write(
            &file,
            block
                .trim_start_matches(|c: char| c.is_alphanumeric())
                .trim_start(),
        )
        .unwrap();
        let (ok, out, err) = run(
            &["import", "--text", file.to_str().unwrap(), "--strict"],
            &data,
        );
        assert!(
            ok && out.contains("imported 1 games"),
            "example {i}: {out}{err}"
        );
    }
    // A mistake: a deal that is no deal, on line 6 (after the header, a blank and a comment).
    let typed = "Game: five-tribes\nPlayers: Ana, Bruno\nDate: 2026-11-28\n\n# at the club\ndealer: deal nonsense\n";
    let file = dir.path().join("bad.txt");
    std::fs::write(&file, typed).unwrap();
    let (ok, out, err) = run(&["import", "--text", file.to_str().unwrap()], &data);
    assert!(!ok, "{out}");
    assert!(err.contains("line 6, ply 1"), "{err}");
    assert!(
        out.contains("imported 0 games") && out.contains("rejected 1"),
        "{out}"
    );
}

/// The commands that only read a store refuse a folder that holds none, naming it, and leave
/// no empty store behind (a mistyped `--data-dir` once printed zero games and exited 0).
#[test]
fn read_only_commands_name_a_missing_store_and_create_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-store");
    let backup_to = dir.path().join("copy");
    let commands: Vec<Vec<&str>> = vec![
        vec!["stats", "--kind", "five-tribes"],
        vec!["replay", "036vpvam00000"],
        vec!["export", "--out", "-"],
        vec!["ratings", "--kind", "five-tribes"],
        vec![
            "table",
            "--kind",
            "five-tribes",
            "--table",
            "games",
            "--out",
            "-",
        ],
        vec!["rebuild"],
        vec!["positions", "--kind", "five-tribes", "--out", "-"],
        vec!["dataset", "--out", backup_to.to_str().unwrap()],
        vec!["backup", "--to", backup_to.to_str().unwrap()],
        vec!["verify"],
    ];
    for args in &commands {
        let (ok, _, err) = run(args, &missing);
        assert!(!ok, "{args:?} succeeded");
        assert!(
            err.contains("there is no store in") && err.contains("no-such-store"),
            "{args:?}: {err}"
        );
        assert!(!missing.exists(), "{args:?} created {}", missing.display());
    }
    // An existing folder that holds no store is named as such.
    let (ok, _, err) = run(&["stats", "--kind", "five-tribes"], dir.path());
    assert!(!ok && err.contains("holds no ludolog store"), "{err}");
}

/// `ludolog explorer`: a game's first decision is the node every game of its player count
/// opened at (by line), the same by its hash and after a rebuild; bad nodes are refused.
#[test]
fn the_explorer_prints_a_node_and_refuses_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    let (ok, _, err) = run(&["import", SAMPLE], &data);
    assert!(ok, "{err}");
    let records: Vec<Value> = std::fs::read_to_string(SAMPLE)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let first = &records[0];
    let id = first["id"].as_str().unwrap();
    let players = first["players"].as_array().unwrap().len();
    let same = records
        .iter()
        .filter(|r| r["players"].as_array().unwrap().len() == players)
        .count();
    let (ok, out, err) = run(&["explorer", "--game", id, "--ply", "1"], &data);
    assert!(ok, "{err}");
    let node: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(node["games"], same, "{node}");
    assert_eq!(node["players"], players);
    let moves = node["moves"].as_array().unwrap();
    let played: u64 = moves.iter().map(|m| m["games"].as_u64().unwrap()).sum();
    assert_eq!(played as usize, same, "one first move a game");
    // The records' own first seat moves, counted by hand, are the node's moves.
    let mut by_hand = std::collections::BTreeMap::<String, u64>::new();
    for r in records
        .iter()
        .filter(|r| r["players"].as_array().unwrap().len() == players)
    {
        let e = r["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["actor"] != "dealer")
            .unwrap();
        *by_hand
            .entry(e["notation"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    let listed: std::collections::BTreeMap<String, u64> = moves
        .iter()
        .map(|m| {
            (
                m["notation"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(listed, by_hand);
    let hash = node["hash"].as_str().unwrap();
    let p = players.to_string();
    let by_hash = [
        "explorer",
        "--kind",
        "five-tribes",
        "--players",
        &p,
        "--hash",
        hash,
    ];
    let (ok, again, err) = run(&by_hash, &data);
    assert!(ok, "{err}");
    assert_eq!(again, out);
    let (ok, _, err) = run(&["rebuild"], &data);
    assert!(ok, "{err}");
    let (ok, rebuilt, err) = run(&by_hash, &data);
    assert!(ok, "{err}");
    assert_eq!(rebuilt, out, "a rebuild files the same games");
    for (args, says) in [
        (&["explorer", "--game", "nope"][..], "is not a game id"),
        (
            &["explorer", "--game", id, "--ply", "100000"][..],
            "past its end",
        ),
        (
            &[
                "explorer",
                "--kind",
                "five-tribes",
                "--players",
                "2",
                "--hash",
                "zz",
            ][..],
            "16 hex digits",
        ),
        (&["explorer"][..], "give a node"),
        (
            &["explorer", "--game", id, "--since", "yesterday"][..],
            "yesterday",
        ),
    ] {
        let (ok, _, err) = run(args, &data);
        assert!(!ok && err.contains(says), "{args:?}: {err}");
    }
}
