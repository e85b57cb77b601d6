//! Every game through the service: Clans of Caledonia and Mombasa end to end, Mombasa's
//! simultaneous secret moves, and state hashes of active games.

mod common;
use common::{code, data, gql, Server};
use serde_json::json;

/// A kind's GraphQL enum value (`clans-of-caledonia` → `CLANS_OF_CALEDONIA`).
fn enum_name(kind: &str) -> String {
    kind.to_uppercase().replace('-', "_")
}

/// Clans of Caledonia and Mombasa plug into every part of the service as Five Tribes does:
/// creation and play, statistics, position queries on their own features, exports, charts.
#[test]
fn every_game_is_served_end_to_end() {
    let server = Server::start(&[]);
    for (kind, players, feature_filter) in [
        (
            "clans-of-caledonia",
            3,
            "round >= 2 && seats.exists(s, s.money > 20 && s.glory >= 0)",
        ),
        ("mombasa", 4, "round == 3 && seats.exists(s, s.pounds >= 3)"),
    ] {
        // Create and play a move as the seat to act.
        let v = gql(
            &server,
            None,
            "mutation($k: GameKind!, $p: [String!]!) { createGame(kind: $k, players: $p) {
                 game { id plies position { toAct { kind seat } } } seatTokens } }",
            json!({ "k": enum_name(kind), "p": (0..players).map(|i| format!("p{i}")).collect::<Vec<_>>() }),
        );
        let created = &data(&v)["createGame"];
        let id = created["game"]["id"].as_str().unwrap().to_string();
        let seat = created["game"]["position"]["toAct"]["seat"]
            .as_u64()
            .unwrap() as usize;
        let ply = created["game"]["plies"].as_u64().unwrap();
        let token = created["seatTokens"][seat].as_str().unwrap().to_string();
        let v = gql(
            &server,
            Some(&token),
            "query($id: ID!) { game(id: $id) { position { legalMoves(first: 1) { moves total } } } }",
            json!({ "id": id }),
        );
        let m = data(&v)["game"]["position"]["legalMoves"]["moves"][0]
            .as_str()
            .unwrap()
            .to_string();
        let v = gql(
            &server,
            Some(&token),
            "mutation($id: ID!, $p: Int!, $m: String!) { playMove(gameId: $id, expectedPly: $p, move: $m) { game { plies } } }",
            json!({ "id": id, "p": ply, "m": m }),
        );
        assert!(
            data(&v)["playMove"]["game"]["plies"].as_u64().unwrap() > ply,
            "{kind}: {v}"
        );
        // A malformed move is a typed error.
        let v = gql(
            &server,
            Some(&token),
            "mutation($id: ID!, $p: Int!) { playMove(gameId: $id, expectedPly: $p, move: \"%%%\") { game { plies } } }",
            json!({ "id": id, "p": ply + 1 }),
        );
        assert_eq!(code(&v), "BAD_NOTATION", "{kind}: {v}");

        // Statistics and ratings over the 200 samples.
        let v = gql(
            &server,
            None,
            "query($k: GameKind!) { statistics(kind: $k) { games byPlayerCount { tagGroups { group tags { tag } } } scores { byCategory { category } } } ratings(kind: $k, first: 3) { player games } }",
            json!({ "k": enum_name(kind) }),
        );
        let stats = &data(&v)["statistics"];
        assert_eq!(stats["games"], 200, "{kind}");
        assert!(
            stats["byPlayerCount"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| !p["tagGroups"].as_array().unwrap().is_empty()),
            "{kind} has tags"
        );
        assert!(
            !stats["scores"]["byCategory"].as_array().unwrap().is_empty(),
            "{kind} has categories"
        );
        assert_eq!(data(&v)["ratings"].as_array().unwrap().len(), 3);

        // Position queries on the game's own features, and the export agrees.
        let v = gql(
            &server,
            None,
            "query($k: GameKind!, $w: String!) { positions(kind: $k, where: $w, first: 3) {
                 edges { node { round players } } scanned } }",
            json!({ "k": enum_name(kind), "w": feature_filter }),
        );
        let edges = data(&v)["positions"]["edges"].as_array().unwrap().clone();
        assert_eq!(edges.len(), 3, "{kind}: {v}");
        let v = gql(
            &server,
            None,
            "query($k: GameKind!) { positions(kind: $k, where: \"seats.exists(s, s.viziers > 0)\") { scanned } }",
            json!({ "k": enum_name(kind) }),
        );
        assert_eq!(code(&v), "BAD_QUERY", "viziers are Five Tribes' only");
        let csv = ureq::get(&format!("{}/exports/{kind}/games.csv", server.url))
            .call()
            .unwrap()
            .into_string()
            .unwrap();
        let seats: usize = csv.lines().count() - 1;
        assert!(seats >= 200, "{kind}: a row per game and seat");
        let svg = ureq::get(&format!(
            "{}/charts/{kind}/win-rate-by-seat.svg",
            server.url
        ))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
        assert!(
            svg.starts_with("<svg") || svg.starts_with("<?xml"),
            "{kind}"
        );
    }
    // `rules` tells how much of each game's data is verified.
    let v = gql(
        &server,
        None,
        "{ rules { kind data { verifiedShare } } }",
        json!({}),
    );
    let rules = data(&v)["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 3);
    for r in rules {
        let share = r["data"]["verifiedShare"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&share));
    }
}

