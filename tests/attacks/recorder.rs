//! Defect 8: the recorder could confirm a seat's hidden move. It sees seat 0's secret choice
//! as `hidden`, yet `recordEntry(actor: "0", idempotencyKey: <seat 0's key>)` answered
//! `replayed: true` for the right guess and "reused for a different move" for a wrong one. A
//! key belongs to whoever entered the move under it: anyone else gets one answer, whatever
//! it guesses, and nothing is written.

use crate::common::*;
use serde_json::{json, Value};

/// A random two-player Mombasa game as `ludolog simulate --log` plays it: every entry as
/// (actor, notation), dealer entries included (a table's recorder types those in).
fn simulated_mombasa(seed: u64) -> Vec<(String, String)> {
    let out = std::process::Command::new(ludolog())
        .args([
            "simulate",
            "--game",
            "mombasa",
            "--players",
            "2",
            "--games",
            "1",
        ])
        .args(["--log", "--seed", &seed.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr)
        .unwrap()
        .lines()
        .skip(1) // the game's seed
        .map(|l| {
            let (a, n) = l.split_once(' ').unwrap();
            (a.to_string(), n.to_string())
        })
        .collect()
}

const RECORD: &str = "mutation($id: ID!, $p: Int!, $a: String!, $n: String!, $k: String) { recordEntry(gameId: $id, expectedPly: $p, actor: $a, notation: $n, idempotencyKey: $k) { replayed game { plies } } }";

fn record(
    server: &Server,
    token: &str,
    id: &str,
    ply: usize,
    actor: &str,
    n: &str,
    key: Option<&str>,
) -> Value {
    gql(
        server,
        Some(token),
        RECORD,
        json!({ "id": id, "p": ply, "a": actor, "n": n, "k": key }),
    )
}

/// A Mombasa game at a real table: its recorder types in the deal; seat 0 keeps a start tile
/// (a hidden choice) with its own token and key. The recorder, who sees that entry as
/// `hidden`, sends seat 0's move under seat 0's key — with the right guess, a wrong one, and
/// something that is no move at a later ply: each answer is the same error, word for word,
/// and nothing is written. Seat 0's own retry is still recognised.
#[test]
fn the_recorder_cannot_confirm_a_seats_hidden_move_through_its_idempotency_key() {
    let server = Server::start(&["--no-samples"]);
    let v = gql(
        &server,
        None,
        "mutation($o: JSON) { createGame(kind: MOMBASA, players: [\"Ana\", \"Bruno\"], options: $o, dealing: TABLE) { game { id } seatTokens recorderToken } }",
        json!({ "o": { "players": 2 } }),
    );
    let c = &data(&v)["createGame"];
    let id = c["game"]["id"].as_str().unwrap().to_string();
    let seats: Vec<String> = serde_json::from_value(c["seatTokens"].clone()).unwrap();
    let recorder = c["recorderToken"].as_str().unwrap().to_string();

    // The recorder types in everything before seat 0's first choice (the deal and draws).
    let entries = simulated_mombasa(11);
    let at = entries.iter().position(|(a, _)| a == "0").unwrap();
    for (ply, (actor, notation)) in entries[..at].iter().enumerate() {
        let v = record(&server, &recorder, &id, ply, actor, notation, None);
        assert_eq!(data(&v)["recordEntry"]["game"]["plies"], ply + 1, "{v}");
    }
    let legal = gql(
        &server,
        Some(&seats[0]),
        "query($id: ID!) { game(id: $id) { position { legalMoves { moves } } } }",
        json!({ "id": id }),
    );
    let legal: Vec<String> =
        serde_json::from_value(data(&legal)["game"]["position"]["legalMoves"]["moves"].clone())
            .unwrap();
    let right = entries[at].1.clone();
    let wrong = legal.iter().find(|m| **m != right).unwrap().clone();
    assert!(
        right.starts_with("keep ") && legal.contains(&right),
        "{right} of {legal:?}"
    );

    // Seat 0 keeps its tile, with its own token and key.
    const PLAY: &str = "mutation($id: ID!, $p: Int!, $m: String!, $k: String) { playMove(gameId: $id, expectedPly: $p, move: $m, idempotencyKey: $k) { replayed game { plies } } }";
    let play = || {
        gql(
            &server,
            Some(&seats[0]),
            PLAY,
            json!({ "id": id, "p": at, "m": right, "k": "seat-0-keeps" }),
        )
    };
    let first = play();
    assert_eq!(data(&first)["playMove"]["replayed"], false, "{first}");
    let after = stored_entries(&server, &id);
    assert_eq!(after.len(), at + 1);
    let seen_by_recorder = gql(
        &server,
        Some(&recorder),
        "query($id: ID!, $a: String) { game(id: $id) { moves(first: 1, after: $a) { nodes { move } } } }",
        json!({ "id": id, "a": at.to_string() }),
    );
    assert_eq!(
        data(&seen_by_recorder)["game"]["moves"]["nodes"][0]["move"],
        "hidden",
        "the recorder does not see the choice"
    );

    // The recorder's guesses under seat 0's key: one answer for all.
    let guesses = [
        record(
            &server,
            &recorder,
            &id,
            at,
            "0",
            &right,
            Some("seat-0-keeps"),
        ),
        record(
            &server,
            &recorder,
            &id,
            at,
            "0",
            &wrong,
            Some("seat-0-keeps"),
        ),
        record(
            &server,
            &recorder,
            &id,
            at + 1,
            "0",
            "no such move",
            Some("seat-0-keeps"),
        ),
    ];
    for g in &guesses {
        assert_eq!(code(g), "IDEMPOTENCY_KEY_TAKEN", "{g}");
        assert!(g["data"].is_null(), "{g}");
        assert_eq!(
            g["errors"], guesses[0]["errors"],
            "the same answer to every guess"
        );
    }
    assert_eq!(stored_entries(&server, &id), after, "nothing written");

    // Seat 0's own retry is still its own.
    let again = play();
    assert_eq!(data(&again)["playMove"]["replayed"], true, "{again}");
    assert_eq!(
        data(&again)["playMove"]["game"],
        data(&first)["playMove"]["game"]
    );
    assert_eq!(stored_entries(&server, &id), after, "nothing written");
}
