//! The analysis half of the service, driven from outside: statistics agree with the exported
//! CSV as Python reads it, charts are valid SVG, and position queries filter, page, look up by
//! state hash and export.

mod common;
use common::{code, data, gql, sample_records, Server};
use serde_json::{json, Value};

#[test]
fn exported_csv_agrees_with_the_statistics_query_outside_rust() {
    let server = Server::start(&[]);
    let csv = ureq::get(&format!("{}/exports/five-tribes/games.csv", server.url))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    let path = server.dir.path().join("games.csv");
    std::fs::write(&path, &csv).unwrap();
    // Python's csv module computes wins (shared wins split) and mean score per seat, 4 players.
    let script = r#"
import csv, json, sys
wins, scores, n = {}, {}, 0
for r in csv.DictReader(open(sys.argv[1])):
    if r["players"] != "4":
        continue
    s = int(r["seat"])
    parts = sum(int(r[k]) for k in r if k.startswith("score_"))
    assert parts == int(r["score"]), r
    wins[s] = wins.get(s, 0.0) + (1.0 / int(r["winners"]) if r["won"] == "true" else 0.0)
    scores.setdefault(s, []).append(int(r["score"]))
print(json.dumps({"wins": [wins[s] for s in sorted(wins)], "means": [sum(v) / len(v) for _, v in sorted(scores.items())], "games": len(scores[0])}))
"#;
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&path)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let py: Value = serde_json::from_slice(&out.stdout).unwrap();
    let v = gql(
        &server,
        None,
        "{ statistics(kind: FIVE_TRIBES, filter: { playerCount: 4 }) { games byPlayerCount { players bySeat { seat meanScore win { successes trials } } } } }",
        json!({}),
    );
    let st = &data(&v)["statistics"];
    assert_eq!(st["games"], py["games"]);
    let four = &st["byPlayerCount"][0];
    assert_eq!(four["players"], 4);
    for (i, seat) in four["bySeat"].as_array().unwrap().iter().enumerate() {
        let (w, m) = (
            py["wins"][i].as_f64().unwrap(),
            py["means"][i].as_f64().unwrap(),
        );
        // Figures are rounded where they are made: 4 decimals for wins, 2 for means.
        assert!(
            (seat["win"]["successes"].as_f64().unwrap() - w).abs() < 1e-4,
            "seat {i}"
        );
        assert!(
            (seat["meanScore"].as_f64().unwrap() - m).abs() < 0.005 + 1e-9,
            "seat {i}"
        );
    }
    // The moves table streams every entry of every finished game.
    let moves = ureq::get(&format!("{}/exports/five-tribes/moves.ndjson", server.url))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    let entries: usize = sample_records("five-tribes")
        .iter()
        .map(|r| r["entries"].as_array().unwrap().len())
        .sum();
    assert_eq!(moves.lines().count(), entries);
    // One ply numbering on every surface: the entry that makes position n is ply n in the
    // export, in `moves` and in `replay`.
    let first: Vec<Value> = moves
        .lines()
        .take(5)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let id = first[0]["game_id"].as_str().unwrap();
    let v = gql(
        &server,
        None,
        "query($id: ID!) { game(id: $id) { moves(first: 5) { edges { node { ply move } } } replay(toPly: 5) { ply move } } }",
        json!({ "id": id }),
    );
    let g = &data(&v)["game"];
    for (i, row) in first.iter().enumerate() {
        assert_eq!(row["game_id"], id);
        assert_eq!(row["ply"], i + 1, "{row}");
        let node = &g["moves"]["edges"][i]["node"];
        assert_eq!((&node["ply"], &node["move"]), (&row["ply"], &row["move"]));
        let frame = &g["replay"][i];
        assert_eq!((&frame["ply"], &frame["move"]), (&row["ply"], &row["move"]));
    }
    let r = ureq::get(&format!("{}/exports/five-tribes/nothing.csv", server.url)).call();
    assert!(matches!(r, Err(ureq::Error::Status(404, _))));
    let r = ureq::get(&format!("{}/exports/chess/games.csv", server.url)).call();
    assert!(matches!(r, Err(ureq::Error::Status(404, _))));
}

