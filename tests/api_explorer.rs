//! The explorer over HTTP, from outside the binary, on the sample games the server loads:
//! `Position.explorer` and `explorer(kind, players, hash)` answer the same node; its moves add
//! up to its games and each leads to a game that played it; filters narrow it; a game in play
//! shows a node that keeps its secrets (two games that differ only in a hidden move give one
//! node); every bad request is a typed error.

mod common;

use common::{code, create_game, data, gql, plies, Server};
use serde_json::{json, Value};

/// The first legal moves of the seat of `token` in game `id` (at most 10).
fn legal(server: &Server, id: &str, token: &str) -> Vec<String> {
    let v = gql(
        server,
        Some(token),
        "query($id: ID!) { game(id: $id) { position { legalMoves(first: 10) { moves } } } }",
        json!({ "id": id }),
    );
    serde_json::from_value(data(&v)["game"]["position"]["legalMoves"]["moves"].clone()).unwrap()
}

/// Two Mombasa games of one seed (games `a`, with its tokens, and `b`) where seat 0 kept a
/// different start tile (a hidden move): to a spectator the two positions are one.
fn secret_twins(server: &Server, seed: u64) -> (String, Vec<String>, String) {
    let (a, ta) = create_game(server, "mombasa", 2, seed);
    let (b, tb) = create_game(server, "mombasa", 2, seed);
    let keep = legal(server, &a, &ta[0]);
    assert!(keep.len() >= 2, "{keep:?}");
    for (id, token, m) in [(&a, &ta[0], &keep[0]), (&b, &tb[0], &keep[1])] {
        let v = gql(
            server,
            Some(token),
            "mutation($id: ID!, $p: Int!, $m: String!) { playMove(gameId: $id, expectedPly: $p, move: $m) { game { plies } } }",
            json!({ "id": id, "p": plies(server, id), "m": m }),
        );
        assert!(v.get("errors").is_none(), "{v}");
    }
    (a, ta, b)
}

const AT: &str = "query($id: ID!, $ply: Int, $by: ExplorerKey, $f: ExplorerFilterInput) { game(id: $id) { players position(ply: $ply) { explorer(by: $by, filter: $f) { kind players by hash games moves(first: 100) { notation words games wins winRate low high meanScore meanRank lastGame lastPly } } } } }";

fn explorer_at(server: &Server, id: &str, ply: u64, by: &str, filter: Value) -> Value {
    let v = gql(
        server,
        None,
        AT,
        json!({ "id": id, "ply": ply, "by": by, "f": filter }),
    );
    assert!(v.get("errors").is_none(), "{v}");
    data(&v)["game"]["position"]["explorer"].clone()
}

