//! Finished games to correct, for the tests of corrections: a game played to its end over
//! HTTP, its record read back, and an entry of it that can be corrected, found by replaying
//! the record locally with the rules.

use super::{data, gql, play_first, Server};
use rules_core::{Actor, Erased, GameState, Registry, Seat, ToAct};
use serde_json::{json, Value};

/// A finished two-player Five Tribes game played over HTTP by players with unique names.
pub fn finished_game(server: &Server, names: [&str; 2]) -> String {
    let v = gql(
        server,
        None,
        "mutation($p: [String!]!) { createGame(kind: FIVE_TRIBES, players: $p, seed: \"31\") { game { id } seatTokens } }",
        json!({ "p": names }),
    );
    let c = &data(&v)["createGame"];
    let id = c["game"]["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = serde_json::from_value(c["seatTokens"].clone()).unwrap();
    while play_first(server, &id, &tokens).unwrap().is_some() {}
    id
}

/// The game's log: (actor, notation) of each entry, and its options.
pub fn log(server: &Server, id: &str, revision: Option<i64>) -> (Vec<(Actor, String)>, Value) {
    let v = gql(
        server,
        None,
        "query($id: ID!, $r: Int) { game(id: $id, revision: $r) { options replay { actor notation: move } } }",
        json!({ "id": id, "r": revision }),
    );
    let g = &data(&v)["game"];
    let entries = g["replay"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let actor = match f["actor"].as_str().unwrap() {
                "dealer" => Actor::Dealer,
                s => Actor::Seat(Seat(s.parse().unwrap())),
            };
            (actor, f["notation"].as_str().unwrap().to_string())
        })
        .collect();
    (entries, g["options"].clone())
}

pub fn replay(options: &Value, entries: &[(Actor, String)]) -> Box<dyn GameState> {
    let registry = Registry::new().with(Erased::<five_tribes::FiveTribes>::new());
    let rules = registry.get(rules_core::GameKind::FiveTribes).unwrap();
    let mut state = rules.new_game(options).unwrap();
    for (a, n) in entries {
        state.apply(*a, n).unwrap();
    }
    state
}

/// A seat's entry whose change to another legal move still replays to the end with other
/// final scores, searched from the end: (entry number from 1, new text).
pub fn correctable(options: &Value, entries: &[(Actor, String)]) -> (usize, String) {
    let end = replay(options, entries).outcome().unwrap();
    for (i, (actor, was)) in entries.iter().enumerate().rev() {
        if *actor == Actor::Dealer {
            continue;
        }
        let before = replay(options, &entries[..i]);
        for m in before.legal_moves() {
            if &m == was {
                continue;
            }
            let mut state = before.clone();
            let ok = state.apply(*actor, &m).is_ok()
                && entries[i + 1..]
                    .iter()
                    .all(|(a, n)| state.to_act() != ToAct::Over && state.apply(*a, n).is_ok());
            if ok && state.to_act() == ToAct::Over && state.outcome().unwrap().scores != end.scores
            {
                return (i + 1, m);
            }
        }
    }
    panic!("no entry of the game can be corrected to other final scores");
}

/// Asks `correctGame` to give entry `ply` (from 1) the text `notation`.
pub fn correct(server: &Server, token: Option<&str>, id: &str, ply: i64, notation: &str) -> Value {
    gql(
        server,
        token,
        "mutation($id: ID!, $c: [CorrectionInput!]!) { correctGame(gameId: $id, corrections: $c, reason: \"the score sheet says otherwise\") { game { revision } revision { number author reason changes { ply actor was now } } } }",
        json!({ "id": id, "c": [{ "ply": ply, "notation": notation }] }),
    )
}