#[test]
fn charts_are_valid_svg_drawn_from_the_statistics() {
    let server = Server::start(&[]);
    for chart in ["win-rate-by-seat", "win-rate-by-tag", "score-by-category"] {
        let r = ureq::get(&format!("{}/charts/five-tribes/{chart}.svg", server.url))
            .call()
            .unwrap();
        assert_eq!(r.header("content-type"), Some("image/svg+xml"));
        let svg = r.into_string().unwrap();
        let path = server.dir.path().join(format!("{chart}.svg"));
        std::fs::write(&path, &svg).unwrap();
        // Well-formed XML with an <svg> root, by Python's standard XML parser.
        let out = std::process::Command::new("python3")
            .args(["-c", "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.tag.endswith('svg'), r.tag; print(len(list(r.iter())))"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{chart}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let elements: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
        assert!(elements > 20, "{chart} draws something");
    }
    let svg = ureq::get(&format!(
        "{}/charts/five-tribes/win-rate-by-tag.svg",
        server.url
    ))
    .call()
    .unwrap()
    .into_string()
    .unwrap();
    // One panel per tag group and player count: the djinns' panel names Baal.
    assert!(
        svg.contains("djinn · 2 players") && svg.contains("baal"),
        "{svg}"
    );
    let r = ureq::get(&format!("{}/charts/five-tribes/pie.svg", server.url)).call();
    assert!(matches!(r, Err(ureq::Error::Status(404, _))));
}

#[test]
fn positions_are_filtered_paged_looked_up_by_hash_and_exported() {
    let server = Server::start(&[]);
    let q = r#"query($where: String, $after: String, $first: Int) {
        positions(kind: FIVE_TRIBES, where: $where, first: $first, after: $after) {
            edges { cursor node { gameId ply round phase toAct players
                    features { name value } seats { seat features { name value } } } }
            pageInfo { hasNextPage endCursor }
            scanned budgetExhausted resumeAfter
        } }"#;
    let filter = "round == 3 && seats.exists(s, s.viziers >= 5)";
    let v = gql(&server, None, q, json!({ "where": filter, "first": 5 }));
    let p = &data(&v)["positions"];
    let edges = p["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 5, "{v}");
    for e in edges {
        let n = &e["node"];
        assert_eq!(n["round"], 3);
        let viziers = |s: &Value| {
            s["features"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["name"] == "viziers")
                .unwrap()["value"]
                .as_i64()
                .unwrap()
        };
        assert!(
            n["seats"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| viziers(s) >= 5),
            "{n}"
        );
    }
    assert_eq!(p["pageInfo"]["hasNextPage"], true);
    assert_eq!(p["resumeAfter"], p["pageInfo"]["endCursor"]);
    // The next page starts after the first and repeats nothing.
    let v2 = gql(
        &server,
        None,
        q,
        json!({ "where": filter, "first": 5, "after": p["pageInfo"]["endCursor"] }),
    );
    let first_ids: Vec<String> = edges.iter().map(|e| e["cursor"].to_string()).collect();
    let second = data(&v2)["positions"]["edges"].as_array().unwrap();
    assert!(!second.is_empty(), "the second page has rows: {v2}");
    for e in second {
        assert!(!first_ids.contains(&e["cursor"].to_string()));
    }

    // Errors: the column of a syntax error and of an unknown name; a bad cursor.
    let v = gql(&server, None, q, json!({ "where": "round ==" }));
    assert_eq!(code(&v), "BAD_QUERY");
    assert_eq!(v["errors"][0]["extensions"]["column"], 9, "{v}");
    let v = gql(
        &server,
        None,
        q,
        json!({ "where": "round == 3 && seats[0].wealth > 1" }),
    );
    assert_eq!(code(&v), "BAD_QUERY");
    assert_eq!(v["errors"][0]["extensions"]["column"], 23, "{v}");
    assert!(v["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("wealth"));
    let v = gql(&server, None, q, json!({ "after": "not-a-cursor" }));
    assert_eq!(code(&v), "BAD_INPUT");

    // The same state reached elsewhere: a position's hash finds its own game and ply.
    let v = gql(
        &server,
        None,
        r#"{ games(kind: FIVE_TRIBES, status: FINISHED, first: 1) {
               edges { node { id position(ply: 30) { stateHash } } } } }"#,
        json!({}),
    );
    let node = &data(&v)["games"]["edges"][0]["node"];
    let hash = node["position"]["stateHash"].as_str().unwrap();
    let v = gql(
        &server,
        None,
        "query($h: String!) { positionsByHash(stateHash: $h) { gameId kind ply } }",
        json!({ "h": hash }),
    );
    let hits = data(&v)["positionsByHash"].as_array().unwrap();
    assert!(
        hits.iter()
            .any(|h| h["gameId"] == node["id"] && h["ply"] == 30),
        "{v}"
    );
    let v = gql(
        &server,
        None,
        "{ positionsByHash(stateHash: \"xyz\") { ply } }",
        json!({}),
    );
    assert_eq!(code(&v), "BAD_INPUT");

    // The export holds exactly the rows the query pages through.
    let mut paged = 0;
    let mut after = Value::Null;
    loop {
        let v = gql(
            &server,
            None,
            q,
            json!({ "where": "ply == 100", "first": 20, "after": after }),
        );
        let p = &data(&v)["positions"];
        paged += p["edges"].as_array().unwrap().len();
        if p["pageInfo"]["hasNextPage"] != true {
            break;
        }
        after = p["resumeAfter"].clone();
    }
    let body = ureq::get(&format!(
        "{}/exports/five-tribes/positions.ndjson?where=ply%20%3D%3D%20100",
        server.url
    ))
    .call()
    .unwrap()
    .into_string()
    .unwrap();
    let lines: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(paged > 20, "more than one page: {paged}");
    assert_eq!(lines.len(), paged);
    assert!(lines.iter().all(|l| l["ply"] == 100));
    match ureq::get(&format!(
        "{}/exports/five-tribes/positions.ndjson?where=round%20%3D%3D",
        server.url
    ))
    .call()
    {
        Err(ureq::Error::Status(400, r)) => {
            let e: Value = r.into_json().unwrap();
            let ext = &e["errors"][0]["extensions"];
            assert_eq!(ext["code"], "BAD_QUERY", "{e}");
            assert_eq!(ext["column"], 9, "{e}");
        }
        other => panic!("expected 400, got {:?}", other.map(|r| r.status())),
    }

    // `rules` says which features there are and how much of the data is verified.
    let v = gql(
        &server,
        None,
        "{ rules { kind data { verified reconstructed verifiedShare } features { phases global seat } } }",
        json!({}),
    );
    let ft = &data(&v)["rules"][0];
    assert_eq!(ft["data"]["verifiedShare"], 1.0);
    assert!(ft["data"]["verified"].as_u64().unwrap() > 50);
    assert!(ft["features"]["seat"]
        .as_array()
        .unwrap()
        .contains(&json!("viziers")));
}