/// Mombasa's secret choices (the start tile kept) are hidden from the other seats and from
/// spectators in the log while the game is on; their own seat sees them.
#[test]
fn secret_moves_are_hidden_from_others_in_the_log() {
    let server = Server::start(&["--no-samples"]);
    let v = gql(
        &server,
        None,
        r#"mutation { createGame(kind: MOMBASA, players: ["a", "b"]) {
               game { id plies position { seatsToAct toAct { seat } } } seatTokens } }"#,
        json!({}),
    );
    let c = &data(&v)["createGame"];
    let id = c["game"]["id"].as_str().unwrap().to_string();
    // The start tile is chosen simultaneously: both seats may move, and the second seat goes
    // first here although `toAct` names seat 0.
    assert_eq!(c["game"]["position"]["seatsToAct"], json!([0, 1]), "{v}");
    assert_eq!(c["game"]["position"]["toAct"]["seat"], 0);
    let seat = 1usize;
    let ply = c["game"]["plies"].as_u64().unwrap();
    let tokens: Vec<String> = c["seatTokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let legal = gql(
        &server,
        Some(&tokens[seat]),
        "query($id: ID!) { game(id: $id) { position { legalMoves(first: 1) { moves } } } }",
        json!({ "id": id }),
    );
    let m = data(&legal)["game"]["position"]["legalMoves"]["moves"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.starts_with("keep "),
        "the first decision is the start tile kept: {m}"
    );
    let v = gql(
        &server,
        Some(&tokens[seat]),
        "mutation($id: ID!, $p: Int!, $m: String!) { playMove(gameId: $id, expectedPly: $p, move: $m) { game { plies } } }",
        json!({ "id": id, "p": ply, "m": m }),
    );
    data(&v);
    let log = |token: Option<&str>| {
        let v = gql(
            &server,
            token,
            "query($id: ID!) { game(id: $id) { moves(first: 50) { edges { node { ply move } } } } }",
            json!({ "id": id }),
        );
        data(&v)["game"]["moves"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["node"]["ply"] == ply + 1) // moves are numbered from 1
            .map(|e| e["node"]["move"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(log(Some(&tokens[seat])), m, "the seat sees its own choice");
    assert_eq!(log(Some(&tokens[1 - seat])), "hidden");
    assert_eq!(log(None), "hidden");
}

/// While a game is on, its `stateHash` is keyed by the game too: a copy with the same seed,
/// played on the same server, cannot confirm a guess of a secret move by matching hashes.
#[test]
fn active_games_do_not_share_state_hashes() {
    let server = Server::start(&["--no-samples"]);
    let hash_of_new_game = || {
        let v = gql(
            &server,
            None,
            r#"mutation { createGame(kind: MOMBASA, players: ["a", "b"], seed: "42") {
                   game { position { stateHash } } } }"#,
            json!({}),
        );
        data(&v)["createGame"]["game"]["position"]["stateHash"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (a, b) = (hash_of_new_game(), hash_of_new_game());
    assert_eq!(a.len(), 16);
    assert_ne!(
        a, b,
        "the same position in two active games hashes differently"
    );
}
