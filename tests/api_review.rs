//! The background review of finished games, from outside the binary (`Game.evaluation`,
//! `Game.turningPoints`, `/metrics`): a finished game is queued, reviewed and judged — every
//! position's chances, every seat move classed by the thresholds `ai::judge` states, each
//! seat's accuracy, the largest swings —; a game in play is `PENDING`; a correction drops the
//! review and the game is reviewed again; a server killed in the middle of a review finishes
//! it after a restart; a server that reviews nothing says `ABSENT`; bad arguments are typed.

mod common;

use common::revision::{correct, correctable, finished_game, log};
use common::{code, data, gql, metric, Server};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const ADMIN: &str = "root-secret-0123456789";
const REVIEWS: [&str; 4] = ["--review-threads", "1", "--review-iterations", "10"];

const FULL: &str = "query($id: ID!) { game(id: $id) { plies turningPoints(first: 3) { ply seat swing } evaluation {
  status progress iterations evaluator calibrated
  plies { ply winChances expectedScores exact }
  moves { ply seat move description before after loss judgement glyph best bestDescription bestWinChance accuracy forced }
  seats { seat player accuracy moves best good inaccuracies mistakes blunders }
  turningPoints(first: 3) { ply seat before after swing actor move description judgement } } } }";

fn status(server: &Server, id: &str) -> (String, f64) {
    let v = gql(
        server,
        None,
        "query($id: ID!) { game(id: $id) { evaluation { status progress } } }",
        json!({ "id": id }),
    );
    let e = &data(&v)["game"]["evaluation"];
    (
        e["status"].as_str().unwrap().to_string(),
        e["progress"].as_f64().unwrap(),
    )
}

