//! Every resolver of `Game` and `Position` answers at every kind of ply — 0 (before the deal),
//! a chance node, a seat's turn, the last — of a finished and an active game of every kind,
//! for a spectator and for every seat. No answer may be an `INTERNAL` error (a panic caught by
//! the net is still a defect), and no request may come back without `data`.

mod common;

use api::ApiConfig;
use common::{codes, Service};
use serde_json::{json, Value};

/// Every field of `Game` (besides the nested position) and of `Position`.
const QUERY: &str = r#"
query($id: ID!, $ply: Int) {
  game(id: $id) {
    id kind players options seed status plies rulesVersion dataHash createdAt updatedAt mySeat
    moves(first: 5) { edges { cursor node { ply actor move recordedAt } } pageInfo { hasNextPage } }
    outcome { winners scores { seat total breakdown { category points } } }
    replay(fromPly: 0, toPly: 3) { ply actor move patch }
    position(ply: $ply) {
      ply round phase seatsToAct toAct { kind seat } view stateHash
      scores { seat total breakdown { category points } }
      legalMoves(first: 3) { total moves }
    }
  }
}"#;

/// The plies worth asking about: 0, the first chance node after it, the first seat's turn,
/// the middle and the last.
fn plies_of(s: &Service, id: &str) -> Vec<u32> {
    let v = s.run(
        None,
        "query($id: ID!) { game(id: $id) { plies } }",
        json!({ "id": id }),
    );
    let last = v["data"]["game"]["plies"].as_u64().unwrap() as u32;
    let mut out = vec![0, last / 2, last];
    let mut seen_seat = false;
    let mut seen_chance = false;
    for p in 1..last.min(60) {
        let v = s.run(
            None,
            "query($id: ID!, $p: Int) { game(id: $id) { position(ply: $p) { toAct { kind } } } }",
            json!({ "id": id, "p": p }),
        );
        match v["data"]["game"]["position"]["toAct"]["kind"].as_str() {
            Some("CHANCE") if !seen_chance => {
                seen_chance = true;
                out.push(p);
            }
            Some("SEAT") if !seen_seat => {
                seen_seat = true;
                out.push(p);
            }
            _ => {}
        }
    }
    out.sort();
    out.dedup();
    out
}

fn check(v: &Value, what: &str) {
    assert!(!v["data"].is_null(), "{what}: no data: {v}");
    let codes = codes(v);
    assert!(
        !codes.iter().any(|c| c == "INTERNAL" || c == "<none>"),
        "{what}: {v}"
    );
}

#[test]
fn every_resolver_answers_at_every_kind_of_ply_for_every_perspective() {
    let s = Service::new(1, ApiConfig::default());
    let mut asked = 0;
    for (kind, players) in [
        ("five-tribes", 3),
        ("clans-of-caledonia", 2),
        ("mombasa", 3),
    ] {
        let finished = s.game_id(kind, "finished");
        let (active, tokens) = s.live_game(kind, players, 42, 40);
        for (id, tokens) in [(finished, Vec::new()), (active, tokens)] {
            for ply in plies_of(&s, &id) {
                let perspectives = std::iter::once(None).chain(tokens.iter().map(Some));
                for token in perspectives {
                    let v = s.run(
                        token.map(String::as_str),
                        QUERY,
                        json!({ "id": id, "ply": ply }),
                    );
                    check(&v, &format!("{kind} {id} ply {ply} token {token:?}"));
                    asked += 1;
                }
            }
        }
    }
    assert!(asked >= 3 * (4 + 4 * 3), "asked {asked} times");
}

/// An error in a non-null field nulls its nearest nullable parent, as the GraphQL spec says,
/// and the error's path names the field.
#[test]
fn an_error_nulls_the_nearest_nullable_parent() {
    let s = Service::new(1, ApiConfig::default());
    let id = s.game_id("mombasa", "finished");
    let v = s.run(
        None,
        "query($id: ID!) { game(id: $id) { id position(ply: 9999) { ply } } rules { kind } }",
        json!({ "id": id }),
    );
    assert_eq!(codes(&v), vec!["BAD_INPUT".to_string()], "{v}");
    assert!(
        v["data"]["game"].is_null(),
        "`position` is non-null: `game` is nulled: {v}"
    );
    assert_eq!(v["errors"][0]["path"], json!(["game", "position"]));
    assert_eq!(
        v["data"]["rules"].as_array().unwrap().len(),
        3,
        "siblings stand: {v}"
    );
}

/// Bad input names what would have been valid, and writes nothing.
#[test]
fn bad_input_names_the_valid_values() {
    let s = Service::new(1, ApiConfig::default());
    let games = |s: &Service| {
        s.run(
            None,
            "{ games(first: 100) { edges { cursor } } }",
            json!({}),
        )["data"]["games"]["edges"]
            .as_array()
            .unwrap()
            .len()
    };
    let before = games(&s);
    let cases = [
        (
            "mutation { createGame(kind: MOMBASA, players: [\"a\", \"b\"], options: { colour: 1 }) { seatTokens } }",
            "BAD_INPUT",
            "first_game",
        ),
        (
            "mutation { createGame(kind: FIVE_TRIBES, players: [\"a\"]) { seatTokens } }",
            "BAD_INPUT",
            "2",
        ),
        ("{ games(first: 2, after: \"not a cursor\") { edges { cursor } } }", "BAD_INPUT", "cursor"),
        ("{ game(id: \"nope\") { id } }", "BAD_INPUT", "Crockford"),
        ("{ games(kind: CHESS) { edges { cursor } } }", "BAD_QUERY", "GameKind"),
    ];
    for (q, code, names) in cases {
        let v = s.run(None, q, json!({}));
        assert_eq!(codes(&v), vec![code.to_string()], "{q}: {v}");
        assert!(v.to_string().contains(names), "{q}: names {names}: {v}");
    }
    let id = s.game_id("five-tribes", "finished");
    let v = s.run(
        None,
        "query($id: ID!) { game(id: $id) { position { view(seat: 9) } } }",
        json!({ "id": id }),
    );
    assert_eq!(codes(&v), vec!["BAD_INPUT".to_string()], "{v}");
    assert!(v.to_string().contains("seats 0 to"), "{v}");
    assert_eq!(games(&s), before, "nothing was written");
}