fn first_game(server: &Server, kind: &str) -> String {
    let v = gql(
        server,
        None,
        "query($k: GameKind) { games(kind: $k, status: FINISHED, first: 1) { edges { node { id } } } }",
        json!({ "k": kind }),
    );
    data(&v)["games"]["edges"][0]["node"]["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_node_is_the_same_by_position_and_by_hash_and_its_moves_lead_to_games_that_played_them() {
    let server = Server::start(&[]);
    for kind in ["FIVE_TRIBES", "CLANS_OF_CALEDONIA", "MOMBASA"] {
        let id = first_game(&server, kind);
        // After the deal (entry 0): by line, the node of the first decision, whatever chance
        // entries come before it.
        let node = explorer_at(&server, &id, 1, "LINE", Value::Null);
        let games = node["games"].as_u64().unwrap();
        assert!(
            games >= 2,
            "every sample game of the player count opens there: {node}"
        );
        let moves = node["moves"].as_array().unwrap();
        assert_eq!(
            moves
                .iter()
                .map(|m| m["games"].as_u64().unwrap())
                .sum::<u64>(),
            games,
            "one move a game at the first decision: {node}"
        );
        for m in moves {
            let rate = m["winRate"].as_f64().unwrap();
            assert!(m["low"].as_f64().unwrap() <= rate && rate <= m["high"].as_f64().unwrap());
            assert!(!m["words"].as_str().unwrap().is_empty());
            // The last game to play it reached this node and played it there.
            let last = m["lastGame"].as_str().unwrap();
            let ply = m["lastPly"].as_u64().unwrap();
            let there = explorer_at(&server, last, ply, "LINE", Value::Null);
            assert_eq!(there["hash"], node["hash"], "{m}");
            // By position, that game's own setup: no other sample shares it.
            let alone = explorer_at(&server, last, ply, "POSITION", Value::Null);
            assert_eq!(alone["games"], 1, "{alone}");
            assert_eq!(alone["moves"][0]["notation"], m["notation"]);
            assert_ne!(alone["hash"], node["hash"]);
        }
        // The same node by its hash.
        let v = gql(
            &server,
            None,
            "query($k: GameKind!, $p: Int!, $h: String!) { explorer(kind: $k, players: $p, hash: $h) { games moves(first: 100) { notation games wins } } }",
            json!({ "k": kind, "p": node["players"], "h": node["hash"] }),
        );
        let by_hash = &data(&v)["explorer"];
        assert_eq!(by_hash["games"], node["games"], "{v}");
        assert_eq!(by_hash["moves"].as_array().unwrap().len(), moves.len());
        // Filters: the samples are all bots' moves; a player's games are fewer.
        let people = explorer_at(&server, &id, 1, "LINE", json!({ "movers": "PEOPLE" }));
        assert_eq!(people["games"], 0, "{people}");
        let bots = explorer_at(&server, &id, 1, "LINE", json!({ "movers": "BOTS" }));
        assert_eq!(bots["games"], node["games"]);
        let v = gql(
            &server,
            None,
            "query($id: ID!) { game(id: $id) { players } }",
            json!({ "id": id }),
        );
        let player = data(&v)["game"]["players"][0].clone();
        let mine = explorer_at(&server, &id, 1, "LINE", json!({ "player": player }));
        let n = mine["games"].as_u64().unwrap();
        assert!(0 < n && n <= games, "{mine}");
        let nobody = explorer_at(&server, &id, 1, "LINE", json!({ "player": "nobody" }));
        assert_eq!(nobody["games"], 0, "{nobody}");
        let later = explorer_at(
            &server,
            &id,
            1,
            "LINE",
            json!({ "since": "2100-01-01T00:00:00Z" }),
        );
        assert_eq!(later["games"], 0);
    }
}

#[test]
fn a_game_in_play_gives_a_node_that_keeps_its_secrets() {
    let server = Server::start(&[]);
    // Two Mombasa games of one seed; seat 0 keeps a different start tile in each (a hidden
    // move): to a spectator the two positions are one, and so is their node.
    let (a, ta, b) = secret_twins(&server, 5);
    let ply = plies(&server, &a);
    for by in ["LINE", "POSITION"] {
        let (na, nb) = (
            explorer_at(&server, &a, ply, by, Value::Null),
            explorer_at(&server, &b, ply, by, Value::Null),
        );
        assert_eq!(na["hash"], nb["hash"], "{by}: a secret changed the node");
        // Asked with seat 0's own token, the node is the same: it is made from what is public.
        let v = gql(
            &server,
            Some(&ta[0]),
            AT,
            json!({ "id": a, "ply": ply, "by": by }),
        );
        assert_eq!(
            data(&v)["game"]["position"]["explorer"]["hash"],
            na["hash"],
            "{v}"
        );
    }
}

#[test]
fn bad_explorer_requests_are_refused_by_type() {
    let server = Server::start(&[]);
    let by_hash = |players: i64, hash: &str, f: Value| {
        gql(
            &server,
            None,
            "query($p: Int!, $h: String!, $f: ExplorerFilterInput) { explorer(kind: MOMBASA, players: $p, hash: $h, filter: $f) { games } }",
            json!({ "p": players, "h": hash, "f": f }),
        )
    };
    assert_eq!(code(&by_hash(2, "zz", Value::Null)), "BAD_INPUT");
    assert_eq!(
        code(&by_hash(2, "0123456789abcdeg", Value::Null)),
        "BAD_INPUT"
    );
    assert_eq!(
        code(&by_hash(0, "0123456789abcdef", Value::Null)),
        "BAD_INPUT"
    );
    assert_eq!(
        code(&by_hash(2, "0123456789abcdef", Value::Null)),
        "NOT_FOUND"
    );
    let id = first_game(&server, "MOMBASA");
    let node = explorer_at(&server, &id, 1, "LINE", Value::Null);
    let h = node["hash"].as_str().unwrap();
    let players = node["players"].as_i64().unwrap();
    // A node stored for another player count is not this one's.
    assert_eq!(
        code(&by_hash(if players == 2 { 3 } else { 2 }, h, Value::Null)),
        "NOT_FOUND"
    );
    let backwards = json!({ "since": "2026-02-01T00:00:00Z", "until": "2026-01-01T00:00:00Z" });
    assert_eq!(code(&by_hash(players, h, backwards)), "BAD_INPUT");
    let empty_band = json!({ "ratingMin": 30.0, "ratingMax": 20.0 });
    assert_eq!(code(&by_hash(players, h, empty_band)), "BAD_INPUT");
    assert_eq!(
        code(&by_hash(players, h, json!({ "player": "" }))),
        "BAD_INPUT"
    );
    let v = gql(
        &server,
        None,
        "query($p: Int!, $h: String!) { explorer(kind: MOMBASA, players: $p, hash: $h) { moves(first: 101) { games } } }",
        json!({ "p": players, "h": h }),
    );
    assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
    // A rating band every player is in counts every game; one nobody is in, none.
    let all = by_hash(
        players,
        h,
        json!({ "ratingMin": -1000.0, "ratingMax": 1000.0 }),
    );
    assert_eq!(data(&all)["explorer"]["games"], node["games"], "{all}");
    let none = by_hash(
        players,
        h,
        json!({ "ratingMin": 900.0, "ratingMax": 1000.0 }),
    );
    assert_eq!(data(&none)["explorer"]["games"], 0, "{none}");
}

const EXPLORE: &str = "query($id: ID!, $ply: Int, $m: [String!]!, $seed: String, $q: Int) { game(id: $id) { position(ply: $ply) { explore(moves: $m, seed: $seed) { ply toAct { seat } view explorer { hash } } } at: position(ply: $q) { view explorer { hash } } plies } }";

/// The stored game's entries (actor, notation) in order.
fn entries(server: &Server, id: &str) -> Vec<(String, String)> {
    common::stored_entries(server, id)
        .into_iter()
        .map(|(_, actor, notation)| (actor, notation))
        .collect()
}

#[test]
fn a_branch_that_replays_the_game_reaches_its_stored_positions() {
    let server = Server::start(&[]);
    for (kind, file) in [
        ("FIVE_TRIBES", "five-tribes"),
        ("CLANS_OF_CALEDONIA", "caledonia"),
        ("MOMBASA", "mombasa"),
    ] {
        let id = first_game(&server, kind);
        let record = common::sample_records(file)
            .into_iter()
            .find(|r| r["id"] == id.as_str())
            .unwrap();
        let seed = record["seed"].as_u64().unwrap().to_string();
        let log = entries(&server, &id);
        for from in [1usize, 20, 60] {
            let to = (from + 10).min(log.len());
            // Typed in: every entry as stored. Dealt: the chance entries as `*` from the game's
            // seed, which the store deals from too.
            for dealt in [false, true] {
                let moves: Vec<String> = log[from..to]
                    .iter()
                    .map(|(actor, n)| {
                        if dealt && actor == "dealer" {
                            "*".to_string()
                        } else if actor == "dealer" {
                            n.clone()
                        } else {
                            format!("{actor}: {n}")
                        }
                    })
                    .collect();
                let v = gql(
                    &server,
                    None,
                    EXPLORE,
                    json!({ "id": id, "ply": from, "m": moves, "seed": seed, "q": to }),
                );
                assert!(v.get("errors").is_none(), "{kind} {from}: {v}");
                let g = &data(&v)["game"];
                let e = &g["position"]["explore"];
                assert_eq!(e["ply"], to, "{v}");
                assert_eq!(
                    e["view"], g["at"]["view"],
                    "{kind} from {from} (dealt: {dealt}): the branch is the game"
                );
                assert_eq!(
                    e["explorer"]["hash"], g["at"]["explorer"]["hash"],
                    "{kind}: the branch's line is the game's"
                );
            }
        }
        let plies = data(&gql(
            &server,
            None,
            "query($id: ID!) { game(id: $id) { plies } }",
            json!({ "id": id }),
        ))["game"]["plies"]
            .clone();
        assert_eq!(plies, log.len(), "nothing stored");
    }
}

#[test]
fn a_branch_refuses_an_illegal_move_and_keeps_secrets_in_play() {
    let server = Server::start(&[]);
    let id = first_game(&server, "FIVE_TRIBES");
    let v = gql(
        &server,
        None,
        EXPLORE,
        json!({ "id": id, "ply": 1, "m": ["bid 18", "bid 18"], "q": 1 }),
    );
    assert_eq!(code(&v), "ILLEGAL_MOVE", "{v}");
    assert_eq!(v["errors"][0]["extensions"]["ply"], 3, "{v}");
    assert!(v["errors"][0]["extensions"]["rule"].is_string(), "{v}");
    let v = gql(
        &server,
        None,
        EXPLORE,
        json!({ "id": id, "ply": 1, "m": ["fly away"], "q": 1 }),
    );
    assert_eq!(code(&v), "BAD_NOTATION", "{v}");
    let long: Vec<String> = (0..201).map(|_| "bid 0".to_string()).collect();
    let v = gql(
        &server,
        None,
        EXPLORE,
        json!({ "id": id, "ply": 1, "m": long, "q": 1 }),
    );
    assert_eq!(code(&v), "LIMIT_EXCEEDED", "{v}");
    let v = gql(
        &server,
        None,
        EXPLORE,
        json!({ "id": id, "ply": 1, "m": [], "seed": "minus one", "q": 1 }),
    );
    assert_eq!(code(&v), "BAD_INPUT", "{v}");

    // In play: two Mombasa games of one seed, seat 0's hidden start tile differing. A
    // spectator's branch from either is the same branch: views, moves and node alike.
    let (a, ta, b) = secret_twins(&server, 9);
    let seat1 = legal(&server, &a, &ta[1]);
    let branch = |id: &str| {
        let v = gql(&server, None, "query($id: ID!, $m: [String!]!) { game(id: $id) { position { explore(moves: $m, seed: \"4\") { ply view toAct { seat } legalMoves(first: 100) { total moves words } explorer { hash } } } } }", json!({ "id": id, "m": [format!("1: {}", seat1[0])] }));
        assert!(v.get("errors").is_none(), "{v}");
        data(&v)["game"]["position"]["explore"].clone()
    };
    assert_eq!(branch(&a), branch(&b), "a secret showed through the branch");
    // A search longer than 100 characters is refused before any work.
    let v = gql(
        &server,
        None,
        "query($id: ID!, $q: String) { game(id: $id) { position(ply: 1) { explore(moves: []) { legalMoves(search: $q) { total } } } } }",
        json!({ "id": id, "q": "x".repeat(101) }),
    );
    assert_eq!(code(&v), "BAD_INPUT", "{v}");
}

#[test]
fn a_move_carries_the_reviews_verdict_once_its_games_are_reviewed() {
    let server = Server::start(&["--review-threads", "1", "--review-iterations", "10"]);
    let id = first_game(&server, "MOMBASA");
    // Asking for the game's evaluation moves it to the front of the review queue.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(180);
    loop {
        let v = gql(
            &server,
            None,
            "query($id: ID!) { game(id: $id) { evaluation { status plies { winChances } } } }",
            json!({ "id": id }),
        );
        if data(&v)["game"]["evaluation"]["status"] == "DONE" {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not reviewed in time: {v}"
        );
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    // Its first seat move, by line: the node lists it with the review's chance after it.
    let moves = common::stored_entries(&server, &id);
    let (ply, seat, played) = moves
        .iter()
        .find(|(_, actor, _)| actor != "dealer")
        .map(|(p, a, m)| (p - 1, a.parse::<usize>().unwrap(), m.clone()))
        .unwrap();
    let v = gql(
        &server,
        None,
        "query($id: ID!, $p: Int) { game(id: $id) { evaluation { plies { winChances } } position(ply: $p) { explorer { moves(first: 100) { notation lastGame evaluation { reviewed meanWinChance } } } } } }",
        json!({ "id": id, "p": ply }),
    );
    let g = &data(&v)["game"];
    let m = g["position"]["explorer"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["notation"] == played.as_str())
        .unwrap_or_else(|| panic!("{played} not listed: {v}"));
    let e = &m["evaluation"];
    assert!(e["reviewed"].as_u64().unwrap() >= 1, "{v}");
    let mean = e["meanWinChance"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&mean), "{v}");
    if e["reviewed"] == 1 {
        // This game alone: its own review's chance for the mover after the move.
        let after = g["evaluation"]["plies"][ply as usize + 1]["winChances"][seat]
            .as_f64()
            .unwrap();
        assert!((mean - after).abs() < 1e-6, "{mean} vs {after}: {v}");
    }
}

#[test]
fn a_branch_is_kept_in_a_study_and_its_link_opens_it() {
    const ANA: &str = "ana-token-0123456789";
    let server = Server::start(&["--annotators", &format!("Ana={ANA}")]);
    let id = first_game(&server, "FIVE_TRIBES");
    let make = "mutation($i: [StudyItemInput!]!) { createStudy(name: \"What if\", items: $i) { id items { gameId ply branch url } } }";
    let v = gql(
        &server,
        Some(ANA),
        make,
        json!({ "i": [{ "gameId": id, "ply": 1, "branch": ["bid 18"] }] }),
    );
    assert!(v.get("errors").is_none(), "{v}");
    let item = &data(&v)["createStudy"]["items"][0];
    assert_eq!(item["branch"], json!(["bid 18"]));
    assert_eq!(
        item["url"],
        format!("/games/{id}?ply=1&branch=1&b=bid%2018")
    );
    let sid = data(&v)["createStudy"]["id"].as_str().unwrap().to_string();
    let v = gql(
        &server,
        None,
        "query($id: ID!) { study(id: $id) { items { branch } } }",
        json!({ "id": sid }),
    );
    assert_eq!(
        data(&v)["study"]["items"][0]["branch"],
        json!(["bid 18"]),
        "{v}"
    );
    // A branch that does not play, one on a game in play, and one too long are refused; nothing is kept.
    let v = gql(
        &server,
        Some(ANA),
        make,
        json!({ "i": [{ "gameId": id, "ply": 1, "branch": ["bid 18", "bid 18"] }] }),
    );
    assert_eq!(code(&v), "ILLEGAL_MOVE", "{v}");
    let (live, _) = create_game(&server, "five-tribes", 2, 3);
    let v = gql(
        &server,
        Some(ANA),
        make,
        json!({ "i": [{ "gameId": live, "ply": 1, "branch": ["bid 0"] }] }),
    );
    assert_eq!(code(&v), "BAD_INPUT", "{v}");
    let long: Vec<&str> = vec!["bid 0"; 201];
    let v = gql(
        &server,
        Some(ANA),
        make,
        json!({ "i": [{ "gameId": id, "ply": 1, "branch": long }] }),
    );
    assert_eq!(code(&v), "BAD_INPUT", "{v}");
    // Without an analyst's token, no study.
    let v = gql(
        &server,
        None,
        make,
        json!({ "i": [{ "gameId": id, "ply": 1, "branch": ["bid 18"] }] }),
    );
    assert_eq!(code(&v), "UNAUTHORIZED", "{v}");
}