/// Polls until the review is done; every status seen on the way.
fn wait_done(server: &Server, id: &str) -> Vec<String> {
    let start = Instant::now();
    let mut seen = Vec::new();
    loop {
        let (s, p) = status(server, id);
        assert!((0.0..=1.0).contains(&p), "{p}");
        if seen.last() != Some(&s) {
            seen.push(s.clone());
        }
        if s == "DONE" {
            assert_eq!(p, 1.0);
            return seen;
        }
        assert!(["QUEUED", "RUNNING"].contains(&s.as_str()), "{seen:?}");
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "not reviewed in 300 s: {seen:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn class_of(loss: f64) -> &'static str {
    match loss {
        l if l >= 0.20 => "BLUNDER",
        l if l >= 0.12 => "MISTAKE",
        l if l >= 0.06 => "INACCURACY",
        _ => "GOOD",
    }
}

/// Everything a done review answers, checked against the game's own log.
fn check_review(server: &Server, id: &str) -> Value {
    let v = gql(server, None, FULL, json!({ "id": id }));
    let g = data(&v)["game"].clone();
    let e = &g["evaluation"];
    assert_eq!(e["status"], "DONE");
    assert_eq!(e["iterations"], 10);
    assert!(
        e["evaluator"].as_str().unwrap().starts_with("ismcts-"),
        "{e}"
    );
    let plies = g["plies"].as_u64().unwrap() as usize;
    let chances = e["plies"].as_array().unwrap();
    assert_eq!(
        chances.len(),
        plies + 1,
        "a position for every ply, 0 to the end"
    );
    for (i, p) in chances.iter().enumerate() {
        assert_eq!(p["ply"], i as u64);
        let w: Vec<f64> = serde_json::from_value(p["winChances"].clone()).unwrap();
        assert_eq!(w.len(), 2);
        let sum: f64 = w.iter().sum();
        assert!((sum - 1.0).abs() < 1e-3, "ply {i}: chances sum to {sum}");
        assert_eq!(p["exact"], i == plies, "only the end is exact");
    }
    // The end is the outcome: the winner's chance 1 (or shared).
    let end: Vec<f64> = serde_json::from_value(chances[plies]["winChances"].clone()).unwrap();
    assert!(end.iter().all(|w| [0.0, 0.5, 1.0].contains(w)), "{end:?}");

    // Every seat move, judged by the stated thresholds.
    let (entries, _) = log(server, id, None);
    let seat_moves: Vec<(usize, String)> = entries
        .iter()
        .enumerate()
        .filter(|(_, (a, _))| matches!(a, rules_core::Actor::Seat(_)))
        .map(|(i, (_, n))| (i + 1, n.clone()))
        .collect();
    let moves = e["moves"].as_array().unwrap();
    assert_eq!(moves.len(), seat_moves.len(), "every seat move is judged");
    for (m, (ply, notation)) in moves.iter().zip(&seat_moves) {
        assert_eq!(m["ply"], *ply as u64);
        assert_eq!(m["move"], notation.as_str());
        let (b, a, loss) = (
            m["before"].as_f64().unwrap(),
            m["after"].as_f64().unwrap(),
            m["loss"].as_f64().unwrap(),
        );
        assert!((loss - (b - a).max(0.0)).abs() < 1e-9, "{m}");
        // Raw chances from the position's own search (the graph's are calibrated).
        assert!((0.0..=1.0).contains(&b) && (0.0..=1.0).contains(&a), "{m}");
        let j = m["judgement"].as_str().unwrap();
        if m["best"] == m["move"] {
            assert_eq!(j, "BEST", "{m}");
        } else {
            assert_eq!(j, class_of(loss), "{m}");
        }
        let glyph = match j {
            "INACCURACY" => "?!",
            "MISTAKE" => "?",
            "BLUNDER" => "??",
            _ => "",
        };
        assert_eq!(m["glyph"], glyph);
        let acc = m["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&acc));
        if a >= b {
            assert_eq!(acc, 100.0, "{m}");
        } else {
            // lichess's formula: 103.1668·e^(−0.04354·Δ%) − 3.1669, plus 1, clamped.
            let d = (b - a) * 100.0;
            let want = (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * d).exp()
                - 3.166_924_740_191_411
                + 1.0)
                .clamp(0.0, 100.0);
            assert!((acc - want).abs() < 1e-9, "{m}");
        }
        assert!(!m["description"].as_str().unwrap().is_empty());
        if m["forced"] == true {
            assert_eq!(m["best"], m["move"], "a forced move is the only one");
        }
    }
    let judged: Vec<&str> = moves
        .iter()
        .map(|m| m["judgement"].as_str().unwrap())
        .collect();
    assert!(judged.contains(&"BEST"), "{judged:?}");

    // Each seat: its moves with a choice, by class, and an accuracy.
    for s in e["seats"].as_array().unwrap() {
        let seat = s["seat"].as_u64().unwrap();
        let mine: Vec<&Value> = moves
            .iter()
            .filter(|m| m["seat"] == seat && m["forced"] == false)
            .collect();
        assert_eq!(s["moves"], mine.len() as u64);
        for (field, class) in [
            ("best", "BEST"),
            ("good", "GOOD"),
            ("inaccuracies", "INACCURACY"),
            ("mistakes", "MISTAKE"),
            ("blunders", "BLUNDER"),
        ] {
            let n = mine.iter().filter(|m| m["judgement"] == class).count();
            assert_eq!(s[field], n as u64, "seat {seat} {field}");
        }
        let acc = s["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&acc), "{acc}");
    }

    // Turning points: the largest swings first, each the entry's change of a seat's chance.
    let tps = e["turningPoints"].as_array().unwrap();
    assert_eq!(tps.len(), 3);
    let mut last = f64::INFINITY;
    for t in tps {
        let (ply, seat) = (
            t["ply"].as_u64().unwrap() as usize,
            t["seat"].as_u64().unwrap() as usize,
        );
        let swing = t["swing"].as_f64().unwrap();
        assert!(swing.abs() <= last + 1e-12, "largest first");
        last = swing.abs();
        let b = chances[ply - 1]["winChances"][seat].as_f64().unwrap();
        let a = chances[ply]["winChances"][seat].as_f64().unwrap();
        assert!((t["before"].as_f64().unwrap() - b).abs() < 1e-6);
        assert!((swing - (a - b)).abs() < 1e-6, "{t}");
        assert_eq!(t["move"], entries[ply - 1].1.as_str());
    }
    // `Game.turningPoints` is the same list.
    for (x, y) in g["turningPoints"].as_array().unwrap().iter().zip(tps) {
        assert_eq!((&x["ply"], &x["swing"]), (&y["ply"], &y["swing"]));
    }
    g
}

fn get(server: &Server, path: &str) -> String {
    ureq::get(&format!("{}{path}", server.url))
        .call()
        .unwrap()
        .into_string()
        .unwrap()
}

/// The `evaluations` export holds a row per position and seat of the reviewed game, its
/// chances and, on the mover's row, the judgement the API gives.
fn check_export(server: &Server, game: &Value) {
    let e = &game["evaluation"];
    let plies = game["plies"].as_u64().unwrap() as usize;
    let csv = get(server, "/exports/five-tribes/evaluations.csv");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "game_id,ply,seat,player,win_chance,low,high,expected_score,expected_rank,move,judgement,before,after,loss,best,best_win_chance"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), (plies + 1) * 2, "a row per position and seat");
    for (i, r) in rows.iter().enumerate() {
        let (ply, seat) = (i / 2, i % 2);
        assert_eq!(
            (r[1], r[2]),
            (ply.to_string().as_str(), seat.to_string().as_str())
        );
        let want = e["plies"][ply]["winChances"][seat].as_f64().unwrap();
        assert!((r[4].parse::<f64>().unwrap() - want).abs() < 1e-4, "{r:?}");
    }
    let judged: Vec<(u64, u64, String)> = rows
        .iter()
        .filter(|r| !r[10].is_empty())
        .map(|r| {
            (
                r[1].parse().unwrap(),
                r[2].parse().unwrap(),
                r[10].to_uppercase(),
            )
        })
        .collect();
    let api: Vec<(u64, u64, String)> = e["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["ply"].as_u64().unwrap(),
                m["seat"].as_u64().unwrap(),
                m["judgement"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        judged, api,
        "the judgements the API gives, on the movers' rows"
    );
    let nd = get(server, "/exports/five-tribes/evaluations.ndjson");
    assert_eq!(nd.lines().count(), rows.len());
}

/// `statistics { byAccuracy }` and the accuracy chart count the reviewed game's two seats.
fn check_accuracy_statistics(server: &Server, game: &Value) {
    let v = gql(
        server,
        None,
        "{ statistics(kind: FIVE_TRIBES) { byAccuracy(band: 20) { reviewedGames byPlayerCount { players bands { from to win { trials successes } meanScore } } byPlayer { player accuracy { count mean } } } } }",
        json!({}),
    );
    let a = &data(&v)["statistics"]["byAccuracy"];
    assert_eq!(a["reviewedGames"], 1, "{v}");
    let pc = &a["byPlayerCount"][0];
    assert_eq!(pc["players"], 2);
    let bands = pc["bands"].as_array().unwrap();
    let seats: u64 = bands
        .iter()
        .map(|b| b["win"]["trials"].as_u64().unwrap())
        .sum();
    let wins: f64 = bands
        .iter()
        .map(|b| b["win"]["successes"].as_f64().unwrap())
        .sum();
    assert_eq!(
        (seats, wins),
        (2, 1.0),
        "two seats, one win between them: {v}"
    );
    for seat in game["evaluation"]["seats"].as_array().unwrap() {
        let acc = seat["accuracy"].as_f64().unwrap();
        let from = ((acc as u64) / 20 * 20).min(80);
        assert!(
            bands
                .iter()
                .any(|b| b["from"] == from && b["to"] == from + 20),
            "{acc} in band {from}: {v}"
        );
        let p = a["byPlayer"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["player"] == seat["player"])
            .unwrap();
        assert_eq!(p["accuracy"]["count"], 1);
        assert_eq!(p["accuracy"]["mean"], acc.round());
    }
    let v = gql(
        server,
        None,
        "{ statistics(kind: FIVE_TRIBES) { byAccuracy(band: 0) { reviewedGames } } }",
        json!({}),
    );
    assert_eq!(code(&v), "BAD_INPUT", "{v}");
    let svg = get(server, "/charts/five-tribes/accuracy.svg");
    assert!(svg.starts_with("<svg") && svg.contains("accuracy"), "{svg}");
    assert!(
        svg.contains("rv-ann") && svg.contains("rv-bob"),
        "each player drawn"
    );
}

#[test]
fn finished_games_are_reviewed_judged_and_reviewed_again_after_a_correction() {
    let mut args = vec!["--no-samples", "--admin-token", ADMIN];
    args.extend(REVIEWS);
    let server = Server::start(&args);

    // A game in play is pending: its positions are evaluated on request.
    let v = gql(
        &server,
        None,
        "mutation { createGame(kind: FIVE_TRIBES, players: [\"a\", \"b\"]) { game { id evaluation { status progress } } } }",
        json!({}),
    );
    let e = &data(&v)["createGame"]["game"]["evaluation"];
    assert_eq!(
        (e["status"].as_str(), e["progress"].as_f64()),
        (Some("PENDING"), Some(0.0))
    );

    let id = finished_game(&server, ["rv-ann", "rv-bob"]);
    let seen = wait_done(&server, &id);
    assert!(seen.len() >= 2, "queued or running before done: {seen:?}");
    let first = check_review(&server, &id);
    check_export(&server, &first);
    check_accuracy_statistics(&server, &first);
    assert!(metric(&server, "ludolog_review_games_total") >= 1);
    // Every position, 0 to the end.
    assert!(metric(&server, "ludolog_review_positions_total") > first["plies"].as_u64().unwrap());
    assert_eq!(metric(&server, "ludolog_review_threads"), 1);

    // Typed refusals, nothing else answered.
    for (q, what) in [
        ("query($id: ID!) { game(id: $id) { evaluation { moves(seat: 2) { ply } } } }", "seat 2"),
        ("query($id: ID!) { game(id: $id) { turningPoints(first: -1) { ply } } }", "first -1"),
        ("query($id: ID!) { game(id: $id) { evaluation { turningPoints(first: 101) { ply } } } }", "first 101"),
    ] {
        let v = gql(&server, None, q, json!({ "id": id }));
        assert_eq!(code(&v), "BAD_INPUT", "{what}: {v}");
    }

    // A correction drops the review at once; the new revision is reviewed in its turn.
    let (entries, options) = log(&server, &id, None);
    let (p, m) = correctable(&options, &entries);
    let v = correct(&server, Some(ADMIN), &id, p as i64, &m);
    assert_eq!(data(&v)["correctGame"]["game"]["revision"], 1, "{v}");
    let (s, _) = status(&server, &id);
    assert_ne!(s, "DONE", "the old review is not shown after a correction");
    wait_done(&server, &id);
    let second = check_review(&server, &id);
    assert_ne!(
        first["evaluation"]["moves"], second["evaluation"]["moves"],
        "the corrected log is judged"
    );
}

#[test]
fn a_review_cut_by_a_crash_is_finished_after_a_restart_and_none_are_made_without_threads() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("store");
    // No review threads: a finished game stays unreviewed, and says so.
    let server = Server::start_in(Some(&data_dir), &["--no-samples"]);
    let ids = [
        finished_game(&server, ["cr-ann", "cr-bob"]),
        finished_game(&server, ["cr-cy", "cr-dee"]),
    ];
    for id in &ids {
        assert_eq!(status(&server, id), ("ABSENT".into(), 0.0));
    }
    drop(server);

    // With a thread, both are queued at start; killed while one is under review.
    let mut args = vec!["--no-samples"];
    args.extend(REVIEWS);
    let server = Server::start_in(Some(&data_dir), &args);
    let start = Instant::now();
    while status(&server, &ids[0]).0 != "RUNNING" && status(&server, &ids[1]).0 != "RUNNING" {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no review started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(server); // SIGKILL

    // Queued again at start, without anyone asking (asking would queue a game too).
    let server = Server::start_in(Some(&data_dir), &args);
    let start = Instant::now();
    while metric(&server, "ludolog_review_games_total") < 1
        || metric(&server, "ludolog_review_games_queued") > 0
        || metric(&server, "ludolog_review_games_running") > 0
    {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the queue was not resumed"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    for id in &ids {
        assert_eq!(status(&server, id).0, "DONE");
        check_review(&server, id);
    }
}
