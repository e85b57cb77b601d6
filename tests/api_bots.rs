//! The server playing seats itself (`createGame(bots: …)`), driven from outside over HTTP:
//! a person plays one seat through the API while the server's bot plays the other to the end
//! (Five Tribes, turn by turn; Mombasa, with its simultaneous planning); a takeback the bot
//! accepts at once; an all-bot game
//! interrupted by a kill -9 plays on after the restart; every refusal is typed and writes
//! nothing.
mod common;
use common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const CREATE: &str = "mutation($k: GameKind!, $p: [String!]!, $s: String, $b: [BotSeat!]) { createGame(kind: $k, players: $p, seed: $s, bots: $b) { game { id players } seatTokens } }";

fn create(server: &Server, kind: &str, players: &[&str], bots: Value) -> Value {
    gql(
        server,
        None,
        CREATE,
        json!({ "k": kind, "p": players, "s": "7", "b": bots }),
    )
}

fn game(server: &Server, id: &str) -> Value {
    let v = gql(
        server,
        None,
        "query($id: ID!) { game(id: $id) { status plies position { seatsToAct } } }",
        json!({ "id": id }),
    );
    data(&v)["game"].clone()
}

/// Every entry of a game: (actor, enteredBy).
fn entered(server: &Server, id: &str) -> Vec<(String, Option<String>)> {
    stored_nodes(server, id, "actor enteredBy")
        .into_iter()
        .map(|n| {
            (
                n["actor"].as_str().unwrap().to_string(),
                n["enteredBy"].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// Games being played (the samples a fresh server loads are finished).
fn games_stored(server: &Server) -> usize {
    let v = gql(
        server,
        None,
        "{ games(status: ACTIVE, first: 100) { edges { node { id } } } }",
        json!({}),
    );
    data(&v)["games"]["edges"].as_array().unwrap().len()
}

/// Plays seat 0 by hand (its first legal move each time it is to act) until the game ends;
/// the bot on seat 1 must answer every time. A guard, not a timing: a bot that never moves
/// fails here instead of hanging the suite.
fn play_against_the_bot(server: &Server, id: &str, token: &str) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut mine = 0;
    loop {
        let g = game(server, id);
        if g["status"] == "FINISHED" {
            return mine;
        }
        assert!(Instant::now() < deadline, "the bot stopped moving: {g}");
        let to_act: Vec<u64> = g["position"]["seatsToAct"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        if !to_act.contains(&0) {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        match play_first_as(server, id, token, g["plies"].as_u64().unwrap()) {
            Ok(Some(_)) => mine += 1,
            Ok(None) => panic!("seat 0 is to act with no move: {g}"),
            // The bot (a simultaneous step) moved between the read and the move: read again.
            Err(code) => assert_eq!(code, "VERSION_CONFLICT"),
        }
    }
}

#[test]
fn the_server_plays_a_bot_seat_to_the_end_while_a_person_plays_through_the_api() {
    let server = Server::start(&[]);
    for kind in ["FIVE_TRIBES", "MOMBASA"] {
        let v = create(
            &server,
            kind,
            &["alice", ""],
            json!([{ "seat": 1, "level": "mcts:20" }]),
        );
        let c = &data(&v)["createGame"];
        assert_eq!(c["game"]["players"], json!(["alice", "mcts:20"]));
        assert!(c["seatTokens"][0].is_string());
        assert!(c["seatTokens"][1].is_null(), "no token opens a bot's seat");
        let id = c["game"]["id"].as_str().unwrap();
        let mine = play_against_the_bot(&server, id, c["seatTokens"][0].as_str().unwrap());
        let entries = entered(&server, id);
        let bot: Vec<_> = entries.iter().filter(|(a, _)| a == "1").collect();
        let person: Vec<_> = entries.iter().filter(|(a, _)| a == "0").collect();
        assert_eq!(
            person.len() as u32,
            mine,
            "{kind}: every move of seat 0 is alice's"
        );
        assert!(
            bot.len() >= 10,
            "{kind}: the bot played {} moves",
            bot.len()
        );
        assert!(
            bot.iter().all(|(_, by)| by.as_deref() == Some("bot")),
            "{kind}: {bot:?}"
        );
        assert!(person.iter().all(|(_, by)| by.as_deref() == Some("0")));
    }
    let metrics = ureq::get(&format!("{}/metrics", server.url))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    assert!(metrics.contains("ludolog_bot_errors_total 0"), "{metrics}");
    assert!(
        !metrics.contains("ludolog_bot_moves_total 0\n"),
        "{metrics}"
    );
}

/// A person's takeback in a game against the server's bot waits on no one: the bot accepts at
/// once (the journal shows its acceptance), the line is taken back, and the person is to act
/// again where the withdrawn move was. A takeback over a chance entry is still refused.
#[test]
fn a_takeback_against_a_bot_is_accepted_by_the_bot() {
    let server = Server::start(&[]);
    let v = create(
        &server,
        "FIVE_TRIBES",
        &["alice", ""],
        json!([{ "seat": 1, "level": "mcts:20" }]),
    );
    let c = &data(&v)["createGame"];
    let id = c["game"]["id"].as_str().unwrap();
    let token = c["seatTokens"][0].as_str().unwrap();
    let ask = "mutation($id: ID!, $t: Int!) { askTakeback(gameId: $id, toPly: $t) { game { plies } takeback { askedBy toPly acceptedBy status } } }";
    let deadline = Instant::now() + Duration::from_secs(300);
    // The ply of alice's last move, and whether a takeback to it was asked already.
    let mut last: Option<(u64, bool)> = None;
    let mut refused = 0;
    loop {
        assert!(Instant::now() < deadline, "the bot stopped moving");
        let g = game(&server, id);
        assert_ne!(
            g["status"], "FINISHED",
            "no takeback carried out in a whole game"
        );
        let plies = g["plies"].as_u64().unwrap();
        if !g["position"]["seatsToAct"]
            .as_array()
            .unwrap()
            .contains(&json!(0))
        {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        if let Some((at, false)) = last.filter(|&(at, _)| at + 1 < plies) {
            last = Some((at, true));
            let v = gql(&server, Some(token), ask, json!({ "id": id, "t": at }));
            if v.get("errors").is_some() {
                // A deal or draw lies between: nobody may withdraw it.
                assert_eq!(code(&v), "TAKEBACK_REFUSED", "{v}");
                refused += 1;
                continue;
            }
            let t = &data(&v)["askTakeback"];
            assert_eq!(t["takeback"]["status"], "WITHDRAWN", "{v}");
            assert_eq!(t["takeback"]["acceptedBy"], json!([1]), "{v}");
            assert_eq!(t["game"]["plies"], at, "{v}");
            let g = game(&server, id);
            assert_eq!(g["plies"], at, "{g}");
            assert_eq!(g["position"]["seatsToAct"], json!([0]), "{g}");
            let w = gql(
                &server,
                None,
                "query($id: ID!) { game(id: $id) { takebacks { askedBy acceptedBy status } } }",
                json!({ "id": id }),
            );
            assert_eq!(
                data(&w)["game"]["takebacks"],
                json!([{ "askedBy": "0", "acceptedBy": [1], "status": "WITHDRAWN" }]),
                "{w}"
            );
            assert!(refused < 50, "{refused} refused first");
            break;
        }
        match play_first_as(&server, id, token, plies) {
            Ok(Some(_)) => last = Some((plies, false)),
            Ok(None) => panic!("seat 0 is to act with no move: {g}"),
            Err(code) => assert_eq!(code, "VERSION_CONFLICT"),
        }
    }
}

#[test]
fn a_game_of_bots_plays_on_after_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let mut server = Server::start_in(Some(&store), &[]);
    let v = create(
        &server,
        "FIVE_TRIBES",
        &["", ""],
        json!([{ "seat": 0, "level": "mcts:30" }, { "seat": 1, "level": "greedy" }]),
    );
    let id = data(&v)["createGame"]["game"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Let the bots make a few moves, then kill the server in the middle of the game.
    let deadline = Instant::now() + Duration::from_secs(120);
    while game(&server, &id)["plies"].as_u64().unwrap() < 6 {
        assert!(Instant::now() < deadline, "the bots did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    unsafe { libc::kill(server.pid() as i32, libc::SIGKILL) };
    let _ = server.child.wait();
    server = Server::start_in(Some(&store), &[]);
    assert_eq!(
        game(&server, &id)["status"],
        "ACTIVE",
        "the kill came in the middle of the game"
    );
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let g = game(&server, &id);
        if g["status"] == "FINISHED" {
            break;
        }
        assert!(Instant::now() < deadline, "the bots did not play on: {g}");
        std::thread::sleep(Duration::from_millis(50));
    }
    let entries = entered(&server, &id);
    assert!(entries
        .iter()
        .filter(|(a, _)| a != "dealer")
        .all(|(_, by)| by.as_deref() == Some("bot")));
}

#[test]
fn refused_bots_are_typed_errors_and_write_nothing() {
    let server = Server::start(&["--bot-max-iterations", "1000"]);
    let cases = [
        (
            vec!["alice", ""],
            json!([{ "seat": 1, "level": "alphazero" }]),
            "UNKNOWN_BOT",
        ),
        (
            vec!["alice", ""],
            json!([{ "seat": 1, "level": "mcts:1001" }]),
            "BOT_BUDGET",
        ),
        (
            vec!["alice", ""],
            json!([{ "seat": 1, "level": "mcts:999999999" }]),
            "BOT_BUDGET",
        ),
        (
            vec!["alice", "bob"],
            json!([{ "seat": 1, "level": "random" }]),
            "SEAT_TAKEN",
        ),
        (
            vec!["alice", ""],
            json!([{ "seat": 1, "level": "random" }, { "seat": 1, "level": "greedy" }]),
            "SEAT_TAKEN",
        ),
        (
            vec!["alice", ""],
            json!([{ "seat": 2, "level": "random" }]),
            "BAD_INPUT",
        ),
    ];
    for (players, bots, want) in cases {
        let v = create(&server, "FIVE_TRIBES", &players, bots.clone());
        assert_eq!(code(&v), want, "{bots}: {v}");
        assert!(v["errors"][0]["message"].as_str().unwrap().len() > 10);
    }
    assert_eq!(games_stored(&server), 0, "a refused game is not written");
    let off = Server::start(&["--bot-threads", "0"]);
    let v = create(
        &off,
        "FIVE_TRIBES",
        &["alice", ""],
        json!([{ "seat": 1, "level": "random" }]),
    );
    assert_eq!(code(&v), "BOTS_DISABLED");
    assert_eq!(games_stored(&off), 0);
}
