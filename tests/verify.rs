//! `ludolog verify` driven from outside: a store holding games of every rules version this
//! build replays (the random games kept as test data, recorded under the oldest; games played
//! today; and records relabelled to the versions between), a corrected game, a running server,
//! and then a damaged record. Every game replays as recorded until the damage; the damaged game is named and the
//! command fails; divergences under the current rules are reported, not failed.

mod common;
use common::revision::{correct, correctable, finished_game, log};
use common::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const ADMIN: &str = "root-secret-0123456789";

fn run(args: &[&str], data: &Path) -> (bool, String, String) {
    ludolog_in(args, data)
}

/// The random games kept as test data (`tests/data/random-samples/`), recorded under each
/// kind's oldest rules version (the shipped samples are played under the current ones).
fn sample(kind: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../tests/data/random-samples/{kind}.ndjson",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// `record` under another id (its last characters) and rules version.
fn relabelled(record: &str, version: &str, n: usize) -> String {
    let mut r: Value = serde_json::from_str(record).unwrap();
    let id = r["id"].as_str().unwrap();
    let alphabet = b"0123456789abcdefghjkmnpqrstvwxyz";
    // Never `000`, the samples' own ending.
    let n = n + 1;
    let tail = [
        alphabet[(n / 1024) % 32],
        alphabet[(n / 32) % 32],
        alphabet[n % 32],
    ];
    r["id"] = format!("{}{}", &id[..id.len() - 3], String::from_utf8_lossy(&tail)).into();
    r["rules_version"] = version.into();
    r.to_string()
}

/// The report of `verify --json`.
fn verify(data: &Path) -> (bool, Value, String) {
    let (ok, out, err) = run(&["verify", "--json"], data);
    let report = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (ok, report, err)
}

/// Rules versions per kind in a report.
fn versions(report: &Value) -> BTreeMap<String, BTreeSet<String>> {
    report["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            let vs = k["rules_versions"].as_object().unwrap().keys().cloned();
            (k["kind"].as_str().unwrap().to_string(), vs.collect())
        })
        .collect()
}

#[test]
fn every_version_and_revision_replays_and_a_damaged_record_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let store_dir = dir.path().join("store");
    // What this build replays: every kind's rules versions.
    let (ok, rules, err) = run(&["rules", "--json"], &store_dir);
    assert!(ok, "{err}");
    let rules: Value = serde_json::from_str(&rules).unwrap();
    let mut wanted: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in rules.as_array().unwrap() {
        let kind = r["kind"].as_str().unwrap().to_string();
        let file = match kind.as_str() {
            "clans-of-caledonia" => "caledonia".to_string(),
            k => k.to_string(),
        };
        let all: Vec<String> = r["rules_versions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        // The random samples (recorded under an old version), games played today, and sample
        // records relabelled to each version: those that still replay under it import.
        let mut lines: Vec<String> = sample(&file).lines().map(str::to_string).collect();
        // (Today's games go in last, after their relabelled copies.)
        let played = dir.path().join(format!("{file}-today.ndjson"));
        let (ok, _, err) = run(
            &[
                "sample",
                "--game",
                &kind,
                "--games",
                "2",
                "--seed",
                "77",
                "--out",
                played.to_str().unwrap(),
            ],
            &store_dir,
        );
        assert!(ok, "{err}");
        // (`sample` numbers its games as the samples were: new ids, under today's version.)
        let today: Vec<String> = std::fs::read_to_string(&played)
            .unwrap()
            .lines()
            .enumerate()
            .map(|(i, r)| {
                let v: Value = serde_json::from_str(r).unwrap();
                relabelled(r, v["rules_version"].as_str().unwrap(), 30_000 + i)
            })
            .collect();
        for (v, version) in all.iter().enumerate() {
            let relabelled_lines: Vec<String> = today
                .iter()
                .map(String::as_str)
                .chain(sample(&file).lines())
                .take(120)
                .enumerate()
                .map(|(i, record)| relabelled(record, version, 200 + v * 200 + i))
                .collect();
            lines.extend(relabelled_lines);
        }
        lines.extend(today);
        let file_path = dir.path().join(format!("{file}.ndjson"));
        std::fs::write(&file_path, lines.join("\n") + "\n").unwrap();
        let (_, out, err) = run(
            &["import", "--allow-rejects", file_path.to_str().unwrap()],
            &store_dir,
        );
        assert!(out.contains("imported"), "{out}{err}");
        wanted.insert(kind, all.into_iter().collect());
    }

    // While a server holds the store: a game played to its end and corrected.
    let server = Server::start_in(Some(&store_dir), &["--no-samples", "--admin-token", ADMIN]);
    let id = finished_game(&server, ["verify-ann", "verify-bob"]);
    let (log0, options) = log(&server, &id, None);
    let (ply, notation) = correctable(&options, &log0);
    data(&correct(&server, Some(ADMIN), &id, ply as i64, &notation));
    // `verify` works on a copy the running server makes.
    let (ok, report, err) = verify(&store_dir);
    assert!(ok, "{err}\n{report:#}");
    assert_eq!(report["copy_of_running_store"], true);
    assert_eq!(report["problems"], Value::Array(vec![]));
    assert_eq!(versions(&report), wanted, "every rules version has a game");
    let ft = report["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "five-tribes")
        .unwrap();
    assert_eq!(ft["as_recorded"], ft["games"]);
    // The corrected game's two revisions both replayed.
    assert_eq!(
        ft["revisions"].as_u64().unwrap(),
        ft["games"].as_u64().unwrap() + 1
    );
    // Games recorded under older versions were replayed under the current one; those that
    // end differently name the entry where they depart.
    for d in report["divergences"].as_array().unwrap() {
        assert!(d["ply"].as_u64().is_some() && !d["rule"].as_str().unwrap().is_empty());
    }
    drop(server);

    // Now the store itself (summaries kept: outcomes checked too), then a damaged record.
    let (ok, report, err) = verify(&store_dir);
    assert!(ok, "{err}");
    assert_eq!(report["summaries_checked"], true);
    assert_eq!(report["copy_of_running_store"], false);
    {
        let db = sled::open(&store_dir).unwrap();
        let entries = db.open_tree("entries").unwrap();
        let game: store::GameId = id.parse().unwrap();
        let mut k = game.to_bytes().to_vec();
        k.extend_from_slice(&5u32.to_be_bytes());
        let mut v = entries.get(&k).unwrap().unwrap().to_vec();
        let last = v.len() - 1;
        v[last] ^= 0x01;
        entries.insert(&k, v).unwrap();
        db.flush().unwrap();
    }
    let (ok, out, err) = run(&["verify"], &store_dir);
    assert!(!ok, "{out}");
    assert!(
        err.contains("1 games no longer replay as recorded"),
        "{err}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("PROBLEM five-tribes") && l.contains(&id)),
        "{out}"
    );
    // A folder with no store is named, not created.
    let missing = dir.path().join("nothing-here");
    let (ok, _, err) = run(&["verify"], &missing);
    assert!(!ok && err.contains("no store"), "{err}");
    assert!(!missing.exists());
}
