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
