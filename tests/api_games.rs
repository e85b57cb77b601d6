//! Every game through the service: Clans of Caledonia and Mombasa end to end, Mombasa's
//! simultaneous secret moves, and state hashes of active games.

mod common;
use common::{code, data, gql, sample_records, Server};
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

        // Statistics and ratings over the samples (every one finished).
        let v = gql(
            &server,
            None,
            "query($k: GameKind!) { statistics(kind: $k) { games byPlayerCount { tagGroups { group tags { tag } } } scores { byCategory { category } } } ratings(kind: $k, first: 3) { player games } }",
            json!({ "k": enum_name(kind) }),
        );
        let stats = &data(&v)["statistics"];
        let file = if kind == "clans-of-caledonia" {
            "caledonia"
        } else {
            kind
        };
        assert_eq!(stats["games"], sample_records(file).len(), "{kind}");
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
        let want: usize = sample_records(file)
            .iter()
            .map(|r| r["players"].as_array().unwrap().len())
            .sum();
        assert_eq!(seats, want, "{kind}: a row per game and seat");
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

/// Sends one entry with the recorder's (or a seat's) token: the answer.
fn record(
    server: &Server,
    token: &str,
    id: &str,
    ply: u64,
    actor: &str,
    notation: &str,
) -> serde_json::Value {
    gql(
        server,
        Some(token),
        "mutation($id: ID!, $p: Int!, $a: String!, $n: String!) { recordEntry(gameId: $id, expectedPly: $p, actor: $a, notation: $n) { game { plies } } }",
        json!({ "id": id, "p": ply, "a": actor, "n": notation }),
    )
}

/// A game dealt at the table (`dealing: TABLE`): its id, seat tokens and recorder token.
fn table_game(
    server: &Server,
    kind: &str,
    players: &serde_json::Value,
    options: &serde_json::Value,
) -> (String, Vec<String>, String) {
    let v = gql(
        server,
        None,
        "mutation($k: GameKind!, $p: [String!]!, $o: JSON) { createGame(kind: $k, players: $p, options: $o, dealing: TABLE) { game { id plies } seatTokens recorderToken } }",
        json!({ "k": enum_name(kind), "p": players, "o": options }),
    );
    let c = &data(&v)["createGame"];
    assert_eq!(
        c["game"]["plies"], 0,
        "nothing is dealt before the table deals: {v}"
    );
    (
        c["game"]["id"].as_str().unwrap().to_string(),
        serde_json::from_value(c["seatTokens"].clone()).unwrap(),
        c["recorderToken"].as_str().unwrap().to_string(),
    )
}

