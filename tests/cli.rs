//! The `ludolog` command line, driven from outside.

mod common;
use common::ludolog;
use serde_json::Value;
use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(ludolog())
        .args(args)
        .output()
        .expect("run ludolog");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn simulate_json_reports_speed_and_scores_and_is_repeatable() {
    let args = [
        "simulate",
        "--game",
        "five-tribes",
        "--players",
        "4",
        "--games",
        "20",
        "--seed",
        "7",
        "--json",
    ];
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    let a: Value = serde_json::from_str(&out).unwrap();
    for key in [
        "games",
        "plies",
        "seconds",
        "plies_per_second",
        "games_per_second",
        "mean_score_per_seat",
    ] {
        assert!(!a[key].is_null(), "missing {key} in {out}");
    }
    assert_eq!(a["games"], 20);
    assert_eq!(a["mean_score_per_seat"].as_array().unwrap().len(), 4);
    assert!(a["plies"].as_u64().unwrap() > 20 * 100);
    let (_, out2, _) = run(&args);
    let b: Value = serde_json::from_str(&out2).unwrap();
    assert_eq!(a["plies"], b["plies"]);
    assert_eq!(a["mean_score_per_seat"], b["mean_score_per_seat"]);
    assert_eq!(a["fingerprint"], b["fingerprint"]);
    let (_, out3, _) = run(&[
        "simulate",
        "--game",
        "five-tribes",
        "--players",
        "4",
        "--games",
        "20",
        "--seed",
        "8",
        "--json",
    ]);
    let c: Value = serde_json::from_str(&out3).unwrap();
    assert_ne!(a["fingerprint"], c["fingerprint"]);
}

#[test]
fn simulate_refuses_bad_input_with_a_clear_error() {
    let (ok, _, err) = run(&[
        "simulate",
        "--game",
        "five-tribes",
        "--players",
        "7",
        "--games",
        "1",
    ]);
    assert!(!ok);
    assert!(err.contains("2 to 4 players"), "{err}");
    let (ok, _, err) = run(&["simulate", "--game", "chess"]);
    assert!(!ok);
    assert!(err.contains("chess"), "{err}");
}

#[test]
fn rules_json_lists_the_games() {
    let (ok, out, err) = run(&["rules", "--json"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let ft = v
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "five-tribes")
        .expect("five-tribes listed");
    assert_eq!(ft["player_counts"], serde_json::json!([2, 3, 4]));
    assert!(ft["rules_version"]
        .as_str()
        .unwrap()
        .starts_with("five-tribes/"));
}
