//! `Position.evaluation` and `Position.bestMoves` over HTTP against the binary: a finished
//! game's last position is its outcome; an earlier one is a search's estimate whose chances
//! share out one win, whose best moves are the seat to act's legal moves, and which is the
//! same every time it is asked; a game in play is judged only from the caller's perspective;
//! and every refusal is typed (a budget under 1 or over the server's most, a `first` out of
//! range, six evaluations in one request, a server with no evaluation slots).
mod common;
use common::*;
use serde_json::{json, Value};

const EVAL: &str = "query($id: ID!, $ply: Int, $it: Int, $p: Perspective) { game(id: $id) { plies position(ply: $ply) { seatsToAct evaluation(iterations: $it, perspective: $p) { exact iterations playouts calibrated seats { seat winChance low high expectedScore expectedRank } bestMoves(first: 3) { seat notation words winChance low high visits } } } } }";

/// A finished sample game of `kind` (of several seats): its id, entries and seats.
fn finished_game(server: &Server, kind: &str) -> (String, u64, usize) {
    let v = gql(
        server,
        None,
        "query($k: GameKind!) { games(kind: $k, status: FINISHED, first: 10) { edges { node { id plies players } } } }",
        json!({ "k": kind }),
    );
    let node = data(&v)["games"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["node"])
        .find(|n| n["players"].as_array().unwrap().len() > 1)
        .unwrap()
        .clone();
    (
        node["id"].as_str().unwrap().to_string(),
        node["plies"].as_u64().unwrap(),
        node["players"].as_array().unwrap().len(),
    )
}

fn evaluation(server: &Server, id: &str, ply: u64, iterations: Option<u64>) -> Value {
    let v = gql(
        server,
        None,
        EVAL,
        json!({ "id": id, "ply": ply, "it": iterations }),
    );
    data(&v)["game"]["position"].clone()
}