/// A random game of `kind` for two, as `ludolog simulate --log` plays it (this build's rules
/// and data, dealt from a seed as the store deals): the seed and every entry (actor, notation).
fn simulated(kind: &str, seed: u64) -> (u64, Vec<(String, String)>) {
    let out = std::process::Command::new(common::ludolog())
        .args([
            "simulate",
            "--game",
            kind,
            "--players",
            "2",
            "--games",
            "1",
            "--log",
        ])
        .args(["--seed", &seed.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let log = String::from_utf8(out.stderr).unwrap();
    let mut lines = log.lines();
    let game_seed = lines
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let entries = lines
        .map(|l| {
            let (a, n) = l.split_once(' ').unwrap();
            (a.to_string(), n.to_string())
        })
        .collect();
    (game_seed, entries)
}

/// One person records a whole table game of each kind with the recorder token alone — every
/// seat's move and every chance outcome as the table dealt it. It is the same game as the
/// one the store deals from a seed when the deal is the same (the seats' moves played with
/// their own tokens): the same log and the same final position, as a spectator sees them. And
/// while it is played, what the rules hide stays hidden from spectators, as for a dealt game.
#[test]
fn a_table_game_of_each_kind_recorded_by_its_recorder_alone_is_the_game_dealt_by_seed() {
    let server = Server::start(&["--no-samples"]);
    for kind in ["five-tribes", "clans-of-caledonia", "mombasa"] {
        let (seed, entries) = simulated(kind, 7);
        let players = json!(["Ana", "Bruno"]);
        // The game the store deals from the seed; the seats play their own moves.
        let v = gql(
            &server,
            None,
            "mutation($k: GameKind!, $p: [String!]!, $s: String) { createGame(kind: $k, players: $p, seed: $s) { game { id } seatTokens } }",
            json!({ "k": enum_name(kind), "p": players, "s": seed.to_string() }),
        );
        let c = &data(&v)["createGame"];
        let dealt = c["game"]["id"].as_str().unwrap().to_string();
        let seats: Vec<String> = serde_json::from_value(c["seatTokens"].clone()).unwrap();
        for (ply, (actor, notation)) in entries.iter().enumerate() {
            if actor == "dealer" {
                continue;
            }
            let v = gql(
                &server,
                Some(&seats[actor.parse::<usize>().unwrap()]),
                "mutation($id: ID!, $p: Int!, $m: String!) { playMove(gameId: $id, expectedPly: $p, move: $m) { game { plies } } }",
                json!({ "id": dealt, "p": ply, "m": notation }),
            );
            data(&v);
        }
        // The same game at a table, entered by its recorder alone.
        let (id, _, recorder) = table_game(&server, kind, &players, &json!({ "players": 2 }));
        for (ply, (actor, notation)) in entries.iter().enumerate() {
            let v = record(&server, &recorder, &id, ply as u64, actor, notation);
            assert_eq!(
                data(&v)["recordEntry"]["game"]["plies"],
                ply + 1,
                "{kind}: {v}"
            );
            if ply == 3 && kind == "mombasa" {
                // The start tiles each seat drew are its own: a spectator sees them hidden.
                let log = common::stored_entries(&server, &id);
                let drawn: Vec<&str> = log[1..3].iter().map(|(_, _, m)| m.as_str()).collect();
                assert_eq!(drawn, ["hidden", "hidden"], "{log:?}");
            }
        }
        let end = |id: &str| {
            let v = gql(&server, None, "query($id: ID!) { game(id: $id) { status plies position { view scores { seat total } } } }", json!({ "id": id }));
            (
                data(&v)["game"].clone(),
                common::stored_entries(&server, id),
            )
        };
        // Each entry says who typed it in: here the recorder; in the dealt game the seats
        // (their own moves), and nobody for the store's deals.
        let by = |id: &str| {
            let v = gql(&server, None, "query($id: ID!) { game(id: $id) { moves(first: 6) { nodes { actor enteredBy } } } }", json!({ "id": id }));
            data(&v)["game"]["moves"]["nodes"]
                .as_array()
                .unwrap()
                .clone()
        };
        assert!(
            by(&id).iter().all(|m| m["enteredBy"] == "recorder"),
            "{:?}",
            by(&id)
        );
        for m in by(&dealt) {
            let want = if m["actor"] == "dealer" {
                serde_json::Value::Null
            } else {
                m["actor"].clone()
            };
            assert_eq!(m["enteredBy"], want, "{m}");
        }
        let table = end(&id);
        assert_eq!(table.0["status"], "FINISHED", "{kind}");
        assert_eq!(table.0["plies"].as_u64(), Some(entries.len() as u64));
        assert_eq!(
            table,
            end(&dealt),
            "{kind}: the table game is the seeded game"
        );
    }
}

/// What a recorder may not enter is refused with a typed error and writes nothing: a layout
/// with a 31st tile, meeples that are not in the bag, a draw of the wrong size, start tiles
/// another seat already drew; chance
/// outcomes from a seat's token, another seat's move, a deal for a game the store deals; a
/// table game with a seed.
#[test]
fn impossible_deals_and_entries_nobody_may_make_are_refused_and_write_nothing() {
    let server = Server::start(&["--no-samples"]);
    let (_, ft) = simulated("five-tribes", 3);
    let players = json!(["Ana", "Bruno"]);
    let (id, tokens, recorder) =
        table_game(&server, "five-tribes", &players, &json!({ "players": 2 }));
    let deal = ft[0].1.clone();
    let plies = |id: &str| {
        let v = gql(
            &server,
            None,
            "query($id: ID!) { game(id: $id) { plies } }",
            json!({ "id": id }),
        );
        data(&v)["game"]["plies"].as_u64().unwrap()
    };
    // A 31st tile.
    let layout_end = deal.find(" meeples=").unwrap();
    let extra_tile = format!("{}.P6{}", &deal[..layout_end], &deal[layout_end..]);
    // One meeple changed to another colour: all 90 are laid out, so that colour has none left.
    let m = deal.find("meeples=").unwrap() + "meeples=".len();
    let swapped = deal[m..].chars().next().unwrap();
    let other = if swapped == 'R' { 'Y' } else { 'R' };
    let bad_meeple = format!("{}{other}{}", &deal[..m], &deal[m + 1..]);
    for (bad, code_is, says) in [
        (extra_tile, "BAD_NOTATION", "too many"),
        (
            bad_meeple,
            "ILLEGAL_MOVE",
            "a colour is laid more or fewer times than the bag holds it",
        ),
    ] {
        let v = record(&server, &recorder, &id, 0, "dealer", &bad);
        assert_eq!(code(&v), code_is, "{bad}: {v}");
        assert!(v.to_string().contains(says), "{v}");
        eprintln!("refused: {}", v["errors"][0]["message"]);
    }
    // A seat's token: not for chance outcomes, not for another seat's move.
    let v = record(&server, &tokens[0], &id, 0, "dealer", &deal);
    assert_eq!(code(&v), "UNAUTHORIZED", "{v}");
    assert_eq!(plies(&id), 0, "nothing written");
    let v = record(&server, &recorder, &id, 0, "dealer", &deal);
    data(&v);
    let (actor, bid) = &ft[1];
    let other_seat = if actor == "0" { 1 } else { 0 };
    let v = record(&server, &tokens[other_seat], &id, 1, actor, bid);
    assert_eq!(code(&v), "UNAUTHORIZED", "{v}");
    let v = record(&server, &recorder, &id, 1, "7", "bid 3");
    assert_eq!(code(&v), "BAD_INPUT", "{v}");
    assert_eq!(plies(&id), 1);

    // Mombasa: a draw of three start tiles where the rules deal two.
    let (_, mb) = simulated("mombasa", 3);
    let (mid, _, mrec) = table_game(&server, "mombasa", &players, &json!({ "players": 2 }));
    data(&record(&server, &mrec, &mid, 0, "dealer", &mb[0].1));
    let v = record(
        &server,
        &mrec,
        &mid,
        1,
        "dealer",
        &format!("{},T5", mb[1].1),
    );
    assert_eq!(code(&v), "BAD_NOTATION", "{v}");
    eprintln!("refused: {}", v["errors"][0]["message"]);
    // The second seat's start tiles may not be the ones the first seat already drew.
    data(&record(&server, &mrec, &mid, 1, "dealer", &mb[1].1));
    let taken = mb[1].1.replacen("tiles 0", "tiles 1", 1);
    let v = record(&server, &mrec, &mid, 2, "dealer", &taken);
    assert_eq!(code(&v), "ILLEGAL_MOVE", "{taken}: {v}");
    assert!(
        v.to_string().contains("two different tiles still left"),
        "{v}"
    );
    eprintln!("refused: {}", v["errors"][0]["message"]);
    assert_eq!(plies(&mid), 2);

    // The store deals a seeded game: its recorder enters moves, never outcomes.
    let v = gql(&server, None, "mutation { createGame(kind: FIVE_TRIBES, players: [\"a\", \"b\"], seed: \"5\") { game { id plies } recorderToken } }", json!({}));
    let c = &data(&v)["createGame"];
    let (sid, srec) = (
        c["game"]["id"].as_str().unwrap(),
        c["recorderToken"].as_str().unwrap(),
    );
    let v = record(&server, srec, sid, 1, "dealer", &deal);
    assert_eq!(code(&v), "ILLEGAL_MOVE", "{v}");
    assert!(v.to_string().contains("dealt by the store"), "{v}");
    // A table game has no seed.
    let v = gql(&server, None, "mutation { createGame(kind: FIVE_TRIBES, players: [\"a\", \"b\"], seed: \"5\", dealing: TABLE) { recorderToken } }", json!({}));
    assert_eq!(code(&v), "BAD_INPUT", "{v}");
}