/// The player counts `data/<game>/calibration.json` has a fit for.
fn shipped_fits(kind: &str) -> Vec<usize> {
    let dir = match kind {
        "FIVE_TRIBES" => "five-tribes",
        "CLANS_OF_CALEDONIA" => "caledonia",
        _ => "mombasa",
    };
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/");
    let text = std::fs::read_to_string(format!("{path}{dir}/calibration.json")).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    file["fits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["players"].as_u64().unwrap() as usize)
        .collect()
}

fn winners(server: &Server, id: &str) -> Vec<u64> {
    let v = gql(
        server,
        None,
        "query($id: ID!) { game(id: $id) { outcome { winners } } }",
        json!({ "id": id }),
    );
    data(&v)["game"]["outcome"]["winners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .collect()
}

#[test]
fn finished_games_are_judged_exactly_at_the_end_and_by_search_before() {
    let server = Server::start(&[]);
    let mut calibrated = 0;
    for kind in ["FIVE_TRIBES", "CLANS_OF_CALEDONIA", "MOMBASA"] {
        let (id, plies, players) = finished_game(&server, kind);
        let end = evaluation(&server, &id, plies, None)["evaluation"].clone();
        assert_eq!(end["exact"], true, "{kind}: {end}");
        assert_eq!(end["iterations"], 0);
        assert_eq!(end["bestMoves"], json!([]));
        let won = winners(&server, &id);
        for s in end["seats"].as_array().unwrap() {
            let want = if won.contains(&s["seat"].as_u64().unwrap()) {
                1.0 / won.len() as f64
            } else {
                0.0
            };
            assert_eq!(s["winChance"].as_f64().unwrap(), want, "{kind}: {end}");
        }

        // A position a third of the way in, where a seat chooses.
        let mut ply = plies / 3;
        let mid = loop {
            let p = evaluation(&server, &id, ply, Some(200));
            if !p["evaluation"]["bestMoves"].as_array().unwrap().is_empty() {
                break p;
            }
            ply += 1;
        };
        let e = &mid["evaluation"];
        assert_eq!(e["exact"], false);
        // Calibrated exactly where the game ships a fit for its player count
        // (data/<game>/calibration.json); the chances still share out one win.
        assert_eq!(
            e["calibrated"],
            shipped_fits(kind).contains(&players),
            "{kind}, {players} players: {e}"
        );
        calibrated += usize::from(e["calibrated"] == true);
        assert_eq!(e["iterations"], 200);
        let total: f64 = e["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["winChance"].as_f64().unwrap())
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "{kind}: {e}");
        for s in e["seats"].as_array().unwrap() {
            let (w, lo, hi) = (
                s["winChance"].as_f64().unwrap(),
                s["low"].as_f64().unwrap(),
                s["high"].as_f64().unwrap(),
            );
            assert!(lo <= w && w <= hi, "{s}");
        }
        // The best moves belong to a seat that may move there, and read in words.
        let best = e["bestMoves"].as_array().unwrap();
        let seat = best[0]["seat"].as_u64().unwrap();
        assert!(mid["seatsToAct"].as_array().unwrap().contains(&json!(seat)));
        for m in best {
            assert_eq!(m["seat"], seat);
            assert!(!m["words"].as_str().unwrap().is_empty(), "{m}");
            assert!(m["visits"].as_u64().unwrap() > 0);
        }
        assert_eq!(
            evaluation(&server, &id, ply, Some(200)),
            mid,
            "{kind}: the same position, perspective and budget give the same figures"
        );
    }
    assert!(
        calibrated > 0,
        "no game's evaluation went through a shipped calibration"
    );
}

#[test]
fn a_game_in_play_is_judged_from_the_callers_perspective() {
    let server = Server::start(&[]);
    let (id, tokens) = create_game(&server, "mombasa", 3, 11);
    for _ in 0..6 {
        play_first(&server, &id, &tokens).unwrap();
    }
    // A spectator may not take the omniscient perspective while the game is on.
    let v = gql(
        &server,
        None,
        EVAL,
        json!({ "id": id, "it": 100, "p": "OMNISCIENT" }),
    );
    assert_eq!(code(&v), "UNAUTHORIZED", "{v}");
    // A spectator's evaluation is given; the seat to act's own lists only its legal moves.
    let theirs = gql(&server, None, EVAL, json!({ "id": id, "it": 100 }));
    let e = &data(&theirs)["game"]["position"]["evaluation"];
    assert_eq!(e["iterations"], 100, "{theirs}");
    assert_eq!(e["seats"].as_array().unwrap().len(), 3);
    let seat = e["bestMoves"][0]["seat"].as_u64().unwrap() as usize;
    let token = tokens[seat].as_str();
    let mine = gql(&server, Some(token), EVAL, json!({ "id": id, "it": 100 }));
    let mut legal: Vec<Value> = Vec::new();
    loop {
        let v = gql(
            &server,
            Some(token),
            "query($id: ID!, $o: Int) { game(id: $id) { position { legalMoves(first: 100, offset: $o) { total moves } } } }",
            json!({ "id": id, "o": legal.len() }),
        );
        let page = &data(&v)["game"]["position"]["legalMoves"];
        legal.extend(page["moves"].as_array().unwrap().iter().cloned());
        if legal.len() as u64 >= page["total"].as_u64().unwrap() {
            break;
        }
    }
    let best = data(&mine)["game"]["position"]["evaluation"]["bestMoves"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!best.is_empty(), "{mine}");
    for m in &best {
        assert!(
            legal.contains(&m["notation"]),
            "{m} is not among seat {seat}'s legal moves {legal:?}"
        );
    }
}

#[test]
fn bad_evaluation_requests_are_refused_by_type() {
    let server = Server::start(&["--bot-max-iterations", "3000"]);
    let (id, plies, _) = finished_game(&server, "FIVE_TRIBES");
    let ask = |q: &str| gql(&server, None, q, json!({ "id": id, "ply": plies / 2 }));
    let v = ask("query($id: ID!, $ply: Int) { game(id: $id) { position(ply: $ply) { evaluation(iterations: 0) { exact } } } }");
    assert_eq!(code(&v), "BAD_INPUT", "{v}");
    let v = ask("query($id: ID!, $ply: Int) { game(id: $id) { position(ply: $ply) { evaluation(iterations: 3001) { exact } } } }");
    assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
    let v = ask("query($id: ID!, $ply: Int) { game(id: $id) { position(ply: $ply) { bestMoves(first: 11, iterations: 10) { notation } } } }");
    assert_eq!(code(&v), "BAD_INPUT", "{v}");
    let six: String = (0..6)
        .map(|i| format!("e{i}: evaluation(iterations: {}) {{ exact }} ", 10 + i))
        .collect();
    let v = ask(&format!(
        "query($id: ID!, $ply: Int) {{ game(id: $id) {{ position(ply: $ply) {{ {six} }} }} }}"
    ));
    assert_eq!(
        code(&v),
        "LIMIT_EXCEEDED",
        "six evaluations in one request: {v}"
    );

    let none = Server::start(&["--eval-threads", "0"]);
    let v = gql(
        &none,
        None,
        "query($id: ID!, $ply: Int) { game(id: $id) { position(ply: $ply) { evaluation(iterations: 10) { exact } } } }",
        json!({ "id": id, "ply": plies / 2 }),
    );
    assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
}
